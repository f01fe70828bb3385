// The real SH basis of the 3DGS notes (constants in splat_constants.h) and
// the gradient of a weighted sum of basis functions with respect to the
// (unit) direction: one place for both so the passes cannot drift apart.
#pragma once

#include "splat/splat_constants.h"

namespace rlx {
namespace splat {

/** out[j] = basis_j(x, y, z) for j < count (count ≤ 16). */
inline void sh_basis(double x, double y, double z, int count, double* out) {
  out[0] = SH_C0;
  if (count <= 1) return;
  out[1] = -SH_C1 * y;
  out[2] = SH_C1 * z;
  out[3] = -SH_C1 * x;
  if (count <= 4) return;
  const double xx = x * x, yy = y * y, zz = z * z;
  out[4] = SH_C2[0] * x * y;
  out[5] = SH_C2[1] * y * z;
  out[6] = SH_C2[2] * (2 * zz - xx - yy);
  out[7] = SH_C2[3] * x * z;
  out[8] = SH_C2[4] * (xx - yy);
  if (count <= 9) return;
  out[9] = SH_C3[0] * y * (3 * xx - yy);
  out[10] = SH_C3[1] * x * y * z;
  out[11] = SH_C3[2] * y * (4 * zz - xx - yy);
  out[12] = SH_C3[3] * z * (2 * zz - 3 * xx - 3 * yy);
  out[13] = SH_C3[4] * x * (4 * zz - xx - yy);
  out[14] = SH_C3[5] * z * (xx - yy);
  out[15] = SH_C3[6] * x * (xx - 3 * yy);
}

/** grad[0..2] += Σ_{j<count} w[j] ∇basis_j(x, y, z) (the basis as polynomials in x, y, z). */
inline void sh_basis_grad_add(double x, double y, double z, int count, const double* w, double* grad) {
  if (count <= 1) return;
  double gx = -SH_C1 * w[3], gy = -SH_C1 * w[1], gz = SH_C1 * w[2];
  if (count > 4) {
    const double c4 = SH_C2[0] * w[4], c5 = SH_C2[1] * w[5], c6 = SH_C2[2] * w[6], c7 = SH_C2[3] * w[7], c8 = SH_C2[4] * w[8];
    gx += c4 * y - 2 * x * c6 + c7 * z + 2 * x * c8;
    gy += c4 * x + c5 * z - 2 * y * c6 - 2 * y * c8;
    gz += c5 * y + 4 * z * c6 + c7 * x;
  }
  if (count > 9) {
    const double xx = x * x, yy = y * y, zz = z * z;
    const double c9 = SH_C3[0] * w[9], c10 = SH_C3[1] * w[10], c11 = SH_C3[2] * w[11], c12 = SH_C3[3] * w[12];
    const double c13 = SH_C3[4] * w[13], c14 = SH_C3[5] * w[14], c15 = SH_C3[6] * w[15];
    gx += c9 * 6 * x * y + c10 * y * z - c11 * 2 * x * y - c12 * 6 * x * z + c13 * (4 * zz - 3 * xx - yy) + c14 * 2 * x * z + c15 * 3 * (xx - yy);
    gy += c9 * 3 * (xx - yy) + c10 * x * z + c11 * (4 * zz - xx - 3 * yy) - c12 * 6 * y * z - c13 * 2 * x * y - c14 * 2 * y * z - c15 * 6 * x * y;
    gz += c10 * x * y + c11 * 8 * y * z + c12 * (6 * zz - 3 * xx - 3 * yy) + c13 * 8 * x * z + c14 * (xx - yy);
  }
  grad[0] += gx;
  grad[1] += gy;
  grad[2] += gz;
}

}  // namespace splat
}  // namespace rlx
