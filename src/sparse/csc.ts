// CscMatrix: compressed sparse columns. Its arrays are the CSR arrays of the
// transpose, so base.ts does all the work; this file says which way round.

import type { SparseDType } from './contract.js';
import { CompressedMatrix, type SparseMatrix } from './base.js';
import { CsrMatrix, compressedFromInit, type CompressedInit } from './csr.js';
import { CooMatrix } from './coo.js';
import { type Compressed, transposeCompressed, indexFlags } from './kernels.js';
import type { Tensor } from '../tensor/tensor.js';
import { transposedMap, gatherValues } from './tensor-values.js';

/**
 * A compressed sparse column matrix (scipy.sparse.csc_matrix); build one with sparse.csc or A.tocsc().
 * @example
 * ```ts
 * const A = sparse.fromDense([[1, 2], [3, 4]], { format: 'csc' });
 * A instanceof sparse.CscMatrix;   // true
 * A.matvec([1, 1]).tolist();       // [3, 7]
 * ```
 */
export class CscMatrix extends CompressedMatrix implements SparseMatrix {
  readonly format = 'csc' as const;

  protected wrap(c: Compressed, dtype: SparseDType, flags?: { sorted: boolean; canonical: boolean }, values?: Tensor): this {
    return new CscMatrix([c.minor, c.major], dtype, c.indptr, c.indices, values ?? c.data, flags ?? indexFlags(c)) as unknown as this;
  }
  protected same(other: SparseMatrix): CompressedMatrix {
    return other.tocsc();
  }
  /** CSR copy (sorted indices). */
  tocsr(): CsrMatrix {
    if (this.tensorValued) {
      const m = transposedMap(this.pattern);
      return new CsrMatrix(this.shape, this.dtype, m.c.indptr, m.c.indices, gatherValues(this.valuesTensor(), m.src), { sorted: true, canonical: this.hasCanonicalFormat });
    }
    const t = transposeCompressed(this.comp);
    return new CsrMatrix(this.shape, this.dtype, t.indptr, t.indices, t.data, { sorted: true, canonical: this.hasCanonicalFormat });
  }
  tocsc(): CscMatrix {
    return this;
  }
  /** COO with the entries in storage order (column-major when sorted). */
  tocoo(): CooMatrix {
    const n = this.shape[1];
    const col = new Int32Array(this.nnz);
    for (let j = 0; j < n; j++) col.fill(j, this.indptr[j]!, this.indptr[j + 1]!);
    return new CooMatrix(this.shape, this.dtype, this.indices.slice(), col, this.tensorValued ? this.valuesTensor() : this.data.slice());
  }
}

/**
 * csc({indptr, indices, data, shape, dtype?}): as csr() with indptr over columns and row indices.
 * @example
 * ```ts
 * // [[4, 1], [0, 3]] by columns: column 0 holds row 0, column 1 rows 0 and 1
 * const A = sparse.csc({ indptr: [0, 1, 3], indices: [0, 0, 1], data: [4, 1, 3], shape: [2, 2] });
 * A.toDense().tolist();   // [[4, 1], [0, 3]]
 * ```
 */
export function csc(init: CompressedInit): CscMatrix {
  const r = compressedFromInit('csc', init);
  return new CscMatrix(r.shape, r.dtype, r.indptr, r.indices, r.data, r.flags);
}
