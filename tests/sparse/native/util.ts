// Test utilities for the native sparse kernels: CSR builders (2D Poisson,
// random), dense references (products, complex LU solve and log-det) and the
// describe() that skips without the addon.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'vitest';
import type { CompressedArrays, SparseDType } from '../../../src/sparse/contract.js';
import { nativeAddon } from '../../../src/backends/native/addon.js';
import { packageRoot } from '../../../src/package-root.js';
import { describeNative } from '../../native/native-harness.js';
import { hasUmfpack, kluFactor, umfpackFactor, type KluFactor, type UmfpackFactor } from '../../../src/sparse/kernels/native-direct.js';
export { describeNative, rng } from '../../native/native-harness.js';

/**
 * The optional parts the loaded addon's build left out on request: status.json's
 * leftOut (scripts/build-native.mjs: RLX_NO_FFTW / RLX_NO_UMFPACK / RLX_NO_GPL),
 * in the build directory the loader uses ($RLX_NATIVE_BUILD_DIR or native/build;
 * none is known for an addon named by RLX_NATIVE_PATH).
 */
export function leftOutOnRequest(): string[] {
  if (process.env['RLX_NATIVE_PATH']) return [];
  const dir = process.env['RLX_NATIVE_BUILD_DIR'] ? resolve(process.env['RLX_NATIVE_BUILD_DIR']) : join(packageRoot(), 'native', 'build');
  try {
    const s = JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')) as { leftOut?: unknown };
    return Array.isArray(s.leftOut) ? s.leftOut.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Why the UMFPACK tests are skipped, or undefined when they run. They skip only
 * when the loaded addon has no UMFPACK *and* its build left UMFPACK out on
 * request (status.json's leftOut); an addon lacking it otherwise (a stale or
 * broken build) runs them, and they fail.
 */
export const UMFPACK_SKIP: string | undefined =
  nativeAddon() !== undefined && !hasUmfpack() && leftOutOnRequest().includes('umfpack')
    ? 'this addon was built without UMFPACK on request (RLX_NO_UMFPACK=1 or RLX_NO_GPL=1; status.json leftOut)'
    : undefined;

/** describeNative(), or describe.skip() with UMFPACK_SKIP's reason in the name. */
export function describeUmfpack(name: string, body: () => void): void {
  if (UMFPACK_SKIP) describe.skip(`${name} [skipped: ${UMFPACK_SKIP}]`, body);
  else describeNative(name, body);
}

/** it(), or it.skip() with UMFPACK_SKIP's reason in the name. */
export function itUmfpack(name: string, fn: () => void | Promise<void>, timeout?: number): void {
  if (UMFPACK_SKIP) it.skip(`${name} [skipped: ${UMFPACK_SKIP}]`, fn, timeout);
  else it(name, fn, timeout);
}

/** The native general LU factorizations under test: UMFPACK and KLU, or KLU alone when UMFPACK_SKIP. */
export const LU_MAKERS: ((a: CompressedArrays) => UmfpackFactor | KluFactor)[] =
  UMFPACK_SKIP ? [kluFactor] : [umfpackFactor, kluFactor];

export const DTYPES: SparseDType[] = ['float32', 'float64', 'complex64', 'complex128'];
export const isCplx = (d: SparseDType) => d === 'complex64' || d === 'complex128';
export const storage = (d: SparseDType) => (d === 'float32' || d === 'complex64' ? Float32Array : Float64Array);
export const per = (d: SparseDType) => (isCplx(d) ? 2 : 1);

/** The 5-point Laplacian on an m×m grid (n = m², SPD), CSR with sorted rows. */
export function poisson2d(m: number, dtype: SparseDType = 'float64'): CompressedArrays {
  const n = m * m;
  const p = per(dtype);
  const indptr = new Int32Array(n + 1);
  const indices = new Int32Array(5 * n);
  const data = new (storage(dtype))(5 * n * p);
  let k = 0;
  const put = (j: number, v: number) => {
    indices[k] = j;
    data[k * p] = v;
    k++;
  };
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < m; j++) {
      const r = i * m + j;
      if (i > 0) put(r - m, -1);
      if (j > 0) put(r - 1, -1);
      put(r, 4);
      if (j < m - 1) put(r + 1, -1);
      if (i < m - 1) put(r + m, -1);
      indptr[r + 1] = k;
    }
  }
  return { shape: [n, n], dtype, indptr, indices: indices.slice(0, k), data: data.slice(0, k * p) };
}

/** A CSR matrix from dense values (row-major, interleaved for complex), keeping entries where keep(i, j). */
export function fromDense(dense: ArrayLike<number>, rows: number, cols: number, dtype: SparseDType, keep?: (i: number, j: number) => boolean): CompressedArrays {
  const p = per(dtype);
  const ip = [0];
  const ix: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      const re = dense[(i * cols + j) * p]!, im = p === 2 ? dense[(i * cols + j) * p + 1]! : 0;
      if (keep ? keep(i, j) : re !== 0 || im !== 0) {
        ix.push(j);
        d.push(re);
        if (p === 2) d.push(im);
      }
    }
    ip.push(ix.length);
  }
  return { shape: [rows, cols], dtype, indptr: Int32Array.from(ip), indices: Int32Array.from(ix), data: storage(dtype).from(d) };
}

/** Dense complex form (re, im interleaved, Float64) of a CSR matrix; duplicates summed. */
export function toDense(a: CompressedArrays): Float64Array {
  const [rows, cols] = a.shape;
  const p = per(a.dtype);
  const out = new Float64Array(rows * cols * 2);
  for (let i = 0; i < rows; i++) {
    for (let k = a.indptr[i]!; k < a.indptr[i + 1]!; k++) {
      const j = a.indices[k]!;
      out[(i * cols + j) * 2] += a.data[k * p]!;
      if (p === 2) out[(i * cols + j) * 2 + 1] += a.data[k * p + 1]!;
    }
  }
  return out;
}

/** Reads a vector of the dtype's layout into complex interleaved Float64. */
export function toC(v: ArrayLike<number>, dtype: SparseDType): Float64Array {
  const p = per(dtype);
  const n = v.length / p;
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    out[2 * i] = v[i * p]!;
    if (p === 2) out[2 * i + 1] = v[i * p + 1]!;
  }
  return out;
}

/** Y[rows, k] = op(A) X for dense complex A [rows, cols]; op: N, T (transpose), H (conjugate transpose). X complex [inner, k]. */
export function denseMul(A: Float64Array, rows: number, cols: number, X: Float64Array, k: number, op: 'N' | 'T' | 'H' = 'N'): Float64Array {
  const [m, inner] = op === 'N' ? [rows, cols] : [cols, rows];
  const Y = new Float64Array(m * k * 2);
  for (let i = 0; i < m; i++) {
    for (let q = 0; q < inner; q++) {
      const idx = op === 'N' ? i * cols + q : q * cols + i;
      const ar = A[2 * idx]!, ai = op === 'H' ? -A[2 * idx + 1]! : A[2 * idx + 1]!;
      for (let c = 0; c < k; c++) {
        const xr = X[2 * (q * k + c)]!, xi = X[2 * (q * k + c) + 1]!;
        Y[2 * (i * k + c)] += ar * xr - ai * xi;
        Y[2 * (i * k + c) + 1] += ar * xi + ai * xr;
      }
    }
  }
  return Y;
}

/** Dense complex LU with partial pivoting: log|det| and the phase of det. */
export function denseLogDet(A: Float64Array, n: number): { sign: number; signIm: number; logabsdet: number } {
  const a = Float64Array.from(A);
  let sr = 1, si = 0, logabs = 0;
  for (let k = 0; k < n; k++) {
    let piv = k, best = -1;
    for (let i = k; i < n; i++) {
      const v = Math.hypot(a[2 * (i * n + k)]!, a[2 * (i * n + k) + 1]!);
      if (v > best) (best = v), (piv = i);
    }
    if (best === 0) return { sign: 0, signIm: 0, logabsdet: -Infinity };
    if (piv !== k) {
      for (let j = 0; j < 2 * n; j++) {
        const t = a[2 * k * n + j]!;
        a[2 * k * n + j] = a[2 * piv * n + j]!;
        a[2 * piv * n + j] = t;
      }
      (sr = -sr), (si = -si);
    }
    const pr = a[2 * (k * n + k)]!, pi = a[2 * (k * n + k) + 1]!;
    const mag = Math.hypot(pr, pi);
    logabs += Math.log(mag);
    const ur = pr / mag, ui = pi / mag;
    [sr, si] = [sr * ur - si * ui, sr * ui + si * ur];
    const d = pr * pr + pi * pi;
    for (let i = k + 1; i < n; i++) {
      const xr = a[2 * (i * n + k)]!, xi = a[2 * (i * n + k) + 1]!;
      const lr = (xr * pr + xi * pi) / d, li = (xi * pr - xr * pi) / d;
      for (let j = k + 1; j < n; j++) {
        const yr = a[2 * (k * n + j)]!, yi = a[2 * (k * n + j) + 1]!;
        a[2 * (i * n + j)] -= lr * yr - li * yi;
        a[2 * (i * n + j) + 1] -= lr * yi + li * yr;
      }
    }
  }
  return { sign: sr, signIm: si, logabsdet: logabs };
}

/** max |a - b| over complex-interleaved arrays, and max |b|. */
export function maxDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return m;
}
export const maxAbs = (a: ArrayLike<number>): number => {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
};
