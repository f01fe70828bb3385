// Helpers of the sparse integration tests: random sparse matrices built from
// triplets this file generates itself, and plain-JS dense references (products,
// LU solves) that do not go through the library, so a wrong kernel or rule
// cannot agree with itself.

import { expect } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import type { SparseDType } from '../../../src/sparse/contract.js';
import { prng } from '../../transforms/ad-harness.js';
import '../../harness/allclose.js';

export { prng };
export const SDTYPES: SparseDType[] = ['float32', 'float64', 'complex64', 'complex128'];
export const isCplx = (d: string): boolean => d === 'complex64' || d === 'complex128';
export const isSingle = (d: string): boolean => d === 'float32' || d === 'complex64';
export const lanesOf = (d: string): number => (isCplx(d) ? 2 : 1);

/** A dense complex matrix (re/im planes, row-major), the reference form of every test matrix. */
export interface Dense {
  rows: number;
  cols: number;
  re: Float64Array;
  im: Float64Array;
}

/** Random triplets (duplicates and unsorted order allowed) and their dense sum. */
export interface Triplets {
  rows: number;
  cols: number;
  dtype: SparseDType;
  ri: number[];
  ci: number[];
  /** Storage values (interleaved for complex), rounded to the dtype. */
  data: Float64Array;
  dense: Dense;
}

const round = (d: SparseDType, x: number) => (isSingle(d) ? Math.fround(x) : x);

/** Random triplets with the given density; `dup` repeats some entries (they sum). */
export function randomTriplets(r: () => number, rows: number, cols: number, density: number, dtype: SparseDType, dup = false): Triplets {
  const ri: number[] = [],
    ci: number[] = [],
    vals: number[] = [];
  const L = lanesOf(dtype);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++)
      if (r() < density) {
        const reps = dup && r() < 0.2 ? 2 : 1;
        for (let t = 0; t < reps; t++) {
          ri.push(i);
          ci.push(j);
          for (let l = 0; l < L; l++) vals.push(round(dtype, 2 * r() - 1));
        }
      }
  // shuffle (unsorted storage order)
  for (let a = ri.length - 1; a > 0; a--) {
    const b = Math.floor(r() * (a + 1));
    [ri[a], ri[b]] = [ri[b]!, ri[a]!];
    [ci[a], ci[b]] = [ci[b]!, ci[a]!];
    for (let l = 0; l < L; l++) [vals[a * L + l], vals[b * L + l]] = [vals[b * L + l]!, vals[a * L + l]!];
  }
  const dense: Dense = { rows, cols, re: new Float64Array(rows * cols), im: new Float64Array(rows * cols) };
  ri.forEach((i, e) => {
    dense.re[i * cols + ci[e]!] += vals[e * L]!;
    if (L === 2) dense.im[i * cols + ci[e]!] += vals[e * L + 1]!;
  });
  return { rows, cols, dtype, ri, ci, data: Float64Array.from(vals), dense };
}

/** The triplets as a matrix of `format` (CSR rows keep the shuffled order: unsorted indices). */
export function build(t: Triplets, format: 'csr' | 'csc' | 'coo'): rlx.sparse.SparseMatrix & { matvec(x: Tensor): Tensor; rmatvec(x: Tensor): Tensor; matmul(x: Tensor): Tensor } {
  if (format === 'coo') return rlx.sparse.coo({ row: t.ri, col: t.ci, data: t.data, shape: [t.rows, t.cols], dtype: t.dtype }) as never;
  const major = format === 'csr' ? t.ri : t.ci,
    minor = format === 'csr' ? t.ci : t.ri;
  const nMajor = format === 'csr' ? t.rows : t.cols;
  const L = lanesOf(t.dtype);
  const indptr = new Int32Array(nMajor + 1);
  for (const m of major) indptr[m + 1]!++;
  for (let i = 0; i < nMajor; i++) indptr[i + 1]! += indptr[i]!;
  const fill = indptr.slice(0, nMajor);
  const indices = new Int32Array(major.length);
  const data = new Float64Array(major.length * L);
  major.forEach((m, e) => {
    const p = fill[m]!++;
    indices[p] = minor[e]!;
    for (let l = 0; l < L; l++) data[p * L + l] = t.data[e * L + l]!;
  });
  const init = { indptr, indices, data, shape: [t.rows, t.cols] as [number, number], dtype: t.dtype };
  return (format === 'csr' ? rlx.sparse.csr(init) : rlx.sparse.csc(init)) as never;
}

/** A dense reference from a row-major real or interleaved-complex array. */
export function denseFrom(rows: number, cols: number, storage: ArrayLike<number>, complex: boolean): Dense {
  const d: Dense = { rows, cols, re: new Float64Array(rows * cols), im: new Float64Array(rows * cols) };
  for (let i = 0; i < rows * cols; i++) {
    d.re[i] = complex ? storage[2 * i]! : storage[i]!;
    d.im[i] = complex ? storage[2 * i + 1]! : 0;
  }
  return d;
}

/** Flat storage of a tensor as complex re/im planes. */
export function planes(x: Tensor): { re: Float64Array; im: Float64Array } {
  const a = x.toArray() as ArrayLike<number>;
  const c = isCplx(x.dtype);
  const n = c ? a.length / 2 : a.length;
  const re = new Float64Array(n),
    im = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    re[i] = c ? a[2 * i]! : a[i]!;
    im[i] = c ? a[2 * i + 1]! : 0;
  }
  return { re, im };
}

/** op(A) X in plain JS; X given as planes of shape [inner, k]; op 'N', 'T' or 'H'. */
export function refMul(A: Dense, X: { re: Float64Array; im: Float64Array }, k: number, op: 'N' | 'T' | 'H' = 'N'): { re: Float64Array; im: Float64Array } {
  const [m, inner] = op === 'N' ? [A.rows, A.cols] : [A.cols, A.rows];
  const re = new Float64Array(m * k),
    im = new Float64Array(m * k);
  for (let i = 0; i < m; i++)
    for (let q = 0; q < inner; q++) {
      const idx = op === 'N' ? i * A.cols + q : q * A.cols + i;
      const ar = A.re[idx]!,
        ai = op === 'H' ? -A.im[idx]! : A.im[idx]!;
      if (ar === 0 && ai === 0) continue;
      for (let c = 0; c < k; c++) {
        const xr = X.re[q * k + c]!,
          xi = X.im[q * k + c]!;
        re[i * k + c] += ar * xr - ai * xi;
        im[i * k + c] += ar * xi + ai * xr;
      }
    }
  return { re, im };
}

/** op(A)⁻¹ B by dense complex Gaussian elimination with partial pivoting (plain JS). */
export function refSolve(A: Dense, B: { re: Float64Array; im: Float64Array }, k: number, op: 'N' | 'T' | 'H' = 'N'): { re: Float64Array; im: Float64Array } {
  const n = A.rows;
  const ar = new Float64Array(n * n),
    ai = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      const idx = op === 'N' ? i * n + j : j * n + i;
      ar[i * n + j] = A.re[idx]!;
      ai[i * n + j] = op === 'H' ? -A.im[idx]! : A.im[idx]!;
    }
  const xr = Float64Array.from(B.re),
    xi = Float64Array.from(B.im);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let i = c + 1; i < n; i++) if (Math.hypot(ar[i * n + c]!, ai[i * n + c]!) > Math.hypot(ar[p * n + c]!, ai[p * n + c]!)) p = i;
    const swap = (a: Float64Array, w: number) => {
      for (let j = 0; j < w; j++) [a[c * w + j], a[p * w + j]] = [a[p * w + j]!, a[c * w + j]!];
    };
    if (p !== c) [ar, ai].forEach((a) => swap(a, n)), [xr, xi].forEach((a) => swap(a, k));
    const pr = ar[c * n + c]!,
      pi = ai[c * n + c]!,
      d = pr * pr + pi * pi;
    if (d === 0) throw new Error('refSolve: singular');
    for (let i = c + 1; i < n; i++) {
      const lr = (ar[i * n + c]! * pr + ai[i * n + c]! * pi) / d,
        li = (ai[i * n + c]! * pr - ar[i * n + c]! * pi) / d;
      for (let j = c; j < n; j++) {
        ar[i * n + j] -= lr * ar[c * n + j]! - li * ai[c * n + j]!;
        ai[i * n + j] -= lr * ai[c * n + j]! + li * ar[c * n + j]!;
      }
      for (let j = 0; j < k; j++) {
        xr[i * k + j] -= lr * xr[c * k + j]! - li * xi[c * k + j]!;
        xi[i * k + j] -= lr * xi[c * k + j]! + li * xr[c * k + j]!;
      }
    }
  }
  for (let c = n - 1; c >= 0; c--) {
    const pr = ar[c * n + c]!,
      pi = ai[c * n + c]!,
      d = pr * pr + pi * pi;
    for (let j = 0; j < k; j++) {
      let sr = xr[c * k + j]!,
        si = xi[c * k + j]!;
      for (let q = c + 1; q < n; q++) {
        sr -= ar[c * n + q]! * xr[q * k + j]! - ai[c * n + q]! * xi[q * k + j]!;
        si -= ar[c * n + q]! * xi[q * k + j]! + ai[c * n + q]! * xr[q * k + j]!;
      }
      xr[c * k + j] = (sr * pr + si * pi) / d;
      xi[c * k + j] = (si * pr - sr * pi) / d;
    }
  }
  return { re: xr, im: xi };
}

/** A random tensor of `dtype` and `shape` plus its planes (values rounded to the dtype). */
export function randTensor(r: () => number, shape: number[], dtype: string, device?: string): { t: Tensor; p: { re: Float64Array; im: Float64Array } } {
  const n = shape.reduce((a, b) => a * b, 1);
  const c = isCplx(dtype);
  const a = new Float64Array(n * (c ? 2 : 1)).map(() => 2 * r() - 1);
  const stor = isSingle(dtype) ? Float32Array.from(a) : a;
  const t = rlx.fromStorage(stor, shape, dtype as rlx.DType);
  const p = { re: new Float64Array(n), im: new Float64Array(n) };
  for (let i = 0; i < n; i++) {
    p.re[i] = c ? stor[2 * i]! : stor[i]!;
    p.im[i] = c ? stor[2 * i + 1]! : 0;
  }
  return { t: device ? t.on(device) : t, p };
}

/** Elementwise |a − b| ≤ atol + rtol·|b| over complex planes (message names the first bad index). */
export function expectPlanesClose(a: { re: Float64Array; im: Float64Array }, b: { re: Float64Array; im: Float64Array }, tol: { rtol: number; atol: number }, what = ''): void {
  expect(a.re.length, `${what} length`).toBe(b.re.length);
  for (let i = 0; i < a.re.length; i++) {
    const e = Math.hypot(a.re[i]! - b.re[i]!, a.im[i]! - b.im[i]!);
    const lim = tol.atol + tol.rtol * Math.hypot(b.re[i]!, b.im[i]!);
    if (!(e <= lim)) expect.fail(`${what} index ${i}: got ${a.re[i]}+${a.im[i]}i, expected ${b.re[i]}+${b.im[i]}i (|diff| ${e} > ${lim})`);
  }
}

/** A random well-conditioned non-symmetric n×n triplet set: random sparse + diagonal shift. */
export function randomNonsym(r: () => number, n: number, dtype: SparseDType, density = 0.3): Triplets {
  const t = randomTriplets(r, n, n, density, dtype);
  const L = lanesOf(dtype);
  const extra: number[] = [];
  for (let i = 0; i < n; i++) {
    t.ri.push(i);
    t.ci.push(i);
    const v = round(dtype, 2 + 2 * n + r()); // dominant even after ±0.3 perturbations of complex entries
    extra.push(v);
    if (L === 2) extra.push(round(dtype, r() - 0.5));
    t.dense.re[i * n + i] += v;
    if (L === 2) t.dense.im[i * n + i] += extra[extra.length - 1]!;
  }
  t.data = Float64Array.from([...t.data, ...extra]);
  return t;
}

/** A random SPD (HPD for complex) n×n triplet set: B + Bᴴ + (n+2)·I pattern-symmetrized. */
export function randomSpd(r: () => number, n: number, dtype: SparseDType, density = 0.3): Triplets {
  const L = lanesOf(dtype);
  const ri: number[] = [],
    ci: number[] = [],
    vals: number[] = [];
  const dense: Dense = { rows: n, cols: n, re: new Float64Array(n * n), im: new Float64Array(n * n) };
  const push = (i: number, j: number, re: number, im: number) => {
    ri.push(i);
    ci.push(j);
    vals.push(re);
    if (L === 2) vals.push(im);
    dense.re[i * n + j] += re;
    dense.im[i * n + j] += im;
  };
  for (let i = 0; i < n; i++) {
    push(i, i, round(dtype, 1.5 * n + 1 + r()), 0); // strictly diagonally dominant: |a_ij| ≤ √2
    for (let j = 0; j < i; j++)
      if (r() < density) {
        const re = round(dtype, 2 * r() - 1),
          im = L === 2 ? round(dtype, 2 * r() - 1) : 0;
        push(i, j, re, im);
        push(j, i, re, -im);
      }
  }
  return { rows: n, cols: n, dtype, ri, ci, data: Float64Array.from(vals), dense };
}
