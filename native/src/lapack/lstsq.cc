// Least squares by SVD (gelsd). gelsd solves for a itself (not aᵀ), so a and
// rhs are transposed into column-major work arrays once (rhs into the
// max(m, n)-row buffer gelsd overwrites with x). rcond < 0 means
// eps · max(m, n) (NumPy's default), computed here and passed explicitly.
#include <limits>

#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"

namespace rlx {
namespace linalg {
namespace {

template <class T>
void lstsq_t(int64_t b, int64_t m, int64_t n, int64_t k, const T* a, const T* rhs, T* x, Real<T>* s, int32_t* rank, double rcond, int32_t* info) {
  using R = Real<T>;
  BlasLock lock;
  const int64_t kk = std::min(m, n), mn = m * n, ldb = std::max<int64_t>(1, std::max(m, n));
  const R rc = rcond < 0 ? std::numeric_limits<R>::epsilon() * static_cast<R>(std::max(m, n)) : static_cast<R>(rcond);
  std::vector<T> A(static_cast<size_t>(mn)), B(static_cast<size_t>(std::max<int64_t>(1, ldb * k)));
  for (int64_t i = 0; i < b; i++) {
    info[i] = 0;
    T* xi = x + i * n * k;
    const T* bi = rhs + i * m * k;
    if (kk == 0) {
      std::fill(xi, xi + n * k, T(0));
      rank[i] = 0;
      continue;
    }
    if (!all_finite(a + i * mn, mn)) {
      // NaN/Inf in a: LAPACKE would reject it as an illegal argument ("a bug in rlx");
      // report that the SVD did not converge, as the js kernels do (info > 0).
      std::fill(xi, xi + n * k, T(std::numeric_limits<R>::quiet_NaN()));
      rank[i] = 0;
      info[i] = 1;
      continue;
    }
    transpose(a + i * mn, m, n, A.data());  // column-major m×n, ld m
    std::fill(B.begin(), B.end(), T(0));
    for (int64_t r = 0; r < m; r++)
      for (int64_t c = 0; c < k; c++) B[r + c * ldb] = bi[r * k + c];
    lapack_int rk = 0;
    info[i] = check<T>("gelsd", gelsd(li(m), li(n), li(k), A.data(), ld(m), B.data(), li(ldb), s + i * kk, rc, &rk));
    rank[i] = rk;
    for (int64_t r = 0; r < n; r++)
      for (int64_t c = 0; c < k; c++) xi[r * k + c] = B[r + c * ldb];
  }
}

}  // namespace

void lstsq(DType dt, int64_t b, int64_t m, int64_t n, int64_t k, const void* a, const void* rhs, void* x, void* s, int32_t* rank, double rcond,
           int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    lstsq_t<T>(b, m, n, k, static_cast<const T*>(a), static_cast<const T*>(rhs), static_cast<T*>(x), static_cast<Real<T>*>(s), rank, rcond, info);
  });
}

}  // namespace linalg
}  // namespace rlx
