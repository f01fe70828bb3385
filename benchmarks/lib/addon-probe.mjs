// Preloaded into a benchmark worker by bundled.mjs (node --import <this file>
// benchmarks/lib/worker.mjs ...) to prove, before the row's set-up and timing,
// that the process runs the native addon it was meant to run. The expectation
// comes in $RLX_ADDON_PROBE as JSON:
//   { variant: 'system' | 'bundled', addon: <abs .node path>, source: <NativeSource>, bundleDir: <abs prebuild dir>,
//     otherDirs?: [other prebuild dirs, e.g. the original of a copied bundleDir] }
// Checks (any failure: a message on stderr, exit 3, so the run is an error and
// never a silent timing of the wrong build):
//   - nativeStatus(): available, from that source and that file;
//   - the native device is registered and is the default device (rows that do
//     not pin a device run on it);
//   - /proc/self/maps: that .node file is mapped; OpenBLAS, LAPACK(E), UMFPACK,
//     CHOLMOD, KLU and FFTW are mapped; 'bundled': every library whose name is
//     one the bundle ships is mapped from <bundleDir>/lib and from nowhere else;
//     'system': nothing is mapped from <bundleDir> or any of otherDirs.
// On success it prints one line on stderr, `RLX_ADDON_PROBE {json}`: the
// status, blasInfo() and every mapped shared library (name → real path), which
// bundled.mjs stores and compares between the two variants.

import { readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const expect = JSON.parse(process.env.RLX_ADDON_PROBE ?? 'null');
if (!expect) {
  process.stderr.write('addon-probe: $RLX_ADDON_PROBE is not set\n');
  process.exit(3);
}

/** 'libopenblasp-r0.3.21.so' → 'openblas', 'libfftw3.so.3.6.10' → 'fftw3', 'libumfpack.so.5' → 'umfpack'. */
export const libStem = (file) => /^lib(.+?)(?:p?-r[0-9.]+)?\.so/.exec(file)?.[1];

// The same module instance the worker imports next (same URL): importing it
// registers the native backend, which loads the addon (src/backends/registry.ts).
const rlx = await import(pathToFileURL(resolve(here, '../../dist/index.js')).href);
const st = rlx.nativeStatus();
const problems = [];
if (!st.available) problems.push(`native addon unavailable: ${st.reason}`);
if (st.source !== expect.source) problems.push(`source '${st.source}', expected '${expect.source}'`);
if (!st.path || resolve(st.path) !== expect.addon) problems.push(`addon ${st.path}, expected ${expect.addon}`);
if (!rlx.backends().some((b) => b.name === 'native' && b.available)) problems.push('no native device registered');
// explain() plans without running anything: the device an unpinned expression would run on.
const device = rlx.explain(rlx.tensor([1, 2]).add(1), { print: false }).device;
if (device !== 'native') problems.push(`an unpinned expression would run on '${device}', not 'native'`);

const mapped = new Set();
for (const line of readFileSync('/proc/self/maps', 'utf8').split('\n')) {
  const path = line.split(/\s+/)[5];
  if (path && path.startsWith('/') && /\.so|\.node$/.test(path)) mapped.add(path);
}
if (!mapped.has(expect.addon)) problems.push(`${expect.addon} is not mapped`);
const libs = {};
for (const p of mapped) {
  const stem = libStem(basename(p));
  if (stem) (libs[stem] ??= []).push(p);
}
for (const need of ['openblas', 'lapack', 'lapacke', 'umfpack', 'cholmod', 'klu', 'fftw3']) if (!libs[need]) problems.push(`lib${need} is not mapped`);
const bundleLib = join(expect.bundleDir, 'lib');
const bundled = new Set(readdirSync(bundleLib).map(libStem).filter(Boolean));
for (const [stem, paths] of Object.entries(libs)) {
  for (const p of paths) {
    if (expect.variant === 'bundled' && bundled.has(stem) && dirname(p) !== bundleLib) problems.push(`lib${stem} mapped from ${p}, not from the bundle`);
    if (expect.variant === 'system' && [expect.bundleDir, ...(expect.otherDirs ?? [])].some((d) => p.startsWith(d + '/'))) problems.push(`${p} (a bundle) is mapped in the system variant`);
  }
}
if (problems.length) {
  process.stderr.write(`addon-probe (${expect.variant}): ${problems.join('; ')}\n`);
  process.exit(3);
}
const blas = rlx.blasInfo();
process.stderr.write(
  'RLX_ADDON_PROBE ' +
    JSON.stringify({
      variant: expect.variant,
      source: st.source,
      path: st.path,
      blasCoreChoice: st.blasCoreChoice,
      blas: { config: blas.config, corename: blas.corename, threads: blas.threads, parallel: blas.parallel, fftw3: blas.fftw3 },
      libs: Object.fromEntries(Object.entries(libs).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, v.length === 1 ? v[0] : v])),
    }) +
    '\n',
);
