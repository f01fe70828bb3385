// SVD without transposes: the row-major m×n input is the column-major n×m
// matrix M = aᵀ. gesdd (gesvd when gesdd does not converge) on M gives
// M = U' S V'ᴴ, so a = Mᵀ = conj(V') S U'ᵀ: u = conj(V') and vh = U'ᵀ. Read
// row-major, the column-major V'ᴴ buffer (leading dimension = u's column
// count) is exactly conj(V'), and the column-major U' buffer (leading
// dimension n) is exactly U'ᵀ, so LAPACK writes u and vh in place.
//
// A non-finite input is not handed to LAPACK (gesdd rejects NaN as an illegal
// argument): s, u, vh become NaN and info = min(m, n) (did not converge).
//
// gesdd's workspaces are queried and allocated once per call (the plain
// LAPACKE call does both for every matrix); gesvd, the rare fallback, uses
// the plain call.
#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"

#include <limits>
#include <memory>

namespace rlx {
namespace linalg {
namespace {

// gesdd with caller-owned workspaces; rwork only for complex.
inline lapack_int gesdd_work(char jobz, lapack_int m, lapack_int n, float* a, lapack_int lda, float* s, float* u, lapack_int ldu, float* vt, lapack_int ldvt,
                             float* work, lapack_int lwork, float*, lapack_int* iwork) {
  return LAPACKE_sgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
}
inline lapack_int gesdd_work(char jobz, lapack_int m, lapack_int n, double* a, lapack_int lda, double* s, double* u, lapack_int ldu, double* vt,
                             lapack_int ldvt, double* work, lapack_int lwork, double*, lapack_int* iwork) {
  return LAPACKE_dgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, iwork);
}
inline lapack_int gesdd_work(char jobz, lapack_int m, lapack_int n, cf* a, lapack_int lda, float* s, cf* u, lapack_int ldu, cf* vt, lapack_int ldvt,
                             cf* work, lapack_int lwork, float* rwork, lapack_int* iwork) {
  return LAPACKE_cgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork);
}
inline lapack_int gesdd_work(char jobz, lapack_int m, lapack_int n, cd* a, lapack_int lda, double* s, cd* u, lapack_int ldu, cd* vt, lapack_int ldvt,
                             cd* work, lapack_int lwork, double* rwork, lapack_int* iwork) {
  return LAPACKE_zgesdd_work(LAPACK_COL_MAJOR, jobz, m, n, a, lda, s, u, ldu, vt, ldvt, work, lwork, rwork, iwork);
}

/** zgesdd's rwork length (LAPACK 3.7+, as LAPACKE_zgesdd computes it). */
inline int64_t gesdd_lrwork(char jobz, int64_t m, int64_t n) {
  const int64_t mn = std::min(m, n), mx = std::max(m, n);
  return jobz == 'N' ? std::max<int64_t>(1, 7 * mn) : std::max<int64_t>(1, std::max(5 * mn * mn + 5 * mn, 2 * mx * mn + 2 * mn * mn + mn));
}

template <class T>
void svd_t(int64_t b, int64_t m, int64_t n, const T* a, Real<T>* s, T* u, T* vh, bool full, int32_t* info) {
  using R = Real<T>;
  BlasLock lock;
  const int64_t kk = std::min(m, n), mn = m * n;
  const int64_t ucols = full ? m : kk, vrows = full ? n : kk;
  const bool vectors = u != nullptr;
  const char job = !vectors ? 'N' : full ? 'A' : 'S';
  std::unique_ptr<T[]> w(new T[static_cast<size_t>(std::max<int64_t>(1, mn))]);  // fully overwritten: no zero fill
  std::vector<R> superb(static_cast<size_t>(std::max<int64_t>(1, kk)));
  T dummy[1] = {T(0)};
  // One workspace query for every matrix of the call (LAPACK reads no array in a query).
  std::unique_ptr<T[]> work;
  std::unique_ptr<R[]> rwork;
  std::unique_ptr<lapack_int[]> iwork;
  lapack_int lwork = 1;
  if (kk > 0 && b > 0) {
    T q[1];
    R rq[1];
    lapack_int iq[1];
    check<T>("gesdd", gesdd_work(job, li(n), li(m), w.get(), ld(n), superb.data(), vectors ? w.get() : dummy, vectors ? ld(n) : 1, vectors ? w.get() : dummy,
                                 vectors ? ld(ucols) : 1, q, -1, rq, iq));
    lwork = std::max<lapack_int>(1, static_cast<lapack_int>(std::real(q[0])));
    work.reset(new T[static_cast<size_t>(lwork)]);
    if constexpr (kComplex<T>) rwork.reset(new R[static_cast<size_t>(gesdd_lrwork(job, n, m))]);
    iwork.reset(new lapack_int[static_cast<size_t>(8 * kk)]);
  }
  for (int64_t i = 0; i < b; i++) {
    info[i] = 0;
    T* ui = vectors ? u + i * m * ucols : nullptr;
    T* vi = vectors ? vh + i * vrows * n : nullptr;
    if (kk == 0) {  // only full = true has anything to write: identities
      if (vectors) {
        std::fill(ui, ui + m * ucols, T(0));
        for (int64_t d = 0; d < std::min(m, ucols); d++) ui[d * ucols + d] = T(1);
        std::fill(vi, vi + vrows * n, T(0));
        for (int64_t d = 0; d < std::min(n, vrows); d++) vi[d * n + d] = T(1);
      }
      continue;
    }
    R* si = s + i * kk;
    T* U = vectors ? vi : dummy;  // U' (n × ·, ld n)
    T* VT = vectors ? ui : dummy; // V'ᴴ (· × m, ld ucols)
    const lapack_int ldu = vectors ? ld(n) : 1, ldvt = vectors ? ld(ucols) : 1;
    if (!all_finite(a + i * mn, mn)) {
      // LAPACK (3.10+) rejects a NaN input as an illegal argument: report it as not converged.
      fill_nan(si, kk);
      if (vectors) fill_nan(ui, m * ucols), fill_nan(vi, vrows * n);
      info[i] = static_cast<int32_t>(kk);
      continue;
    }
    std::memcpy(w.get(), a + i * mn, sizeof(T) * mn);
    lapack_int r = check<T>("gesdd", gesdd_work(job, li(n), li(m), w.get(), ld(n), si, U, ldu, VT, ldvt, work.get(), lwork, rwork.get(), iwork.get()));
    if (r > 0) {
      std::memcpy(w.get(), a + i * mn, sizeof(T) * mn);
      r = check<T>("gesvd", gesvd(job, li(n), li(m), w.get(), ld(n), si, U, ldu, VT, ldvt, superb.data()));
    }
    info[i] = r;
  }
}

}  // namespace

void svd(DType dt, int64_t b, int64_t m, int64_t n, const void* a, void* s, void* u, void* vh, bool full, int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    svd_t<T>(b, m, n, static_cast<const T*>(a), static_cast<Real<T>*>(s), static_cast<T*>(u), static_cast<T*>(vh), full, info);
  });
}

}  // namespace linalg
}  // namespace rlx
