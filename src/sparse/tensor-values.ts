// Structural operations on tensor-valued sparse matrices.
//
// A matrix built from a Tensor of values (csr({data: t}), coo, fromTriplets,
// fromDense(t), diags([t, ...]), withValues(t)) keeps that tensor as its values,
// so that everything computed from it stays a lazy, differentiable function of
// the tensor (grad, jvp, vmap, jit). Every structural operation (transpose,
// conversion, slicing, summing duplicates, sums, products of patterns, kron,
// diagonal, toDense) is split in two:
//   1. on the pattern alone (int32 arrays, computed here on the host): where each
//      result entry's value comes from — an index map;
//   2. on the values tensor: `gather` by that map (entries moved or selected) or
//      `scatterAdd` (entries summed into their slot), whose derivative rules the
//      compiler already has.
// The index maps come from the very kernels that move stored values (kernels.ts,
// arith.ts), run on a data array holding entry numbers instead of values: a
// kernel that copies values copies the numbers, so the pattern and the map can
// never disagree with the stored-values path.
//
// Patterns here keep entries whose values happen to be zero (a sum A − A keeps
// its union pattern): dropping them would also drop their derivatives.

import { Tensor } from '../tensor/tensor.js';
import { fromStorage } from '../tensor/create.js';
import { cat } from '../tensor/ops/movement.js';
import type { DType } from '../tensor/dtype.js';
import type { Compressed } from './kernels.js';
import { transposeCompressed, sortCompressed } from './kernels.js';
import { kronCompressed } from './arith.js';
import { SparseFormatError } from './errors.js';
import { TransformError } from '../tensor/errors.js';

/** A pattern with, per entry, where its value comes from (an entry number of the source). */
export interface Mapped {
  c: Compressed;
  src: Int32Array;
}

const int32 = (a: Int32Array) => fromStorage(a, [a.length], 'int32');

/** The pattern of `c` carrying entry numbers 0..nnz-1 as its (real, float64) data. */
export function entryIds(c: Compressed): Compressed {
  const n = c.indices.length;
  const ids = new Float64Array(n);
  for (let p = 0; p < n; p++) ids[p] = p;
  return { major: c.major, minor: c.minor, indptr: c.indptr, indices: c.indices, data: ids, lanes: 1 };
}

/** Runs a value-moving kernel on entry numbers: the result pattern and where each of its entries comes from. */
export function moved(c: Compressed, kernel: (ids: Compressed) => Compressed): Mapped {
  const r = kernel(entryIds(c));
  return { c: r, src: Int32Array.from(r.data) };
}

/** values[src] (entries moved or selected). */
export function gatherValues(v: Tensor, src: Int32Array): Tensor {
  return v.gather(int32(src));
}

/** out[dst[e]] += values[e] into `size` slots (entries summed). */
export function sumValues(v: Tensor, dst: Int32Array, size: number): Tensor {
  return zerosLike(v, size).scatterAdd(int32(dst), v);
}

function zerosLike(v: Tensor, size: number): Tensor {
  const L = v.dtype === 'complex64' || v.dtype === 'complex128' ? 2 : 1;
  const data = v.dtype === 'float32' || v.dtype === 'complex64' ? new Float32Array(size * L) : new Float64Array(size * L);
  return fromStorage(data, [size], v.dtype);
}

/** Transpose (major/minor swap) with the map. */
export const transposedMap = (c: Compressed): Mapped => moved(c, (ids) => transposeCompressed(ids));

/**
 * Canonical pattern (indices sorted in each slice, duplicates merged) and, per
 * entry of `c`, its slot there (dst).
 */
export function canonicalMap(c: Compressed): { c: Compressed; dst: Int32Array } {
  const s = moved(c, sortCompressed);
  const { major, indptr, indices } = s.c;
  const nnz = indices.length;
  const dst = new Int32Array(nnz);
  const np = new Int32Array(major + 1);
  const ni = new Int32Array(nnz);
  let q = -1;
  for (let i = 0; i < major; i++) {
    const start = q + 1;
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      if (q < start || ni[q] !== indices[p]) ni[++q] = indices[p]!;
      dst[s.src[p]!] = q;
    }
    np[i + 1] = q + 1;
  }
  const n = q + 1;
  return { c: { major, minor: c.minor, indptr: np, indices: ni.slice(0, n), data: new Float64Array(0), lanes: 1 }, dst };
}

/**
 * Canonical pattern of the coordinate list (row[e], col[e]) of an m×n matrix as
 * CSR, with each entry's slot. Indices are validated by the caller.
 */
export function cooCanonicalMap(m: number, n: number, row: Int32Array, col: Int32Array): { c: Compressed; dst: Int32Array } {
  const nnz = row.length;
  const ip = new Int32Array(m + 1);
  for (let k = 0; k < nnz; k++) ip[row[k]! + 1]!++;
  for (let i = 0; i < m; i++) ip[i + 1]! += ip[i]!;
  const next = ip.slice(0, m);
  const ix = new Int32Array(nnz);
  const pos = new Int32Array(nnz);
  for (let k = 0; k < nnz; k++) {
    const q = next[row[k]!]!++;
    ix[q] = col[k]!;
    pos[q] = k;
  }
  const bucketed: Compressed = { major: m, minor: n, indptr: ip, indices: ix, data: new Float64Array(0), lanes: 1 };
  const canon = canonicalMap(bucketed);
  const dst = new Int32Array(nnz);
  for (let q = 0; q < nnz; q++) dst[pos[q]!] = canon.dst[q]!;
  return { c: canon.c, dst };
}

/** Union of two canonical patterns of the same shape: its pattern and the slot of every entry of a, then of b. */
export function unionMap(a: Compressed, b: Compressed): { c: Compressed; dst: Int32Array } {
  const na = a.indices.length;
  const major = a.major;
  const ip = new Int32Array(major + 1);
  for (let i = 0; i < major; i++) ip[i + 1] = ip[i]! + (a.indptr[i + 1]! - a.indptr[i]!) + (b.indptr[i + 1]! - b.indptr[i]!);
  const ix = new Int32Array(ip[major]!);
  const ids = new Float64Array(ip[major]!);
  for (let i = 0; i < major; i++) {
    let q = ip[i]!;
    for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++) (ix[q] = a.indices[p]!), (ids[q++] = p);
    for (let p = b.indptr[i]!; p < b.indptr[i + 1]!; p++) (ix[q] = b.indices[p]!), (ids[q++] = na + p);
  }
  const both: Compressed = { major, minor: a.minor, indptr: ip, indices: ix, data: ids, lanes: 1 };
  const canon = canonicalMap(both);
  const dst = new Int32Array(ix.length);
  for (let q = 0; q < ix.length; q++) dst[ids[q]!] = canon.dst[q]!;
  return { c: canon.c, dst };
}

/** Entries present in both canonical patterns: the pattern and, per entry, its entry in a and in b. */
export function intersectionMap(a: Compressed, b: Compressed): { c: Compressed; ia: Int32Array; ib: Int32Array } {
  const major = a.major;
  const ia: number[] = [],
    ib: number[] = [],
    ix: number[] = [];
  const ip = new Int32Array(major + 1);
  for (let i = 0; i < major; i++) {
    let p = a.indptr[i]!,
      r = b.indptr[i]!;
    const pe = a.indptr[i + 1]!,
      re = b.indptr[i + 1]!;
    while (p < pe && r < re) {
      const j = a.indices[p]!,
        k = b.indices[r]!;
      if (j === k) ia.push(p++), ib.push(r++), ix.push(j);
      else if (j < k) p++;
      else r++;
    }
    ip[i + 1] = ix.length;
  }
  return { c: { major, minor: a.minor, indptr: ip, indices: Int32Array.from(ix), data: new Float64Array(0), lanes: 1 }, ia: Int32Array.from(ia), ib: Int32Array.from(ib) };
}

/**
 * The product pattern C = A·B (CSR arrays; C sorted, canonical, every structural
 * entry kept) and its expansion: product term t is a[ia[t]]·b[ib[t]], summed into
 * C's entry ic[t].
 */
export function productMap(a: Compressed, b: Compressed): { c: Compressed; ia: Int32Array; ib: Int32Array; ic: Int32Array } {
  const m = a.major,
    n = b.minor;
  if (a.minor !== b.major) throw new SparseFormatError(`matmulSparse: inner dimensions differ (${a.minor} vs ${b.major})`);
  let terms = 0;
  for (let i = 0; i < m; i++) for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++) terms += b.indptr[a.indices[p]! + 1]! - b.indptr[a.indices[p]!]!;
  if (terms > 2 ** 31 - 1) throw new SparseFormatError(`matmulSparse: ${terms} product terms exceed int32 indexing`);
  const ia = new Int32Array(terms),
    ib = new Int32Array(terms),
    ic = new Int32Array(terms);
  // Coordinates of every term, then the canonical map of that coordinate list.
  const rows = new Int32Array(terms),
    cols = new Int32Array(terms);
  let t = 0;
  for (let i = 0; i < m; i++)
    for (let p = a.indptr[i]!; p < a.indptr[i + 1]!; p++) {
      const k = a.indices[p]!;
      for (let r = b.indptr[k]!; r < b.indptr[k + 1]!; r++) (ia[t] = p), (ib[t] = r), (rows[t] = i), (cols[t++] = b.indices[r]!);
    }
  const canon = cooCanonicalMap(m, n, rows, cols);
  ic.set(canon.dst);
  return { c: canon.c, ia, ib, ic };
}

/** kron(A, B) pattern of canonical a, b (kronCompressed's order) and the entry of a and of b behind each entry. */
export function kronMap(a: Compressed, b: Compressed): { c: Compressed; ia: Int32Array; ib: Int32Array } {
  const ones = (c: Compressed): Compressed => ({ ...c, data: new Float64Array(c.indices.length).fill(1), lanes: 1 });
  const ka = kronCompressed(entryIds(a), ones(b));
  const kb = kronCompressed(ones(a), entryIds(b));
  return { c: { ...ka, data: new Float64Array(0) }, ia: Int32Array.from(ka.data), ib: Int32Array.from(kb.data) };
}

/** Values of several tensors one after another (common dtype given). */
export function catValues(vs: Tensor[], dtype: DType): Tensor {
  const cast = vs.map((v) => (v.dtype === dtype ? v : v.cast(dtype)));
  return cast.length === 1 ? cast[0]! : cat(cast);
}

/** The entries p of `c` with keep(p), in order. */
export function selectedMap(c: Compressed, keep: (p: number) => boolean): Mapped {
  const np = new Int32Array(c.major + 1);
  const src: number[] = [];
  for (let i = 0; i < c.major; i++) {
    for (let p = c.indptr[i]!; p < c.indptr[i + 1]!; p++) if (keep(p)) src.push(p);
    np[i + 1] = src.length;
  }
  const s = Int32Array.from(src);
  return { c: { major: c.major, minor: c.minor, indptr: np, indices: s.map((p) => c.indices[p]!), data: new Float64Array(0), lanes: 1 }, src: s };
}

/** Is t a value being traced (differentiated, or a vmap/jit input)? Otherwise its numbers can simply be read. */
export const isTraced = (t: Tensor): boolean => t.node.tracked || t.node.symbolic;

/** A TransformError for an operation `op` that needs the values as numbers, when they are a vmap/jit input. */
export function symbolicValues(op: string, v: Tensor): void {
  if (v.node.symbolic) throw new TransformError(`sparse.${op}: the result's pattern depends on the values, which a vmap/jit input does not have yet; apply it outside vmap/jit`);
}
