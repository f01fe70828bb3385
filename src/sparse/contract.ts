// Contracts shared inside the sparse module, so formats (csr.ts ...), the
// iterative solvers (solvers/), the preconditioners and the native kernels
// (src/backends/native/sparse.ts) can be written independently.
//
// Values: float32 | float64 | complex64 | complex128. Complex values are
// interleaved (re, im) in a Float32Array/Float64Array of twice the length.
// Indices are Int32Array, 0-based.

export type SparseDType = 'float32' | 'float64' | 'complex64' | 'complex128';
export type ValueArray = Float32Array | Float64Array;

/** The raw compressed-row arrays of a matrix (CSC uses the same fields, by columns). */
export interface CompressedArrays {
  shape: [number, number];
  dtype: SparseDType;
  /** length rows + 1 (CSR) or cols + 1 (CSC), indptr[0] = 0, non-decreasing. */
  indptr: Int32Array;
  /** length nnz, in range. */
  indices: Int32Array;
  /** length nnz (2·nnz interleaved for complex). */
  data: ValueArray;
}

/**
 * What the iterative solvers need of an operator: a square or rectangular linear
 * map on raw vectors. Vectors are Float64Array (interleaved for complex dtypes,
 * i.e. length 2n); float32 operators are applied in float64 by the solvers.
 * `rmatvec` is the conjugate-transpose product Aᴴ x (needed by some solvers and by
 * the adjoint of a solve).
 */
export interface RawOperator {
  shape: [number, number];
  dtype: SparseDType;
  matvec(x: Float64Array, out?: Float64Array): Float64Array;
  rmatvec?(x: Float64Array, out?: Float64Array): Float64Array;
}

/** A preconditioner: out = M⁻¹ x (an approximate inverse of A), on raw vectors as above. */
export interface RawPreconditioner {
  shape: [number, number];
  apply(x: Float64Array, out?: Float64Array): Float64Array;
}
