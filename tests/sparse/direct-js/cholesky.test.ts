// jsCholesky against the dense LU (helpers.ts) on random SPD / HPD sparse
// matrices; the not-positive-definite error and its minor in the permuted
// order; the lower-triangle-only contract; model problems.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NonFiniteError, NotPositiveDefiniteError } from '../../../src/tensor/errors-linalg.js';
import type { SparseDType } from '../../../src/sparse/contract.js';
import { jsCholesky, jsSplu } from '../../../src/sparse/direct/index.js';
import { ShapeError } from '../../../src/tensor/errors.js';
import { denseSolve, isCplx, mulberry32, poisson2d, randVec, relDiff, relResidual, roundTo, toArrays, zeros, type Dense } from './helpers.js';

/** Random sparse Hermitian, made positive definite by diagonal dominance (shift > 0) or indefinite (shift < 0). */
function randomHermitian(n: number, density: number, cplx: boolean, rnd: () => number, shift: number): Dense {
  const a = zeros(n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < i; j++)
      if (rnd() < density) {
        const r = 2 * rnd() - 1,
          m = cplx ? 2 * rnd() - 1 : 0;
        a.re[i * n + j] = r;
        a.im[i * n + j] = m;
        a.re[j * n + i] = r;
        a.im[j * n + i] = -m;
      }
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) if (j !== i) s += Math.hypot(a.re[i * n + j], a.im[i * n + j]);
    a.re[i * n + i] = s + shift * (0.5 + rnd());
  }
  return a;
}

/** Dense Cholesky attempt on the leading m×m block: true if it is positive definite. */
function leadingPD(a: Dense, m: number): boolean {
  const { n } = a;
  const lr = new Float64Array(m * m),
    lm = new Float64Array(m * m);
  for (let j = 0; j < m; j++) {
    let d = a.re[j * n + j];
    for (let k = 0; k < j; k++) d -= lr[j * m + k] ** 2 + lm[j * m + k] ** 2;
    if (!(d > 0)) return false;
    const ljj = Math.sqrt(d);
    lr[j * m + j] = ljj;
    for (let i = j + 1; i < m; i++) {
      let sr = a.re[i * n + j],
        sm = a.im[i * n + j];
      for (let k = 0; k < j; k++) {
        // L(i,k) conj(L(j,k))
        sr -= lr[i * m + k] * lr[j * m + k] + lm[i * m + k] * lm[j * m + k];
        sm -= lm[i * m + k] * lr[j * m + k] - lr[i * m + k] * lm[j * m + k];
      }
      lr[i * m + j] = sr / ljj;
      lm[i * m + j] = sm / ljj;
    }
  }
  return true;
}

function permuteSym(a: Dense, perm: Int32Array): Dense {
  const { n } = a;
  const p = zeros(n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      p.re[i * n + j] = a.re[perm[i] * n + perm[j]];
      p.im[i * n + j] = a.im[perm[i] * n + perm[j]];
    }
  return p;
}

const DTYPES: SparseDType[] = ['float32', 'float64', 'complex64', 'complex128'];

describe('jsCholesky', () => {
  it('SPD/HPD random: solve and logDet match the dense LU (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 40 }),
        fc.double({ min: 0.02, max: 0.5, noNaN: true }),
        fc.constantFrom(...DTYPES),
        fc.constantFrom('csr' as const, 'csc' as const),
        fc.constantFrom('amd' as const, 'rcm' as const, 'natural' as const),
        fc.integer({ min: 1, max: 3 }),
        (seed, n, density, dtype, format, ordering, k) => {
          const rnd = mulberry32(seed);
          const c = isCplx(dtype);
          const a = roundTo(dtype, randomHermitian(n, density, c, rnd, 1));
          const ch = jsCholesky(toArrays(a, dtype, format), { ordering });
          const b = randVec(n * k * (c ? 2 : 1), rnd);
          const ref = denseSolve(a, b, k, c);
          expect(relDiff(ch.solve(b), ref.x)).toBeLessThan(1e-10);
          const ld = ch.logDet();
          expect(ld.logabsdet).toBeCloseTo(ref.logabsdet, 9);
          expect(ld.sign).toEqual(c ? [1, 0] : 1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('indefinite: NotPositiveDefiniteError with the first failing minor of P A Pᵀ', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 2, max: 30 }),
        fc.boolean(),
        fc.constantFrom('amd' as const, 'rcm' as const, 'natural' as const),
        (seed, n, c, ordering) => {
          const rnd = mulberry32(seed);
          const a = randomHermitian(n, 0.2, c, rnd, 1);
          const bad = Math.floor(rnd() * n);
          a.re[bad * n + bad] = -1 - rnd(); // that 1×1 principal minor is negative
          const arr = toArrays(a, c ? 'complex128' : 'float64', 'csr');
          let err: unknown;
          try {
            jsCholesky(arr, { ordering });
          } catch (e) {
            err = e;
          }
          expect(err).toBeInstanceOf(NotPositiveDefiniteError);
          const { minor, op } = err as NotPositiveDefiniteError;
          expect(op).toBe('cholesky');
          // The same ordering on the (SPD) pattern twin gives the permutation used.
          const perm = jsCholesky(toArrays(randomHermitianLike(a), c ? 'complex128' : 'float64', 'csr'), { ordering }).perm;
          const pa = permuteSym(a, perm);
          expect(leadingPD(pa, minor - 1)).toBe(true);
          expect(leadingPD(pa, minor)).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('natural order reports the leading minor of A itself', () => {
    const a = zeros(4);
    a.re.set([2, 1, 0, 0, 1, 2, 1, 0, 0, 1, 0.5, 0, 0, 0, 0, 1]); // minors: 2, 3, -0.5
    expect(() => jsCholesky(toArrays(a, 'float64', 'csr'), { ordering: 'natural' })).toThrow(
      expect.objectContaining({ name: 'NotPositiveDefiniteError', minor: 3 }),
    );
    // a zero diagonal is not positive either
    const z = zeros(2);
    z.re.set([0, 1, 1, 0]);
    expect(() => jsCholesky(toArrays(z, 'float64', 'csr'))).toThrow(NotPositiveDefiniteError);
    // NaN is refused before the factorization, as non-finite input (nonfinite.test.ts covers every place)
    const nan = zeros(1);
    nan.re[0] = NaN;
    expect(() => jsCholesky(toArrays(nan, 'float64', 'csr'))).toThrow(NonFiniteError);
  });

  it('reads only the lower triangle (garbage above is ignored)', () => {
    const rnd = mulberry32(5);
    for (const c of [false, true]) {
      const n = 20;
      const a = randomHermitian(n, 0.3, c, rnd, 1);
      const g = { n, re: a.re.slice(), im: a.im.slice() };
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) if (rnd() < 0.3) g.re[i * n + j] = 100 * rnd();
      const dt = c ? 'complex128' : 'float64';
      const b = randVec(n * (c ? 2 : 1), rnd);
      const x1 = jsCholesky(toArrays(a, dt, 'csr')).solve(b);
      const x2 = jsCholesky(toArrays(g, dt, 'csc')).solve(b);
      expect(relDiff(x2, x1)).toBeLessThan(1e-12);
    }
  });

  it('poisson2d(30): residual, logDet equals the LU one, AMD fill < natural', () => {
    const a = poisson2d(30);
    const b = randVec(900, mulberry32(9));
    const ch = jsCholesky(a);
    expect(relResidual(a, ch.solve(b), b)).toBeLessThan(1e-12);
    expect(ch.logDet().logabsdet).toBeCloseTo(jsSplu(a).logDet().logabsdet as number, 8);
    expect(ch.nnzL).toBeLessThan(jsCholesky(a, { ordering: 'natural' }).nnzL * 0.6);
    expect(ch.nnzL).toBeLessThan(jsCholesky(a, { ordering: 'rcm' }).nnzL);
  });

  it('dispose and shape errors', () => {
    const ch = jsCholesky(poisson2d(4));
    expect(() => ch.solve(new Float64Array(15))).toThrow(ShapeError);
    ch.dispose();
    expect(() => ch.logDet()).toThrow(/disposed/);
  });
});

/** Same pattern, made SPD (large diagonal): lets the test recover the ordering's permutation. */
function randomHermitianLike(a: Dense): Dense {
  const { n } = a;
  const b = { n, re: a.re.slice(), im: a.im.slice() };
  for (let i = 0; i < n; i++) b.re[i * n + i] = 10 * n;
  return b;
}
