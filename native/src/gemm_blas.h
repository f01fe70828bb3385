// One matrix product through cblas (gemm.cc's execution; gemm_spread.h
// says how a batch of them uses the threads): the per-dtype BLAS
// wrappers and product(), which picks a matrix-vector product for a single row
// or column of C (matvec: rlx's own for real contiguous rows, gemv.h; BLAS's gemv else).
#pragma once

#include <complex>
#include <type_traits>

#include "blas.h"
#include "gemv.h"

namespace rlx {

// One matrix product per batch entry. A product with one row or one column of
// C (m == 1 or n == 1: a matrix times a vector, the common A·y of an ODE
// right-hand side) is a matrix-vector product: OpenBLAS 0.3.21's gemm does not
// switch to one and repacks the whole matrix on every call (measured for a
// 1000×1000 double matrix: dgemm with n = 1 203 µs, dgemv 44 µs). A real one
// whose matrix rows are contiguous runs on rlx's kernel (gemv.h), the others
// on BLAS's gemv. Operands gemv cannot express (a conjugated vector) stay
// with gemm.
template <class T>
struct Blas;
template <>
struct Blas<float> {
  static void gemm(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blas_int m, blas_int n, blas_int k, const float* a, blas_int lda,
                   const float* b, blas_int ldb, float* c, blas_int ldc) {
    cblas_sgemm(o, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  }
  static void gemv(CBLAS_ORDER o, CBLAS_TRANSPOSE t, blas_int rows, blas_int cols, const float* a, blas_int lda, const float* x, blas_int incx, float* y,
                   blas_int incy) {
    cblas_sgemv(o, t, rows, cols, 1.0f, a, lda, x, incx, 0.0f, y, incy);
  }
};
template <>
struct Blas<double> {
  static void gemm(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blas_int m, blas_int n, blas_int k, const double* a, blas_int lda,
                   const double* b, blas_int ldb, double* c, blas_int ldc) {
    cblas_dgemm(o, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
  }
  static void gemv(CBLAS_ORDER o, CBLAS_TRANSPOSE t, blas_int rows, blas_int cols, const double* a, blas_int lda, const double* x, blas_int incx,
                   double* y, blas_int incy) {
    cblas_dgemv(o, t, rows, cols, 1.0, a, lda, x, incx, 0.0, y, incy);
  }
};
template <>
struct Blas<std::complex<float>> {
  using T = std::complex<float>;
  static void gemm(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blas_int m, blas_int n, blas_int k, const T* a, blas_int lda, const T* b,
                   blas_int ldb, T* c, blas_int ldc) {
    const T one(1, 0), zero(0, 0);
    cblas_cgemm(o, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
  }
  static void gemv(CBLAS_ORDER o, CBLAS_TRANSPOSE t, blas_int rows, blas_int cols, const T* a, blas_int lda, const T* x, blas_int incx, T* y,
                   blas_int incy) {
    const T one(1, 0), zero(0, 0);
    cblas_cgemv(o, t, rows, cols, &one, a, lda, x, incx, &zero, y, incy);
  }
};
template <>
struct Blas<std::complex<double>> {
  using T = std::complex<double>;
  static void gemm(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blas_int m, blas_int n, blas_int k, const T* a, blas_int lda, const T* b,
                   blas_int ldb, T* c, blas_int ldc) {
    const T one(1, 0), zero(0, 0);
    cblas_zgemm(o, ta, tb, m, n, k, &one, a, lda, b, ldb, &zero, c, ldc);
  }
  static void gemv(CBLAS_ORDER o, CBLAS_TRANSPOSE t, blas_int rows, blas_int cols, const T* a, blas_int lda, const T* x, blas_int incx, T* y,
                   blas_int incy) {
    const T one(1, 0), zero(0, 0);
    cblas_zgemv(o, t, rows, cols, &one, a, lda, x, incx, &zero, y, incy);
  }
};

/**
 * y = op(M)·x, M stored rows×cols in `o` order (BLAS's gemv arguments): rlx's
 * own kernel (gemv.h) for a real M whose op rows are contiguous, with x and y
 * contiguous; BLAS's gemv otherwise.
 */
template <class T>
void matvec(CBLAS_ORDER o, CBLAS_TRANSPOSE t, blas_int rows, blas_int cols, const T* a, blas_int lda, const T* x, blas_int incx, T* y, blas_int incy) {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    const bool no_trans = t == CblasNoTrans;  // a real operand's ConjTrans is its Trans
    // Few rows (a wide matrix): BLAS's gemv splits the columns over its threads; rlx's kernel takes
    // whole rows, eight at a time (10x100000 doubles: 72 µs against 127).
    const blas_int out_rows = no_trans ? rows : cols;
    if ((o == CblasRowMajor) == no_trans && incx == 1 && incy == 1 && out_rows >= kGemvMinRows) {
      gemv_rows<T>(out_rows, no_trans ? cols : rows, a, lda, x, y);
      return;
    }
  }
  Blas<T>::gemv(o, t, rows, cols, a, lda, x, incx, y, incy);
}

/**
 * C = op(A)·op(B) (m×n, k inner) in `o` order, through gemv when C is a
 * single column or row (and the vector operand is not conjugated), else gemm.
 */
template <class T>
void product(CBLAS_ORDER o, CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blas_int m, blas_int n, blas_int k, const T* a, blas_int lda, const T* b,
             blas_int ldb, T* c, blas_int ldc) {
  const bool row = o == CblasRowMajor;
  const bool plain_a = ta == CblasNoTrans || ta == CblasTrans || ta == CblasConjTrans;
  const bool plain_b = tb == CblasNoTrans || tb == CblasTrans || tb == CblasConjTrans;
  if (plain_a && plain_b && n == 1 && tb != CblasConjTrans) {
    // y = op(A)·x: A stored m×k (no transpose) or k×m; x is op(B)'s single column, y C's.
    const blas_int incx = (tb == CblasNoTrans) == row ? ldb : 1;
    const blas_int incy = row ? ldc : 1;
    if (ta == CblasNoTrans)
      matvec<T>(o, CblasNoTrans, m, k, a, lda, b, incx, c, incy);
    else
      matvec<T>(o, ta, k, m, a, lda, b, incx, c, incy);
    return;
  }
  if (plain_a && plain_b && m == 1 && ta != CblasConjTrans && tb != CblasConjTrans) {
    // C's row = op(A)'s row · op(B), i.e. yᵀ = op(B)ᵀ·x: B stored k×n (no transpose: use Bᵀ) or n×k (transposed: use B).
    const blas_int incx = (ta == CblasNoTrans) == row ? 1 : lda;
    const blas_int incy = row ? 1 : ldc;
    if (tb == CblasNoTrans)
      matvec<T>(o, CblasTrans, k, n, b, ldb, a, incx, c, incy);
    else
      matvec<T>(o, CblasNoTrans, n, k, b, ldb, a, incx, c, incy);
    return;
  }
  Blas<T>::gemm(o, ta, tb, m, n, k, a, lda, b, ldb, c, ldc);
}

}  // namespace rlx
