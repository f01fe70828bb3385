// CsrMatrix: compressed sparse rows, the workhorse format (products, solvers,
// native kernels). See base.ts for the operations shared with CSC.

import type { SparseDType } from './contract.js';
import { CompressedMatrix, type SparseMatrix } from './base.js';
import { CscMatrix } from './csc.js';
import { CooMatrix } from './coo.js';
import { type Compressed, transposeCompressed, indexFlags } from './kernels.js';
import { csrMatvecRaw, csrRmatvecRaw } from './spmv.js';
import { Tensor } from '../tensor/tensor.js';
import { SparseFormatError } from './errors.js';
import { transposedMap, gatherValues } from './tensor-values.js';
import { validateCompressed } from './validate.js';
import { type ValuesInput, ownedValues, ownedIndexArray, checkShape2, toSparseDType, countOf } from './dtypes.js';

/** User arrays of a compressed matrix (CSR or CSC). */
export interface CompressedInit {
  indptr: Int32Array | ArrayLike<number>;
  indices: Int32Array | ArrayLike<number>;
  /** Values: Float32Array/Float64Array (interleaved for complex), number[], [re, im][] or a 1-D Tensor. */
  data: ValuesInput;
  shape: [number, number];
  /** Inferred from data when omitted (see normalizeValues). */
  dtype?: SparseDType | string;
}

/**
 * A compressed sparse row matrix (scipy.sparse.csr_matrix); build one with sparse.csr, fromTriplets or a builder.
 * @example
 * ```ts
 * const A = sparse.fromDense([[1, 2], [0, 3]]);
 * A instanceof sparse.CsrMatrix;   // true
 * Array.from(A.indptr);            // [0, 2, 3]
 * A.matvec([1, 1]).tolist();       // [3, 3]
 * ```
 */
export class CsrMatrix extends CompressedMatrix implements SparseMatrix {
  readonly format = 'csr' as const;

  protected wrap(c: Compressed, dtype: SparseDType, flags?: { sorted: boolean; canonical: boolean }, values?: Tensor): this {
    return new CsrMatrix([c.major, c.minor], dtype, c.indptr, c.indices, values ?? c.data, flags ?? indexFlags(c)) as unknown as this;
  }
  protected same(other: SparseMatrix): CompressedMatrix {
    return other.tocsr();
  }
  tocsr(): CsrMatrix {
    return this;
  }
  /** CSC copy (sorted indices: the conversion is a stable counting sort). */
  tocsc(): CscMatrix {
    if (this.tensorValued) {
      const m = transposedMap(this.pattern);
      return new CscMatrix(this.shape, this.dtype, m.c.indptr, m.c.indices, gatherValues(this.valuesTensor(), m.src), { sorted: true, canonical: this.hasCanonicalFormat });
    }
    const t = transposeCompressed(this.comp);
    return new CscMatrix(this.shape, this.dtype, t.indptr, t.indices, t.data, { sorted: true, canonical: this.hasCanonicalFormat });
  }
  /** COO with the entries in storage order (row-major when sorted). */
  tocoo(): CooMatrix {
    const m = this.shape[0];
    const row = new Int32Array(this.nnz);
    for (let i = 0; i < m; i++) row.fill(i, this.indptr[i]!, this.indptr[i + 1]!);
    return new CooMatrix(this.shape, this.dtype, row, this.indices.slice(), this.tensorValued ? this.valuesTensor() : this.data.slice());
  }
  protected override kernel(x: Float64Array, y: Float64Array, adjoint: boolean, fresh = false): void {
    if (adjoint) csrRmatvecRaw(this, x, y);
    else csrMatvecRaw(this, x, y, fresh); // a fresh y may be left half-written by a failing check; a user's `out` may not
  }
}

/** Shared by csr() and csc(): normalizes and validates user arrays. */
export function compressedFromInit(fmt: 'csr' | 'csc', init: CompressedInit): { shape: [number, number]; dtype: SparseDType; indptr: Int32Array; indices: Int32Array; data: CsrMatrix['data'] | Tensor; flags: { sorted: boolean; canonical: boolean } } {
  if (init === null || typeof init !== 'object') throw new SparseFormatError(`${fmt}: expected {indptr, indices, data, shape}`);
  const shape = checkShape2(fmt, init.shape);
  const indptr = ownedIndexArray(fmt, 'indptr', init.indptr);
  const indices = ownedIndexArray(fmt, 'indices', init.indices);
  const dt = init.dtype !== undefined ? toSparseDType(fmt, init.dtype) : undefined;
  const { data, dtype } = ownedValues(fmt, init.data, dt);
  const flags = validateCompressed(fmt, shape, indptr, indices, data instanceof Tensor ? data.shape[0]! : countOf(data, dtype));
  return { shape, dtype, indptr, indices, data, flags };
}

/**
 * csr({indptr, indices, data, shape, dtype?}): a CSR matrix from its arrays.
 * The matrix owns copies of them (writing the caller's arrays later does not
 * change it); a Tensor `data` being differentiated stays a tensor. Throws
 * SparseFormatError naming the first bad position. Unsorted indices and
 * duplicates are accepted and flagged (hasSortedIndices / hasCanonicalFormat).
 * @example
 * ```ts
 * // [[4, 1], [0, 3]]
 * const A = sparse.csr({ indptr: [0, 2, 3], indices: [0, 1, 1], data: [4, 1, 3], shape: [2, 2] });
 * A.nnz;   // 3
 * ```
 */
export function csr(init: CompressedInit): CsrMatrix {
  const r = compressedFromInit('csr', init);
  return new CsrMatrix(r.shape, r.dtype, r.indptr, r.indices, r.data, r.flags);
}
