// Constructors beyond the raw arrays: triplets, dense, identity, diagonals,
// Kronecker products and sums (SciPy's sparse.eye/diags/kron/kronsum semantics).

import type { SparseDType } from './contract.js';
import type { SparseMatrix, DenseOperand } from './base.js';
import { CsrMatrix } from './csr.js';
import type { CscMatrix } from './csc.js';
import { coo, type CooMatrix } from './coo.js';
import { kronCompressed, addCompressed } from './arith.js';
import type { Compressed } from './kernels.js';
import { type ValuesInput, type Scalar, toSparseDType, lanesOf, promote, asDType, castValues, allocValues, scalarParts, normalizeValues, sparseDTypeOfTensor } from './dtypes.js';
import { denseRaw, storeAs, tensorFrom } from './dense.js';
import { Tensor } from '../tensor/tensor.js';
import { isTraced, symbolicValues, gatherValues, catValues, kronMap } from './tensor-values.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import { SparseFormatError } from './errors.js';

const wrapCsr = (c: Compressed, dtype: SparseDType): CsrMatrix => new CsrMatrix([c.major, c.minor], dtype, c.indptr, c.indices, c.data, { sorted: true, canonical: true });

/**
 * fromTriplets(rows, cols, vals, shape, {dtype}): canonical CSR with duplicates
 * summed (the usual finite-element assembly). Explicit zeros are kept.
 * @example
 * ```ts
 * // (1, 1) appears twice: 2 + 3
 * sparse.fromTriplets([0, 1, 1], [0, 1, 1], [1, 2, 3], [2, 2]).toDense().tolist();   // [[1, 0], [0, 5]]
 * ```
 */
export function fromTriplets(rows: Int32Array | ArrayLike<number>, cols: Int32Array | ArrayLike<number>, vals: ValuesInput, shape: [number, number], opts: { dtype?: SparseDType | string } = {}): CsrMatrix {
  return coo({ row: rows, col: cols, data: vals, shape, dtype: opts.dtype }).tocsr();
}

/**
 * fromDense(t, {format, dtype}): the nonzeros of a 2-D Tensor or nested array
 * (nested [re, im] pairs are complex) as CSR (default), CSC or COO. int/bool
 * tensors become float64. The entries are canonical.
 * @example
 * ```ts
 * const A = sparse.fromDense([[1, 0], [0, 2]]);
 * A.nnz;                            // 2
 * sparse.fromDense([[1, 0], [0, 2]], { format: 'csc' }).format;   // 'csc'
 * ```
 */
export function fromDense(t: DenseOperand, opts?: { format?: 'csr'; dtype?: SparseDType | string }): CsrMatrix;
export function fromDense(t: DenseOperand, opts: { format: 'csc'; dtype?: SparseDType | string }): CscMatrix;
export function fromDense(t: DenseOperand, opts: { format: 'coo'; dtype?: SparseDType | string }): CooMatrix;
export function fromDense(t: DenseOperand, opts?: { format?: 'csr' | 'csc' | 'coo'; dtype?: SparseDType | string }): SparseMatrix;
export function fromDense(t: DenseOperand, opts: { format?: 'csr' | 'csc' | 'coo'; dtype?: SparseDType | string } = {}): SparseMatrix {
  const f = opts.format ?? 'csr';
  if (t instanceof Tensor && isTraced(t)) {
    const A = fromDenseTraced(t, opts.dtype);
    return f === 'csr' ? A : f === 'csc' ? A.tocsc() : A.tocoo();
  }
  const raw = denseRaw('fromDense', t, 2);
  if (raw.shape.length !== 2) throw new ShapeError(`fromDense: expected a 2-D tensor, got shape [${raw.shape.join(', ')}]`);
  const [m, n] = raw.shape as [number, number];
  const dtype = opts.dtype !== undefined ? toSparseDType('fromDense', opts.dtype) : raw.dtype;
  const lanes = lanesOf(raw.dtype);
  const v = raw.data;
  let nnz = 0;
  for (let e = 0; e < m * n; e++) if (v[e * lanes] !== 0 || (lanes === 2 && v[2 * e + 1] !== 0)) nnz++;
  const ip = new Int32Array(m + 1);
  const ix = new Int32Array(nnz);
  const d = new Float64Array(nnz * lanes);
  let q = 0;
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const e = i * n + j;
      if (v[e * lanes] === 0 && (lanes === 1 || v[2 * e + 1] === 0)) continue;
      ix[q] = j;
      d[q * lanes] = v[e * lanes]!;
      if (lanes === 2) d[2 * q + 1] = v[2 * e + 1]!;
      q++;
    }
    ip[i + 1] = q;
  }
  const A = new CsrMatrix([m, n], raw.dtype, ip, ix, storeAs(raw.dtype, d), { sorted: true, canonical: true }).astype(dtype);
  return f === 'csr' ? A : f === 'csc' ? A.tocsc() : A.tocoo();
}

/**
 * fromDense of a traced tensor: the pattern (its nonzeros) is read from the
 * values, and the stored values are gathered from the tensor, so they stay
 * differentiable (entries that are zero here are not stored: their derivative
 * does not reach the matrix, as for any pattern).
 */
function fromDenseTraced(t: Tensor, dtype?: SparseDType | string): CsrMatrix {
  if (t.ndim !== 2) throw new ShapeError(`fromDense: expected a 2-D tensor, got shape [${t.shape.join(', ')}]`);
  symbolicValues('fromDense', t);
  const [m, n] = t.shape as [number, number];
  const td = sparseDTypeOfTensor(t);
  const d = dtype !== undefined ? toSparseDType('fromDense', dtype) : td;
  const raw = denseRaw('fromDense', t, 2);
  const lanes = lanesOf(raw.dtype);
  const pos: number[] = [];
  const ip = new Int32Array(m + 1);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < n; j++) {
      const e = i * n + j;
      if (raw.data[e * lanes] !== 0 || (lanes === 2 && raw.data[2 * e + 1] !== 0)) pos.push(e);
    }
    ip[i + 1] = pos.length;
  }
  const src = Int32Array.from(pos);
  const ix = src.map((e) => e % n);
  castValues('fromDense', new Float64Array(0), td, d); // refuses complex → real
  const flat = (t.dtype === d ? t : t.cast(d)).reshape([m * n]);
  return new CsrMatrix([m, n], d, ip, ix, gatherValues(flat, src), { sorted: true, canonical: true });
}

/**
 * eye(n, {m, k, dtype}): ones on the k-th diagonal of an n×m matrix (SciPy's sparse.eye), CSR.
 * @example
 * ```ts
 * sparse.eye(2, { m: 3, k: 1 }).toDense().tolist();   // [[0, 1, 0], [0, 0, 1]]  (scipy.sparse.eye(2, 3, k=1))
 * ```
 */
export function eye(n: number, opts: { m?: number; k?: number; dtype?: SparseDType | string } = {}): CsrMatrix {
  const m = opts.m ?? n;
  const k = opts.k ?? 0;
  if (!Number.isInteger(k)) throw new ValueError(`eye: k must be an integer, got ${k}`);
  if (!Number.isInteger(n) || !Number.isInteger(m) || n < 0 || m < 0) throw new SparseFormatError(`eye: sizes must be non-negative integers, got ${n}, ${m}`);
  const dtype = toSparseDType('eye', opts.dtype ?? 'float64');
  // Unlike diags, a diagonal outside the matrix is not an error (SciPy's eye gives an empty matrix).
  const r0 = Math.max(0, -k), len = Math.max(0, Math.min(n - r0, m - (r0 + k)));
  const ip = new Int32Array(n + 1), ix = new Int32Array(len), d = allocValues(dtype, len);
  for (let t = 0; t < len; t++) {
    ix[t] = r0 + t + k;
    d[t * lanesOf(dtype)] = 1;
  }
  for (let i = 0; i < n; i++) ip[i + 1] = ip[i]! + (i >= r0 && i < r0 + len ? 1 : 0);
  return new CsrMatrix([n, m], dtype, ip, ix, d, { sorted: true, canonical: true });
}

/**
 * diags(diagonals, offsets, shape?, {dtype}) with SciPy's sparse.diags semantics:
 * diagonal j goes on offset offsets[j] (k > 0 above the main diagonal). Entry t of
 * a diagonal is at (t, t+k) for k ≥ 0 and (t−k, t) for k < 0. A diagonal longer
 * than its place is truncated, one of length 1 is broadcast, a shorter one is an
 * error. Without shape the matrix is square of size len(diagonals[0]) + |offsets[0]|.
 * A single diagonal may be given with a scalar offset. Zeros are not stored (SciPy
 * drops them converting from DIA). Repeated offsets are an error (as in SciPy).
 * @example
 * ```ts
 * // sub-, main and super-diagonal (scipy.sparse.diags)
 * sparse.diags([[1, 2], [3, 4, 5], [6, 7]], [-1, 0, 1]).toDense().tolist();   // [[3, 6, 0], [1, 4, 7], [0, 2, 5]]
 * ```
 */
export function diags(
  diagonals: readonly (ValuesInput | Scalar)[] | ValuesInput,
  offsets: number | readonly number[] = 0,
  shape?: [number, number],
  opts: { dtype?: SparseDType | string } = {},
): CsrMatrix {
  let diagList: (ValuesInput | Scalar)[];
  let offs: number[];
  if (typeof offsets === 'number') {
    // SciPy: with a scalar offset, `diagonals` is one diagonal (or a list holding one).
    const isList = Array.isArray(diagonals) && diagonals.length > 0 && typeof diagonals[0] !== 'number';
    if (isList && diagonals.length !== 1) throw new ValueError(`diags: ${diagonals.length} diagonals but a single offset`);
    diagList = isList ? [diagonals[0] as ValuesInput] : [diagonals as ValuesInput];
    offs = [offsets];
  } else {
    diagList = [...(diagonals as readonly (ValuesInput | Scalar)[])];
    offs = [...offsets];
  }
  if (diagList.length !== offs.length) throw new ValueError(`diags: ${diagList.length} diagonals but ${offs.length} offsets`);
  if (offs.some((k) => !Number.isInteger(k))) throw new ValueError(`diags: offsets must be integers, got ${JSON.stringify(offs)}`);
  if (new Set(offs).size !== offs.length) throw new ValueError(`diags: offset array contains duplicate values ${JSON.stringify(offs)}`);
  if (diagList.some((d) => d instanceof Tensor && isTraced(d))) return diagsTraced(diagList, offs, shape, opts.dtype);
  const vals = diagList.map((d) => {
    if (typeof d === 'number') return normalizeValues('diags', [d]);
    if (isScalarObj(d)) return normalizeValues('diags', [scalarParts('diags', d as Scalar)]);
    return normalizeValues('diags', d as ValuesInput);
  });
  if (!shape) {
    if (vals.length === 0) throw new ValueError('diags: shape is required without diagonals');
    const s = vals[0]!.data.length / lanesOf(vals[0]!.dtype) + Math.abs(offs[0]!);
    shape = [s, s];
  }
  const [m, n] = shape;
  if (!Number.isInteger(m) || !Number.isInteger(n) || m < 0 || n < 0) throw new SparseFormatError(`diags: shape must be non-negative integers, got ${JSON.stringify(shape)}`);
  let dtype: SparseDType = vals.reduce<SparseDType | undefined>((acc, v) => (acc ? promote(acc, v.dtype) : v.dtype), undefined) ?? 'float64';
  if (opts.dtype !== undefined) dtype = toSparseDType('diags', opts.dtype);
  const lanes = lanesOf(dtype);
  const rows: number[] = [], cols: number[] = [], dv: number[] = [];
  offs.forEach((k, j) => {
    const len = Math.min(m + k, n - k, Math.min(m, n));
    if (len < 0) throw new ValueError(`diags: offset ${k} (index ${j}) out of bounds for shape [${m}, ${n}]`);
    const src = asDType('diags', vals[j]!.data, vals[j]!.dtype, dtype);
    const have = src.length / lanes;
    if (have !== 1 && have < len) throw new ValueError(`diags: diagonal ${j} has length ${have} at offset ${k}; shape [${m}, ${n}] needs ${len}`);
    for (let t = 0; t < len; t++) {
      const s = have === 1 ? 0 : t;
      const re = src[s * lanes]!, im = lanes === 2 ? src[s * lanes + 1]! : 0;
      if (re === 0 && im === 0) continue;
      rows.push(k >= 0 ? t : t - k);
      cols.push(k >= 0 ? t + k : t);
      dv.push(re);
      if (lanes === 2) dv.push(im);
    }
  });
  return fromTriplets(rows, cols, storeAs(dtype, Float64Array.from(dv)), [m, n], { dtype });
}

/**
 * diags with traced tensor diagonals: the same placement and checks, every entry
 * of the band stored (a zero is kept: its derivative matters), values gathered
 * from the diagonals so they stay differentiable.
 */
function diagsTraced(diagList: (ValuesInput | Scalar)[], offs: number[], shape: [number, number] | undefined, dtypeOpt: SparseDType | string | undefined): CsrMatrix {
  const vals: Tensor[] = diagList.map((d) => {
    if (d instanceof Tensor) {
      if (d.ndim > 1) throw new ValueError(`diags: a diagonal must be 1-D, got shape [${d.shape.join(', ')}]`);
      return d.ndim === 0 ? d.reshape([1]) : d;
    }
    const r = typeof d === 'number' ? normalizeValues('diags', [d]) : isScalarObj(d) ? normalizeValues('diags', [scalarParts('diags', d as Scalar)]) : normalizeValues('diags', d as ValuesInput);
    return tensorFrom(r.data instanceof Float64Array ? r.data : Float64Array.from(r.data), [r.data.length / lanesOf(r.dtype)], r.dtype);
  });
  if (!shape) {
    if (vals.length === 0) throw new ValueError('diags: shape is required without diagonals');
    const s = vals[0]!.shape[0]! + Math.abs(offs[0]!);
    shape = [s, s];
  }
  const [m, n] = shape;
  if (!Number.isInteger(m) || !Number.isInteger(n) || m < 0 || n < 0) throw new SparseFormatError(`diags: shape must be non-negative integers, got ${JSON.stringify(shape)}`);
  const dtype = dtypeOpt !== undefined ? toSparseDType('diags', dtypeOpt) : vals.map(sparseDTypeOfTensor).reduce((a, b) => promote(a, b), 'float32' as SparseDType);
  const rows: number[] = [],
    cols: number[] = [],
    src: number[] = [];
  let base = 0;
  offs.forEach((k, j) => {
    const len = Math.min(m + k, n - k, Math.min(m, n));
    if (len < 0) throw new ValueError(`diags: offset ${k} (index ${j}) out of bounds for shape [${m}, ${n}]`);
    const have = vals[j]!.shape[0]!;
    if (have !== 1 && have < len) throw new ValueError(`diags: diagonal ${j} has length ${have} at offset ${k}; shape [${m}, ${n}] needs ${len}`);
    for (let t = 0; t < len; t++) {
      rows.push(k >= 0 ? t : t - k);
      cols.push(k >= 0 ? t + k : t);
      src.push(base + (have === 1 ? 0 : t));
    }
    base += have;
  });
  const v = gatherValues(catValues(vals, dtype), Int32Array.from(src));
  return coo({ row: Int32Array.from(rows), col: Int32Array.from(cols), data: v, shape: [m, n], dtype }).tocsr();
}

const isTensorValued = (A: SparseMatrix): boolean => (A as { tensorValued?: boolean }).tensorValued === true;

function isScalarObj(d: unknown): boolean {
  return d !== null && typeof d === 'object' && !Array.isArray(d) && !ArrayBuffer.isView(d) && 're' in (d as object);
}
function canonicalOf(A: SparseMatrix, dtype: SparseDType): Compressed {
  const c = A.tocsr().canonComp;
  return { ...c, data: asDType('kron', c.data, A.dtype, dtype), lanes: lanesOf(dtype) };
}

/**
 * Kronecker product kron(A, B) as canonical CSR (SciPy's sparse.kron).
 * @example
 * ```ts
 * sparse.kron(sparse.eye(2), sparse.fromDense([[1, 2]])).toDense().tolist();   // [[1, 2, 0, 0], [0, 0, 1, 2]]
 * ```
 */
export function kron(A: SparseMatrix, B: SparseMatrix): CsrMatrix {
  const d = promote(A.dtype, B.dtype);
  if (isTensorValued(A) || isTensorValued(B)) {
    const a = A.tocsr().canonT(d),
      b = B.tocsr().canonT(d);
    const k = kronMap(a.c, b.c);
    return new CsrMatrix([k.c.major, k.c.minor], d, k.c.indptr, k.c.indices, gatherValues(a.v, k.ia).mul(gatherValues(b.v, k.ib)), { sorted: true, canonical: true });
  }
  return wrapCsr(kronCompressed(canonicalOf(A, d), canonicalOf(B, d)), d);
}

/**
 * Kronecker sum with SciPy's convention: kronsum(A, B) = kron(I_n, A) + kron(B, I_m)
 * for square A (m×m) and B (n×n). Exact cancellations are dropped (SciPy's sum does too).
 * @example
 * ```ts
 * // kron(I₂, A) + kron(B, I₂) (scipy.sparse.kronsum)
 * const A = sparse.fromDense([[1, 2], [3, 4]]), B = sparse.fromDense([[0, 1], [1, 0]]);
 * sparse.kronsum(A, B).toDense().tolist();   // [[1, 2, 1, 0], [3, 4, 0, 1], [1, 0, 1, 2], [0, 1, 3, 4]]
 * ```
 */
export function kronsum(A: SparseMatrix, B: SparseMatrix): CsrMatrix {
  const [m, m2] = A.shape, [n, n2] = B.shape;
  if (m !== m2 || n !== n2) throw new ShapeError(`kronsum: A and B must be square, got [${A.shape.join(', ')}] and [${B.shape.join(', ')}]`);
  const d = promote(A.dtype, B.dtype);
  if (isTensorValued(A) || isTensorValued(B)) return kron(eye(n, { dtype: d }), A).add(kron(B, eye(m, { dtype: d })));
  const left = kronCompressed(canonicalOf(eye(n, { dtype: d }), d), canonicalOf(A, d));
  const right = kronCompressed(canonicalOf(B, d), canonicalOf(eye(m, { dtype: d }), d));
  return wrapCsr(addCompressed(left, right), d);
}

/**
 * The n×n identity (alias of eye(n)).
 * @example
 * ```ts
 * sparse.identity(2).toDense().tolist();   // [[1, 0], [0, 1]]
 * ```
 */
export function identity(n: number, opts: { dtype?: SparseDType | string } = {}): CsrMatrix {
  return eye(n, opts);
}

/**
 * An m×n matrix with no stored entries.
 * @example
 * ```ts
 * const Z = sparse.zeros([2, 3]);
 * Z.nnz;                     // 0
 * Z.toDense().tolist();      // [[0, 0, 0], [0, 0, 0]]
 * ```
 */
export function zeros(shape: [number, number], opts: { dtype?: SparseDType | string; format?: 'csr' | 'csc' } = {}): CsrMatrix | CscMatrix {
  const dtype = toSparseDType('zeros', opts.dtype ?? 'float64');
  const A = new CsrMatrix(shape, dtype, new Int32Array(shape[0] + 1), new Int32Array(0), allocValues(dtype, 0), { sorted: true, canonical: true });
  return opts.format === 'csc' ? A.tocsc() : A;
}
