// Validation of compressed (CSR/CSC) and coordinate arrays on construction.
//
// Why up front: the products and the native kernels index raw typed arrays without
// bounds checks, so an indptr that is not monotone or an index out of range would
// read garbage (or crash native code). One O(nnz) pass here rules that out, and
// the same pass records whether the indices are sorted and duplicate-free so
// later operations can skip canonicalization.

import { SparseFormatError } from './errors.js';

export interface IndexFlags {
  /** Indices strictly or weakly increasing within every row (column for CSC). */
  sorted: boolean;
  /** Sorted and without duplicates (strictly increasing). */
  canonical: boolean;
}

/**
 * Checks CSR (fmt 'csr': major = rows) or CSC arrays. `nData` is the number of
 * stored values (elements, not floats). Throws SparseFormatError naming the first
 * bad position.
 */
export function validateCompressed(fmt: 'csr' | 'csc', shape: [number, number], indptr: Int32Array, indices: Int32Array, nData: number): IndexFlags {
  const [major, minor] = fmt === 'csr' ? shape : [shape[1], shape[0]];
  const majName = fmt === 'csr' ? 'row' : 'column';
  if (!(indptr instanceof Int32Array)) throw new SparseFormatError(`${fmt}: indptr must be an Int32Array`);
  if (!(indices instanceof Int32Array)) throw new SparseFormatError(`${fmt}: indices must be an Int32Array`);
  if (indptr.length !== major + 1) throw new SparseFormatError(`${fmt}: indptr has length ${indptr.length}, expected ${major + 1} (${majName}s + 1 for shape [${shape.join(', ')}])`);
  if (indptr[0] !== 0) throw new SparseFormatError(`${fmt}: indptr[0] = ${indptr[0]}, expected 0`);
  for (let i = 0; i < major; i++) {
    if (indptr[i + 1]! < indptr[i]!) throw new SparseFormatError(`${fmt}: indptr[${i + 1}] = ${indptr[i + 1]} < indptr[${i}] = ${indptr[i]} (indptr must be non-decreasing)`);
  }
  const nnz = indptr[major]!;
  if (nnz !== indices.length) throw new SparseFormatError(`${fmt}: indptr[${major}] = ${nnz} but indices has length ${indices.length} (the last indptr entry is nnz)`);
  if (nData !== indices.length) throw new SparseFormatError(`${fmt}: data has ${nData} values but indices has length ${indices.length}`);
  let sorted = true,
    canonical = true;
  for (let i = 0; i < major; i++) {
    const e = indptr[i + 1]!;
    let prev = -1;
    for (let p = indptr[i]!; p < e; p++) {
      const j = indices[p]!;
      if (j < 0 || j >= minor) throw new SparseFormatError(`${fmt}: indices[${p}] = ${j} out of range [0, ${minor}) in ${majName} ${i}`);
      if (j <= prev) {
        canonical = false;
        if (j < prev) sorted = false;
      }
      prev = j;
    }
  }
  return { sorted, canonical };
}

/** Checks COO arrays: equal lengths and indices in range. */
export function validateCoo(shape: [number, number], row: Int32Array, col: Int32Array, nData: number): void {
  if (row.length !== col.length) throw new SparseFormatError(`coo: row has length ${row.length} but col has length ${col.length}`);
  if (nData !== row.length) throw new SparseFormatError(`coo: data has ${nData} values but row/col have length ${row.length}`);
  const [m, n] = shape;
  for (let k = 0; k < row.length; k++) {
    const i = row[k]!,
      j = col[k]!;
    if (i < 0 || i >= m) throw new SparseFormatError(`coo: row[${k}] = ${i} out of range [0, ${m})`);
    if (j < 0 || j >= n) throw new SparseFormatError(`coo: col[${k}] = ${j} out of range [0, ${n})`);
  }
}
