// CompressedMatrix: what CSR and CSC share.
//
// A CSC matrix's arrays are exactly the CSR arrays of its transpose, so every
// operation that does not care about orientation (sorting, duplicates, zeros,
// add/sub/multiply/scale, transposes, slices by major/minor) is written once here
// on "major"/"minor" slices, and the subclasses only say which is which. Products
// pick the gather or scatter loop according to the orientation.
//
// Matrices are immutable by convention: every method returns a new matrix (or
// `this` when nothing changes); arrays may be shared between matrices, so do not
// write into `indptr`/`indices`/`data` of a matrix you did not build yourself.
//
// Duplicates and unsorted indices: every method accepts them. Products, diagonal,
// toDense, rows/cols sum duplicates implicitly; add/sub/multiply/matmulSparse
// canonicalize first; transpose/scale/eliminateZeros/astype/conj keep them as they
// are (transpose sorts).

import type { CompressedArrays, SparseDType, ValueArray } from './contract.js';
import type { CsrMatrix } from './csr.js';
import type { CscMatrix } from './csc.js';
import type { CooMatrix } from './coo.js';
import { Tensor } from '../tensor/tensor.js';
import { tensor } from '../tensor/create.js';
import { sparseProduct, valuesFromTensor, tensorOfValues } from './graph/api.js';
import { ShapeError, IndexError } from '../tensor/errors.js';
import { isTraced, symbolicValues, moved, selectedMap, gatherValues, sumValues, canonicalMap, transposedMap, unionMap, intersectionMap, productMap, catValues } from './tensor-values.js';
import type { NestedData, TensorData } from '../tensor/create.js';
import { type Compressed, transposeCompressed, sortCompressed, sumDuplicatesSorted, eliminateZerosCompressed, sliceMajor, sliceMinor, diagonalCompressed, diagLength, indexFlags } from './kernels.js';
import { addCompressed, multiplyCompressed, multiplyDenseCompressed, scaleCompressed, spgemm } from './arith.js';
import { type Scalar, scalarParts, lanesOf, isComplexDType, promote, complexOf, asDType, castValues, toSparseDType, sparseDTypeOfTensor } from './dtypes.js';
import { gather, scatter, csrMatmulDense, checkProductOutput } from './spmv.js';
import { denseRaw, denseTensor, rawWithLanes, tensorFrom } from './dense.js';
import { formatSparse } from './show.js';

/** Any sparse matrix of this module. */
export interface SparseMatrix {
  readonly format: 'csr' | 'csc' | 'coo';
  readonly shape: [number, number];
  readonly dtype: SparseDType;
  readonly nnz: number;
  tocsr(): CsrMatrix;
  tocsc(): CscMatrix;
  tocoo(): CooMatrix;
  toDense(): Tensor;
}

export type DenseOperand = Tensor | NestedData | readonly unknown[];

/**
 * The operations CSR and CSC share (products, transpose, conversions, arithmetic) over indptr/indices/data arrays.
 * @example
 * ```ts
 * const A = sparse.fromDense([[1, 2], [0, 3]]);
 * A instanceof sparse.CompressedMatrix;   // true (CSR and CSC share this class)
 * A.T.toDense().tolist();                 // [[1, 0], [2, 3]]
 * ```
 */
export abstract class CompressedMatrix implements CompressedArrays {
  abstract readonly format: 'csr' | 'csc';
  /** Rows + 1 (CSR) or columns + 1 (CSC) offsets into indices/data. */
  readonly indptr: Int32Array;
  /** Column (CSR) or row (CSC) index of each stored entry. */
  readonly indices: Int32Array;
  readonly shape: [number, number];
  readonly dtype: SparseDType;
  /** Indices non-decreasing within every row (CSR) / column (CSC). */
  readonly hasSortedIndices: boolean;
  /** Sorted and without duplicate entries (explicit zeros are allowed). */
  readonly hasCanonicalFormat: boolean;

  /** @internal trusted: arrays already validated. Use csr()/csc() to build from user data. */
  constructor(shape: [number, number], dtype: SparseDType, indptr: Int32Array, indices: Int32Array, data: ValueArray | Tensor, flags: { sorted: boolean; canonical: boolean }) {
    this.shape = shape;
    this.dtype = dtype;
    this.indptr = indptr;
    this.indices = indices;
    if (data instanceof Tensor) this.valuesT = data;
    else this.stored = data;
    this.tensorValued = data instanceof Tensor && isTraced(data);
    this.hasSortedIndices = flags.sorted;
    this.hasCanonicalFormat = flags.canonical;
  }

  // Values are either stored arrays or a tensor (a parameter of a differentiable
  // computation, see withValues): the tensor is read only when an eager method
  // needs the numbers, and products with tensors use it as a graph input.
  private stored: ValueArray | undefined;
  private valuesT: Tensor | undefined;
  /**
   * The values are a traced tensor (being differentiated, or a vmap/jit input):
   * structural operations then map them with gather/scatterAdd (tensor-values.ts)
   * so that results stay differentiable; otherwise they work on stored arrays.
   */
  readonly tensorValued: boolean;
  /** Stored values (interleaved re, im for complex). */
  get data(): ValueArray {
    if (!this.stored) this.stored = valuesFromTensor(this.valuesT!, this.dtype, this.format);
    return this.stored!;
  }
  /** The values as a 1-D tensor [nnz] of `dtype` (the tensor given to withValues, or a view of the stored data). */
  valuesTensor(): Tensor {
    if (!this.valuesT) this.valuesT = tensorOfValues(this.stored!, this.dtype);
    return this.valuesT!;
  }
  /**
   * The same sparsity pattern with other values, given as a tensor [nnz] (or
   * anything tensor() accepts): products and solves with tensors then
   * differentiate with respect to these values (grad, jvp, vmap, jit).
   */
  withValues(values: Tensor | ArrayLike<number>): this {
    // Numbers for a float32 matrix are stored as a Float32Array (storage of the dtype, as the native kernels require).
    const t =
      values instanceof Tensor
        ? values
        : this.dtype === 'float32'
          ? tensorOfValues(Float32Array.from(values as ArrayLike<number>), 'float32')
          : tensorOfValues(Float64Array.from(values as ArrayLike<number>), this.dtype === 'complex64' || this.dtype === 'complex128' ? 'float64' : this.dtype);
    if (t.ndim !== 1 || t.shape[0] !== this.nnz) throw new ShapeError(`withValues: expected ${this.nnz} values (a 1-D tensor), got shape [${t.shape.join(', ')}]`);
    const d = toSparseDType('withValues', t.dtype);
    const flags = { sorted: this.hasSortedIndices, canonical: this.hasCanonicalFormat };
    return new (this.constructor as new (...a: unknown[]) => this)(this.shape, d, this.indptr, this.indices, t, flags);
  }

  /** A matrix of the same format from CSR-oriented (major/minor) arrays. */
  protected abstract wrap(c: Compressed, dtype: SparseDType, flags?: { sorted: boolean; canonical: boolean }, values?: Tensor): this;
  /** A matrix of the same format on pattern `c` (its data unused) with a values tensor. */
  protected wrapT(c: Compressed, values: Tensor, flags: { sorted: boolean; canonical: boolean }): this {
    return this.wrap(c, values.dtype as SparseDType, flags, values);
  }
  /** @internal the pattern as major/minor slices, without reading the values. */
  get pattern(): Compressed {
    const [m, n] = this.shape;
    const csr = this.format === 'csr';
    return { major: csr ? m : n, minor: csr ? n : m, indptr: this.indptr, indices: this.indices, data: EMPTY, lanes: 1 };
  }
  /** @internal canonical pattern and values tensor (duplicates summed). */
  canonT(d: SparseDType = this.dtype): { c: Compressed; v: Tensor } {
    let v = this.valuesTensor();
    if (v.dtype !== d) v = v.cast(d);
    if (this.hasCanonicalFormat) return { c: this.pattern, v };
    const m = canonicalMap(this.pattern);
    return { c: m.c, v: sumValues(v, m.dst, m.c.indices.length) };
  }
  /** Does an operation with `other` need the tensor path? */
  protected traced(other?: unknown): boolean {
    return this.tensorValued || (other instanceof CompressedMatrix && other.tensorValued) || (other instanceof Tensor && isTraced(other)) || ((other as { tensorValued?: boolean } | undefined)?.tensorValued ?? false);
  }
  /** `other` converted to this format. */
  protected abstract same(other: SparseMatrix): CompressedMatrix;
  abstract tocsr(): CsrMatrix;
  abstract tocsc(): CscMatrix;
  abstract tocoo(): CooMatrix;

  /** Stored entries (duplicates and explicit zeros included), like SciPy's nnz. */
  get nnz(): number {
    return this.indices.length;
  }
  /** @internal the arrays as major/minor slices. */
  get comp(): Compressed {
    const [m, n] = this.shape;
    const csr = this.format === 'csr';
    return { major: csr ? m : n, minor: csr ? n : m, indptr: this.indptr, indices: this.indices, data: this.data, lanes: lanesOf(this.dtype) };
  }
  /** @internal canonical arrays (sorted, duplicates summed). */
  get canonComp(): Compressed {
    if (this.hasCanonicalFormat) return this.comp;
    return sumDuplicatesSorted(this.hasSortedIndices ? this.comp : sortCompressed(this.comp));
  }
  protected flagsOf(c: Compressed): { sorted: boolean; canonical: boolean } {
    return indexFlags(c);
  }

  // ---- structure ------------------------------------------------------------------
  /** Same matrix with indices sorted within each row/column (duplicates kept). */
  sortIndices(): this {
    if (this.hasSortedIndices) return this;
    if (this.tensorValued) {
      const m = moved(this.pattern, sortCompressed);
      return this.wrapT(m.c, gatherValues(this.valuesTensor(), m.src), { sorted: true, canonical: this.hasCanonicalFormat || indexFlags(m.c).canonical });
    }
    const c = sortCompressed(this.comp);
    return this.wrap(c, this.dtype, { sorted: true, canonical: this.hasCanonicalFormat || indexFlags(c).canonical });
  }
  /** Same matrix in canonical form: sorted indices, duplicates summed. */
  sumDuplicates(): this {
    if (this.hasCanonicalFormat) return this;
    if (this.tensorValued) {
      const t = this.canonT();
      return this.wrapT(t.c, t.v, { sorted: true, canonical: true });
    }
    return this.wrap(this.canonComp, this.dtype, { sorted: true, canonical: true });
  }
  /** Same matrix without explicitly stored zeros (order and duplicates unchanged). */
  eliminateZeros(): this {
    if (this.tensorValued) {
      symbolicValues('eliminateZeros', this.valuesTensor());
      // Which entries are zero is read from the values; the kept ones stay differentiable
      // (a dropped entry is exactly zero, and so is its contribution from then on).
      const d = this.data,
        L = lanesOf(this.dtype);
      const m = selectedMap(this.pattern, (p) => d[p * L] !== 0 || (L === 2 && d[p * L + 1] !== 0));
      if (m.c.indices.length === this.nnz) return this;
      return this.wrapT(m.c, gatherValues(this.valuesTensor(), m.src), this.flags);
    }
    const c = eliminateZerosCompressed(this.comp);
    if (c === this.comp || c.indices === this.indices) return this;
    return this.wrap(c, this.dtype, { sorted: this.hasSortedIndices, canonical: this.hasCanonicalFormat });
  }
  /** Copy with values cast to `dtype` (complex → real is refused). */
  astype(dtype: SparseDType | string): this {
    const d = toSparseDType('astype', dtype);
    if (d === this.dtype) return this;
    if (this.tensorValued) {
      castValues('astype', EMPTY, this.dtype, d); // refuses complex → real
      return this.wrapT(this.pattern, this.valuesTensor().cast(d), this.flags);
    }
    return this.wrap({ ...this.comp, data: asDType('astype', this.data, this.dtype, d), lanes: lanesOf(d) }, d, this.flags);
  }
  protected get flags(): { sorted: boolean; canonical: boolean } {
    return { sorted: this.hasSortedIndices, canonical: this.hasCanonicalFormat };
  }
  /** Deep copy. */
  copy(): this {
    if (this.tensorValued) return this.wrapT({ ...this.pattern, indptr: this.indptr.slice(), indices: this.indices.slice() }, this.valuesTensor(), this.flags);
    return this.wrap({ ...this.comp, indptr: this.indptr.slice(), indices: this.indices.slice(), data: this.data.slice() }, this.dtype, this.flags);
  }
  /** Transpose Aᵀ in the same format (sorted indices). */
  transpose(): this {
    if (this.tensorValued) return this.transposedT(false);
    const c = transposeCompressed(this.comp);
    return this.wrap(c, this.dtype, { sorted: true, canonical: this.hasCanonicalFormat });
  }
  get T(): this {
    return this.transpose();
  }
  /** Conjugate transpose Aᴴ (Aᵀ for real dtypes). */
  conjTranspose(): this {
    if (this.tensorValued) return this.transposedT(true);
    const c = transposeCompressed(this.comp, true);
    return this.wrap(c, this.dtype, { sorted: true, canonical: this.hasCanonicalFormat });
  }
  get H(): this {
    return this.conjTranspose();
  }
  private transposedT(conj: boolean): this {
    const m = transposedMap(this.pattern);
    const v = gatherValues(this.valuesTensor(), m.src);
    return this.wrapT(m.c, conj && isComplexDType(this.dtype) ? v.conj() : v, { sorted: true, canonical: this.hasCanonicalFormat });
  }
  /** Elementwise complex conjugate (the same matrix for real dtypes). */
  conj(): this {
    if (!isComplexDType(this.dtype)) return this;
    if (this.tensorValued) return this.wrapT(this.pattern, this.valuesTensor().conj(), this.flags);
    const d = this.data.slice();
    for (let p = 1; p < d.length; p += 2) d[p] = -d[p]!;
    return this.wrap({ ...this.comp, data: d }, this.dtype, this.flags);
  }

  // ---- arithmetic -----------------------------------------------------------------
  private promoted(other: SparseMatrix, op: string): [Compressed, Compressed, SparseDType] {
    if (other.shape[0] !== this.shape[0] || other.shape[1] !== this.shape[1]) throw new ShapeError(`${op}: shapes [${this.shape.join(', ')}] and [${other.shape.join(', ')}] differ`);
    const o = this.same(other);
    const d = promote(this.dtype, o.dtype);
    const a = this.canonComp, b = o.canonComp;
    const lanes = lanesOf(d);
    return [{ ...a, data: asDType(op, a.data, this.dtype, d), lanes }, { ...b, data: asDType(op, b.data, o.dtype, d), lanes }, d];
  }
  /** A + B (any formats; result in this format, canonical, exact zeros dropped). */
  add(other: SparseMatrix): this {
    if (this.traced(other)) return this.sumT(other, 'add', false);
    const [a, b, d] = this.promoted(other, 'add');
    return this.wrap(addCompressed(a, b), d, { sorted: true, canonical: true });
  }
  /** A − B. */
  sub(other: SparseMatrix): this {
    if (this.traced(other)) return this.sumT(other, 'sub', true);
    const [a, b, d] = this.promoted(other, 'sub');
    return this.wrap(addCompressed(a, b, 1, -1), d, { sorted: true, canonical: true });
  }
  /** A ± B on tensor values: the union pattern (entries of value zero kept, with their derivatives). */
  private sumT(other: SparseMatrix, op: string, negate: boolean): this {
    const [o, d] = this.partner(other, op);
    const a = this.canonT(d),
      b = o.canonT(d);
    const u = unionMap(a.c, b.c);
    const v = sumValues(catValues([a.v, negate ? b.v.neg() : b.v], d), u.dst, u.c.indices.length);
    return this.wrapT(u.c, v, { sorted: true, canonical: true });
  }
  /** `other` in this format, and the promoted dtype (shapes checked). */
  private partner(other: SparseMatrix, op: string): [CompressedMatrix, SparseDType] {
    if (other.shape[0] !== this.shape[0] || other.shape[1] !== this.shape[1]) throw new ShapeError(`${op}: shapes [${this.shape.join(', ')}] and [${other.shape.join(', ')}] differ`);
    const o = this.same(other);
    return [o, promote(this.dtype, o.dtype)];
  }
  /** −A. */
  neg(): this {
    return this.scale(-1);
  }
  /** α·A; a complex α (as [re, im] or {re, im}) makes a real matrix complex. Pattern kept. */
  scale(alpha: Scalar): this {
    const [re, im] = scalarParts('scale', alpha);
    const d = im !== 0 && !isComplexDType(this.dtype) ? complexOf(this.dtype) : this.dtype;
    if (this.tensorValued) {
      const v = this.valuesTensor().cast(d);
      return this.wrapT(this.pattern, im === 0 ? v.mul(re) : v.mul(complexScalar(re, im, d)), this.flags);
    }
    const c = this.comp;
    const src = { ...c, data: asDType('scale', c.data, this.dtype, d), lanes: lanesOf(d) };
    return this.wrap(scaleCompressed(src, re, im), d, this.flags);
  }
  /**
   * Elementwise product. With a sparse matrix: intersection of the patterns
   * (canonical, exact zeros dropped). With a dense Tensor/array of shape [m, n],
   * [1, n], [n] or [m, 1] (broadcast like NumPy) or a scalar: A's pattern, canonicalized.
   */
  multiply(other: SparseMatrix | DenseOperand | number): this {
    if (typeof other === 'number') return this.sumDuplicates().scale(other);
    if (isSparse(other) && this.traced(other)) {
      const [o, d] = this.partner(other, 'multiply');
      const a = this.canonT(d),
        b = o.canonT(d);
      const x = intersectionMap(a.c, b.c);
      return this.wrapT(x.c, gatherValues(a.v, x.ia).mul(gatherValues(b.v, x.ib)), { sorted: true, canonical: true });
    }
    if (!isSparse(other) && (this.tensorValued || other instanceof Tensor)) return this.multiplyDenseT(other instanceof Tensor ? other : denseTensor('multiply', other as DenseOperand));
    if (isSparse(other)) {
      const [a, b, d] = this.promoted(other, 'multiply');
      return this.wrap(multiplyCompressed(a, b), d, { sorted: true, canonical: true });
    }
    const raw = denseRaw('multiply', other as DenseOperand);
    const [m, n] = this.shape;
    const s = raw.shape;
    let rs: number, cs: number;
    if (s.length === 0) [rs, cs] = [0, 0];
    else if (s.length === 1 && s[0] === n) [rs, cs] = [0, 1];
    else if (s.length === 2 && s[0] === m && s[1] === n) [rs, cs] = [n, 1];
    else if (s.length === 2 && s[0] === 1 && s[1] === n) [rs, cs] = [0, 1];
    else if (s.length === 2 && s[0] === m && s[1] === 1) [rs, cs] = [1, 0];
    else throw new ShapeError(`multiply: dense operand of shape [${s.join(', ')}] does not broadcast to [${m}, ${n}]`);
    const d = promote(this.dtype, raw.dtype);
    const lanes = lanesOf(d);
    const a = this.canonComp;
    if (this.format === 'csc') [rs, cs] = [cs, rs];
    const res = multiplyDenseCompressed({ ...a, data: asDType('multiply', a.data, this.dtype, d), lanes }, rawWithLanes(raw, lanes === 2), rs, cs);
    return this.wrap(res, d, { sorted: true, canonical: true });
  }
  /** Strides of a dense operand broadcast to [m, n] ([row, col] steps in its flat storage). */
  private broadcastStrides(s: readonly number[]): [number, number] {
    const [m, n] = this.shape;
    if (s.length === 0) return [0, 0];
    if (s.length === 1 && s[0] === n) return [0, 1];
    if (s.length === 2 && s[0] === m && s[1] === n) return [n, 1];
    if (s.length === 2 && s[0] === 1 && s[1] === n) return [0, 1];
    if (s.length === 2 && s[0] === m && s[1] === 1) return [1, 0];
    throw new ShapeError(`multiply: dense operand of shape [${s.join(', ')}] does not broadcast to [${m}, ${n}]`);
  }
  /** A ∘ D for a dense tensor D: A's canonical pattern, values a_e · D[row e, col e] (differentiable in both). */
  private multiplyDenseT(D: Tensor): this {
    const [rs, cs] = this.broadcastStrides(D.shape);
    const d = promote(this.dtype, sparseDTypeOfTensor(D));
    const a = this.canonT(d);
    const { major, indptr, indices } = a.c;
    const pos = new Int32Array(indices.length);
    const csr = this.format === 'csr';
    for (let i = 0; i < major; i++) for (let p = indptr[i]!; p < indptr[i + 1]!; p++) pos[p] = csr ? i * rs + indices[p]! * cs : indices[p]! * rs + i * cs;
    const flat = D.cast(d).reshape([D.shape.reduce((x, y) => x * y, 1)]);
    return this.wrapT(a.c, a.v.mul(gatherValues(flat, pos)), { sorted: true, canonical: true });
  }
  /** Sparse × sparse product A·B (SpGEMM); result in this format, canonical. */
  matmulSparse(other: SparseMatrix): this {
    if (this.shape[1] !== other.shape[0]) throw new ShapeError(`matmulSparse: inner dimensions differ: [${this.shape.join(', ')}] · [${other.shape.join(', ')}]`);
    const o = this.same(other);
    const d = promote(this.dtype, o.dtype);
    if (this.traced(other)) {
      // CSC arrays are CSR arrays of the transpose: (A·B)ᵀ = Bᵀ·Aᵀ, so the roles swap.
      const [l, r] = this.format === 'csr' ? [this, o] : [o, this];
      const x = productMap(l.pattern, r.pattern);
      const terms = gatherValues(l.valuesTensor().cast(d), x.ia).mul(gatherValues(r.valuesTensor().cast(d), x.ib));
      return this.wrapT(x.c, sumValues(terms, x.ic, x.c.indices.length), { sorted: true, canonical: true });
    }
    const lanes = lanesOf(d);
    const a = { ...this.comp, data: asDType('matmulSparse', this.data, this.dtype, d), lanes };
    const b = { ...o.comp, data: asDType('matmulSparse', o.data, o.dtype, d), lanes };
    // CSC arrays are CSR arrays of the transpose: (A·B)ᵀ = Bᵀ·Aᵀ.
    const c = this.format === 'csr' ? spgemm(a, b) : spgemm(b, a);
    return this.wrap(c, d, { sorted: true, canonical: true });
  }

  // ---- products with vectors ------------------------------------------------------
  /** y = A·x for x [n] (a Tensor or anything tensor() takes); a lazy Tensor of the promoted dtype. Raw Float64Array products: sparse.raw.matvec. */
  matvec(x: Tensor | TensorData): Tensor {
    return this.tensorProduct('matvec', x, false);
  }
  /** y = Aᴴ·x (conjugate transpose product) as a lazy Tensor. */
  rmatvec(x: Tensor | TensorData): Tensor {
    return this.tensorProduct('rmatvec', x, true);
  }
  /** y = A·x on raw Float64Array vectors (length n, or 2n interleaved for complex). */
  matvecRaw(x: Float64Array, out?: Float64Array): Float64Array {
    return this.rawProduct('matvec', x, out, false);
  }
  /** y = Aᴴ·x on raw Float64Array vectors. */
  rmatvecRaw(x: Float64Array, out?: Float64Array): Float64Array {
    return this.rawProduct('rmatvec', x, out, true);
  }
  protected rawProduct(op: string, x: Float64Array, out: Float64Array | undefined, adjoint: boolean): Float64Array {
    const lanes = lanesOf(this.dtype);
    const [m, n] = adjoint ? [this.shape[1], this.shape[0]] : this.shape;
    if (x.length !== n * lanes) throw new ShapeError(`${op}: x has length ${x.length}, expected ${n * lanes}${lanes === 2 ? ' (interleaved complex)' : ''}`);
    const y = out ?? new Float64Array(m * lanes);
    if (y.length !== m * lanes) throw new ShapeError(`${op}: out has length ${y.length}, expected ${m * lanes}`);
    checkProductOutput(op, this.comp, x, y); // out overlapping x or the matrix's arrays (any byte range) is refused
    this.kernel(x, y, adjoint, out === undefined);
    return y;
  }
  /** Overridden by CsrMatrix to route A·x through the pluggable SpMV kernel; `fresh`: y was allocated for this call. */
  protected kernel(x: Float64Array, y: Float64Array, adjoint: boolean, fresh = false): void {
    const c = this.comp;
    const cplx = c.lanes === 2;
    // CSR: A·x gathers, Aᴴ·x scatters; CSC the other way round.
    if ((this.format === 'csr') !== adjoint) gather(c.major, c.indptr, c.indices, c.data, cplx, adjoint, x, y);
    else {
      y.fill(0);
      scatter(c.major, c.indptr, c.indices, c.data, cplx, adjoint, x, y);
    }
  }
  private tensorProduct(op: string, x: Tensor | TensorData, adjoint: boolean): Tensor {
    const t = x instanceof Tensor ? x : tensor(x);
    if (t.ndim !== 1) throw new ShapeError(`${op}: x must be 1-D, got shape [${t.shape.join(', ')}] (use matmul for matrices)`);
    return sparseProduct(this, t, adjoint);
  }
  /** A·X for a dense X of shape [n, k] (or [n]); returns a lazy Tensor (differentiable in X and in the values). */
  matmul(X: DenseOperand): Tensor {
    const t = X instanceof Tensor ? X : tensor(X as NestedData);
    if (t.ndim !== 1 && t.ndim !== 2) throw new ShapeError(`matmul: X must be [${this.shape[1]}] or [${this.shape[1]}, k], got [${t.shape.join(', ')}]`);
    return sparseProduct(this, t, false);
  }

  // ---- dense, diagonals, slices ------------------------------------------------------
  /** The dense matrix as a Tensor (duplicates summed). */
  toDense(): Tensor {
    const [m, n] = this.shape;
    if (this.tensorValued) {
      const { major, indptr, indices } = this.pattern;
      const pos = new Int32Array(this.nnz);
      const csr = this.format === 'csr';
      for (let i = 0; i < major; i++) for (let p = indptr[i]!; p < indptr[i + 1]!; p++) pos[p] = csr ? i * n + indices[p]! : indices[p]! * n + i;
      return sumValues(this.valuesTensor(), pos, m * n).reshape([m, n]);
    }
    const lanes = lanesOf(this.dtype);
    const out = new Float64Array(m * n * lanes);
    const { major, indptr, indices, data } = this.comp;
    const csr = this.format === 'csr';
    for (let i = 0; i < major; i++) {
      for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
        const o = (csr ? i * n + indices[p]! : indices[p]! * n + i) * lanes;
        out[o]! += data[p * lanes]!;
        if (lanes === 2) out[o + 1]! += data[2 * p + 1]!;
      }
    }
    return tensorFrom(out, [m, n], this.dtype);
  }
  /** Raw k-th diagonal (Float64Array, interleaved for complex; duplicates summed). */
  diagonalRaw(k = 0): Float64Array {
    if (!Number.isInteger(k)) throw new ShapeError(`diagonal: k must be an integer, got ${k}`);
    if (this.format === 'csr') return diagonalCompressed(this.comp, k);
    return diagonalCompressed(this.comp, -k);
  }
  /** k-th diagonal as a 1-D Tensor (SciPy's A.diagonal(k)). */
  diagonal(k = 0): Tensor {
    if (this.tensorValued) return this.diagonalT(k);
    const v = this.diagonalRaw(k);
    return tensorFrom(v, [v.length / lanesOf(this.dtype)], this.dtype);
  }
  private diagonalT(k: number): Tensor {
    if (!Number.isInteger(k)) throw new ShapeError(`diagonal: k must be an integer, got ${k}`);
    const [m, n] = this.shape;
    const len = diagLength(m, n, k);
    const { major, indptr, indices } = this.pattern;
    const sel: number[] = [],
      dst: number[] = [];
    const csr = this.format === 'csr';
    for (let a = 0; a < major; a++)
      for (let p = indptr[a]!; p < indptr[a + 1]!; p++) {
        const [i, j] = csr ? [a, indices[p]!] : [indices[p]!, a];
        if (j - i === k) sel.push(p), dst.push(k >= 0 ? i : j);
      }
    return sumValues(gatherValues(this.valuesTensor(), Int32Array.from(sel)), Int32Array.from(dst), len);
  }
  private checkRange(op: string, start: number, stop: number, size: number): void {
    if (!Number.isInteger(start) || !Number.isInteger(stop) || start < 0 || stop > size || start > stop) throw new IndexError(`${op}: range [${start}, ${stop}) is not inside [0, ${size}]`);
  }
  /** Rows [start, stop) as a matrix of the same format. */
  rows(start: number, stop: number): this {
    this.checkRange('rows', start, stop, this.shape[0]);
    if (this.tensorValued) return this.slicedT(this.format === 'csr', start, stop);
    const c = this.format === 'csr' ? sliceMajor(this.comp, start, stop) : sliceMinor(this.comp, start, stop);
    return this.wrap(c, this.dtype, this.flags);
  }
  /** Columns [start, stop) as a matrix of the same format. */
  cols(start: number, stop: number): this {
    this.checkRange('cols', start, stop, this.shape[1]);
    if (this.tensorValued) return this.slicedT(this.format === 'csc', start, stop);
    const c = this.format === 'csr' ? sliceMinor(this.comp, start, stop) : sliceMajor(this.comp, start, stop);
    return this.wrap(c, this.dtype, this.flags);
  }
  private slicedT(major: boolean, start: number, stop: number): this {
    const m = moved(this.pattern, (ids) => (major ? sliceMajor(ids, start, stop) : sliceMinor(ids, start, stop)));
    return this.wrapT(m.c, gatherValues(this.valuesTensor(), m.src), this.flags);
  }
  /** Row i as a 1×n matrix (SciPy's getrow). Negative i counts from the end. */
  getRow(i: number): this {
    const m = this.shape[0];
    const r = i < 0 ? i + m : i;
    if (!Number.isInteger(r) || r < 0 || r >= m) throw new IndexError(`getRow: row ${i} out of range for ${m} rows`);
    return this.rows(r, r + 1);
  }
  /** Column j as an m×1 matrix. */
  getCol(j: number): this {
    const n = this.shape[1];
    const c = j < 0 ? j + n : j;
    if (!Number.isInteger(c) || c < 0 || c >= n) throw new IndexError(`getCol: column ${j} out of range for ${n} columns`);
    return this.cols(c, c + 1);
  }

  /** SciPy-like listing: a header line, then "(i, j)\tvalue" per stored entry (truncated). */
  toString(): string {
    const { major, indptr, indices } = this.comp;
    const ri = new Int32Array(this.nnz), ci = new Int32Array(this.nnz);
    for (let i = 0; i < major; i++)
      for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
        if (this.format === 'csr') [ri[p], ci[p]] = [i, indices[p]!];
        else [ri[p], ci[p]] = [indices[p]!, i];
      }
    return formatSparse(this.constructor.name, this.shape, this.dtype, ri, ci, this.data);
  }
}

/**
 * True for the matrices of this module.
 * @example
 * ```ts
 * sparse.isSparse(sparse.eye(2));        // true
 * sparse.isSparse(tensor([[1, 0], [0, 1]]));  // false
 * ```
 */
export function isSparse(x: unknown): x is SparseMatrix {
  return x !== null && typeof x === 'object' && 'format' in x && typeof (x as SparseMatrix).tocsr === 'function';
}

/** Helper for subclasses: a Compressed of zero entries. */
/** A complex scalar of dtype d as a 0-d tensor. */
function complexScalar(re: number, im: number, d: SparseDType): Tensor {
  return tensorOfValues(d === 'complex64' ? new Float32Array([re, im]) : new Float64Array([re, im]), d).reshape([]);
}

const EMPTY = new Float64Array(0);

