// SVD without transposes: the row-major m×n input is the column-major n×m
// matrix M = aᵀ. gesdd (gesvd when gesdd does not converge) on M gives
// M = U' S V'ᴴ, so a = Mᵀ = conj(V') S U'ᵀ: u = conj(V') and vh = U'ᵀ. Read
// row-major, the column-major V'ᴴ buffer (leading dimension = u's column
// count) is exactly conj(V'), and the column-major U' buffer (leading
// dimension n) is exactly U'ᵀ, so LAPACK writes u and vh in place.
//
// A non-finite input is not handed to LAPACK (gesdd rejects NaN as an illegal
// argument): s, u, vh become NaN and info = min(m, n) (did not converge).
#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"

#include <limits>

namespace rlx {
namespace linalg {
namespace {

template <class T>
void svd_t(int64_t b, int64_t m, int64_t n, const T* a, Real<T>* s, T* u, T* vh, bool full, int32_t* info) {
  using R = Real<T>;
  BlasLock lock;
  const int64_t kk = std::min(m, n), mn = m * n;
  const int64_t ucols = full ? m : kk, vrows = full ? n : kk;
  const bool vectors = u != nullptr;
  const char job = !vectors ? 'N' : full ? 'A' : 'S';
  std::vector<T> w(static_cast<size_t>(mn));
  std::vector<R> superb(static_cast<size_t>(std::max<int64_t>(1, kk)));
  T dummy[1] = {T(0)};
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
    std::memcpy(w.data(), a + i * mn, sizeof(T) * mn);
    lapack_int r = check<T>("gesdd", gesdd(job, li(n), li(m), w.data(), ld(n), si, U, ldu, VT, ldvt));
    if (r > 0) {
      std::memcpy(w.data(), a + i * mn, sizeof(T) * mn);
      r = check<T>("gesvd", gesvd(job, li(n), li(m), w.data(), ld(n), si, U, ldu, VT, ldvt, superb.data()));
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
