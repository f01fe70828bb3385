#!/usr/bin/env node
// Builds the native addon (native/, cmake-js) and records the outcome in
// native/build/status.json, which src/backends/native/addon.ts reads to say
// why the native backend is missing.
//
//   node scripts/build-native.mjs             postinstall: try; never fails the install.
//                                             Prints one line: built, or what is missing
//                                             and the command that installs it.
//   node scripts/build-native.mjs --required  npm run build:native: full output, exit 1 on failure.
//   add --clean to reconfigure from scratch.
//
// RLX_SKIP_NATIVE=1 skips the build (status records why); RLX_NATIVE_BUILD_DIR
// builds somewhere other than native/build. The GPL parts are optional:
//   RLX_NO_FFTW=1      without FFTW (the fft kernels on 'native' are then the TS ones)
//                      even when it is installed;
//   RLX_NO_UMFPACK=1   without UMFPACK (splu and the default sparse LU are then KLU;
//                      an explicit UMFPACK control is a DeviceError);
//   RLX_NO_GPL=1       both.
// status.json's leftOut lists the parts left out on request ('fftw', 'umfpack').

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const nativeDir = join(root, 'native');
// RLX_NATIVE_BUILD_DIR moves the build (and status.json) elsewhere; the loader honours it too.
const buildDir = process.env.RLX_NATIVE_BUILD_DIR ? resolve(process.env.RLX_NATIVE_BUILD_DIR) : join(nativeDir, 'build');
const statusPath = join(buildDir, 'status.json');
const logPath = join(buildDir, 'build.log');
const addonPath = join(buildDir, 'Release', 'rlx_native.node');
/** A path as printed: relative to the package root when inside it. */
const shown = (p) => (relative(root, p).startsWith('..') ? p : relative(root, p));
const required = process.argv.includes('--required');
const clean = process.argv.includes('--clean');
const INSTALL_HINT = 'run: sudo scripts/install-system-deps.sh';

function writeStatus(status) {
  mkdirSync(buildDir, { recursive: true });
  writeFileSync(statusPath, JSON.stringify({ ...status, node: process.version, platform: `${process.platform}-${process.arch}`, time: new Date().toISOString() }, null, 2) + '\n');
}

/** Records a skipped/failed build, prints one line, exits (0 unless --required). */
function giveUp(reason) {
  writeStatus({ built: false, reason });
  console.log(`rlx: native addon not built: ${reason}${required ? '' : '; the js backend serves'}`);
  process.exit(required ? 1 : 0);
}

const PLATFORM_PACKAGE = '@rlx/native-linux-x64';

/**
 * Whether the platform package (scripts/prebuild.mjs) is installed next to
 * this rlx with its version and its addon loads in a child Node (the same
 * checks as the loader, src/backends/native/addon.ts): {ok, path} or {ok: false, why?}.
 */
function platformPackageLoads() {
  let dir;
  try {
    dir = dirname(createRequire(join(root, 'package.json')).resolve(`${PLATFORM_PACKAGE}/package.json`));
  } catch {
    return { ok: false };
  }
  const ours = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
  const theirs = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  if (theirs !== ours) return { ok: false, why: `version ${theirs}, rlx is ${ours}` };
  const path = join(dir, 'rlx_native.node');
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(path)}).version()`], { encoding: 'utf8' });
  if (r.status !== 0) return { ok: false, why: (r.stderr.split('\n').find((l) => /Error/.test(l)) ?? `exit ${r.status}`).trim() };
  return { ok: true, path };
}

/** First executable named `name` on PATH, or null. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

if (process.env.RLX_SKIP_NATIVE === '1') giveUp('skipped (RLX_SKIP_NATIVE=1)');
// postinstall with the prebuilt platform package installed (and loading here): nothing
// to build, no compiler needed. npm run build:native (--required) still builds.
if (!required && !process.env.RLX_NATIVE_PATH) {
  const prebuilt = platformPackageLoads();
  if (prebuilt.ok) {
    writeStatus({ built: false, reason: `not needed: the prebuilt ${PLATFORM_PACKAGE} serves (${shown(prebuilt.path)})` });
    console.log(`rlx: native addon from the prebuilt ${PLATFORM_PACKAGE}; no local build needed`);
    process.exit(0);
  }
  if (prebuilt.why) console.log(`rlx: the prebuilt ${PLATFORM_PACKAGE} does not load here (${prebuilt.why}); building locally`);
}
if (!existsSync(join(nativeDir, 'CMakeLists.txt'))) giveUp('native/ sources are not present in this install');

// Tools first: cmake and a C++ compiler.
const missingTools = [];
if (!onPath('cmake')) missingTools.push('cmake');
// cmake-js itself looks for g++ or clang++ by name.
const cxx = ['g++', 'clang++'].find(onPath);
if (!cxx) missingTools.push('a C++ compiler (g++)');
if (!onPath('make') && !onPath('ninja')) missingTools.push('make');
if (missingTools.length) giveUp(`${missingTools.join(', ')} missing (${INSTALL_HINT})`);

const require = createRequire(join(root, 'package.json'));
let cmakeJs;
try {
  cmakeJs = join(dirname(require.resolve('cmake-js/package.json')), 'bin', 'cmake-js');
  require.resolve('node-addon-api');
} catch {
  giveUp('the npm packages cmake-js and node-addon-api are not installed (run: npm install)');
}

const jobs = Math.max(1, Math.min(cpus().length, 8));
if (clean) rmSync(buildDir, { recursive: true, force: true });
mkdirSync(buildDir, { recursive: true });
// RLX_FFTW / RLX_UMFPACK: passed to a first configure; cmake-js does not
// configure an existing build again, so a build configured the other way is
// reconfigured here first (dropping RLX_NO_FFTW turns FFTW back on, and so on).
const noGpl = process.env.RLX_NO_GPL === '1';
const options = {
  RLX_FFTW: noGpl || process.env.RLX_NO_FFTW === '1' ? 'OFF' : 'ON',
  RLX_UMFPACK: noGpl || process.env.RLX_NO_UMFPACK === '1' ? 'OFF' : 'ON',
};
const leftOut = [...(options.RLX_FFTW === 'OFF' ? ['fftw'] : []), ...(options.RLX_UMFPACK === 'OFF' ? ['umfpack'] : [])];
const cachePath = join(buildDir, 'CMakeCache.txt');
if (existsSync(cachePath)) {
  const cache = readFileSync(cachePath, 'utf8');
  const changed = Object.entries(options).filter(([name, want]) => (new RegExp(`^${name}:BOOL=(\\w+)$`, 'm').exec(cache)?.[1] ?? 'ON') !== want);
  if (changed.length) {
    const code = await new Promise((done) => {
      const child = spawn('cmake', [...changed.map(([name, want]) => `-D${name}=${want}`), buildDir], { cwd: root, stdio: required ? 'inherit' : 'ignore' });
      child.on('error', () => done(1));
      child.on('close', (c) => done(c ?? 1));
    });
    if (code !== 0) giveUp(`reconfiguring ${shown(buildDir)} with ${changed.map(([name, want]) => `${name}=${want}`).join(', ')} failed`);
  }
}
const args = [cmakeJs, 'compile', '-d', nativeDir, '-O', buildDir, '-p', String(jobs), ...Object.entries(options).map(([name, want]) => `--CD${name}=${want}`)];

// The whole output goes to build.log; with --required the terminal sees it live too.
const started = Date.now();
const logChunks = [];
const status = await new Promise((done) => {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => (logChunks.push(d), required && process.stdout.write(d)));
  child.stderr.on('data', (d) => (logChunks.push(d), required && process.stderr.write(d)));
  child.on('error', (e) => (logChunks.push(Buffer.from(String(e))), done(1)));
  child.on('close', (code) => done(code ?? 1));
});
writeFileSync(logPath, Buffer.concat(logChunks));
const log = Buffer.concat(logChunks).toString('utf8');

if (status !== 0 || !existsSync(addonPath)) {
  // CMakeLists.txt names the Debian packages of the libraries it could not find.
  // (CMake wraps long messages over several lines.)
  const m = /rlx: missing system libraries:\s+([^(]+?)\s*\(run/.exec(log);
  if (m) giveUp(`${m[1].trim().split(/\s+/).join(', ')} missing (${INSTALL_HINT})`);
  giveUp(`the build failed (log: ${shown(logPath)})`);
}

const seconds = Math.round((Date.now() - started) / 100) / 10;
writeStatus({ built: true, addon: shown(addonPath), seconds, leftOut });
console.log(`rlx: native addon built (${shown(addonPath)}, ${seconds} s${leftOut.length ? `; left out on request: ${leftOut.join(', ')}` : ''})`);
