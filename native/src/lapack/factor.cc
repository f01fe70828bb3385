// Cholesky (potrf), triangular solve (trtrs: zero-diagonal check + trsm), LU
// (getrf) and solve (getrf + two trsm, i.e. gesv without its transposes).
#include <memory>
#include <utility>

#include "lapack/lapack.h"
#include "lapack/lapack_impl.h"

namespace rlx {
namespace linalg {
namespace {

// Row-major a (Hermitian) is the column-major matrix aᵀ = conj(a): its upper
// triangle is a's lower one. potrf('U') on it gives conj(a) = Uᴴ U, and the
// buffer read row-major is L = Uᵀ with a = conj(Uᴴ U) = L Lᴴ. Likewise 'L'
// gives a's upper factor. So the flipped uplo needs no transpose.
template <class T>
void cholesky_t(int64_t b, int64_t n, const T* a, T* out, bool lower, int32_t* info) {
  BlasLock lock;
  const int64_t nn = n * n;
  for (int64_t i = 0; i < b; i++) {
    T* o = out + i * nn;
    const T* ai = a + i * nn;
    info[i] = 0;
    if (n == 0) continue;
    // potrf reads and writes only the factor's triangle: copy that one and
    // zero the other in one pass (the zeros are part of the result).
    for (int64_t r = 0; r < n; r++) {
      T* row = o + r * n;
      const T* src = ai + r * n;
      if (lower) {
        std::memcpy(row, src, sizeof(T) * (r + 1));
        std::fill(row + r + 1, row + n, T(0));
      } else {
        std::fill(row, row + r, T(0));
        std::memcpy(row + r, src + r, sizeof(T) * (n - r));
      }
    }
    info[i] = check<T>("potrf", potrf(lower ? 'U' : 'L', li(n), o, ld(n)));
  }
}

template <class T>
void triangular_solve_t(int64_t b, int64_t n, int64_t k, const T* a, const T* rhs, T* out, bool lower, int trans, bool unit, int32_t* info) {
  BlasLock lock;
  const int64_t nn = n * n, nk = n * k;
  const CBLAS_TRANSPOSE tr = trans == 0 ? CblasNoTrans : trans == 1 ? CblasTrans : (kComplex<T> ? CblasConjTrans : CblasTrans);
  for (int64_t i = 0; i < b; i++) {
    const T* ai = a + i * nn;
    T* x = out + i * nk;
    std::memcpy(x, rhs + i * nk, sizeof(T) * nk);
    info[i] = 0;
    // trtrs: an exactly zero diagonal entry is reported, nothing is solved.
    if (!unit) {
      for (int64_t d = 0; d < n; d++)
        if (ai[d * n + d] == T(0)) {
          info[i] = static_cast<int32_t>(d + 1);
          break;
        }
    }
    if (info[i] == 0 && n > 0 && k > 0) trsm_left(lower, tr, unit, n, k, ai, x);
  }
}

// getrf on a column-major copy (the transpose of the row-major input), so
// the pivoting is a's row pivoting.
template <class T>
void lu_t(int64_t b, int64_t m, int64_t n, const T* a, T* lu, int32_t* piv, int32_t* perm, int32_t* info) {
  BlasLock lock;
  const int64_t mn = m * n, kk = std::min(m, n);
  std::unique_ptr<T[]> w(new T[static_cast<size_t>(std::max<int64_t>(mn, 1))]);  // fully overwritten: no zero fill
  for (int64_t i = 0; i < b; i++) {
    int32_t* p = piv + i * kk;
    int32_t* pm = perm + i * m;
    info[i] = 0;
    transpose(a + i * mn, m, n, w.get());  // w: column-major m×n
    if (kk > 0) info[i] = check<T>("getrf", getrf(li(m), li(n), w.get(), ld(m), p));
    transpose(w.get(), n, m, lu + i * mn);
    for (int64_t r = 0; r < m; r++) pm[r] = static_cast<int32_t>(r);
    for (int64_t r = 0; r < kk; r++) {
      p[r] -= 1;
      std::swap(pm[r], pm[p[r]]);
    }
  }
}

// a = P L U from getrf on the column-major copy w. Read row-major, w's lower
// triangle is Uᵀ and its strict upper one Lᵀ, so row-major trsm with Trans
// solves with L and U in place on the row-major right-hand side; the row
// interchanges are contiguous row swaps.
template <class T>
void solve_t(int64_t b, int64_t n, int64_t k, const T* a, const T* rhs, T* out, int32_t* info) {
  BlasLock lock;
  const int64_t nn = n * n, nk = n * k;
  std::vector<T> w(static_cast<size_t>(nn));
  std::vector<lapack_int> ipiv(static_cast<size_t>(std::max<int64_t>(1, n)));
  for (int64_t i = 0; i < b; i++) {
    T* x = out + i * nk;
    std::memcpy(x, rhs + i * nk, sizeof(T) * nk);
    info[i] = 0;
    if (n == 0) continue;
    transpose(a + i * nn, n, n, w.data());
    info[i] = check<T>("getrf", getrf(li(n), li(n), w.data(), ld(n), ipiv.data()));
    if (info[i] != 0 || k == 0) continue;
    for (int64_t r = 0; r < n; r++) {
      const int64_t q = ipiv[r] - 1;
      if (q != r) std::swap_ranges(x + r * k, x + (r + 1) * k, x + q * k);
    }
    trsm_left(false, CblasTrans, true, n, k, w.data(), x);   // L y = Pᵀ b
    trsm_left(true, CblasTrans, false, n, k, w.data(), x);   // U x = y
  }
}

}  // namespace

void cholesky(DType dt, int64_t b, int64_t n, const void* a, void* out, bool lower, int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    cholesky_t<T>(b, n, static_cast<const T*>(a), static_cast<T*>(out), lower, info);
  });
}

void triangular_solve(DType dt, int64_t b, int64_t n, int64_t k, const void* a, const void* rhs, void* out, bool lower, int trans, bool unit_diagonal,
                      int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    triangular_solve_t<T>(b, n, k, static_cast<const T*>(a), static_cast<const T*>(rhs), static_cast<T*>(out), lower, trans, unit_diagonal, info);
  });
}

void lu(DType dt, int64_t b, int64_t m, int64_t n, const void* a, void* lu, int32_t* piv, int32_t* perm, int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    lu_t<T>(b, m, n, static_cast<const T*>(a), static_cast<T*>(lu), piv, perm, info);
  });
}

void solve(DType dt, int64_t b, int64_t n, int64_t k, const void* a, const void* rhs, void* out, int32_t* info) {
  dispatch(dt, [&](auto t) {
    using T = decltype(t);
    solve_t<T>(b, n, k, static_cast<const T*>(a), static_cast<const T*>(rhs), static_cast<T*>(out), info);
  });
}

}  // namespace linalg
}  // namespace rlx
