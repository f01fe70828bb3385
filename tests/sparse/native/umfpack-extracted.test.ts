// UMFPACK factors small enough, once solved with 8 times, are solved with rlx's
// own triangular solves on factors copied out of UMFPACK
// (native/src/sparse/lu_solve.h); large ones, and the first solves, with
// UMFPACK's solve. RLX_UMFPACK_EXTRACT_MAX=0 forces UMFPACK's solve, so every
// matrix here is solved both ways: the two must agree and each must have a
// small residual against the dense matrix. The matrices need row pivoting
// (zero or tiny diagonals), carry row scales over 16 orders of magnitude (so
// UMFPACK's row scaling R is far from 1) and are unsymmetric in pattern.

import { afterEach, expect, it } from 'vitest';
import { umfpackFactor } from '../../../src/sparse/kernels/native-direct.js';
import { nativeAddon } from '../../../src/backends/native/addon.js';
import type { CompressedArrays, SparseDType } from '../../../src/sparse/contract.js';
import { denseMul, describeUmfpack, fromDense, maxAbs, maxDiff, per, poisson2d, rng, toC, toDense } from './util.js';

/** A random unsymmetric matrix that needs pivoting: zero diagonal on even rows, rows scaled by 10^[-8, 8]. */
function pivoting(n: number, dtype: SparseDType, seed: number): { a: CompressedArrays; dense: Float64Array } {
  const r = rng(seed);
  const p = per(dtype);
  const d = new Float64Array(n * n * p);
  for (let i = 0; i < n; i++) {
    const scale = 10 ** (16 * r() - 8);
    for (let j = 0; j < n; j++) {
      if (i === j ? i % 2 === 0 : r() > Math.min(1, 4 / n)) continue;
      for (let q = 0; q < p; q++) d[(i * n + j) * p + q] = (r() - 0.5) * scale;
    }
    // A nonzero in the next column keeps every row and column nonempty (a cyclic band).
    for (let q = 0; q < p; q++) d[(i * n + ((i + 1) % n)) * p + q] = (1 + r()) * scale;
  }
  const a = fromDense(d, n, n, dtype);
  return { a, dense: toDense(a) };
}

const saved = process.env['RLX_UMFPACK_EXTRACT_MAX'];
afterEach(() => {
  if (saved === undefined) delete process.env['RLX_UMFPACK_EXTRACT_MAX'];
  else process.env['RLX_UMFPACK_EXTRACT_MAX'] = saved;
});

/** The same matrix factored twice: `own` solved kExtractAfter = 8 times (so it has extracted its factors), `lib` kept on UMFPACK's solve. */
function factorBoth(a: CompressedArrays, n: number, width: number) {
  delete process.env['RLX_UMFPACK_EXTRACT_MAX'];
  const own = umfpackFactor(a);
  const b = new Float64Array(n * width).fill(1);
  for (let i = 0; i < 7; i++) own.solve(b);
  expect(solvesOf(own)).toBe('library'); // nothing extracted before the 8th solve
  own.solve(b);
  process.env['RLX_UMFPACK_EXTRACT_MAX'] = '0';
  const lib = umfpackFactor(a);
  for (let i = 0; i < 8; i++) lib.solve(b);
  return { own, lib };
}

const solvesOf = (f: unknown) => nativeAddon()!.directInfo((f as { handle(m: string): never }).handle('info')).solves;

describeUmfpack('UMFPACK: own triangular solves on extracted factors agree with UMFPACK solve', () => {
  for (const dtype of ['float64', 'complex128', 'float32', 'complex64'] as SparseDType[])
    for (const n of [1, 2, 7, 60, 250])
      it(`${dtype} n = ${n}: trans N/T/H, 1 and 3 right-hand sides`, () => {
        const { a, dense } = pivoting(n, dtype, 17 * n + dtype.length);
        const { own, lib } = factorBoth(a, n, per(dtype));
        expect(solvesOf(own)).toBe('extracted');
        expect(solvesOf(lib)).toBe('library');
        const single = dtype === 'float32' || dtype === 'complex64';
        for (const k of [1, 3])
          for (const trans of ['N', 'T', 'H'] as const) {
            const r = rng(n * 31 + k);
            const b = Float64Array.from({ length: n * k * per(dtype) }, () => r() - 0.5);
            const x1 = own.solve(b, { trans });
            const x2 = lib.solve(b, { trans });
            // Both backward stable: they agree to the conditioning of the system; the residuals say each is right.
            const Ax = denseMul(dense, n, n, toC(x1, dtype), k, trans);
            const res = maxDiff(Ax, toC(b, dtype)) / (maxAbs(dense) * maxAbs(x1) * n + maxAbs(b));
            expect(res).toBeLessThan(single ? 1e-5 : 1e-13);
            const Ax2 = denseMul(dense, n, n, toC(x2, dtype), k, trans);
            expect(maxDiff(Ax2, toC(b, dtype)) / (maxAbs(dense) * maxAbs(x2) * n + maxAbs(b))).toBeLessThan(single ? 1e-5 : 1e-13);
            expect(maxDiff(x1, x2) / maxAbs(x2)).toBeLessThan(single ? 1e-3 : 1e-9);
          }
        own.dispose();
        lib.dispose();
      });

  it('a factor above the limit uses UMFPACK solve, and both give the same x', () => {
    const a = poisson2d(30);
    const b = Float64Array.from({ length: 900 }, (_, i) => Math.sin(i));
    process.env['RLX_UMFPACK_EXTRACT_MAX'] = '100';
    const big = umfpackFactor(a);
    for (let i = 0; i < 9; i++) big.solve(b);
    expect(solvesOf(big)).toBe('library');
    delete process.env['RLX_UMFPACK_EXTRACT_MAX'];
    const small = umfpackFactor(a);
    for (let i = 0; i < 9; i++) small.solve(b);
    expect(solvesOf(small)).toBe('extracted');
    const x1 = small.solve(b),
      x2 = big.solve(b);
    expect(maxDiff(x1, x2) / maxAbs(x2)).toBeLessThan(1e-12);
    // The extracted copy is counted in the factor's bytes.
    const info = (f: unknown) => nativeAddon()!.directInfo((f as { handle(m: string): never }).handle('info'));
    expect(info(small).bytes).toBeGreaterThan(info(big).bytes);
    small.dispose();
    big.dispose();
  });
});
