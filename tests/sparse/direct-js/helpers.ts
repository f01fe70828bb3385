// Test helpers for the js sparse direct solvers: a seeded RNG, dense matrices
// (re/im planes, row-major), conversion to CSR/CSC arrays, the model problems
// (poisson2d, convection–diffusion, complex Helmholtz), a naive dense LU with
// partial pivoting for expected values, and sparse mat-vec residuals. Nothing
// here calls the code under test.

import type { CompressedArrays, SparseDType } from '../../../src/sparse/contract.js';
export { mulberry32 } from '../../harness/prng.js';

export type Fmt = 'csr' | 'csc';
export type Input = CompressedArrays & { format: Fmt };

export const isCplx = (d: SparseDType) => d === 'complex64' || d === 'complex128';

/** Dense n×n, row-major, separate real and imaginary planes (im all zero for real). */
export interface Dense {
  n: number;
  re: Float64Array;
  im: Float64Array;
}

export const zeros = (n: number): Dense => ({ n, re: new Float64Array(n * n), im: new Float64Array(n * n) });

/** Round values as the dtype stores them, so the dense reference sees exactly what the solver sees. */
export function roundTo(d: SparseDType, a: Dense): Dense {
  if (d === 'float64' || d === 'complex128') return a;
  return { n: a.n, re: Float64Array.from(Float32Array.from(a.re)), im: Float64Array.from(Float32Array.from(a.im)) };
}

/** CSR or CSC arrays of the nonzeros of a (an explicit `keep` mask may add structural zeros). */
export function toArrays(a: Dense, dtype: SparseDType, format: Fmt, keep?: (i: number, j: number) => boolean): Input {
  const { n } = a;
  const c = isCplx(dtype);
  const indptr = new Int32Array(n + 1);
  const idx: number[] = [];
  const vals: number[] = [];
  for (let o = 0; o < n; o++) {
    for (let t = 0; t < n; t++) {
      const [i, j] = format === 'csr' ? [o, t] : [t, o];
      const r = a.re[i * n + j],
        m = a.im[i * n + j];
      if (r === 0 && m === 0 && !(keep && keep(i, j))) continue;
      idx.push(t);
      if (c) vals.push(r, m);
      else vals.push(r);
    }
    indptr[o + 1] = idx.length;
  }
  const F = dtype === 'float32' || dtype === 'complex64' ? Float32Array : Float64Array;
  return { shape: [n, n], dtype, indptr, indices: Int32Array.from(idx), data: F.from(vals), format };
}

export function denseFromCsr(a: CompressedArrays): Dense {
  const n = a.shape[0];
  const d = zeros(n);
  const c = isCplx(a.dtype);
  for (let i = 0; i < n; i++)
    for (let p = a.indptr[i]; p < a.indptr[i + 1]; p++) {
      const j = a.indices[p];
      d.re[i * n + j] += c ? a.data[2 * p] : a.data[p];
      if (c) d.im[i * n + j] += a.data[2 * p + 1];
    }
  return d;
}

/** Random sparse matrix with the given density plus a dominant weighted permutation (forces off-diagonal pivots when perm ≠ id). */
export function randomSparse(n: number, density: number, cplx: boolean, rnd: () => number, mode: 'diag' | 'perm' | 'none'): Dense {
  const a = zeros(n);
  for (let k = 0; k < n * n; k++)
    if (rnd() < density) {
      a.re[k] = 2 * rnd() - 1;
      if (cplx) a.im[k] = 2 * rnd() - 1;
    }
  if (mode !== 'none') {
    const perm = Array.from({ length: n }, (_, i) => i);
    if (mode === 'perm')
      for (let i = n - 1; i > 0; i--) {
        const j = Math.floor(rnd() * (i + 1));
        [perm[i], perm[j]] = [perm[j], perm[i]];
      }
    for (let i = 0; i < n; i++) {
      const s = rnd() < 0.5 ? -1 : 1;
      a.re[i * n + perm[i]] = s * (n * density + 3);
      if (cplx) a.im[i * n + perm[i]] = 0.5 * s;
    }
  }
  return a;
}

/** op(A) as a dense matrix: 'N' A, 'T' Aᵀ, 'H' Aᴴ. */
export function opDense(a: Dense, trans: 'N' | 'T' | 'H'): Dense {
  if (trans === 'N') return a;
  const { n } = a;
  const t = zeros(n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) {
      t.re[j * n + i] = a.re[i * n + j];
      t.im[j * n + i] = trans === 'H' ? -a.im[i * n + j] : a.im[i * n + j];
    }
  return t;
}

/** Naive dense LU with partial pivoting: solve A X = B (B n×k row-major, interleaved if complex) and log|det|, sign. */
export function denseSolve(a: Dense, b: Float64Array, k: number, cplx: boolean): { x: Float64Array; logabsdet: number; sign: [number, number] } {
  const { n } = a;
  const re = a.re.slice(),
    im = a.im.slice();
  const xr = new Float64Array(n * k),
    xm = new Float64Array(n * k);
  for (let i = 0; i < n * k; i++) {
    xr[i] = cplx ? b[2 * i] : b[i];
    xm[i] = cplx ? b[2 * i + 1] : 0;
  }
  let sr = 1,
    sm = 0,
    logabs = 0;
  const swapRow = (A: Float64Array, w: number, r1: number, r2: number) => {
    for (let j = 0; j < w; j++) [A[r1 * w + j], A[r2 * w + j]] = [A[r2 * w + j], A[r1 * w + j]];
  };
  for (let c = 0; c < n; c++) {
    let p = c,
      best = -1;
    for (let r = c; r < n; r++) {
      const v = Math.hypot(re[r * n + c], im[r * n + c]);
      if (v > best) {
        best = v;
        p = r;
      }
    }
    if (best === 0) return { x: new Float64Array(b.length).fill(NaN), logabsdet: -Infinity, sign: [0, 0] };
    if (p !== c) {
      swapRow(re, n, p, c);
      swapRow(im, n, p, c);
      swapRow(xr, k, p, c);
      swapRow(xm, k, p, c);
      sr = -sr;
      sm = -sm;
    }
    const pr = re[c * n + c],
      pm = im[c * n + c];
    const ab = Math.hypot(pr, pm);
    logabs += Math.log(ab);
    [sr, sm] = [sr * (pr / ab) - sm * (pm / ab), sr * (pm / ab) + sm * (pr / ab)];
    const den = pr * pr + pm * pm;
    for (let r = c + 1; r < n; r++) {
      const ar = re[r * n + c],
        am = im[r * n + c];
      const fr = (ar * pr + am * pm) / den,
        fm = (am * pr - ar * pm) / den;
      if (fr === 0 && fm === 0) continue;
      for (let j = c; j < n; j++) {
        const ur = re[c * n + j],
          um = im[c * n + j];
        re[r * n + j] -= fr * ur - fm * um;
        im[r * n + j] -= fr * um + fm * ur;
      }
      for (let j = 0; j < k; j++) {
        const ur = xr[c * k + j],
          um = xm[c * k + j];
        xr[r * k + j] -= fr * ur - fm * um;
        xm[r * k + j] -= fr * um + fm * ur;
      }
    }
  }
  for (let c = n - 1; c >= 0; c--) {
    const pr = re[c * n + c],
      pm = im[c * n + c];
    const den = pr * pr + pm * pm;
    for (let j = 0; j < k; j++) {
      let sr2 = xr[c * k + j],
        sm2 = xm[c * k + j];
      for (let t = c + 1; t < n; t++) {
        const ur = re[c * n + t],
          um = im[c * n + t];
        sr2 -= ur * xr[t * k + j] - um * xm[t * k + j];
        sm2 -= ur * xm[t * k + j] + um * xr[t * k + j];
      }
      xr[c * k + j] = (sr2 * pr + sm2 * pm) / den;
      xm[c * k + j] = (sm2 * pr - sr2 * pm) / den;
    }
  }
  const x = new Float64Array(b.length);
  for (let i = 0; i < n * k; i++) {
    if (cplx) {
      x[2 * i] = xr[i];
      x[2 * i + 1] = xm[i];
    } else x[i] = xr[i];
  }
  return { x, logabsdet: logabs, sign: [sr, sm] };
}

/** y = op(A) x for CSR arrays (single right-hand side). */
export function matvec(a: CompressedArrays, x: Float64Array, trans: 'N' | 'T' | 'H' = 'N'): Float64Array {
  const n = a.shape[0];
  const c = isCplx(a.dtype);
  const y = new Float64Array(x.length);
  const cj = trans === 'H' ? -1 : 1;
  for (let i = 0; i < n; i++)
    for (let p = a.indptr[i]; p < a.indptr[i + 1]; p++) {
      const j = a.indices[p];
      const [r, s] = trans === 'N' ? [i, j] : [j, i];
      if (c) {
        const ar = a.data[2 * p],
          am = (trans === 'N' ? 1 : cj) * a.data[2 * p + 1];
        y[2 * r] += ar * x[2 * s] - am * x[2 * s + 1];
        y[2 * r + 1] += ar * x[2 * s + 1] + am * x[2 * s];
      } else y[r] += a.data[p] * x[s];
    }
  return y;
}

export const norm = (v: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < v.length; i++) s += v[i] * v[i];
  return Math.sqrt(s);
};

export function relDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s) / Math.max(norm(b), 1e-300);
}

/** ‖op(A) x − b‖ / ‖b‖ for CSR A. */
export const relResidual = (a: CompressedArrays, x: Float64Array, b: Float64Array, trans: 'N' | 'T' | 'H' = 'N') => relDiff(matvec(a, x, trans), b);

/** Build CSR arrays from a row-wise entry generator. */
function csrFrom(n: number, dtype: SparseDType, row: (i: number, push: (j: number, re: number, im?: number) => void) => void): Input {
  const c = isCplx(dtype);
  const indptr = new Int32Array(n + 1);
  const idx: number[] = [],
    vals: number[] = [];
  for (let i = 0; i < n; i++) {
    row(i, (j, re, im = 0) => {
      idx.push(j);
      if (c) vals.push(re, im);
      else vals.push(re);
    });
    indptr[i + 1] = idx.length;
  }
  const F = dtype === 'float32' || dtype === 'complex64' ? Float32Array : Float64Array;
  return { shape: [n, n], dtype, indptr, indices: Int32Array.from(idx), data: F.from(vals), format: 'csr' };
}

/** 5-point Dirichlet Laplacian on an m×m grid (n = m²): 4 on the diagonal, −1 to the grid neighbours. */
export function poisson2d(m: number, dtype: SparseDType = 'float64'): Input {
  return csrFrom(m * m, dtype, (i, push) => {
    const r = Math.floor(i / m),
      c = i % m;
    if (r > 0) push(i - m, -1);
    if (c > 0) push(i - 1, -1);
    push(i, 4);
    if (c < m - 1) push(i + 1, -1);
    if (r < m - 1) push(i + m, -1);
  });
}

/** Upwind convection–diffusion −Δu + β·∇u on an m×m grid, mesh Péclet number `pe` (non-symmetric). */
export function convectionDiffusion(m: number, pe = 2): Input {
  return csrFrom(m * m, 'float64', (i, push) => {
    const r = Math.floor(i / m),
      c = i % m;
    if (r > 0) push(i - m, -1 - pe * 0.5);
    if (c > 0) push(i - 1, -1 - pe);
    push(i, 4 + 1.5 * pe);
    if (c < m - 1) push(i + 1, -1);
    if (r < m - 1) push(i + m, -1);
  });
}

/** Complex Helmholtz −Δu − k²(1 + iσ)u on an m×m grid (h = 1/(m+1)), indefinite real part. */
export function helmholtz(m: number, k = 10, sigma = 0.1): Input {
  const h = 1 / (m + 1);
  const s = (k * h) ** 2;
  return csrFrom(m * m, 'complex128', (i, push) => {
    const r = Math.floor(i / m),
      c = i % m;
    if (r > 0) push(i - m, -1);
    if (c > 0) push(i - 1, -1);
    push(i, 4 - s, -s * sigma);
    if (c < m - 1) push(i + 1, -1);
    if (r < m - 1) push(i + m, -1);
  });
}

export function randVec(len: number, rnd: () => number): Float64Array {
  const v = new Float64Array(len);
  for (let i = 0; i < len; i++) v[i] = 2 * rnd() - 1;
  return v;
}
