// info codes, batching with mixed outcomes, non-finite input and contract
// violations of the js linalg kernels.

import { describe, expect, it } from 'vitest';
import { jsLinalgKernels as K } from '../../../src/linalg/kernels/js/index.js';

const f64 = (...x: number[]): Float64Array => Float64Array.from(x);

describe('info codes', () => {
  it('lu: first exactly-zero pivot, factorization completed; per batch entry', () => {
    // Entry 0 is regular, entry 1 has a zero second column (u[1,1] = 0), entry 2 is all zero.
    const a = f64(2, 1, 0, 1, 3, 1, 0, 1, 4, /**/ 1, 0, 2, 3, 0, 1, 5, 0, 7, /**/ 0, 0, 0, 0, 0, 0, 0, 0, 0);
    const out = new Float64Array(27),
      piv = new Int32Array(9),
      perm = new Int32Array(9);
    expect(Array.from(K.lu('float64', 3, 3, 3, a, out, piv, perm))).toEqual([0, 2, 1]);
    expect(Array.from(perm.subarray(6))).toEqual([0, 1, 2]);
    // Entry 1: getrf still eliminated the third column: pivot 5 (row 2), then u[2,2] = 2 - ... nonzero.
    expect(out[9 + 8]).not.toBe(0);
  });

  it('solve: singular entry reports info and leaves x unwritten, the regular entry is solved', () => {
    const a = f64(1, 2, 2, 4, /**/ 2, 0, 0, 4);
    const rhs = f64(1, 1, /**/ 2, 8);
    const x = new Float64Array(4).fill(-5);
    expect(Array.from(K.solve('float64', 2, 2, 1, a, rhs, x))).toEqual([2, 0]);
    expect(Array.from(x)).toEqual([-5, -5, 1, 2]);
  });

  it('cholesky: order of the first non-positive-definite leading minor, both triangles', () => {
    const a = f64(4, 2, 0, 2, 2, 0, 0, 0, 1, /**/ 4, 2, 0, 2, 1, 0, 0, 0, 1, /**/ -1, 0, 0, 0, 1, 0, 0, 0, 1);
    const out = new Float64Array(27);
    expect(Array.from(K.cholesky('float64', 3, 3, a, out, true))).toEqual([0, 2, 1]);
    expect(Array.from(K.cholesky('float64', 3, 3, a, out, false))).toEqual([0, 2, 1]);
    // complex Hermitian, not PD: [[1, 2i], [-2i, 1]] has eigenvalues -1, 3.
    expect(Array.from(K.cholesky('complex128', 1, 2, f64(1, 0, 0, 2, 0, -2, 1, 0), new Float64Array(8), true))).toEqual([2]);
    // NaN on the diagonal is not positive definite either.
    expect(Array.from(K.cholesky('float32', 1, 2, Float32Array.from([1, 0, 0, NaN]), new Float32Array(4), true))).toEqual([2]);
  });

  it('triangularSolve: exactly zero diagonal entry reported (unless unitDiagonal)', () => {
    const a = f64(1, 0, 0, 3, 0, 0, 1, 1, 2);
    const rhs = f64(1, 2, 3);
    expect(Array.from(K.triangularSolve('float64', 1, 3, 1, a, rhs, new Float64Array(3), true, 0, false))).toEqual([2]);
    const x = new Float64Array(3);
    expect(Array.from(K.triangularSolve('float64', 1, 3, 1, a, rhs, x, true, 0, true))).toEqual([0]);
    // unit lower: x0 = 1, x1 = 2 - 3 = -1, x2 = 3 - 1 + 1 = 3
    expect(Array.from(x)).toEqual([1, -1, 3]);
  });
});

describe('non-finite input never hangs', () => {
  const nanMat = f64(1, NaN, 2, 3);
  it('eigh, svd, eig, lstsq: info > 0 and NaN outputs', () => {
    const w = new Float64Array(2),
      v = new Float64Array(4);
    expect(K.eigh('float64', 1, 2, f64(NaN, 0, 0, 1), w, v, true)[0]).toBeGreaterThan(0);
    expect(Number.isNaN(w[0]!) && Number.isNaN(v[0]!)).toBe(true);
    const s = new Float64Array(2);
    expect(K.svd('float64', 1, 2, 2, nanMat, s, new Float64Array(4), new Float64Array(4), false)[0]).toBeGreaterThan(0);
    expect(Number.isNaN(s[0]!)).toBe(true);
    const we = new Float64Array(4);
    expect(K.eig('float64', 1, 2, f64(Infinity, 0, 0, 1), we, new Float64Array(8))[0]).toBeGreaterThan(0);
    expect(Number.isNaN(we[0]!)).toBe(true);
    const x = new Float64Array(2);
    expect(K.lstsq('float64', 1, 2, 2, 1, nanMat, f64(1, 1), x, s, new Int32Array(1), -1)[0]).toBeGreaterThan(0);
    expect(Number.isNaN(x[0]!)).toBe(true);
  });

  it('lu, solve, qr propagate NaN', () => {
    const out = new Float64Array(4);
    K.lu('float64', 1, 2, 2, nanMat, out, new Int32Array(2), new Int32Array(2));
    expect(out.some(Number.isNaN)).toBe(true);
    const x = new Float64Array(2);
    K.solve('float64', 1, 2, 1, nanMat, f64(1, 1), x);
    expect(x.some(Number.isNaN)).toBe(true);
    const r = new Float64Array(4);
    K.qr('float64', 1, 2, 2, nanMat, new Float64Array(4), r, false);
    expect(r.some(Number.isNaN)).toBe(true);
  });
});

describe('scaling', () => {
  it('svd and eigh of matrices near the overflow and underflow thresholds', () => {
    for (const scale of [1e300, 1e-300]) {
      const a = f64(3 * scale, 0, 0, 4 * scale);
      const s = new Float64Array(2);
      expect(K.svd('float64', 1, 2, 2, a, s, null, null, false)[0]).toBe(0);
      expect(s[0]! / scale).toBeCloseTo(4, 12);
      expect(s[1]! / scale).toBeCloseTo(3, 12);
    }
  });
});

describe('contract violations throw a plain Error naming kernel and sizes', () => {
  it('wrong lengths', () => {
    expect(() => K.lu('float64', 1, 2, 2, new Float64Array(3), new Float64Array(4), new Int32Array(2), new Int32Array(2))).toThrow(/linalg lu: a has length 3, expected 4 for b=1, m=2, n=2/);
    expect(() => K.solve('complex128', 2, 2, 1, new Float64Array(16), new Float64Array(8), new Float64Array(4))).toThrow(/linalg solve: out has length 4, expected 8/);
    expect(() => K.svd('float64', 1, 3, 2, new Float64Array(6), new Float64Array(2), new Float64Array(6), null, false)).toThrow(/linalg svd: u and vh/);
    expect(() => K.eig('float32', 1, 2, new Float32Array(4), new Float32Array(2), null)).toThrow(/linalg eig: w has length 2, expected 4/);
    expect(() => K.cholesky('float64', 1, -1, new Float64Array(0), new Float64Array(0), true)).toThrow(/non-negative integer/);
  });
});
