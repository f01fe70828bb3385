// Test utilities for the sparse solvers: CSR arrays of model problems, a dense
// reference solver, and a raw CSR operator (the CsrMatrix class is written
// separately; these tests only rely on src/sparse/contract.ts).

import type { CompressedArrays, RawOperator } from '../../../src/sparse/contract.js';
import { csrMatvec, csrRmatvec } from '../../../src/sparse/solvers/csr-kernels.js';

type Entry = [col: number, re: number, im: number];

/** CSR arrays from per-row entry lists (sorted, duplicates summed). */
export function fromRows(n: number, rows: Entry[][], complex = false, m = n): CompressedArrays {
  const indptr = new Int32Array(rows.length + 1);
  const cols: number[] = [],
    vals: number[] = [];
  rows.forEach((row, i) => {
    const sorted = [...row].sort((a, b) => a[0] - b[0]);
    const merged: Entry[] = [];
    for (const e of sorted) {
      const last = merged[merged.length - 1];
      if (last && last[0] === e[0]) {
        last[1] += e[1];
        last[2] += e[2];
      } else merged.push([...e]);
    }
    for (const [j, re, im] of merged) {
      cols.push(j);
      if (complex) vals.push(re, im);
      else vals.push(re);
    }
    indptr[i + 1] = cols.length;
  });
  return { shape: [rows.length, m === n ? n : m], dtype: complex ? 'complex128' : 'float64', indptr, indices: Int32Array.from(cols), data: Float64Array.from(vals) };
}

/** 1D Dirichlet Laplacian tridiag(−1, 2, −1), n×n. */
export function poisson1d(n: number): CompressedArrays {
  const rows: Entry[][] = [];
  for (let i = 0; i < n; i++) {
    const r: Entry[] = [[i, 2, 0]];
    if (i > 0) r.push([i - 1, -1, 0]);
    if (i < n - 1) r.push([i + 1, -1, 0]);
    rows.push(r);
  }
  return fromRows(n, rows);
}

/** 5-point stencil on an n×n grid, generic coefficients; index i + n·j. */
function grid(n: number, f: (i: number, j: number) => { d: [number, number]; w: [number, number]; e: [number, number]; s: [number, number]; nn: [number, number] }, complex: boolean): CompressedArrays {
  const rows: Entry[][] = [];
  for (let j = 0; j < n; j++)
    for (let i = 0; i < n; i++) {
      const c = f(i, j);
      const r: Entry[] = [[i + n * j, c.d[0], c.d[1]]];
      if (i > 0) r.push([i - 1 + n * j, c.w[0], c.w[1]]);
      if (i < n - 1) r.push([i + 1 + n * j, c.e[0], c.e[1]]);
      if (j > 0) r.push([i + n * (j - 1), c.s[0], c.s[1]]);
      if (j < n - 1) r.push([i + n * (j + 1), c.nn[0], c.nn[1]]);
      rows.push(r);
    }
  return fromRows(n * n, rows, complex);
}

/** 2D Dirichlet Laplacian (unscaled 5-point stencil), N = n². Eigenvalues 4 − 2cos(iπ/(n+1)) − 2cos(jπ/(n+1)). */
export const poisson2d = (n: number): CompressedArrays => grid(n, () => ({ d: [4, 0], w: [-1, 0], e: [-1, 0], s: [-1, 0], nn: [-1, 0] }), false);

/**
 * −∇·(κ∇u) with κ(x, y) = 10^(3x)·(1 + 99·[y > 1/2]) taken at cell faces: SPD, the
 * diagonal varies over ~5 orders of magnitude, which is what Jacobi scaling fixes.
 */
export function variableDiffusion(n: number): CompressedArrays {
  const h = 1 / (n + 1);
  const kappa = (x: number, y: number) => 10 ** (3 * x) * (y > 0.5 ? 100 : 1);
  return grid(
    n,
    (i, j) => {
      const x = (i + 1) * h,
        y = (j + 1) * h;
      const kw = kappa(x - h / 2, y),
        ke = kappa(x + h / 2, y),
        ks = kappa(x, y - h / 2),
        kn = kappa(x, y + h / 2);
      return { d: [kw + ke + ks + kn, 0], w: [-kw, 0], e: [-ke, 0], s: [-ks, 0], nn: [-kn, 0] };
    },
    false,
  );
}

/** −Δu + (cx, cy)·∇u, first-order upwind (cx, cy ≥ 0), mesh Péclet numbers px = cx·h, py = cy·h. Non-symmetric M-matrix. */
export const convectionDiffusion = (n: number, px = 1, py = 0.5): CompressedArrays =>
  grid(n, () => ({ d: [4 + px + py, 0], w: [-1 - px, 0], e: [-1, 0], s: [-1 - py, 0], nn: [-1, 0] }), false);

/** Complex Helmholtz: 5-point Laplacian − (σ + iτ) I (shifted, with complex damping τ > 0). Complex symmetric, not Hermitian. */
export const helmholtz = (n: number, sigma = 0.3, tau = 0.4): CompressedArrays =>
  grid(n, () => ({ d: [4 - sigma, -tau], w: [-1, 0], e: [-1, 0], s: [-1, 0], nn: [-1, 0] }), true);

/** Magnetic Laplacian (Peierls phases e^{±iθ} on x-links, shift δ): complex Hermitian positive definite. */
export const magneticLaplacian = (n: number, theta = 0.7, delta = 0.05): CompressedArrays =>
  grid(n, (_i, j) => {
    const ph = theta * j;
    return { d: [4 + delta, 0], w: [-Math.cos(ph), Math.sin(ph)], e: [-Math.cos(ph), -Math.sin(ph)], s: [-1, 0], nn: [-1, 0] };
  }, true);

/** Dense row-major values → CSR (complex: interleaved values of length 2·m·n). */
export function denseToCsr(m: number, n: number, vals: ArrayLike<number>, complex = false): CompressedArrays {
  const rows: Entry[][] = [];
  for (let i = 0; i < m; i++) {
    const r: Entry[] = [];
    for (let j = 0; j < n; j++) {
      const re = complex ? vals[2 * (i * n + j)]! : vals[i * n + j]!,
        im = complex ? vals[2 * (i * n + j) + 1]! : 0;
      if (re !== 0 || im !== 0) r.push([j, re, im]);
    }
    rows.push(r);
  }
  return fromRows(n, rows, complex, n);
}

/** CSR → dense row-major (interleaved for complex). */
export function csrToDense(a: CompressedArrays): Float64Array {
  const [m, n] = a.shape;
  const cplx = a.dtype.startsWith('complex');
  const out = new Float64Array((cplx ? 2 : 1) * m * n);
  for (let i = 0; i < m; i++)
    for (let k = a.indptr[i]!; k < a.indptr[i + 1]!; k++) {
      const j = a.indices[k]!;
      if (cplx) {
        out[2 * (i * n + j)]! += a.data[2 * k]!;
        out[2 * (i * n + j) + 1]! += a.data[2 * k + 1]!;
      } else out[i * n + j]! += a.data[k]!;
    }
  return out;
}

/** The raw operator of CSR arrays (what CsrMatrix will provide). Counts its matvecs. */
export function csrOperator(a: CompressedArrays): RawOperator & { count: number } {
  const op = {
    shape: a.shape,
    dtype: a.dtype,
    count: 0,
    matvec(x: Float64Array, out?: Float64Array) {
      op.count++;
      return csrMatvec(a, x, out);
    },
    rmatvec: (x: Float64Array, out?: Float64Array) => csrRmatvec(a, x, out),
  };
  return op;
}

/** Dense Gaussian elimination with partial pivoting (real or interleaved complex). */
export function denseSolve(n: number, Ain: ArrayLike<number>, bin: ArrayLike<number>, complex = false): Float64Array {
  const L = complex ? 2 : 1;
  const A = Float64Array.from(Ain),
    b = Float64Array.from(bin);
  const get = (i: number, j: number): [number, number] => (complex ? [A[2 * (i * n + j)]!, A[2 * (i * n + j) + 1]!] : [A[i * n + j]!, 0]);
  for (let k = 0; k < n; k++) {
    let p = k,
      best = -1;
    for (let i = k; i < n; i++) {
      const [re, im] = get(i, k);
      const a = Math.hypot(re, im);
      if (a > best) {
        best = a;
        p = i;
      }
    }
    if (p !== k) {
      for (let j = 0; j < L * n; j++) [A[L * k * n + j], A[L * p * n + j]] = [A[L * p * n + j]!, A[L * k * n + j]!];
      for (let l = 0; l < L; l++) [b[L * k + l], b[L * p + l]] = [b[L * p + l]!, b[L * k + l]!];
    }
    const [pr, pi] = get(k, k);
    const d = pr * pr + pi * pi;
    for (let i = k + 1; i < n; i++) {
      const [ar, ai] = get(i, k);
      if (ar === 0 && ai === 0) continue;
      const fr = (ar * pr + ai * pi) / d,
        fi = (ai * pr - ar * pi) / d; // f = a_ik / a_kk
      for (let j = k; j < n; j++) {
        const [ur, ui] = get(k, j);
        if (complex) {
          A[2 * (i * n + j)]! -= fr * ur - fi * ui;
          A[2 * (i * n + j) + 1]! -= fr * ui + fi * ur;
        } else A[i * n + j]! -= fr * ur;
      }
      if (complex) {
        const br = b[2 * k]!,
          bi = b[2 * k + 1]!;
        b[2 * i]! -= fr * br - fi * bi;
        b[2 * i + 1]! -= fr * bi + fi * br;
      } else b[i]! -= fr * b[k]!;
    }
  }
  const x = new Float64Array(L * n);
  for (let i = n - 1; i >= 0; i--) {
    let sr = complex ? b[2 * i]! : b[i]!,
      si = complex ? b[2 * i + 1]! : 0;
    for (let j = i + 1; j < n; j++) {
      const [ar, ai] = get(i, j);
      const xr = complex ? x[2 * j]! : x[j]!,
        xi = complex ? x[2 * j + 1]! : 0;
      sr -= ar * xr - ai * xi;
      si -= ar * xi + ai * xr;
    }
    const [dr, di] = get(i, i);
    const d = dr * dr + di * di;
    if (complex) {
      x[2 * i] = (sr * dr + si * di) / d;
      x[2 * i + 1] = (si * dr - sr * di) / d;
    } else x[i] = sr / dr;
  }
  return x;
}

export const norm = (x: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i]! * x[i]!;
  return Math.sqrt(s);
};

/** ‖b − A x‖ with the CSR kernel. */
export function residual(a: CompressedArrays, x: Float64Array, b: Float64Array): number {
  const ax = csrMatvec(a, x);
  let s = 0;
  for (let i = 0; i < b.length; i++) s += (b[i]! - ax[i]!) ** 2;
  return Math.sqrt(s);
}

/** A deterministic pseudo-random vector in [−1, 1). */
export function randomVector(len: number, seed = 7): Float64Array {
  let s = seed >>> 0 || 1;
  const v = new Float64Array(len);
  for (let i = 0; i < len; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    v[i] = s / 2 ** 31 - 1;
  }
  return v;
}

export const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
};
