// The kernel contract of the linalg module: what the js reference kernels
// (src/linalg/kernels/js) and the native LAPACKE kernels (native/src/lapack,
// src/linalg/kernels/native.ts) both implement, so the IR op can run either.
//
// Every kernel works on a batch of B row-major, contiguous matrices stored in
// the dtype's storage array (complex values interleaved re, im), writes fresh
// output arrays it was given, and returns one LAPACK-style `info` per batch
// entry (0 = success; meaning of > 0 per kernel below; < 0 never escapes:
// that is a bug in the caller and kernels throw an Error for it). Kernels
// never throw for numerical trouble: the caller maps info to typed errors.

export type LinalgDType = 'float32' | 'float64' | 'complex64' | 'complex128';
export type FloatArray = Float32Array | Float64Array;

/** The real dtype of a linalg dtype (eigenvalues of Hermitian matrices, singular values). */
export const realOf = (d: LinalgDType): 'float32' | 'float64' => (d === 'float32' || d === 'complex64' ? 'float32' : 'float64');

/**
 * The kernels. `b` is the batch count; sizes are per matrix. Outputs are
 * pre-allocated by the caller with the stated lengths (times b).
 */
export interface LinalgKernels {
  /**
   * Cholesky a = l lᴴ (lower) or uᴴ u (upper). out: [b, n, n] holding the factor with the
   * other triangle zeroed. info k > 0: the leading minor of order k is not positive definite.
   */
  cholesky(dtype: LinalgDType, b: number, n: number, a: FloatArray, out: FloatArray, lower: boolean): Int32Array;

  /**
   * Solves op(a) x = rhs with a triangular (only its `lower`/upper triangle is read),
   * op = identity (trans 0), transpose (1) or conjugate transpose (2); unitDiagonal: the
   * diagonal is taken as 1. a: [b, n, n], rhs: [b, n, k], out x: [b, n, k].
   * info i > 0: a[i-1, i-1] is exactly zero (singular).
   */
  triangularSolve(dtype: LinalgDType, b: number, n: number, k: number, a: FloatArray, rhs: FloatArray, out: FloatArray, lower: boolean, trans: 0 | 1 | 2, unitDiagonal: boolean): Int32Array;

  /**
   * LU with partial pivoting (getrf) of a: [b, m, n]. lu: [b, m, n] (unit-lower l below the
   * diagonal, u on and above); piv: [b, min(m, n)] 0-based row interchanges (LAPACK ipiv - 1:
   * row i was swapped with row piv[i]); perm: [b, m] the permutation they make, such that
   * a[perm[i], :] = (l u)[i, :]. info i > 0: u[i-1, i-1] is exactly zero (factorization
   * completed; singular).
   */
  lu(dtype: LinalgDType, b: number, m: number, n: number, a: FloatArray, lu: FloatArray, piv: Int32Array, perm: Int32Array): Int32Array;

  /** Solves a x = rhs (gesv). a: [b, n, n], rhs: [b, n, k], out x: [b, n, k]. info i > 0: u[i-1, i-1] = 0, x undefined. */
  solve(dtype: LinalgDType, b: number, n: number, k: number, a: FloatArray, rhs: FloatArray, out: FloatArray): Int32Array;

  /**
   * Determinant from the LU factorization with partial pivoting (getrf) of a: [b, n, n].
   * logabs null: out [b] = det(a). Otherwise out [b] = its sign (±1, or the unit phase for
   * complex; 0 when singular) and logabs [b] (real, realOf(dtype)) = log|det(a)| (−inf when
   * singular). The pivots' product is kept scaled, so det is finite whenever the exact
   * value is representable. info i > 0: u[i-1, i-1] = 0 (det 0; not an error).
   */
  det(dtype: LinalgDType, b: number, n: number, a: FloatArray, out: FloatArray, logabs: FloatArray | null): Int32Array;

  /**
   * Inverse (getrf + getri) of a: [b, n, n] into out [b, n, n]. info i > 0: u[i-1, i-1] = 0 in
   * a's LU with partial row pivoting (the pivot solve reports), out undefined.
   */
  inv(dtype: LinalgDType, b: number, n: number, a: FloatArray, out: FloatArray): Int32Array;

  /**
   * QR (geqrf + orgqr/ungqr) of a: [b, m, n], kk = min(m, n). complete = false: q [b, m, kk],
   * r [b, kk, n]; complete = true: q [b, m, m], r [b, m, n]. q is null when only r is wanted.
   * r's diagonal is not normalized (LAPACK's signs, as NumPy). info always 0.
   */
  qr(dtype: LinalgDType, b: number, m: number, n: number, a: FloatArray, q: FloatArray | null, r: FloatArray, complete: boolean): Int32Array;

  /**
   * Hermitian eigendecomposition (syevd/heevd) reading the `lower` (else upper) triangle of
   * a: [b, n, n]. w: [b, n] real (realOf(dtype)) ascending; v: [b, n, n] eigenvectors as
   * columns (v[:, j] for w[j]), or null for values only. info > 0: did not converge.
   */
  eigh(dtype: LinalgDType, b: number, n: number, a: FloatArray, w: FloatArray, v: FloatArray | null, lower: boolean): Int32Array;

  /**
   * SVD (gesdd, falling back to gesvd when gesdd fails) of a: [b, m, n], kk = min(m, n).
   * s: [b, kk] real, descending. With u/vh (both null when not computed): full = false:
   * u [b, m, kk], vh [b, kk, n]; full = true: u [b, m, m], vh [b, n, n]. a = u diag(s) vh.
   * info > 0: did not converge.
   */
  svd(dtype: LinalgDType, b: number, m: number, n: number, a: FloatArray, s: FloatArray, u: FloatArray | null, vh: FloatArray | null, full: boolean): Int32Array;

  /**
   * General eigendecomposition (geev) of a: [b, n, n] real or complex. w: [b, n] complex
   * (complex64 for float32/complex64 input, complex128 otherwise), order as LAPACK returns it;
   * vr: [b, n, n] complex right eigenvectors as columns, each of unit 2-norm (LAPACK's
   * normalization: largest component real for complex input), or null. info > 0: QR
   * algorithm failed to converge.
   */
  eig(dtype: LinalgDType, b: number, n: number, a: FloatArray, w: FloatArray, vr: FloatArray | null): Int32Array;

  /**
   * Least squares min ‖a x - rhs‖₂ by SVD (gelsd) with singular values below
   * rcond · s_max treated as zero (rcond < 0: machine epsilon · max(m, n)). a: [b, m, n],
   * rhs: [b, m, k], x: [b, n, k], s: [b, min(m, n)] real, rank: [b]. info > 0: SVD did not converge.
   */
  lstsq(dtype: LinalgDType, b: number, m: number, n: number, k: number, a: FloatArray, rhs: FloatArray, x: FloatArray, s: FloatArray, rank: Int32Array, rcond: number): Int32Array;

  /**
   * Euclidean norms of the b rows of x: [b, n] float64 or complex128 (other dtypes throw).
   * out: [b] float64. Safe from overflow and underflow (the answer is finite whenever the
   * exact norm is representable; subnormal entries count); an infinite entry gives inf, a
   * NaN entry NaN (also beside an inf, as NumPy). n = 0 gives 0. Both implementations
   * compute the same bits: one pass of the sum of squares in 8 lanes (element i to lane
   * i % 8, lanes added ((0+1)+(2+3))+((4+5)+(6+7))), and only when that sum overflowed or
   * is below N·2^-1021 (N reals in the row) a max pass and the sum of (x·2^e)² in the same
   * lanes, 2^e = 2^-k for max = f·2^k (f in [0.5, 1)), e clipped to [-1021, 1022].
   */
  nrm2(dtype: LinalgDType, b: number, n: number, x: FloatArray, out: FloatArray): void;

  /** out [m, n] = a [m, k] @ b [k, n], one contiguous row-major product (the building block of expm's kernel). */
  gemm(dtype: LinalgDType, m: number, k: number, n: number, a: FloatArray, b: FloatArray, out: FloatArray): void;
}
