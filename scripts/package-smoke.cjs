// The platform package's smoke test (scripts/check-packages.mjs runs it twice:
// in a fresh consumer project where rlx and @rlx/native-linux-x64 were
// installed from their tarballs, and in this checkout on its local build).
// CommonJS on purpose: it is how tslab and plain `node` scripts load rlx.
//
//   node package-smoke.cjs <rlx module path or name>
//
// Prints one JSON object: where the addon came from, which shared objects the
// process mapped, and the results of one call into each bundled library
// (OpenBLAS GEMM, LAPACK through LAPACKE, UMFPACK, FFTW) for comparison.

const { readFileSync } = require('node:fs');
const rlx = require(process.argv[2] ?? 'rlx');

const n = 48;
const ramp = (len, f) => Float64Array.from({ length: len }, (_, i) => f(i));
const A = rlx.tensor(ramp(n * n, (i) => Math.sin(0.37 * i) + (i % (n + 1) === 0 ? n : 0)), { dtype: 'float64' }).reshape([n, n]).on('native');
const B = rlx.tensor(ramp(n * n, (i) => Math.cos(0.11 * i)), { dtype: 'float64' }).reshape([n, n]).on('native');
const b = rlx.tensor(ramp(n, (i) => 1 + (i % 7)), { dtype: 'float64' }).on('native');

const results = {
  // OpenBLAS dgemm.
  gemm: Array.from(rlx.matmul(A, B).toArray()),
  // LAPACK (dgesv through LAPACKE) and a symmetric eigensolver (dsyevd).
  lapackSolve: Array.from(rlx.linalg.solve(A, b).toArray()),
  lapackEigh: Array.from(rlx.linalg.eigvalsh(rlx.matmul(A, A.transpose())).toArray()),
  // UMFPACK: an LU solve of the 2-D Poisson matrix.
  umfpack: Array.from(rlx.sparse.splu(rlx.sparse.poisson2d(12)).solve(rlx.tensor(ramp(144, (i) => Math.sin(i)), { dtype: 'float64' })).toArray()),
  // FFTW: a length-1000 complex transform of a real signal.
  fft: Array.from(rlx.fft.fft(rlx.tensor(ramp(1000, (i) => Math.sin(0.05 * i * i)), { dtype: 'float64' }).on('native')).abs().toArray()),
};

const st = rlx.nativeStatus();
const maps = readFileSync('/proc/self/maps', 'utf8')
  .split('\n')
  .map((l) => l.split(/\s+/)[5])
  .filter((p) => p && /\.so(\.|$)|\.node$/.test(p));
console.log(JSON.stringify({ native: st, blas: rlx.blasInfo(), mapped: [...new Set(maps)], results }));
