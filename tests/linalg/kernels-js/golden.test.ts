// The js kernels against LAPACK values computed by NumPy 1.24 / SciPy 1.10
// (golden.json, written by gen_golden.py: regenerate with
// /usr/bin/python3 tests/linalg/kernels-js/gen_golden.py). Where LAPACK's
// answer is unique (eigenvalues, singular values, Cholesky factor, LU with
// partial pivoting, QR with LAPACK's sign convention, minimum-norm least
// squares) it is compared entrywise; eigenvectors of eig are unique only up to
// a unit complex factor, so those are compared by |v_oursᴴ v_numpy| = 1.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { LinalgDType } from '../../../src/linalg/kernels/contract.js';
import { jsLinalgKernels as K } from '../../../src/linalg/kernels/js/index.js';

type Case = Record<string, number[] | number>;
const golden = JSON.parse(readFileSync(new URL('./golden.json', import.meta.url), 'utf8')) as { cases: Record<string, Case> };
const C = golden.cases;
const arr = (c: Case, k: string): number[] => c[k] as number[];
const num = (c: Case, k: string): number => c[k] as number;

function expectClose(actual: ArrayLike<number>, expected: ArrayLike<number>, atol: number, rtol = 0): void {
  expect(actual.length).toBe(expected.length);
  for (let i = 0; i < expected.length; i++) {
    const d = Math.abs(actual[i]! - expected[i]!);
    if (!(d <= atol + rtol * Math.abs(expected[i]!))) throw new Error(`index ${i}: ${actual[i]} vs expected ${expected[i]} (atol ${atol}, rtol ${rtol})`);
  }
}

/** Complex-interleaved eigenpairs: match each expected eigenvalue to the nearest unused one of ours. */
function matchEig(w: Float64Array, v: Float64Array | null, ew: number[], ev: number[] | null, n: number, tolW: number, tolV: number): void {
  const used = new Set<number>();
  for (let j = 0; j < n; j++) {
    let best = -1,
      bd = Infinity;
    for (let i = 0; i < n; i++) {
      if (used.has(i)) continue;
      const d = Math.hypot(w[2 * i]! - ew[2 * j]!, w[2 * i + 1]! - ew[2 * j + 1]!);
      if (d < bd) [bd, best] = [d, i];
    }
    used.add(best);
    expect(bd).toBeLessThanOrEqual(tolW);
    if (v && ev) {
      // |<ours_best, numpy_j>| = 1 for unit vectors spanning the same line.
      let sr = 0,
        si = 0;
      for (let r = 0; r < n; r++) {
        const ar = v[2 * (r * n + best)]!,
          ai = v[2 * (r * n + best) + 1]!,
          br = ev[2 * (r * n + j)]!,
          bi = ev[2 * (r * n + j) + 1]!;
        sr += ar * br + ai * bi;
        si += ar * bi - ai * br;
      }
      expect(Math.abs(Math.hypot(sr, si) - 1)).toBeLessThanOrEqual(tolV);
    }
  }
}

const F64 = (x: number[]): Float64Array => Float64Array.from(x);

describe('NumPy/SciPy goldens', () => {
  it('eigvalsh of Hilbert(8): eigenvalues down to 1e-10 to absolute accuracy', () => {
    const c = C['hilbert8_eigvalsh']!;
    const w = new Float64Array(8);
    expect(K.eigh('float64', 1, 8, F64(arr(c, 'a')), w, null, true)[0]).toBe(0);
    // Backward stable: |Δλ| <= O(n eps ‖a‖), ‖a‖ ~ 1.7.
    expectClose(w, arr(c, 'w'), 1e-14);
  });

  it('svd singular values of a rank-2 6x4 matrix (two are zero to rounding)', () => {
    const c = C['rankdef6x4_svd']!;
    for (const dtype of ['float64', 'complex128'] as LinalgDType[]) {
      const a = dtype === 'float64' ? F64(arr(c, 'a')) : F64(arr(c, 'a').flatMap((x) => [x, 0]));
      const s = new Float64Array(4);
      const sz = dtype === 'float64' ? 1 : 2;
      expect(K.svd(dtype, 1, 6, 4, a, s, new Float64Array(24 * sz), new Float64Array(16 * sz), false)[0]).toBe(0);
      expectClose(s, arr(c, 's'), 1e-12 * arr(c, 's')[0]!);
    }
  });

  it('svd singular values of a complex 3x5 (wide) matrix', () => {
    const c = C['complex3x5_svd']!;
    const s = new Float64Array(3);
    expect(K.svd('complex128', 1, 3, 5, F64(arr(c, 'a')), s, null, null, false)[0]).toBe(0);
    expectClose(s, arr(c, 's'), 0, 1e-13);
  });

  it.each(['real4_eig', 'complex3_eig'])('eig %s: eigenvalues and eigenvector directions', (name) => {
    const c = C[name]!;
    const n = num(c, 'n');
    const a = F64(arr(c, 'a'));
    const dtype: LinalgDType = a.length === n * n ? 'float64' : 'complex128';
    const w = new Float64Array(2 * n),
      v = new Float64Array(2 * n * n);
    expect(K.eig(dtype, 1, n, a, w, v)[0]).toBe(0);
    matchEig(w, v, arr(c, 'w'), arr(c, 'v'), n, 1e-13, 1e-12);
    // The order is LAPACK's too here (both read the Schur diagonal top down), and with
    // the same normalization (unit norm, largest component real) the vectors match
    // entrywise: exactly for zgeev; dgeev leaves that real component's sign to dlartg
    // (we make it positive), so real input matches up to a sign per column.
    expectClose(w, arr(c, 'w'), 1e-13);
    const ev = arr(c, 'v').slice();
    if (dtype === 'float64') {
      for (let j = 0; j < n; j++) {
        let at = 0;
        for (let r = 0; r < n; r++) if (Math.hypot(ev[2 * (r * n + j)]!, ev[2 * (r * n + j) + 1]!) > Math.hypot(ev[2 * (at * n + j)]!, ev[2 * (at * n + j) + 1]!)) at = r;
        const sg = Math.sign(ev[2 * (at * n + j)]!) * Math.sign(v[2 * (at * n + j)]!);
        for (let r = 0; r < n; r++) {
          ev[2 * (r * n + j)] *= sg;
          ev[2 * (r * n + j) + 1] *= sg;
        }
      }
    }
    expectClose(v, ev, 1e-12);
    if (name === 'real4_eig') {
      // Two conjugate pairs: ours must contain them too (to rounding).
      const ims = Array.from({ length: n }, (_, i) => w[2 * i + 1]!).sort((x, y) => x - y);
      expect(ims[0]! + ims[3]!).toBeCloseTo(0, 12);
      expect(ims[1]! + ims[2]!).toBeCloseTo(0, 12);
    }
  });

  it('eig of a defective 3x3 Jordan block: triple eigenvalue, eigenvectors all ≈ ±e1', () => {
    const c = C['jordan3_eig']!;
    const w = new Float64Array(6),
      v = new Float64Array(18);
    expect(K.eig('float64', 1, 3, F64(arr(c, 'a')), w, v)[0]).toBe(0);
    expectClose(w, arr(c, 'w'), 1e-12);
    // LAPACK's vectors are e1 up to O(eps) (perturbed divisors); the same rule gives the same lines.
    for (let j = 0; j < 3; j++) {
      expect(Math.hypot(v[2 * j]!, v[2 * j + 1]!)).toBeCloseTo(1, 12);
      for (let r = 1; r < 3; r++) expect(Math.hypot(v[2 * (r * 3 + j)]!, v[2 * (r * 3 + j) + 1]!)).toBeLessThan(1e-12);
    }
    matchEig(w, v, arr(c, 'w'), arr(c, 'v'), 3, 1e-12, 1e-12);
  });

  it('lu of a 5x5: the factors and pivots of getrf, and det from them', () => {
    const c = C['det5_lu']!;
    const out = new Float64Array(25),
      piv = new Int32Array(5),
      perm = new Int32Array(5);
    expect(K.lu('float64', 1, 5, 5, F64(arr(c, 'a')), out, piv, perm)[0]).toBe(0);
    expect(Array.from(piv)).toEqual(arr(c, 'piv'));
    expectClose(out, arr(c, 'lu'), 1e-13);
    let det = 1;
    for (let i = 0; i < 5; i++) det *= (piv[i] !== i ? -1 : 1) * out[i * 6]!;
    expect(Math.abs(det - num(c, 'det'))).toBeLessThanOrEqual(1e-12 * Math.abs(num(c, 'det')));
  });

  it('lu of a complex 3x3 pivots like zgetrf (|re| + |im|)', () => {
    const c = C['complex3_lu']!;
    const out = new Float64Array(18),
      piv = new Int32Array(3),
      perm = new Int32Array(3);
    expect(K.lu('complex128', 1, 3, 3, F64(arr(c, 'a')), out, piv, perm)[0]).toBe(0);
    expect(Array.from(piv)).toEqual(arr(c, 'piv'));
    expectClose(out, arr(c, 'lu'), 1e-14);
  });

  it('lstsq of a rank-deficient 6x4: minimum-norm x, rank 2, singular values', () => {
    const c = C['rankdef6x4_lstsq']!;
    const x = new Float64Array(8),
      s = new Float64Array(4),
      rank = new Int32Array(1);
    expect(K.lstsq('float64', 1, 6, 4, 2, F64(arr(c, 'a')), F64(arr(c, 'rhs')), x, s, rank, -1)[0]).toBe(0);
    expect(rank[0]).toBe(num(c, 'rank'));
    expectClose(x, arr(c, 'x'), 1e-12);
    expectClose(s, arr(c, 's'), 1e-12 * arr(c, 's')[0]!);
  });

  it('qr of a real 4x3, reduced and complete: LAPACK signs exactly', () => {
    const c = C['real4x3_qr']!;
    const q = new Float64Array(12),
      r = new Float64Array(9),
      qc = new Float64Array(16),
      rc = new Float64Array(12);
    K.qr('float64', 1, 4, 3, F64(arr(c, 'a')), q, r, false);
    K.qr('float64', 1, 4, 3, F64(arr(c, 'a')), qc, rc, true);
    expectClose(q, arr(c, 'q'), 1e-14);
    expectClose(r, arr(c, 'r'), 1e-13);
    expectClose(qc, arr(c, 'qc'), 1e-14);
    expectClose(rc, arr(c, 'rc'), 1e-13);
  });

  it('qr of a complex 3x3: zgeqrf/zungqr values (real diagonal of r with LAPACK signs)', () => {
    const c = C['complex3_qr']!;
    const q = new Float64Array(18),
      r = new Float64Array(18);
    K.qr('complex128', 1, 3, 3, F64(arr(c, 'a')), q, r, false);
    expectClose(q, arr(c, 'q'), 1e-14);
    expectClose(r, arr(c, 'r'), 1e-13);
  });

  it('cholesky and eigvalsh of a complex Hermitian 3x3; complex64 agrees to float32 accuracy', () => {
    const c = C['complex3_cholesky']!;
    const l = new Float64Array(18),
      w = new Float64Array(3);
    expect(K.cholesky('complex128', 1, 3, F64(arr(c, 'a')), l, true)[0]).toBe(0);
    expectClose(l, arr(c, 'l'), 1e-14);
    expect(K.eigh('complex128', 1, 3, F64(arr(c, 'a')), w, null, true)[0]).toBe(0);
    expectClose(w, arr(c, 'w'), 1e-13);
    const l32 = new Float32Array(18),
      w32 = new Float32Array(3);
    K.cholesky('complex64', 1, 3, Float32Array.from(arr(c, 'a')), l32, true);
    K.eigh('complex64', 1, 3, Float32Array.from(arr(c, 'a')), w32, null, false);
    expectClose(l32, arr(c, 'l'), 0, 1e-5);
    expectClose(w32, arr(c, 'w'), 0, 1e-5);
  });
});
