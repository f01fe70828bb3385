// CooMatrix: coordinate triplets, the assembly format. Duplicates are allowed and
// mean "sum" (as in SciPy and Matrix Market); conversion to CSR/CSC sums them.
// Products and arithmetic go through the (cached) CSR form.

import type { SparseDType, ValueArray } from './contract.js';
import type { SparseMatrix, DenseOperand } from './base.js';
import { CsrMatrix } from './csr.js';
import type { CscMatrix } from './csc.js';
import { Tensor } from '../tensor/tensor.js';
import type { TensorData } from '../tensor/create.js';
import { type Compressed, sortCompressed, sumDuplicatesSorted, indexFlags, allocLike } from './kernels.js';
import { validateCoo } from './validate.js';
import { type ValuesInput, ownedValues, ownedIndexArray, checkShape2, toSparseDType, countOf, lanesOf, isComplexDType, asDType, castValues, type Scalar } from './dtypes.js';
import { SparseFormatError } from './errors.js';
import { valuesFromTensor, tensorOfValues } from './graph/api.js';
import { isTraced, cooCanonicalMap, sumValues, gatherValues } from './tensor-values.js';
import { tensorFrom } from './dense.js';
import { formatSparse } from './show.js';

/**
 * A coordinate (triplet) matrix for assembly, duplicates summed (scipy.sparse.coo_matrix); build one with sparse.coo.
 * @example
 * ```ts
 * const A = sparse.coo({ row: [0, 1], col: [1, 0], data: [2, 3], shape: [2, 2] });
 * A instanceof sparse.CooMatrix;   // true
 * A.matvec([1, 1]).tolist();       // [2, 3]
 * ```
 */
export class CooMatrix implements SparseMatrix {
  readonly format = 'coo' as const;
  readonly shape: [number, number];
  readonly dtype: SparseDType;
  readonly row: Int32Array;
  readonly col: Int32Array;
  /** The values are a traced tensor (see CompressedMatrix.tensorValued): conversions map it with gather/scatterAdd. */
  readonly tensorValued: boolean;
  private stored: ValueArray | undefined;
  private valuesT: Tensor | undefined;
  private csrCache: CsrMatrix | undefined;

  /** @internal trusted: arrays already validated. Use coo() for user data. */
  constructor(shape: [number, number], dtype: SparseDType, row: Int32Array, col: Int32Array, data: ValueArray | Tensor) {
    this.shape = shape;
    this.dtype = dtype;
    this.row = row;
    this.col = col;
    if (data instanceof Tensor) this.valuesT = data;
    else this.stored = data;
    this.tensorValued = data instanceof Tensor && isTraced(data);
  }
  /** Stored values (interleaved re, im for complex); reads a values tensor. */
  get data(): ValueArray {
    if (!this.stored) this.stored = valuesFromTensor(this.valuesT!, this.dtype, 'coo');
    return this.stored;
  }
  /** The values as a 1-D tensor [nnz] of `dtype`. */
  valuesTensor(): Tensor {
    if (!this.valuesT) this.valuesT = tensorOfValues(this.stored!, this.dtype);
    return this.valuesT;
  }
  /** Stored triplets (duplicates and explicit zeros included). */
  get nnz(): number {
    return this.row.length;
  }
  /** Canonical CSR (sorted, duplicates summed, explicit zeros kept). Cached: COO is immutable. */
  tocsr(): CsrMatrix {
    if (this.csrCache) return this.csrCache;
    const [m, n] = this.shape;
    if (this.tensorValued) {
      const c = cooCanonicalMap(m, n, this.row, this.col);
      const v = sumValues(this.valuesTensor(), c.dst, c.c.indices.length);
      return (this.csrCache = new CsrMatrix(this.shape, this.dtype, c.c.indptr, c.c.indices, v, { sorted: true, canonical: true }));
    }
    const lanes = lanesOf(this.dtype);
    const nnz = this.nnz;
    // Bucket by row (stable counting sort), then sort and merge within rows.
    const ip = new Int32Array(m + 1);
    for (let k = 0; k < nnz; k++) ip[this.row[k]! + 1]!++;
    for (let i = 0; i < m; i++) ip[i + 1]! += ip[i]!;
    const next = ip.slice(0, m);
    const ix = new Int32Array(nnz);
    const d = allocLike(this.data, nnz * lanes);
    for (let k = 0; k < nnz; k++) {
      const q = next[this.row[k]!]!++;
      ix[q] = this.col[k]!;
      if (lanes === 1) d[q] = this.data[k]!;
      else {
        d[2 * q] = this.data[2 * k]!;
        d[2 * q + 1] = this.data[2 * k + 1]!;
      }
    }
    let c: Compressed = { major: m, minor: n, indptr: ip, indices: ix, data: d, lanes };
    const f = indexFlags(c);
    if (!f.sorted) c = sortCompressed(c);
    if (!f.canonical) c = sumDuplicatesSorted(c);
    this.csrCache = new CsrMatrix(this.shape, this.dtype, c.indptr, c.indices, c.data, { sorted: true, canonical: true });
    return this.csrCache;
  }
  tocsc(): CscMatrix {
    return this.tocsr().tocsc();
  }
  tocoo(): CooMatrix {
    return this;
  }
  /** Dense Tensor (duplicates summed). */
  toDense(): Tensor {
    const [, n] = this.shape;
    if (this.tensorValued) {
      const pos = new Int32Array(this.nnz);
      for (let k = 0; k < this.nnz; k++) pos[k] = this.row[k]! * n + this.col[k]!;
      return sumValues(this.valuesTensor(), pos, this.shape[0] * n).reshape([this.shape[0], n]);
    }
    const lanes = lanesOf(this.dtype);
    const out = new Float64Array(this.shape[0] * n * lanes);
    for (let k = 0; k < this.nnz; k++) {
      const o = (this.row[k]! * n + this.col[k]!) * lanes;
      out[o]! += this.data[k * lanes]!;
      if (lanes === 2) out[o + 1]! += this.data[2 * k + 1]!;
    }
    return tensorFrom(out, [this.shape[0], n], this.dtype);
  }
  /** Transpose (swaps row and col; no copy of the values). */
  transpose(): CooMatrix {
    return new CooMatrix([this.shape[1], this.shape[0]], this.dtype, this.col, this.row, this.tensorValued ? this.valuesTensor() : this.data);
  }
  get T(): CooMatrix {
    return this.transpose();
  }
  /** Conjugate transpose. */
  conjTranspose(): CooMatrix {
    if (!isComplexDType(this.dtype)) return this.transpose();
    if (this.tensorValued) return new CooMatrix([this.shape[1], this.shape[0]], this.dtype, this.col, this.row, this.valuesTensor().conj());
    const d = this.data.slice();
    for (let p = 1; p < d.length; p += 2) d[p] = -d[p]!;
    return new CooMatrix([this.shape[1], this.shape[0]], this.dtype, this.col, this.row, d);
  }
  get H(): CooMatrix {
    return this.conjTranspose();
  }
  /** Canonical COO: row-major order, duplicates summed. */
  sumDuplicates(): CooMatrix {
    return this.tocsr().tocoo();
  }
  /** Drops explicitly stored zeros. */
  eliminateZeros(): CooMatrix {
    const lanes = lanesOf(this.dtype);
    const keep: number[] = [];
    for (let k = 0; k < this.nnz; k++) if (this.data[lanes * k] !== 0 || (lanes === 2 && this.data[2 * k + 1] !== 0)) keep.push(k);
    if (keep.length === this.nnz) return this;
    if (this.tensorValued) {
      const src = Int32Array.from(keep);
      return new CooMatrix(this.shape, this.dtype, src.map((k) => this.row[k]!), src.map((k) => this.col[k]!), gatherValues(this.valuesTensor(), src));
    }
    const d = allocLike(this.data, keep.length * lanes);
    keep.forEach((k, q) => {
      for (let l = 0; l < lanes; l++) d[q * lanes + l] = this.data[k * lanes + l]!;
    });
    return new CooMatrix(this.shape, this.dtype, Int32Array.from(keep, (k) => this.row[k]!), Int32Array.from(keep, (k) => this.col[k]!), d);
  }
  /** y = A·x as a lazy Tensor, through the CSR form. */
  matvec(x: Tensor | TensorData): Tensor {
    return this.tocsr().matvec(x);
  }
  /** y = Aᴴ·x as a lazy Tensor. */
  rmatvec(x: Tensor | TensorData): Tensor {
    return this.tocsr().rmatvec(x);
  }
  /** A·X for dense X. */
  matmul(X: DenseOperand): Tensor {
    return this.tocsr().matmul(X);
  }
  // Arithmetic through CSR (results are canonical CSR, as SciPy's COO arithmetic returns CSR).
  add(other: SparseMatrix): CsrMatrix {
    return this.tocsr().add(other);
  }
  sub(other: SparseMatrix): CsrMatrix {
    return this.tocsr().sub(other);
  }
  scale(alpha: Scalar): CsrMatrix {
    return this.tocsr().scale(alpha);
  }
  multiply(other: SparseMatrix | DenseOperand | number): CsrMatrix {
    return this.tocsr().multiply(other);
  }
  matmulSparse(other: SparseMatrix): CsrMatrix {
    return this.tocsr().matmulSparse(other);
  }
  diagonal(k = 0): Tensor {
    return this.tocsr().diagonal(k);
  }
  /** Copy with values cast to dtype (complex → real refused). */
  astype(dtype: SparseDType | string): CooMatrix {
    const d = toSparseDType('astype', dtype);
    if (d === this.dtype) return this;
    if (this.tensorValued) {
      castValues('astype', new Float64Array(0), this.dtype, d); // refuses complex → real
      return new CooMatrix(this.shape, d, this.row, this.col, this.valuesTensor().cast(d));
    }
    return new CooMatrix(this.shape, d, this.row, this.col, asDType('astype', this.data, this.dtype, d));
  }
  toString(): string {
    return formatSparse('CooMatrix', this.shape, this.dtype, this.row, this.col, this.data);
  }
}

export interface CooInit {
  row: Int32Array | ArrayLike<number>;
  col: Int32Array | ArrayLike<number>;
  data: ValuesInput;
  shape: [number, number];
  dtype?: SparseDType | string;
}

/**
 * coo({row, col, data, shape, dtype?}): triplets (duplicates allowed; they sum).
 * The matrix owns copies of the arrays (writing the caller's arrays later does
 * not change it). A Tensor `data` that is being differentiated stays a tensor:
 * everything computed from the matrix is differentiable in it.
 * @example
 * ```ts
 * // (0, 1) appears twice: 2 + 3
 * const A = sparse.coo({ row: [0, 0, 1], col: [1, 1, 0], data: [2, 3, 4], shape: [2, 2] });
 * A.toDense().tolist();   // [[0, 5], [4, 0]]
 * ```
 */
export function coo(init: CooInit): CooMatrix {
  if (init === null || typeof init !== 'object') throw new SparseFormatError('coo: expected {row, col, data, shape}');
  const shape = checkShape2('coo', init.shape);
  const row = ownedIndexArray('coo', 'row', init.row);
  const col = ownedIndexArray('coo', 'col', init.col);
  const dt = init.dtype !== undefined ? toSparseDType('coo', init.dtype) : undefined;
  const { data, dtype } = ownedValues('coo', init.data, dt);
  validateCoo(shape, row, col, data instanceof Tensor ? data.shape[0]! : countOf(data, dtype));
  return new CooMatrix(shape, dtype, row, col, data);
}
