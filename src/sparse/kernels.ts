// Structural kernels on compressed arrays, shared by CSR and CSC (a CSC matrix is
// the CSR matrix of its transpose, so every kernel here speaks of "major" slices
// — rows for CSR — and "minor" indices).
//
// All kernels are pure: they return new arrays (or the input arrays when there is
// nothing to do) and never mutate their input, so matrices can share arrays.

import type { ValueArray } from './contract.js';

export interface Compressed {
  major: number;
  minor: number;
  indptr: Int32Array;
  indices: Int32Array;
  data: ValueArray;
  /** 1 for real values, 2 for interleaved complex. */
  lanes: 1 | 2;
}

/** A zeroed array of the same storage type as `like`. */
export function allocLike(like: ValueArray, n: number): ValueArray {
  return like instanceof Float32Array ? new Float32Array(n) : new Float64Array(n);
}

/**
 * Transpose by counting sort: the major/minor roles swap. Stable, so the result
 * has sorted indices whatever the input order, and duplicates keep their order.
 * With `conj` the imaginary lanes are negated (conjugate transpose).
 */
export function transposeCompressed(a: Compressed, conj = false): Compressed {
  const { major, minor, indptr, indices, data, lanes } = a;
  const nnz = indptr[major]!;
  const tp = new Int32Array(minor + 1);
  for (let p = 0; p < nnz; p++) tp[indices[p]! + 1]!++;
  for (let j = 0; j < minor; j++) tp[j + 1]! += tp[j]!;
  const next = tp.slice(0, minor);
  const ti = new Int32Array(nnz);
  const td = allocLike(data, nnz * lanes);
  for (let i = 0; i < major; i++) {
    const e = indptr[i + 1]!;
    for (let p = indptr[i]!; p < e; p++) {
      const q = next[indices[p]!]!++;
      ti[q] = i;
      if (lanes === 1) td[q] = data[p]!;
      else {
        td[2 * q] = data[2 * p]!;
        td[2 * q + 1] = conj ? -data[2 * p + 1]! : data[2 * p + 1]!;
      }
    }
  }
  return { major: minor, minor: major, indptr: tp, indices: ti, data: td, lanes };
}

/** Indices sorted within each major slice (stable: duplicates keep their order). */
export function sortCompressed(a: Compressed): Compressed {
  return transposeCompressed(transposeCompressed(a));
}

/** Sums duplicate entries of a matrix with sorted indices. Returns `a` itself when there are none. */
export function sumDuplicatesSorted(a: Compressed): Compressed {
  const { major, indptr, indices, data, lanes } = a;
  let dup = false;
  for (let i = 0; i < major && !dup; i++) for (let p = indptr[i]! + 1; p < indptr[i + 1]!; p++) if (indices[p] === indices[p - 1]) { dup = true; break; }
  if (!dup) return a;
  const np = new Int32Array(major + 1);
  const ni = new Int32Array(indices.length);
  const nd = allocLike(data, data.length);
  let q = -1;
  for (let i = 0; i < major; i++) {
    const start = q + 1;
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      if (q >= start && ni[q] === indices[p]) {
        if (lanes === 1) nd[q]! += data[p]!;
        else {
          nd[2 * q]! += data[2 * p]!;
          nd[2 * q + 1]! += data[2 * p + 1]!;
        }
      } else {
        q++;
        ni[q] = indices[p]!;
        if (lanes === 1) nd[q] = data[p]!;
        else {
          nd[2 * q] = data[2 * p]!;
          nd[2 * q + 1] = data[2 * p + 1]!;
        }
      }
    }
    np[i + 1] = q + 1;
  }
  const nnz = q + 1;
  return { ...a, indptr: np, indices: ni.slice(0, nnz), data: nd.slice(0, nnz * lanes) };
}

/** Drops stored entries equal to zero (both lanes zero for complex). Returns `a` when there are none. */
export function eliminateZerosCompressed(a: Compressed): Compressed {
  const { major, indptr, indices, data, lanes } = a;
  const nnz = indices.length;
  let zeros = 0;
  for (let p = 0; p < nnz; p++) if (data[lanes * p] === 0 && (lanes === 1 || data[2 * p + 1] === 0)) zeros++;
  if (zeros === 0) return a;
  const np = new Int32Array(major + 1);
  const ni = new Int32Array(nnz - zeros);
  const nd = allocLike(data, (nnz - zeros) * lanes);
  let q = 0;
  for (let i = 0; i < major; i++) {
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const re = data[lanes * p]!,
        im = lanes === 2 ? data[2 * p + 1]! : 0;
      if (re === 0 && im === 0) continue;
      ni[q] = indices[p]!;
      if (lanes === 1) nd[q] = re;
      else {
        nd[2 * q] = re;
        nd[2 * q + 1] = im;
      }
      q++;
    }
    np[i + 1] = q;
  }
  return { ...a, indptr: np, indices: ni, data: nd };
}

/** Major slices [start, stop) as a new matrix (copies). */
export function sliceMajor(a: Compressed, start: number, stop: number): Compressed {
  const { indptr, indices, data, lanes } = a;
  const p0 = indptr[start]!,
    p1 = indptr[stop]!;
  const np = new Int32Array(stop - start + 1);
  for (let i = start; i <= stop; i++) np[i - start] = indptr[i]! - p0;
  return { major: stop - start, minor: a.minor, indptr: np, indices: indices.slice(p0, p1), data: data.slice(p0 * lanes, p1 * lanes), lanes };
}

/** Minor indices in [start, stop), renumbered from 0 (order within slices kept). */
export function sliceMinor(a: Compressed, start: number, stop: number): Compressed {
  const { major, indptr, indices, data, lanes } = a;
  let cnt = 0;
  for (let p = 0; p < indices.length; p++) if (indices[p]! >= start && indices[p]! < stop) cnt++;
  const np = new Int32Array(major + 1);
  const ni = new Int32Array(cnt);
  const nd = allocLike(data, cnt * lanes);
  let q = 0;
  for (let i = 0; i < major; i++) {
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const j = indices[p]!;
      if (j < start || j >= stop) continue;
      ni[q] = j - start;
      if (lanes === 1) nd[q] = data[p]!;
      else {
        nd[2 * q] = data[2 * p]!;
        nd[2 * q + 1] = data[2 * p + 1]!;
      }
      q++;
    }
    np[i + 1] = q;
  }
  return { major, minor: stop - start, indptr: np, indices: ni, data: nd, lanes };
}

/** Length of the k-th diagonal of an m×n matrix (0 when it is outside). */
export function diagLength(m: number, n: number, k: number): number {
  return Math.max(0, Math.min(m + Math.min(k, 0), n - Math.max(k, 0)));
}

/**
 * k-th diagonal of a CSR-oriented matrix (major = rows) as Float64Array
 * (interleaved for complex); duplicates are summed. For CSC pass the transposed
 * view and -k.
 */
export function diagonalCompressed(a: Compressed, k: number): Float64Array {
  const len = diagLength(a.major, a.minor, k);
  const { indptr, indices, data, lanes } = a;
  const out = new Float64Array(len * lanes);
  const r0 = Math.max(0, -k);
  for (let t = 0; t < len; t++) {
    const i = r0 + t,
      j = i + k;
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      if (indices[p] !== j) continue;
      if (lanes === 1) out[t]! += data[p]!;
      else {
        out[2 * t]! += data[2 * p]!;
        out[2 * t + 1]! += data[2 * p + 1]!;
      }
    }
  }
  return out;
}

/** Whether indices are sorted / strictly sorted within every slice. */
export function indexFlags(a: Compressed): { sorted: boolean; canonical: boolean } {
  let sorted = true,
    canonical = true;
  const { major, indptr, indices } = a;
  for (let i = 0; i < major; i++) {
    for (let p = indptr[i]! + 1; p < indptr[i + 1]!; p++) {
      if (indices[p]! <= indices[p - 1]!) {
        canonical = false;
        if (indices[p]! < indices[p - 1]!) return { sorted: false, canonical: false };
      }
    }
  }
  return { sorted, canonical };
}
