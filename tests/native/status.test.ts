// Whether the addon is there and why not: nativeStatus(), what backends()
// reports for 'native', and the build script's one-line report and
// status.json when tools or libraries are missing (run in a scratch build
// directory with a PATH that lacks them, or with a stand-in cmake that fails
// the way native/CMakeLists.txt does when a library is missing).

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon, nativeStatus } from '../../src/backends/native/addon.js';
import { describeNative, REQUIRE_NATIVE } from './native-harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'rlx-native-status-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs scripts/build-native.mjs with a given PATH and a scratch build dir. */
function runBuild(path: string, buildDir: string, args: string[] = []) {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'build-native.mjs'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { HOME: process.env['HOME'] ?? '/tmp', PATH: path, RLX_NATIVE_BUILD_DIR: buildDir },
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr, status: JSON.parse(readFileSync(join(buildDir, 'status.json'), 'utf8')) as { built: boolean; reason?: string } };
}

/** nativeStatus() as a fresh import sees it under extra environment variables. */
async function freshStatus(env: Record<string, string>) {
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    vi.resetModules();
    const m = await import('../../src/backends/native/addon.js');
    return m.nativeStatus();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    vi.resetModules();
  }
}

describe('native addon status', () => {
  it('nativeStatus() says whether the addon loaded, and gives a reason string when it did not', () => {
    const s = nativeStatus();
    expect(typeof s.available).toBe('boolean');
    if (s.available) expect(s.reason).toBeUndefined();
    else expect(s.reason).toMatch(/^(not built: |built but failed to load |RLX_NATIVE_PATH=)/);
    // Under RLX_REQUIRE_NATIVE=1 a missing addon is a failure, with the reason.
    if (REQUIRE_NATIVE) expect(s, `RLX_REQUIRE_NATIVE=1 but: ${s.reason}`).toMatchObject({ available: true });
  });

  it("backends() lists 'native' as a device when the addon is built, else with the addon's state as the reason", () => {
    const native = rlx.backends().find((b) => b.name === 'native')!;
    const s = nativeStatus();
    if (s.available && process.env['RLX_NATIVE'] !== '0') expect(native.available).toBe(true);
    else expect(native.reason).toBe(s.available ? 'native addon built but disabled (RLX_NATIVE=0)' : `native addon ${s.reason}`);
  });

  it('without cmake or a compiler, the build script prints one line, exits 0 and records why', () => {
    const dir = join(scratch, 'no-tools');
    const r = runBuild(join(scratch, 'empty-bin'), dir);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual(['rlx: native addon not built: cmake, a C++ compiler (g++), make missing (run: sudo scripts/install-system-deps.sh); the js backend serves']);
    expect(r.status).toMatchObject({ built: false, reason: 'cmake, a C++ compiler (g++), make missing (run: sudo scripts/install-system-deps.sh)' });
    // npm run build:native fails loudly instead.
    expect(runBuild(join(scratch, 'empty-bin'), dir, ['--required']).code).toBe(1);
  });

  it('missing libraries: the packages named by CMakeLists.txt reach the one line, status.json and nativeStatus()', async () => {
    // A stand-in toolchain: cmake answers cmake-js's probes, then fails configure as
    // native/CMakeLists.txt does when OpenBLAS, LAPACKE and SuiteSparse are not found
    // (the message wrapped over two lines, as CMake prints it).
    const bin = join(scratch, 'fake-bin');
    const dir = join(scratch, 'no-libs');
    mkdirSync(bin, { recursive: true });
    const cmake = [
      '#!/bin/sh',
      'case "$*" in',
      '  *capabilities*) echo \'{"generators":[{"name":"Unix Makefiles"}]}\' ;;',
      '  *--version*) echo "cmake version 3.25.1" ;;',
      '  *) echo "CMake Error at CMakeLists.txt:80 (message):" >&2; printf "  rlx: missing system libraries: libopenblas-dev liblapacke-dev\\n  libsuitesparse-dev (run: sudo scripts/install-system-deps.sh)\\n" >&2; exit 1 ;;',
      'esac',
    ].join('\n');
    for (const [name, body] of [['cmake', cmake], ['g++', '#!/bin/sh\nexit 0'], ['make', '#!/bin/sh\nexit 0']] as const) {
      writeFileSync(join(bin, name), body + '\n');
      chmodSync(join(bin, name), 0o755);
    }
    const r = runBuild(bin, dir);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual(['rlx: native addon not built: libopenblas-dev, liblapacke-dev, libsuitesparse-dev missing (run: sudo scripts/install-system-deps.sh); the js backend serves']);
    expect(r.status.reason).toBe('libopenblas-dev, liblapacke-dev, libsuitesparse-dev missing (run: sudo scripts/install-system-deps.sh)');
    const s = await freshStatus({ RLX_NATIVE_BUILD_DIR: dir });
    expect(s).toMatchObject({ available: false, reason: 'not built: libopenblas-dev, liblapacke-dev, libsuitesparse-dev missing (run: sudo scripts/install-system-deps.sh)' });
  });

  it('RLX_NATIVE_PATH pointing nowhere, or at a file that is not an addon, is a reason, not a throw', async () => {
    expect(await freshStatus({ RLX_NATIVE_PATH: join(scratch, 'nope.node') })).toMatchObject({ available: false, reason: expect.stringMatching(/^RLX_NATIVE_PATH=.*nope\.node: no such file$/) });
    const bogus = join(scratch, 'bogus.node');
    writeFileSync(bogus, 'not a shared object');
    expect(await freshStatus({ RLX_NATIVE_PATH: bogus })).toMatchObject({ available: false, reason: expect.stringMatching(/^built but failed to load .*bogus\.node: /) });
    expect(await freshStatus({ RLX_NATIVE_BUILD_DIR: join(scratch, 'never-built') })).toMatchObject({ available: false, reason: expect.stringMatching(/^not built: no build was attempted/) });
  });
});

describeNative('native addon info', () => {
  it('version() is the package version; blasInfo() reports OpenBLAS, its config string and thread count', () => {
    const addon = nativeAddon()!;
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(addon.version()).toBe(pkg.version);
    const info = addon.blasInfo();
    expect(info.vendor).toBe('OpenBLAS');
    expect(info.config).toMatch(/^OpenBLAS \d+\.\d+\.\d+/);
    expect(info.threads).toBeGreaterThanOrEqual(1);
    expect(info.procs).toBeGreaterThanOrEqual(1);
    expect(['sequential', 'pthreads', 'openmp']).toContain(info.parallel);
  });
});

describe('the prebuilt platform package (@rlx/native-linux-x64) as a load candidate', () => {
  // A scratch package root with node_modules/@rlx/native-linux-x64 in it: how
  // platformPackageAddon() resolves it and when it declines. The real package,
  // built by scripts/prebuild.mjs and installed from its tarball, is loaded and
  // checked by scripts/check-packages.mjs in CI.
  const fakeRoot = join(scratch, 'consumer');
  const pkgDir = join(fakeRoot, 'node_modules', '@rlx', 'native-linux-x64');
  const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const setup = (pkgVersion: string, withAddon: boolean) => {
    rmSync(fakeRoot, { recursive: true, force: true });
    mkdirSync(pkgDir, { recursive: true });
    writeFileSync(join(fakeRoot, 'package.json'), '{"name":"consumer","version":"1.0.0"}');
    writeFileSync(join(pkgDir, 'package.json'), JSON.stringify({ name: '@rlx/native-linux-x64', version: pkgVersion }));
    if (withAddon) writeFileSync(join(pkgDir, 'rlx_native.node'), 'stand-in');
  };

  it('not installed: no candidate and nothing to report', async () => {
    const { platformPackageAddon } = await import('../../src/backends/native/addon.js');
    rmSync(fakeRoot, { recursive: true, force: true });
    mkdirSync(fakeRoot, { recursive: true });
    writeFileSync(join(fakeRoot, 'package.json'), '{"name":"consumer","version":"1.0.0"}');
    expect(platformPackageAddon(fakeRoot)).toBeUndefined();
  });

  it("installed with rlx's version and its addon: the candidate is its rlx_native.node", async () => {
    const { platformPackageAddon } = await import('../../src/backends/native/addon.js');
    setup(version, true);
    const onGlibcX64 = process.platform === 'linux' && process.arch === 'x64';
    if (onGlibcX64) expect(platformPackageAddon(fakeRoot)).toEqual({ path: join(pkgDir, 'rlx_native.node') });
    else expect(platformPackageAddon(fakeRoot)).toMatchObject({ skip: expect.stringMatching(/built for linux-x64/) });
  });

  it('another version, or no addon file in it: declined with the reason (never loaded)', async () => {
    const { platformPackageAddon } = await import('../../src/backends/native/addon.js');
    setup('0.0.1-other', true);
    expect(platformPackageAddon(fakeRoot)).toEqual({ skip: `@rlx/native-linux-x64 (${pkgDir}): version 0.0.1-other is not rlx's ${version}` });
    setup(version, false);
    expect(platformPackageAddon(fakeRoot)).toEqual({ skip: `@rlx/native-linux-x64 (${pkgDir}): rlx_native.node is missing` });
  });

  it('in this checkout (no platform package installed) the addon comes from the local build', () => {
    const s = nativeStatus();
    if (s.available && !process.env['RLX_NATIVE_PATH']) expect(s.source).toBe('local build');
    if (REQUIRE_NATIVE) expect(s.available).toBe(true);
  });
});
