// Triangular solves with an LU factorization held as plain compressed arrays:
//   P S B Q = L U
// (UMFPACK's factors as umfpack_*_get_numeric returns them: S the row scaling,
// L unit lower triangular by rows with the diagonal last in each row, U upper
// triangular by columns with the diagonal last in each column).
//
// Why: UMFPACK's own solve walks its frontal-matrix storage, rebuilding each
// column's pattern from the element lists: for a small matrix that is most of
// the cost (n = 199, tridiagonal: ~39k instructions a solve, where the two
// triangular sweeps need ~2k). Holding the factors once more in CSR/CSC costs
// their size again, so UmfHandle extracts them only for small factors
// (kMaxEntries), where per-call cost matters and the memory does not.
//
// Both systems use the same arrays (no conjugation: B.' is the array transpose):
//   B x = c:   y = L⁻¹ P S c (L by rows), z = U⁻¹ y (U by columns), x = Q z
//   B.' x = c: y = U.'⁻¹ Qᵀ c (U's columns are U.''s rows), z = L.'⁻¹ y (L's rows
//              are L.''s columns), x = S Pᵀ z
// Complex values are interleaved pairs (packed complex).
#pragma once

#include <cstdint>
#include <vector>

namespace rlx::sparse {

class ExtractedLU {
 public:
  /** Largest lnz + unz extracted (≈ 24 MiB real, 40 MiB complex). */
  static constexpr int64_t kMaxEntries = int64_t(1) << 21;

  int n = 0;
  bool complex = false;
  std::vector<int> Lp, Lj, Up, Ui, P, Q;
  std::vector<double> Lx, Ux;
  /** Row scale as a factor: row P[k] of B is multiplied by scaleP[k] (2 lanes when complex, imaginary 0). */
  std::vector<double> scaleP;
  /** 1 / U[j, j] (complex: its reciprocal as a pair). */
  std::vector<double> invDiag;

  bool empty() const { return Lp.empty(); }
  int64_t bytes() const {
    return static_cast<int64_t>((Lp.capacity() + Lj.capacity() + Up.capacity() + Ui.capacity() + P.capacity() + Q.capacity()) * sizeof(int) +
                                (Lx.capacity() + Ux.capacity() + scaleP.capacity() + invDiag.capacity()) * sizeof(double));
  }

  /** x = B⁻¹ c (transpose false) or B.'⁻¹ c (true); w is n (2n complex) of scratch. x must not alias c. */
  void solve(bool transpose, const double* c, double* x, double* w) const {
    if (complex) transpose ? solve_t<2>(c, x, w) : solve_n<2>(c, x, w);
    else transpose ? solve_t<1>(c, x, w) : solve_n<1>(c, x, w);
  }

 private:
  // a -= b * c on one value (1 lane) or one complex pair (2 lanes).
  template <int L>
  static inline void sub_mul(double* a, const double* b, const double* c) {
    if constexpr (L == 1) a[0] -= b[0] * c[0];
    else {
      a[0] -= b[0] * c[0] - b[1] * c[1];
      a[1] -= b[0] * c[1] + b[1] * c[0];
    }
  }
  // a = b * c.
  template <int L>
  static inline void mul(double* a, const double* b, const double* c) {
    if constexpr (L == 1) a[0] = b[0] * c[0];
    else {
      const double re = b[0] * c[0] - b[1] * c[1], im = b[0] * c[1] + b[1] * c[0];
      a[0] = re, a[1] = im;
    }
  }

  template <int L>
  void solve_n(const double* c, double* x, double* y) const {
    for (int k = 0; k < n; k++) {
      double* yk = y + k * L;
      mul<L>(yk, c + static_cast<int64_t>(P[k]) * L, scaleP.data() + k * L);
      // Row k of L: entries left of the diagonal (the last entry, 1).
      for (int p = Lp[k], e = Lp[k + 1] - 1; p < e; p++) sub_mul<L>(yk, Lx.data() + int64_t(p) * L, y + int64_t(Lj[p]) * L);
    }
    for (int j = n - 1; j >= 0; j--) {
      double* yj = y + j * L;
      mul<L>(yj, yj, invDiag.data() + j * L);
      // Column j of U above the diagonal (the last entry).
      for (int p = Up[j], e = Up[j + 1] - 1; p < e; p++) sub_mul<L>(y + int64_t(Ui[p]) * L, Ux.data() + int64_t(p) * L, yj);
    }
    for (int k = 0; k < n; k++) {
      double* xk = x + static_cast<int64_t>(Q[k]) * L;
      xk[0] = y[k * L];
      if constexpr (L == 2) xk[1] = y[k * L + 1];
    }
  }

  template <int L>
  void solve_t(const double* c, double* x, double* y) const {
    for (int j = 0; j < n; j++) {
      double* yj = y + j * L;
      const double* cj = c + static_cast<int64_t>(Q[j]) * L;
      yj[0] = cj[0];
      if constexpr (L == 2) yj[1] = cj[1];
      for (int p = Up[j], e = Up[j + 1] - 1; p < e; p++) sub_mul<L>(yj, Ux.data() + int64_t(p) * L, y + int64_t(Ui[p]) * L);
      mul<L>(yj, yj, invDiag.data() + j * L);
    }
    for (int k = n - 1; k >= 0; k--) {
      const double* yk = y + k * L;
      for (int p = Lp[k], e = Lp[k + 1] - 1; p < e; p++) sub_mul<L>(y + int64_t(Lj[p]) * L, Lx.data() + int64_t(p) * L, yk);
    }
    for (int k = 0; k < n; k++) mul<L>(x + static_cast<int64_t>(P[k]) * L, y + k * L, scaleP.data() + k * L);
  }
};

}  // namespace rlx::sparse
