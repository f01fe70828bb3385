// Eigendecompositions: Hermitian (syevd/heevd) and general (geev).
#include <memory>

#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"

namespace rlx {
namespace linalg {
namespace {

// syevd / heevd with caller-owned workspaces (the plain LAPACKE calls query
// and allocate them for every matrix). rwork/lrwork only for complex.
inline lapack_int heevd_work(char jobz, char uplo, lapack_int n, float* a, lapack_int lda, float* w, float* work, lapack_int lwork, float*, lapack_int,
                             lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_ssyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork);
}
inline lapack_int heevd_work(char jobz, char uplo, lapack_int n, double* a, lapack_int lda, double* w, double* work, lapack_int lwork, double*, lapack_int,
                             lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_dsyevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, iwork, liwork);
}
inline lapack_int heevd_work(char jobz, char uplo, lapack_int n, cf* a, lapack_int lda, float* w, cf* work, lapack_int lwork, float* rwork, lapack_int lrwork,
                             lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_cheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork, liwork);
}
inline lapack_int heevd_work(char jobz, char uplo, lapack_int n, cd* a, lapack_int lda, double* w, cd* work, lapack_int lwork, double* rwork, lapack_int lrwork,
                             lapack_int* iwork, lapack_int liwork) {
  return LAPACKE_zheevd_work(LAPACK_COL_MAJOR, jobz, uplo, n, a, lda, w, work, lwork, rwork, lrwork, iwork, liwork);
}

// The row-major Hermitian a is the column-major M = aᵀ = conj(a), whose
// upper triangle is a's lower one: heevd on it with the flipped uplo gives
// a's eigenvalues and Z = conj(V); v = conj(Z) read row-major is one in-place
// (conjugating) transpose. Workspaces are queried and allocated once per call.
template <class T>
void eigh_t(int64_t b, int64_t n, const T* a, Real<T>* w, T* v, bool lower, int32_t* info) {
  using R = Real<T>;
  BlasLock lock;
  const int64_t nn = n * n;
  for (int64_t i = 0; i < b; i++) info[i] = 0;
  if (n == 0 || b == 0) return;
  const char jobz = v ? 'V' : 'N', uplo = lower ? 'U' : 'L';
  const char* routine = kComplex<T> ? "heevd" : "syevd";
  std::unique_ptr<T[]> scratch(v ? nullptr : new T[static_cast<size_t>(nn)]);
  T wq[1];
  R rq[1] = {R(0)};
  lapack_int iq[1];
  check<T>(routine, heevd_work(jobz, uplo, li(n), v ? v : scratch.get(), ld(n), w, wq, -1, rq, -1, iq, -1));
  const lapack_int lwork = std::max<lapack_int>(1, static_cast<lapack_int>(std::real(wq[0])));
  const lapack_int lrwork = std::max<lapack_int>(1, static_cast<lapack_int>(rq[0])), liwork = std::max<lapack_int>(1, iq[0]);
  std::unique_ptr<T[]> work(new T[static_cast<size_t>(lwork)]);
  std::unique_ptr<R[]> rwork(kComplex<T> ? new R[static_cast<size_t>(lrwork)] : nullptr);
  std::unique_ptr<lapack_int[]> iwork(new lapack_int[static_cast<size_t>(liwork)]);
  for (int64_t i = 0; i < b; i++) {
    T* buf = v ? v + i * nn : scratch.get();
    std::memcpy(buf, a + i * nn, sizeof(T) * nn);
    info[i] = check<T>(routine, heevd_work(jobz, uplo, li(n), buf, ld(n), w + i * n, work.get(), lwork, rwork.get(), lrwork, iwork.get(), liwork));
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
