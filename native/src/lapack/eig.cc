// Eigendecompositions: Hermitian (syevd/heevd) and general (geev).
#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"

namespace rlx {
namespace linalg {
namespace {

// The row-major Hermitian a is the column-major M = aᵀ = conj(a), whose
// upper triangle is a's lower one: heevd on it with the flipped uplo gives
// a's eigenvalues and Z = conj(V); v = conj(Z) read row-major is one in-place
// (conjugating) transpose.
template <class T>
void eigh_t(int64_t b, int64_t n, const T* a, Real<T>* w, T* v, bool lower, int32_t* info) {
  BlasLock lock;
  const int64_t nn = n * n;
  std::vector<T> scratch(v ? 0 : static_cast<size_t>(nn));
  for (int64_t i = 0; i < b; i++) {
    info[i] = 0;
    if (n == 0) continue;
    T* buf = v ? v + i * nn : scratch.data();
    std::memcpy(buf, a + i * nn, sizeof(T) * nn);
    info[i] = check<T>(kComplex<T> ? "heevd" : "syevd", heevd(v ? 'V' : 'N', lower ? 'U' : 'L', li(n), buf, ld(n), w + i * n));
    if (v) transpose_square(buf, n, kComplex<T>);
  }
}

// geev on the column-major copy of a itself (not on aᵀ), so the eigenvalue
// order is the one LAPACK (and NumPy) gives for a. Real input: LAPACK's
// (wr, wi, vr) encodes a complex pair λ, conj(λ) (wi > 0 first) by the
// columns vr[:, j] ± i vr[:, j+1]; these become complex columns here.
// A non-finite input is not handed to LAPACK (geev rejects NaN as an
// illegal argument): w and vr become NaN and info = n (nothing converged).
template <class T>
void eig_t(int64_t b, int64_t n, const T* a, std::complex<Real<T>>* w, std::complex<Real<T>>* vr, int32_t* info) {
  using R = Real<T>;
  using C = std::complex<R>;
  BlasLock lock;
  const int64_t nn = n * n;
  std::vector<T> work(static_cast<size_t>(nn));
  T dummy[1] = {T(0)};
  const char jobvr = vr ? 'V' : 'N';
  if constexpr (!kComplex<T>) {
    std::vector<R> wr(static_cast<size_t>(n)), wi(static_cast<size_t>(n)), vbuf(vr ? static_cast<size_t>(nn) : 0);
    for (int64_t i = 0; i < b; i++) {
      info[i] = 0;
      if (n == 0) continue;
      if (!all_finite(a + i * nn, nn)) {  // geev rejects NaN as an illegal argument: not converged
        fill_nan(w + i * n, n);
        if (vr) fill_nan(vr + i * nn, nn);
        info[i] = static_cast<int32_t>(n);
        continue;
      }
      transpose(a + i * nn, n, n, work.data());
      lapack_int r;
      if constexpr (std::is_same_v<T, float>)
        r = LAPACKE_sgeev(LAPACK_COL_MAJOR, 'N', jobvr, li(n), work.data(), ld(n), wr.data(), wi.data(), dummy, 1, vr ? vbuf.data() : dummy, vr ? ld(n) : 1);
      else
        r = LAPACKE_dgeev(LAPACK_COL_MAJOR, 'N', jobvr, li(n), work.data(), ld(n), wr.data(), wi.data(), dummy, 1, vr ? vbuf.data() : dummy, vr ? ld(n) : 1);
      info[i] = check<T>("geev", r);
      C* wi_out = w + i * n;
      for (int64_t j = 0; j < n; j++) wi_out[j] = C(wr[j], wi[j]);
      if (!vr || info[i] != 0) continue;
      C* vo = vr + i * nn;
      const R* V = vbuf.data();  // column-major
      for (int64_t j = 0; j < n; j++) {
        if (wi[j] != R(0) && j + 1 < n) {
          for (int64_t row = 0; row < n; row++) {
            const R re = V[row + j * n], im = V[row + (j + 1) * n];
            vo[row * n + j] = C(re, im);
            vo[row * n + j + 1] = C(re, -im);
          }
          j++;
        } else {
          for (int64_t row = 0; row < n; row++) vo[row * n + j] = C(V[row + j * n], R(0));
        }
      }
    }
  } else {
    for (int64_t i = 0; i < b; i++) {
      info[i] = 0;
      if (n == 0) continue;
      if (!all_finite(a + i * nn, nn)) {  // geev rejects NaN as an illegal argument: not converged
        fill_nan(w + i * n, n);
        if (vr) fill_nan(vr + i * nn, nn);
        info[i] = static_cast<int32_t>(n);
        continue;
      }
      transpose(a + i * nn, n, n, work.data());
      T* vo = vr ? vr + i * nn : dummy;
      lapack_int r;
      if constexpr (std::is_same_v<T, cf>)
        r = LAPACKE_cgeev(LAPACK_COL_MAJOR, 'N', jobvr, li(n), work.data(), ld(n), w + i * n, dummy, 1, vo, vr ? ld(n) : 1);
      else
        r = LAPACKE_zgeev(LAPACK_COL_MAJOR, 'N', jobvr, li(n), work.data(), ld(n), w + i * n, dummy, 1, vo, vr ? ld(n) : 1);
      info[i] = check<T>("geev", r);
      if (vr) transpose_square(vo, n, false);
    }
  }
}

}  // namespace

void eigh(DType dt, int64_t b, int64_t n, const void* a, void* w, void* v, bool lower, int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    eigh_t<T>(b, n, static_cast<const T*>(a), static_cast<Real<T>*>(w), static_cast<T*>(v), lower, info);
  });
}

void eig(DType dt, int64_t b, int64_t n, const void* a, void* w, void* vr, int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    using C = std::complex<Real<T>>;
    eig_t<T>(b, n, static_cast<const T*>(a), static_cast<C*>(w), static_cast<C*>(vr), info);
  });
}

}  // namespace linalg
}  // namespace rlx
