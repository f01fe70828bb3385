// Krylov solvers on non-finite and out-of-range input (issue 13, item 1).
//
// Before: ‖b‖ = Inf (an Inf in b, or a finite b whose squared norm overflows)
// made every residual "small enough" — converged: true, info 0, x = 0 — and a
// b whose squared norm underflows (entries ~1e-200) looked like b = 0. Now:
// NaN/±Inf in b, x0 or A is reported (info −1, breakdown 'nonfinite', or a
// NonFiniteError under checkFinite), and a finite b of any magnitude is solved.
// References are independent of the solvers: dense Gaussian elimination
// (util.ts) and the closed form of tridiag(−1, 2, −1) x = 1, x_i = (i+1)(n−i)/2.

import { describe, expect, it } from 'vitest';
import { bicgstab, cg, gmres, ilu0, jacobi, ic0, ssor, LinearOperator, minres, type SolveOptions, type SolveResult } from '../../../src/sparse/solvers/index.js';
import { nrm2 } from '../../../src/sparse/solvers/vec.js';
import { csc as cscMatrix, csr as csrMatrix } from '../../../src/sparse/index.js';
import { NonFiniteError } from '../../../src/tensor/errors-linalg.js';
import { ValueError } from '../../../src/tensor/errors.js';
import { tensor } from '../../../src/tensor/create.js';
import type { CompressedArrays } from '../../../src/sparse/contract.js';
import * as U from './util.js';

type Solver = (A: any, b: any, o?: SolveOptions) => SolveResult;
const SOLVERS: [string, Solver][] = [
  ['cg', cg],
  ['bicgstab', bicgstab],
  ['gmres', gmres],
  ['minres', minres],
];

const N = 8;
const A = U.poisson1d(N);
const exact = Float64Array.from({ length: N }, (_, i) => ((i + 1) * (N - i)) / 2);
const ones = (n = N) => new Float64Array(n).fill(1);
const withAt = (v: Float64Array, i: number, val: number) => {
  const w = v.slice();
  w[i] = val;
  return w;
};

/** The report for non-finite input: no iterations, nothing in x, never converged. */
function expectNonFinite(r: SolveResult, message: RegExp) {
  expect(r.converged).toBe(false);
  expect(r.info).toBeLessThan(0);
  expect(r.breakdown).toBe('nonfinite');
  expect(r.message).toMatch(message);
  expect(r.message).not.toMatch(/preconditioner/);
  expect(r.iterations).toBe(0);
  expect(Array.from(r.x).every(Number.isNaN)).toBe(true);
}

describe('non-finite b and x0 are reported, never converged', () => {
  for (const [name, solve] of SOLVERS) {
    for (const bad of [Infinity, -Infinity, NaN]) {
      it(`${name}: b[3] = ${bad}`, () => {
        expectNonFinite(solve(A, withAt(ones(), 3, bad)), new RegExp(`^${name}: b holds ${bad} at \\[3\\]`));
      });
      it(`${name}: x0[5] = ${bad}`, () => {
        expectNonFinite(solve(A, ones(), { x0: withAt(new Float64Array(N), 5, bad) }), new RegExp(`^${name}: x0 holds ${bad} at \\[5\\]`));
      });
    }
    it(`${name}: checkFinite throws NonFiniteError naming the input and position`, () => {
      const call = () => solve(A, withAt(ones(), 2, Infinity), { checkFinite: true });
      expect(call).toThrow(NonFiniteError);
      expect(call).toThrow(ValueError);
      expect(call).toThrow(`${name}: b: input must be finite, found Infinity at [2]`);
      expect(() => solve(A, ones(), { x0: withAt(new Float64Array(N), 0, NaN), checkFinite: true })).toThrow(`${name}: x0: input must be finite, found NaN at [0]`);
    });
    it(`${name}: complex b with a non-finite imaginary part (element index reported)`, () => {
      const bc = Float64Array.from([1, 0, 2, 0, 3, Infinity, 4, 0, 1, 0, 1, 0, 1, 0, 1, 0]); // interleaved: element 2 = 3 + Inf·i
      const Ac: CompressedArrays = { ...A, dtype: 'complex128', data: Float64Array.from(Array.from(A.data).flatMap((v) => [v, 0])) };
      expectNonFinite(solve(Ac, bc), new RegExp(`^${name}: b holds Infinity at \\[2\\]`));
    });
  }
});

describe("non-finite values of A are reported at A's [row, col]", () => {
  const bad = (v: number): CompressedArrays => ({ ...A, data: A.data.map((d, k) => (k === 4 ? v : d)) }); // k = 4: row 1, column 2
  const denseA = () => {
    const d: number[][] = Array.from({ length: N }, (_, i) => Array.from({ length: N }, (_, j) => (i === j ? 2 : Math.abs(i - j) === 1 ? -1 : 0)));
    d[1]![2] = NaN;
    return d;
  };
  const forms: [string, () => unknown][] = [
    ['CSR arrays', () => bad(NaN)],
    ['CsrMatrix', () => csrMatrix({ ...bad(NaN) })],
    ['CscMatrix (same matrix, columns compressed)', () => csrMatrix({ ...bad(NaN) }).tocsc()],
    ['CSC arrays (format csc: the transpose of the CSR arrays, so [2, 1])', () => ({ ...bad(NaN), format: 'csc' })],
    ['dense Tensor', () => tensor(denseA())],
    ['nested arrays', () => denseA()],
  ];
  for (const [name, solve] of SOLVERS)
    for (const [form, make] of forms) {
      it(`${name}: ${form}`, () => {
        const pos = form.startsWith('CSC arrays') ? '\\[2, 1\\]' : '\\[1, 2\\]';
        expectNonFinite(solve(make(), ones()), new RegExp(`^${name}: A holds NaN at ${pos}`));
        expect(() => solve(make(), ones(), { checkFinite: true })).toThrow(NonFiniteError);
      });
    }

  it('CscMatrix class built from CSC arrays', () => {
    // csc() of the CSR arrays read as columns is Aᵀ (A symmetric in pattern): entry k = 4 is row 2, column 1.
    const M = cscMatrix({ ...bad(Infinity) });
    expectNonFinite(cg(M, ones()), /^cg: A holds Infinity at \[2, 1\]/);
  });

  for (const [name, solve] of SOLVERS)
    it(`${name}: an operator known only by its action that returns NaN: reported from A x0`, () => {
      const op = new LinearOperator({ shape: [N, N], matvec: (x) => U.csrOperator(A).matvec(x).map((v, i) => (i === 6 ? NaN : v)) });
      const r = solve(op, ones());
      expect(r.converged).toBe(false);
      expect(r.info).toBeLessThan(0);
      expect(r.breakdown).toBe('nonfinite');
      expect(r.message).toMatch(/A x0 holds NaN at \[6\]/);
      expect(() => solve(op, ones(), { checkFinite: true })).toThrow(`${name}: A x0: input must be finite, found NaN at [6]`);
    });

  it('preconditioners refuse non-finite A with NonFiniteError (not a misleading pivot / definiteness error)', () => {
    for (const [pname, make] of [
      ['jacobi', jacobi],
      ['ssor', ssor],
      ['ilu0', ilu0],
      ['ic0', ic0],
    ] as const) {
      expect(() => make(bad(Infinity))).toThrow(NonFiniteError);
      expect(() => make(bad(NaN))).toThrow(`${pname}: input must be finite, found NaN at [1, 2]`);
    }
  });
});

describe('b of any finite magnitude is solved (x scales with b)', () => {
  const rows = U.poisson2d(6);
  const n = rows.shape[0];
  const b0 = U.randomVector(n, 11);
  const x0ref = U.denseSolve(n, U.csrToDense(rows), b0);
  for (const [name, solve] of SOLVERS)
    for (const scale of [1e200, 1e-200, 2 ** 1000, 1e300, 1e-300]) {
      it(`${name}: b · ${scale}`, () => {
        const b = b0.map((v) => v * scale);
        const r = solve(rows, b, { rtol: 1e-10, maxiter: 2000 });
        expect(r.info).toBe(0);
        expect(r.converged).toBe(true);
        expect(r.iterations).toBeGreaterThan(0);
        // Same problem scaled down: the answer is x0ref · scale.
        let err = 0,
          ref = 0;
        for (let i = 0; i < n; i++) {
          err = Math.max(err, Math.abs(r.x[i]! / scale - x0ref[i]!));
          ref = Math.max(ref, Math.abs(x0ref[i]!));
        }
        expect(err / ref).toBeLessThan(1e-8);
        // residualNorm is in the user's units: about rtol·‖b‖ or less, and finite.
        expect(Number.isFinite(r.residualNorm)).toBe(true);
        expect(r.residualNorm / scale).toBeLessThanOrEqual(1e-10 * U.norm(b0) * (1 + 1e-12));
      });
    }

  it('identical iterations for b and 2^600 · b (power-of-two scaling is exact)', () => {
    for (const [, solve] of SOLVERS) {
      const small = solve(rows, b0, { rtol: 1e-10 });
      const big = solve(rows, b0.map((v) => v * 2 ** 600), { rtol: 1e-10 });
      expect(big.iterations).toBe(small.iterations);
      for (let i = 0; i < n; i++) expect(big.x[i]).toBe(small.x[i]! * 2 ** 600);
    }
  });

  it('the callback sees unscaled iterates and residual estimates', () => {
    const seen: [Float64Array, number][] = [];
    const b = ones().map((v) => v * 1e250);
    const r = cg(A, b, { rtol: 1e-12, callback: (xk, _it, rn) => seen.push([xk.slice(), rn]) });
    expect(r.converged).toBe(true);
    const [lastX, lastRes] = seen[seen.length - 1]!;
    for (let i = 0; i < N; i++) expect(lastX[i]! / 1e250).toBeCloseTo(exact[i]!, 9);
    expect(lastRes).toBeLessThan(1e-12 * 1e250 * Math.sqrt(N) * 10);
    expect(seen[0]![1]).toBeGreaterThan(1e240);
  });

  it('an x0 that solves the huge problem is kept (0 iterations, exact round trip)', () => {
    const x0 = exact.map((v) => v * 1e200);
    const r = cg(A, ones().map((v) => v * 1e200), { x0 });
    expect(r.iterations).toBe(0);
    expect(r.converged).toBe(true);
    expect(Array.from(r.x)).toEqual(Array.from(x0));
  });

  it('a finite b whose solution overflows float64 is reported, not converged', () => {
    // x_i = 1.5e308 · (i+1)(n−i)/2 > 1.8e308 for the middle rows.
    for (const [, solve] of SOLVERS) {
      const r = solve(A, ones().map(() => 1.5e308));
      expect(r.converged).toBe(false);
      expect(r.info).toBeLessThan(0);
      expect(r.breakdown).toBe('overflow');
    }
  });

  it('b = 0 with a tiny-but-nonzero neighbour is not mistaken for b = 0', () => {
    const b = new Float64Array(N);
    b[0] = 1e-310; // subnormal
    const r = cg(A, b, { rtol: 1e-10 });
    expect(r.converged).toBe(true);
    // x = A⁻¹ e0 · 1e-310: x_0 = n/(n+1) · 1e-310, checked in relative terms (subnormal precision ~1e-14 here).
    expect(r.x[0]! / 1e-310).toBeCloseTo(N / (N + 1), 6);
  });
});

describe('A of any finite magnitude is solved (x scales inversely)', () => {
  // Squared norms of A·v overflow for entries ≳ 1e154 (BiCGSTAB's tᴴt, MINRES's β²), and
  // MINRES's absolute floor ε on γ stalled it for entries ≲ 1e-16.
  const rows = U.poisson2d(6);
  const n = rows.shape[0];
  const b0 = U.randomVector(n, 13);
  const xref = U.denseSolve(n, U.csrToDense(rows), b0);
  for (const [name, solve] of SOLVERS)
    for (const scale of [1e200, 1e-200, 1e160]) {
      it(`${name}: A · ${scale}`, () => {
        const As: CompressedArrays = { ...rows, data: rows.data.map((v) => v * scale) };
        const r = solve(As, b0, { rtol: 1e-10, maxiter: 2000 });
        expect(r.converged).toBe(true);
        let err = 0,
          ref = 0;
        for (let i = 0; i < n; i++) {
          err = Math.max(err, Math.abs(r.x[i]! * scale - xref[i]!));
          ref = Math.max(ref, Math.abs(xref[i]!));
        }
        expect(err / ref).toBeLessThan(1e-8);
      });
    }
});

describe('nrm2: overflow- and underflow-safe', () => {
  it('matches the exact value where the plain sum of squares fails', () => {
    expect(nrm2(Float64Array.from([3e200, 4e200])) / 5e200).toBeCloseTo(1, 14);
    expect(nrm2(Float64Array.from([3e-200, -4e-200])) / 5e-200).toBeCloseTo(1, 14);
    expect(nrm2(Float64Array.from([1e308, 1e308])) / (Math.SQRT2 * 1e308)).toBeCloseTo(1, 14);
    expect(nrm2(Float64Array.from([5e-324, 0]))).toBe(5e-324);
  });
  it('Inf and NaN', () => {
    expect(nrm2(Float64Array.from([1, -Infinity, 2]))).toBe(Infinity);
    expect(nrm2(Float64Array.from([1, NaN, Infinity]))).toBeNaN();
    expect(nrm2(new Float64Array(5))).toBe(0);
  });
  it('ordinary vectors: the plain sum of squares', () => {
    const v = U.randomVector(1000, 3);
    expect(nrm2(v) / Math.sqrt(Array.from(v).reduce((a, x) => a + x * x, 0))).toBeCloseTo(1, 14);
  });
});
