// QR without transposes: the row-major m×n input is the column-major n×m
// matrix M = aᵀ, and the LQ factorization of M (gelqf + orglq/unglq),
// M = L Q, gives a = Mᵀ = Qᵀ Lᵀ: q = Qᵀ (orthonormal columns, also for
// complex: (Qᵀ)ᴴ Qᵀ = conj(Q Qᴴ) = I) and r = Lᵀ, which read row-major is
// exactly the upper trapezoid of the factored buffer. gelqf builds its
// reflectors from M's rows (a's columns, conjugated), the same reflectors
// geqrf builds from a's columns, so r's diagonal has geqrf's (NumPy's) signs.
#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"

namespace rlx {
namespace linalg {
namespace {

template <class T>
void qr_t(int64_t b, int64_t m, int64_t n, const T* a, T* q, T* r, bool complete, int32_t* info) {
  BlasLock lock;
  const int64_t kk = std::min(m, n), mn = m * n;
  const int64_t qrows = complete ? m : kk;  // q: [m, qrows] row-major = column-major qrows×m
  const int64_t rrows = complete ? m : kk;  // r: [rrows, n]
  std::vector<T> w(static_cast<size_t>(mn)), tau(static_cast<size_t>(std::max<int64_t>(1, kk)));
  for (int64_t i = 0; i < b; i++) {
    info[i] = 0;
    T* ri = r + i * rrows * n;
    T* qi = q ? q + i * m * qrows : nullptr;
    if (kk == 0) {
      std::fill(ri, ri + rrows * n, T(0));
      if (qi) {
        std::fill(qi, qi + m * qrows, T(0));
        for (int64_t d = 0; d < std::min(m, qrows); d++) qi[d * qrows + d] = T(1);
      }
      continue;
    }
    std::memcpy(w.data(), a + i * mn, sizeof(T) * mn);
    check<T>("gelqf", gelqf(li(n), li(m), w.data(), ld(n), tau.data()));  // column-major n×m, ld n
    for (int64_t row = 0; row < rrows; row++)
      for (int64_t col = 0; col < n; col++) ri[row * n + col] = (row < kk && col >= row) ? w[row * n + col] : T(0);
    if (!qi) continue;
    // The reflectors (rows < kk of M) into the column-major qrows×m buffer, then generate Q in place.
    for (int64_t col = 0; col < m; col++)
      for (int64_t row = 0; row < kk; row++) qi[row + col * qrows] = w[row + col * n];
    check<T>(kComplex<T> ? "unglq" : "orglq", unglq(li(qrows), li(m), li(kk), qi, ld(qrows), tau.data()));
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
