// QR as LAPACK (and NumPy/SciPy) compute it: geqrf + orgqr/ungqr on a
// column-major copy of a, then r and q transposed out into row-major.
//
// Why not the transpose-free LQ of aᵀ (gelqf + orglq on the row-major buffer
// read as the column-major aᵀ, which gives the same factors): gelqf applies
// its reflectors to rows, and the complex one conjugates every row before and
// after (zlacgv); measured with one OpenBLAS 0.3.21 thread, zgelqf + zunglq
// took 1.02 ms at 128×128 and 43.7 ms at 512×512 against 0.75 / 32.5 ms for
// zgeqrf + zungqr including both transposes (float64: 0.38 / 14.5 against
// 0.36 / 13.9 ms). The transposes are O(mn) against the O(mn²) factorization.
//
// The _work entry points with one workspace query per call: the plain LAPACKE
// ones allocate a workspace and scan the input for NaN on every matrix. A NaN
// input gives NaN factors, as in NumPy.
#include <memory>

#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"

namespace rlx {
namespace linalg {
namespace {

#define RLX_QR(P, T, Q)                                                                                                                     \
  inline lapack_int geqrf(lapack_int m, lapack_int n, T* a, lapack_int lda, T* tau, T* work, lapack_int lwork) {                           \
    return LAPACKE_##P##geqrf_work(LAPACK_COL_MAJOR, m, n, a, lda, tau, work, lwork);                                                      \
  }                                                                                                                                        \
  inline lapack_int ungqr(lapack_int m, lapack_int n, lapack_int k, T* a, lapack_int lda, const T* tau, T* work, lapack_int lwork) {       \
    return LAPACKE_##P##Q##gqr_work(LAPACK_COL_MAJOR, m, n, k, a, lda, tau, work, lwork);                                                  \
  }
RLX_QR(s, float, or)
RLX_QR(d, double, or)
RLX_QR(c, cf, un)
RLX_QR(z, cd, un)
#undef RLX_QR

/** dst[j * ldd + i] = src[i * lds + j] for i < rows, j < cols (8×8 tiles, as transpose()). */
template <class T>
void transpose_ld(const T* src, int64_t rows, int64_t cols, int64_t lds, T* dst, int64_t ldd) {
  constexpr int64_t B = 8;
  for (int64_t i0 = 0; i0 < rows; i0 += B)
    for (int64_t j0 = 0; j0 < cols; j0 += B)
      for (int64_t i = i0; i < std::min(rows, i0 + B); i++)
        for (int64_t j = j0; j < std::min(cols, j0 + B); j++) dst[j * ldd + i] = src[i * lds + j];
}

/** The optimal lwork LAPACK reports in work[0]. */
template <class T> lapack_int lwork_of(const T& w) {
  return static_cast<lapack_int>(std::max<Real<T>>(1, std::real(w)));
}

template <class T>
void qr_t(int64_t b, int64_t m, int64_t n, const T* a, T* q, T* r, bool complete, int32_t* info) {
  BlasLock lock;
  const int64_t kk = std::min(m, n), mn = m * n;
  const int64_t qcols = complete ? m : kk;  // q: [m, qcols]
  const int64_t rrows = complete ? m : kk;  // r: [rrows, n]
  for (int64_t i = 0; i < b; i++) info[i] = 0;
  if (kk == 0) {
    for (int64_t i = 0; i < b; i++) {
      std::fill(r + i * rrows * n, r + (i + 1) * rrows * n, T(0));
      if (!q) continue;
      T* qi = q + i * m * qcols;
      std::fill(qi, qi + m * qcols, T(0));
      for (int64_t d = 0; d < std::min(m, qcols); d++) qi[d * qcols + d] = T(1);
    }
    return;
  }
  // w: column-major m × max(n, qcols), ld m (the extra columns of a complete q of a tall a).
  const int64_t wcols = q ? std::max(n, qcols) : n;
  std::unique_ptr<T[]> w(new T[static_cast<size_t>(m * wcols)]);  // fully written before read: no zero fill
  std::unique_ptr<T[]> tau(new T[static_cast<size_t>(kk)]);
  T query[1];
  check<T>("geqrf", geqrf(li(m), li(n), w.get(), ld(m), tau.get(), query, -1));
  lapack_int lwork = lwork_of(query[0]);
  if (q) {
    check<T>(kComplex<T> ? "ungqr" : "orgqr", ungqr(li(m), li(qcols), li(kk), w.get(), ld(m), tau.get(), query, -1));
    lwork = std::max(lwork, lwork_of(query[0]));
  }
  std::unique_ptr<T[]> work(new T[static_cast<size_t>(lwork)]);
  for (int64_t i = 0; i < b; i++) {
    T* ri = r + i * rrows * n;
    transpose(a + i * mn, m, n, w.get());
    check<T>("geqrf", geqrf(li(m), li(n), w.get(), ld(m), tau.get(), work.get(), lwork));
    // r = the upper trapezoid of w's first kk rows, row-major; zeros below.
    transpose_ld(w.get(), n, kk, m, ri, n);
    for (int64_t row = 1; row < kk; row++) std::fill(ri + row * n, ri + row * n + std::min(row, n), T(0));
    std::fill(ri + kk * n, ri + rrows * n, T(0));
    if (!q) continue;
    check<T>(kComplex<T> ? "ungqr" : "orgqr", ungqr(li(m), li(qcols), li(kk), w.get(), ld(m), tau.get(), work.get(), lwork));
    transpose(w.get(), qcols, m, q + i * m * qcols);
  }
}

}  // namespace

void qr(DType dt, int64_t b, int64_t m, int64_t n, const void* a, void* q, void* r, bool complete, int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    qr_t<T>(b, m, n, static_cast<const T*>(a), static_cast<T*>(q), static_cast<T*>(r), complete, info);
  });
}

}  // namespace linalg
}  // namespace rlx
