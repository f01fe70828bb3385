// Shared by the kernel files of native/src/lapack: LAPACKE (with
// std::complex), one overload per LAPACK type (s, d, c, z) of every routine
// the kernels call so that each kernel is one template, info checking, the
// dtype dispatch and small matrix helpers.
//
// The layout trick used throughout: a row-major m×n matrix is, byte for byte,
// the column-major n×m matrix aᵀ. Kernels call LAPACK in column-major order on
// aᵀ where the factors of aᵀ give a's directly (cholesky, eigh, svd), and
// otherwise transpose themselves (lu, qr, eig).
#pragma once

#include <complex>
// LAPACK's complex types as std::complex (lapack.h honours these defines).
#define lapack_complex_float std::complex<float>
#define lapack_complex_double std::complex<double>
#include <lapacke.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <cstdint>
#include <cstring>
#include <new>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "blas.h"
#include "gemm.h"

namespace rlx {
namespace linalg {

static_assert(sizeof(lapack_int) == 4, "rlx expects LP64 LAPACKE (32-bit lapack_int): piv/rank/info are Int32Array");

using cf = std::complex<float>;
using cd = std::complex<double>;

template <class T> struct RealOf { using type = T; };
template <class R> struct RealOf<std::complex<R>> { using type = R; };
template <class T> using Real = typename RealOf<T>::type;
template <class T> constexpr bool kComplex = !std::is_same_v<T, Real<T>>;

template <class T> constexpr char prefix() {
  if constexpr (std::is_same_v<T, float>) return 's';
  else if constexpr (std::is_same_v<T, double>) return 'd';
  else if constexpr (std::is_same_v<T, cf>) return 'c';
  else return 'z';
}

/** Calls f(T{}) with the scalar type of `dt`. */
template <class F> void dispatch(DType dt, F&& f) {
  switch (dt) {
    case DType::f32: f(float{}); break;
    case DType::f64: f(double{}); break;
    case DType::c64: f(cf{}); break;
    case DType::c128: f(cd{}); break;
  }
}

/**
 * Checks a LAPACKE return: allocation failures inside LAPACKE become
 * std::bad_alloc, an illegal argument (info < 0) is a bug in rlx and throws;
 * info >= 0 is returned.
 */
template <class T> lapack_int check(const char* routine, lapack_int info) {
  if (info == LAPACK_WORK_MEMORY_ERROR || info == LAPACK_TRANSPOSE_MEMORY_ERROR) throw std::bad_alloc();
  if (info < 0) {
    throw std::logic_error(std::string("LAPACKE_") + prefix<T>() + routine + ": argument " + std::to_string(-info) +
                           " had an illegal value (a bug in rlx, please report it)");
  }
  return info;
}

/** A leading dimension: LAPACK wants >= 1 even for empty matrices. */
inline lapack_int ld(int64_t n) { return static_cast<lapack_int>(std::max<int64_t>(1, n)); }
inline lapack_int li(int64_t n) { return static_cast<lapack_int>(n); }

template <class T> T cj(T x) {
  if constexpr (kComplex<T>) return std::conj(x);
  else return x;
}

/** Holds the BLAS configuration lock (shared) for the duration of a kernel. */
struct BlasLock {
  std::shared_lock<std::shared_mutex> lock{blas_config_mutex()};
};

/** dst (cols×rows, row-major) = srcᵀ for a row-major rows×cols src. dst must not alias src. */
template <class T> void transpose(const T* src, int64_t rows, int64_t cols, T* dst) {
  // 8×8 tiles: with power-of-two sizes the strided side of a tile hits one cache
  // set per row, so a tile taller than the L1's associativity thrashes (32×32
  // tiles made a 512×512 float64 transpose 1.45 ms; 8×8 tiles 0.26 ms).
  constexpr int64_t B = 8;
  for (int64_t i0 = 0; i0 < rows; i0 += B)
    for (int64_t j0 = 0; j0 < cols; j0 += B)
      for (int64_t i = i0; i < std::min(rows, i0 + B); i++)
        for (int64_t j = j0; j < std::min(cols, j0 + B); j++) dst[j * rows + i] = src[i * cols + j];
}

/** In-place transpose of a square n×n matrix, conjugating when `conj`. */
template <class T> void transpose_square(T* a, int64_t n, bool conj) {
  // 8×8 tiles for the reason given at transpose(): an untiled sweep walks a
  // column of the lower triangle per row, one cache set per element.
  constexpr int64_t B = 8;
  auto f = [conj](T x) { return conj ? cj(x) : x; };
  for (int64_t i0 = 0; i0 < n; i0 += B) {
    const int64_t i1 = std::min(n, i0 + B);
    // the diagonal tile
    for (int64_t i = i0; i < i1; i++) {
      a[i * n + i] = f(a[i * n + i]);
      for (int64_t j = i + 1; j < i1; j++) {
        T x = a[i * n + j], y = a[j * n + i];
        a[i * n + j] = f(y);
        a[j * n + i] = f(x);
      }
    }
    // tiles right of it swap with the tiles below it
    for (int64_t j0 = i1; j0 < n; j0 += B) {
      const int64_t j1 = std::min(n, j0 + B);
      for (int64_t i = i0; i < i1; i++)
        for (int64_t j = j0; j < j1; j++) {
          T x = a[i * n + j], y = a[j * n + i];
          a[i * n + j] = f(y);
          a[j * n + i] = f(x);
        }
    }
  }
}

/** Whether every entry (both parts of complex ones) is finite. */
template <class T> bool all_finite(const T* a, int64_t count) {
  const Real<T>* r = reinterpret_cast<const Real<T>*>(a);
  const int64_t len = count * (kComplex<T> ? 2 : 1);
  for (int64_t i = 0; i < len; i++)
    if (!std::isfinite(r[i])) return false;
  return true;
}

/** Fills with NaN (both parts of complex entries). */
template <class T> void fill_nan(T* a, int64_t count) {
  Real<T>* r = reinterpret_cast<Real<T>*>(a);
  std::fill(r, r + count * (kComplex<T> ? 2 : 1), std::numeric_limits<Real<T>>::quiet_NaN());
}

// ---- LAPACKE overloads ------------------------------------------------------

inline lapack_int potrf(char uplo, lapack_int n, float* a, lapack_int lda) { return LAPACKE_spotrf(LAPACK_COL_MAJOR, uplo, n, a, lda); }
inline lapack_int potrf(char uplo, lapack_int n, double* a, lapack_int lda) { return LAPACKE_dpotrf(LAPACK_COL_MAJOR, uplo, n, a, lda); }
inline lapack_int potrf(char uplo, lapack_int n, cf* a, lapack_int lda) { return LAPACKE_cpotrf(LAPACK_COL_MAJOR, uplo, n, a, lda); }
inline lapack_int potrf(char uplo, lapack_int n, cd* a, lapack_int lda) { return LAPACKE_zpotrf(LAPACK_COL_MAJOR, uplo, n, a, lda); }

inline lapack_int getrf(lapack_int m, lapack_int n, float* a, lapack_int lda, lapack_int* p) { return LAPACKE_sgetrf(LAPACK_COL_MAJOR, m, n, a, lda, p); }
inline lapack_int getrf(lapack_int m, lapack_int n, double* a, lapack_int lda, lapack_int* p) { return LAPACKE_dgetrf(LAPACK_COL_MAJOR, m, n, a, lda, p); }
inline lapack_int getrf(lapack_int m, lapack_int n, cf* a, lapack_int lda, lapack_int* p) { return LAPACKE_cgetrf(LAPACK_COL_MAJOR, m, n, a, lda, p); }
inline lapack_int getrf(lapack_int m, lapack_int n, cd* a, lapack_int lda, lapack_int* p) { return LAPACKE_zgetrf(LAPACK_COL_MAJOR, m, n, a, lda, p); }

#define RLX_GESDD(P, T, R)                                                                                                                   \
  inline lapack_int gesdd(char jobz, lapack_int m, lapack_int n, T* a, lapack_int lda, R* s, T* u, lapack_int ldu, T* vt, lapack_int ldvt) { \
    return LAPACKE_##P##gesdd(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt);                                                     \
  }                                                                                                                                          \
  inline lapack_int gesvd(char job, lapack_int m, lapack_int n, T* a, lapack_int lda, R* s, T* u, lapack_int ldu, T* vt, lapack_int ldvt,   \
                          R* superb) {                                                                                                       \
    return LAPACKE_##P##gesvd(LAPACK_COL_MAJOR, job, job, m, n, a, lda, s, u, ldu, vt, ldvt, superb);                                         \
  }                                                                                                                                          \
  inline lapack_int gelsd(lapack_int m, lapack_int n, lapack_int nrhs, T* a, lapack_int lda, T* b, lapack_int ldb, R* s, R rcond,            \
                          lapack_int* rank) {                                                                                                \
    return LAPACKE_##P##gelsd(LAPACK_COL_MAJOR, m, n, nrhs, a, lda, b, ldb, s, rcond, rank);                                                  \
  }
RLX_GESDD(s, float, float)
RLX_GESDD(d, double, double)
RLX_GESDD(c, cf, float)
RLX_GESDD(z, cd, double)
#undef RLX_GESDD

// ---- CBLAS ---------------------------------------------------------------

/** Row-major trsm, left side: b = op(a)⁻¹ b, a n×n (lda n), b n×k (ldb k). */
template <class T>
void trsm_left(bool lower, CBLAS_TRANSPOSE trans, bool unit, int64_t n, int64_t k, const T* a, T* b) {
  const CBLAS_UPLO up = lower ? CblasLower : CblasUpper;
  const CBLAS_DIAG dg = unit ? CblasUnit : CblasNonUnit;
  const blas_int N = static_cast<blas_int>(n), K = static_cast<blas_int>(k), lda = static_cast<blas_int>(std::max<int64_t>(1, n)),
                 ldb = static_cast<blas_int>(std::max<int64_t>(1, k));
  if constexpr (std::is_same_v<T, float>) cblas_strsm(CblasRowMajor, CblasLeft, up, trans, dg, N, K, 1.0f, a, lda, b, ldb);
  else if constexpr (std::is_same_v<T, double>) cblas_dtrsm(CblasRowMajor, CblasLeft, up, trans, dg, N, K, 1.0, a, lda, b, ldb);
  else {
    const T one(1);
    if constexpr (std::is_same_v<T, cf>) cblas_ctrsm(CblasRowMajor, CblasLeft, up, trans, dg, N, K, &one, a, lda, b, ldb);
    else cblas_ztrsm(CblasRowMajor, CblasLeft, up, trans, dg, N, K, &one, a, lda, b, ldb);
  }
}

}  // namespace linalg
}  // namespace rlx
