// The kernel contract of the fft module: what the js kernels
// (src/fft/kernels/js/) and the native FFTW kernels both implement, so the
// IR ops (src/fft/ops/) can run either.
//
// The 1-D kernels transform `batch` contiguous rows along their last axis:
// row b of the input starts at b·(row length) in its storage array (complex
// values interleaved re, im); the n-D ones (…Nd) transform `batch`
// contiguous row-major blocks over some of their axes, strided. Each kernel writes every element of the
// output it is given (a fresh array, never the input). Transforms are
// unnormalized, with NumPy's sign convention:
//   forward  X[k] = Σ_j x[j] e^{−2πi jk/n}
//   inverse  x[j] = Σ_k X[k] e^{+2πi jk/n}        (no 1/n: the op scales)
// Any n ≥ 1 (primes included: no O(n²) path for large n). Kernels never
// throw for numerical content (NaN and Inf propagate as the sums do); a
// bad argument (a length that does not match, n < 1) is a caller bug and
// an Error.
//
// ±Inf inputs: IEEE sums give NaN wherever a pass computes ∞ − ∞ or ∞·0
// (a twiddle with a 0 component), and which outputs that hits depends on
// the algorithm, so no two FFTs agree exactly (NumPy's pocketfft, FFTW and
// the js passes all differ). What the js kernels promise, against NumPy 1.24
// (tests/fft/kernels-inf.test.ts): where NumPy gives ±∞ they give the same
// ±∞ or NaN, never a finite value or the other sign; where both are finite,
// the same value; a row whose only infinite sample is x[0] (it meets only
// unit twiddles) gives NumPy's values exactly; a Bluestein length gives NaN
// at every output (its convolution adds the infinite products to the
// others), as NumPy's Bluestein does. FFTW gives ±∞ at more outputs
// (e.g. the real parts of an rfft of the prime 1009 with x[0] = ∞, all NaN
// in NumPy and js).

/** Complex storage: interleaved (re, im) pairs. */
export type ComplexDType = 'complex64' | 'complex128';
/** Real storage of the real transforms. */
export type RealDType = 'float32' | 'float64';
export type FloatArray = Float32Array | Float64Array;

export interface FftKernels {
  /**
   * Complex to complex along rows of length n: x and out hold batch·n
   * complex values (2·batch·n scalars) of `dtype`'s storage.
   */
  c2c(dtype: ComplexDType, batch: number, n: number, x: FloatArray, out: FloatArray, inverse: boolean): void;
  /**
   * Real to complex (forward): x holds batch rows of n reals, out batch rows
   * of n/2 + 1 complex values (floor), the non-negative frequencies.
   */
  r2c(dtype: RealDType, batch: number, n: number, x: FloatArray, out: FloatArray): void;
  /**
   * Complex to real (inverse): x holds batch rows of n/2 + 1 complex values
   * (a Hermitian half spectrum), out batch rows of n reals. As NumPy's
   * irfft (pocketfft), the imaginary parts of X[0] and, for even n, of
   * X[n/2] are ignored.
   */
  c2r(dtype: RealDType, batch: number, n: number, x: FloatArray, out: FloatArray): void;
  /**
   * The n-dimensional c2c: x and out hold `batch` contiguous blocks, each a
   * row-major array of `shape` (complex values), transformed over `axes`
   * (distinct indices into shape, in any order; the 1-D c2c is
   * shape [n], axes [0]). One call, so FFTW makes one multi-dimensional plan
   * with strides and no transposes.
   */
  c2cNd(dtype: ComplexDType, batch: number, shape: readonly number[], axes: readonly number[], x: FloatArray, out: FloatArray, inverse: boolean): void;
  /**
   * The n-dimensional r2c (numpy.fft.rfftn): x holds blocks of the real
   * `shape`, out blocks of the same shape with shape[h] → ⌊shape[h]/2⌋ + 1,
   * h = the last of `axes`: the r2c along h, the forward c2c over the others.
   */
  r2cNd(dtype: RealDType, batch: number, shape: readonly number[], axes: readonly number[], x: FloatArray, out: FloatArray): void;
  /**
   * The n-dimensional c2r (numpy.fft.irfftn, unnormalized): `shape` is the
   * real output's, x holds it halved along h = the last of `axes`. The
   * inverse c2c over the other axes runs first, then the 1-D c2r along h,
   * which ignores the imaginary parts of X[..0..] and, for even n, X[..n/2..]
   * as they are AFTER the inner transforms (NumPy's semantics on a
   * non-Hermitian input, which a multi-dimensional Hermitian c2r would not
   * give).
   */
  c2rNd(dtype: RealDType, batch: number, shape: readonly number[], axes: readonly number[], x: FloatArray, out: FloatArray): void;
}
