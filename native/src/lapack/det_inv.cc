// Determinant (getrf + the pivoted diagonal's product) and inverse (getrf +
// getri): dedicated kernels so that det/slogdet/inv do not go through the
// general lu/solve kernels, whose packed parts, permutations, transposes and
// identity right-hand side cost more than the factorization at small n.
#include <optional>
#include <memory>
#include <mutex>
#include <utility>

#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"

namespace rlx {
namespace linalg {
namespace {

#define RLX_GETRI(P, T)                                                                                             \
  inline lapack_int getri(lapack_int n, T* a, lapack_int lda, const lapack_int* ipiv, T* work, lapack_int lwork) { \
    return LAPACKE_##P##getri_work(LAPACK_COL_MAJOR, n, a, lda, ipiv, work, lwork);                                \
  }
RLX_GETRI(s, float)
RLX_GETRI(d, double)
RLX_GETRI(c, cf)
RLX_GETRI(z, cd)
#undef RLX_GETRI

/** getri's optimal workspace length for order n (a workspace query). */
template <class T> lapack_int getri_lwork(int64_t n) {
  T query{};
  check<T>("getri", getri(li(n), nullptr, ld(n), nullptr, &query, -1));
  return std::max<lapack_int>(static_cast<lapack_int>(std::real(query)), std::max<lapack_int>(1, li(n)));
}

/**
 * Holds the BLAS configuration for one kernel call; for small problems it runs
 * OpenBLAS on one thread. Below ~2^23 flop-units (n³, ×4 for complex) a second
 * getrf thread brings nothing or costs (OpenBLAS 0.3.21, 2 cores: 128×128 float64
 * getrf 60-62 µs on one thread, 61-77 µs on two; complex 150 vs 157 µs; on a
 * loaded machine the two-thread median was 10× worse, waiting for a descheduled
 * worker). The thread count is global, so it is changed only under the
 * exclusive lock that setNumThreads takes (any BLAS call running on the libuv
 * pool finishes first, none starts until the count is restored); the lock is
 * held for the call, which is short by construction.
 */
class BlasThreads {
 public:
  /** work: n³ times 4 for complex (getrf's flop count up to a constant). */
  explicit BlasThreads(double work) {
    if (work > kSerialWork) {
      shared_ = std::shared_lock<std::shared_mutex>(blas_config_mutex());
      return;
    }
    exclusive_ = std::unique_lock<std::shared_mutex>(blas_config_mutex());
    serial_.emplace();
  }
  BlasThreads(const BlasThreads&) = delete;
  BlasThreads& operator=(const BlasThreads&) = delete;

 private:
  static constexpr double kSerialWork = 8388608.0;  // 2^23: getrf of float64 n ≤ 203, complex n ≤ 128
  std::shared_lock<std::shared_mutex> shared_;
  std::unique_lock<std::shared_mutex> exclusive_;
  std::optional<SerialBlas> serial_;  // destroyed (count restored) before exclusive_ unlocks: declared after it
};

template <class T> double lu_work(int64_t n) { return static_cast<double>(n) * n * n * (kComplex<T> ? 4 : 1); }

/** In-place transpose of a square n×n matrix in 8×8 tiles (see transpose()); swapping whole tiles keeps both sides in cache. */
template <class T> void transpose_square_tiled(T* a, int64_t n) {
  constexpr int64_t B = 8;
  for (int64_t i0 = 0; i0 < n; i0 += B) {
    const int64_t i1 = std::min(n, i0 + B);
    for (int64_t i = i0; i < i1; i++)  // the diagonal tile
      for (int64_t j = i + 1; j < i1; j++) std::swap(a[i * n + j], a[j * n + i]);
    for (int64_t j0 = i0 + B; j0 < n; j0 += B) {
      const int64_t j1 = std::min(n, j0 + B);
      for (int64_t i = i0; i < i1; i++)
        for (int64_t j = j0; j < j1; j++) std::swap(a[i * n + j], a[j * n + i]);
    }
  }
}

/**
 * o = aᵀ for square n×n matrices that do not overlap, in 8×8 tiles. For a
 * matrix that fits in L2 this one pass beats memcpy + transpose_square_tiled
 * (complex128 n = 128, 256 KiB: ~6 vs ~9-15 µs); for large ones its strided
 * writes miss on every line, and the two passes win (see inv_t).
 */
template <class T> void transpose_copy_tiled(const T* a, T* o, int64_t n) {
  constexpr int64_t B = 8;
  for (int64_t i0 = 0; i0 < n; i0 += B) {
    const int64_t i1 = std::min(n, i0 + B);
    for (int64_t j0 = 0; j0 < n; j0 += B) {
      const int64_t j1 = std::min(n, j0 + B);
      for (int64_t i = i0; i < i1; i++)
        for (int64_t j = j0; j < j1; j++) o[j * n + i] = a[i * n + j];
    }
  }
}

// The product Π d_r is accumulated as m · 2^e with |m| renormalized into
// [0.5, 1) after each factor (frexp, exact), so no intermediate overflows or
// underflows: det is finite whenever the exact product is representable (a
// plain product of 1024 pivots of size ~20 overflows halfway through even when
// the determinant does not), and the rounding is that of the plain product.
struct Scaled {
  double re = 1, im = 0;
  int64_t e = 0;
};

inline void renormalize(Scaled& s) {
  const double big = std::max(std::fabs(s.re), std::fabs(s.im));
  if (!(big > 0) || !std::isfinite(big)) return;  // 0, inf, NaN: nothing to scale
  int k;
  std::frexp(big, &k);
  s.re = std::ldexp(s.re, -k), s.im = std::ldexp(s.im, -k);
  s.e += k;
}

// Renormalizing after every factor (frexp + 2 ldexp, library calls) cost ~1 µs
// at n = 128, 1.5% of a float64 det. For a real product, scaling by a power of
// two is exact, so it can wait while nothing can overflow or become
// subnormal: a running product and a next factor both within [2^-300, 2^300]
// multiply to a normal finite number, and every bit is that of renormalizing
// each time. (A complex product is left as it was: a component far smaller
// than the other could become subnormal sooner in the lazier frame.)
inline bool safe(double x) { return x <= 0x1p+300 && x >= 0x1p-300; }

inline double ldexp64(double x, int64_t e) {
  // ldexp saturates to inf/0 long before ±20000; clamping keeps the int conversion defined.
  return std::ldexp(x, static_cast<int>(std::clamp<int64_t>(e, -20000, 20000)));
}

// getrf of the row-major buffer read column-major, i.e. of aᵀ: det(aᵀ) =
// det(a), so a plain copy is factored (as SciPy's det does) and nothing is
// transposed. out: det, or (with logabs) the sign / phase of det.
template <class T>
void det_t(int64_t b, int64_t n, const T* a, T* out, Real<T>* logabs, int32_t* info) {
  if (b == 0) return;
  BlasThreads threads(lu_work<T>(n));
  const int64_t nn = n * n;
  std::unique_ptr<T[]> w(new T[static_cast<size_t>(std::max<int64_t>(nn, 1))]);  // fully overwritten: no zero fill
  std::vector<lapack_int> ipiv(static_cast<size_t>(std::max<int64_t>(1, n)));
  for (int64_t i = 0; i < b; i++) {
    info[i] = 0;
    if (n > 0) {
      std::memcpy(w.get(), a + i * nn, sizeof(T) * nn);
      info[i] = check<T>("getrf", getrf(li(n), li(n), w.get(), ld(n), ipiv.data()));
    }
    Scaled s;
    bool odd = false;
    for (int64_t r = 0; r < n; r++) {
      if (ipiv[r] - 1 != r) odd = !odd;
      const T d = w[r * n + r];
      if constexpr (kComplex<T>) {
        const double dr = std::real(d), di = std::imag(d);
        const double re = s.re * dr - s.im * di;
        s.im = s.re * di + s.im * dr;
        s.re = re;
        renormalize(s);
      } else {
        const double dr = static_cast<double>(d);
        if (!(safe(std::fabs(s.re)) && safe(std::fabs(dr)))) renormalize(s);
        s.re *= dr;
      }
    }
    renormalize(s);
    if (odd) s.re = -s.re, s.im = -s.im;
    if (!logabs) {
      const double re = ldexp64(s.re, s.e), im = ldexp64(s.im, s.e);
      if constexpr (kComplex<T>) out[i] = T(static_cast<Real<T>>(re), static_cast<Real<T>>(im));
      else out[i] = static_cast<T>(re);
      continue;
    }
    const double mag = kComplex<T> ? std::hypot(s.re, s.im) : std::fabs(s.re);
    if (mag == 0) {
      out[i] = T(0);
      logabs[i] = -std::numeric_limits<Real<T>>::infinity();
      continue;
    }
    if constexpr (kComplex<T>) out[i] = T(static_cast<Real<T>>(s.re / mag), static_cast<Real<T>>(s.im / mag));
    else out[i] = static_cast<T>(s.re / mag);  // ±1 (NaN for NaN input, as NumPy)
    logabs[i] = static_cast<Real<T>>(std::log(mag) + static_cast<double>(s.e) * 0.69314718055994530942);
  }
}

// a⁻¹ with a's own row pivoting (the pivot that solve reports and NumPy/SciPy
// factor): the transposed copy is a in column-major order, getrf + getri
// invert it there, and one in-place transpose gives the row-major result.
// (Factoring aᵀ instead would skip both transposes, but its exact zero
// pivots are not a's: a matrix with two equal rows then factors with a
// rounding-sized pivot instead of raising.)
template <class T>
void inv_t(int64_t b, int64_t n, const T* a, T* out, int32_t* info) {
  if (b == 0) return;
  // getri gains from a second thread sooner than getrf: serial only up to 2^20 flop-units
  // (float64 n ≤ 101, complex n ≤ 64). Quiet machine, float64 n = 128 (SciPy 152-163 µs):
  // 164-167 µs on two threads, 211-228 µs on one; complex n = 128 (SciPy ~355 µs): 366-390 µs
  // either way. (Under heavy load two threads can wait on a descheduled worker.)
  BlasThreads threads(lu_work<T>(n) * 8);
  const int64_t nn = n * n;
  std::vector<lapack_int> ipiv(static_cast<size_t>(std::max<int64_t>(1, n)));
  const lapack_int lwork = n > 0 ? getri_lwork<T>(n) : 1;
  std::unique_ptr<T[]> work(new T[static_cast<size_t>(lwork)]);
  for (int64_t i = 0; i < b; i++) {
    T* o = out + i * nn;
    info[i] = 0;
    if (n == 0) continue;
    // a in column-major order: a copy transposed in place (1024² float64: 1 + 0.7 ms, vs 2.9 ms for
    // the out-of-place tiled transpose, whose strided writes miss on every line), or up to 256 KiB
    // (in cache) the out-of-place transpose in one pass.
    if (sizeof(T) * nn <= 262144) {
      transpose_copy_tiled(a + i * nn, o, n);
    } else {
      std::memcpy(o, a + i * nn, sizeof(T) * nn);
      transpose_square_tiled(o, n);
    }
    info[i] = check<T>("getrf", getrf(li(n), li(n), o, ld(n), ipiv.data()));
    if (info[i] != 0) continue;  // singular: out undefined, the caller raises
    info[i] = check<T>("getri", getri(li(n), o, ld(n), ipiv.data(), work.get(), lwork));
    transpose_square_tiled(o, n);
  }
}

}  // namespace

void det(DType dt, int64_t b, int64_t n, const void* a, void* out, void* logabs, int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    det_t<T>(b, n, static_cast<const T*>(a), static_cast<T*>(out), static_cast<Real<T>*>(logabs), info);
  });
}

void inv(DType dt, int64_t b, int64_t n, const void* a, void* out, int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    inv_t<T>(b, n, static_cast<const T*>(a), static_cast<T*>(out), info);
  });
}

}  // namespace linalg
}  // namespace rlx
