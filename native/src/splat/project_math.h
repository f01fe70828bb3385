// One Gaussian's projection (steps 1–8 of src/splat/kernels/contract.ts) and
// its chain rule, in doubles: project_one computes the projection and keeps
// every intermediate, shade_one the colour, backward_one runs the chain rule
// back through the same numbers (as the js reference does:
// src/splat/kernels/js/projection.ts). project.cc runs them over the
// Gaussians; project_lanes.h has the same arithmetic on four Gaussians at once.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "splat/sh.h"
#include "splat/simd.h"
#include "splat/splat.h"
#include "splat/splat_constants.h"

namespace rlx {
namespace splat {
namespace project_detail {

/** A larger finite radius is stored as this (radii are Int32; the js reference does the same). */
constexpr double MAX_RADIUS = 2147483647.0;

/** out = A B, out = A Bᵀ, out = Aᵀ B (3×3 row-major; doubles, or a camera's doubles with four lanes of v4d). */
template <class X, class Y, class Z>
RLX_ALWAYS_INLINE void mul_ab(const X* A, const Y* B, Z* out) {
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) out[3 * r + k] = A[3 * r] * B[k] + A[3 * r + 1] * B[3 + k] + A[3 * r + 2] * B[6 + k];
}
template <class X, class Y, class Z>
RLX_ALWAYS_INLINE void mul_abt(const X* A, const Y* B, Z* out) {
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) out[3 * r + k] = A[3 * r] * B[3 * k] + A[3 * r + 1] * B[3 * k + 1] + A[3 * r + 2] * B[3 * k + 2];
}
template <class X, class Y, class Z>
RLX_ALWAYS_INLINE void mul_atb(const X* A, const Y* B, Z* out) {
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) out[3 * r + k] = A[r] * B[k] + A[3 + r] * B[3 + k] + A[6 + r] * B[6 + k];
}

/** One Gaussian's projection with every intermediate the backward pass needs. */
struct Proj {
  double q[4], qNorm;
  double R[9], s[3], M[9], sigma[9], sigmaCam[9];
  double t[3], txc, tyc;
  bool clampX, clampY;
  double J[6];
  double a0, b, c0, a, c, det0, det, ratio;
  double conic[3];
  double opacityIn, opacity;
  double radius, u, v;
  double dir[3], dirNorm, basis[16], raw[3], color[3];
};

template <class T>
inline bool finite_all(const T* x, int n) {
  for (int j = 0; j < n; j++)
    if (!std::isfinite(static_cast<double>(x[j]))) return false;
  return true;
}

/** Steps 1–6 and 8 for Gaussian i: false when it is culled. */
template <class T>
RLX_ALWAYS_INLINE bool project_one(const ProjectIn<T>& in, const Camera& cam, int64_t i, Proj& p) {
  if (!finite_all(in.means + 3 * i, 3) || !finite_all(in.quats + 4 * i, 4) || !finite_all(in.scales + 3 * i, 3) ||
      !std::isfinite(static_cast<double>(in.opacities[i])))
    return false;
  // 1. Σ = R S Sᵀ Rᵀ from the normalised quaternion.
  const double q0 = in.quats[4 * i], q1 = in.quats[4 * i + 1], q2 = in.quats[4 * i + 2], q3 = in.quats[4 * i + 3];
  const double qn = std::sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
  if (!(qn > 0) || !std::isfinite(qn)) return false;
  p.qNorm = qn;
  const double w = q0 / qn, x = q1 / qn, y = q2 / qn, z = q3 / qn;
  p.q[0] = w, p.q[1] = x, p.q[2] = y, p.q[3] = z;
  double* R = p.R;
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
  for (int k = 0; k < 3; k++) p.s[k] = in.scales[3 * i + k];
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) p.M[3 * r + k] = R[3 * r + k] * p.s[k];
  mul_abt(p.M, p.M, p.sigma);

  // 2. Camera-space mean; near/far cull (a NaN depth fails the test too).
  const double mx = in.means[3 * i], my = in.means[3 * i + 1], mz = in.means[3 * i + 2];
  for (int r = 0; r < 3; r++) p.t[r] = cam.W[3 * r] * mx + cam.W[3 * r + 1] * my + cam.W[3 * r + 2] * mz + cam.w[r];
  const double tz = p.t[2];
  if (!(tz > cam.near && tz < cam.far)) return false;

  // 3. Clamped Jacobian and Σ₂ = J W Σ Wᵀ Jᵀ.
  const double rx = p.t[0] / tz, ry = p.t[1] / tz;
  p.clampX = rx < -cam.limXNeg || rx > cam.limXPos;
  p.clampY = ry < -cam.limYNeg || ry > cam.limYPos;
  p.txc = tz * js_min(cam.limXPos, js_max(-cam.limXNeg, rx));
  p.tyc = tz * js_min(cam.limYPos, js_max(-cam.limYNeg, ry));
  double* J = p.J;
  J[0] = cam.fx / tz, J[1] = 0, J[2] = (-cam.fx * p.txc) / (tz * tz);
  J[3] = 0, J[4] = cam.fy / tz, J[5] = (-cam.fy * p.tyc) / (tz * tz);
  double tmp[9];
  mul_ab(cam.W, p.sigma, tmp);
  mul_abt(tmp, cam.W, p.sigmaCam);
  const double* S = p.sigmaCam;
  const double j0 = J[0], j2 = J[2], j4 = J[4], j5 = J[5];
  p.a0 = j0 * j0 * S[0] + 2 * j0 * j2 * S[2] + j2 * j2 * S[8];
  p.b = j0 * j4 * S[1] + j0 * j5 * S[2] + j2 * j4 * S[7] + j2 * j5 * S[8];
  p.c0 = j4 * j4 * S[4] + 2 * j4 * j5 * S[5] + j5 * j5 * S[8];

  // 4. Blur, conic, antialiasing compensation.
  p.det0 = p.a0 * p.c0 - p.b * p.b;
  p.a = p.a0 + COV2D_BLUR, p.c = p.c0 + COV2D_BLUR;
  p.det = p.a * p.c - p.b * p.b;
  if (!(p.det > 0) || !std::isfinite(p.det)) return false;
  p.conic[0] = p.c / p.det, p.conic[1] = -p.b / p.det, p.conic[2] = p.a / p.det;
  p.opacityIn = in.opacities[i];
  p.ratio = p.det0 / p.det;
  p.opacity = in.antialiased ? p.opacityIn * std::sqrt(js_max(0, p.ratio)) : p.opacityIn;

  // 5. Radius from the larger eigenvalue.
  const double mid = 0.5 * (p.a + p.c);
  const double lambda = mid + std::sqrt(js_max(EIGEN_FLOOR, mid * mid - p.det));
  p.radius = std::ceil(RADIUS_SIGMAS * std::sqrt(lambda));
  if (!std::isfinite(p.radius)) return false;

  // 6. Image point (unclamped t) and the box cull.
  p.u = (cam.fx * p.t[0]) / tz + cam.cx;
  p.v = (cam.fy * p.t[1]) / tz + cam.cy;
  const double r = p.radius;
  if (p.u + r <= 0 || p.u - r >= cam.width || p.v + r <= 0 || p.v - r >= cam.height) return false;
  return true;
}

/** Step 7 for a visible Gaussian: p.color (and dir, basis, raw for SH). */
template <class T>
RLX_ALWAYS_INLINE void shade_one(const ProjectIn<T>& in, const Camera& cam, int64_t i, Proj& p) {
  if (in.shDegree < 0) {
    for (int c = 0; c < 3; c++) p.color[c] = in.coeffs[3 * i + c];
    return;
  }
  double n2 = 0;
  for (int k = 0; k < 3; k++) {
    const double d = static_cast<double>(in.means[3 * i + k]) - cam.centre[k];
    p.dir[k] = d;
    n2 += d * d;
  }
  p.dirNorm = std::sqrt(n2);
  for (int k = 0; k < 3; k++) p.dir[k] /= p.dirNorm;
  const int count = (in.shDegree + 1) * (in.shDegree + 1);
  sh_basis(p.dir[0], p.dir[1], p.dir[2], count, p.basis);
  const T* co = in.coeffs + i * in.k * 3;
  for (int c = 0; c < 3; c++) {
    double v = SH_OFFSET;
    for (int j = 0; j < count; j++) v += p.basis[j] * static_cast<double>(co[3 * j + c]);
    p.raw[c] = v;
    p.color[c] = v < 0 ? 0 : v;  // a NaN channel stays NaN
  }
}

/**
 * Step 7's chain rule for one visible Gaussian: the coefficients' gradient
 * (g.coeffs; shDegree −1: the colours are the coefficients) and what the
 * view direction passes to ∂L/∂mean, added to gmean. A clamped channel
 * (raw < 0) passes no gradient; the rest flows to the coefficients and,
 * through the basis, to the view direction and the mean.
 */
template <class T>
RLX_ALWAYS_INLINE void colour_backward(const ProjectIn<T>& in, const ProjectGrad<T>& g, int64_t i, const Proj& p, double gmean[3]) {
  T* gco = g.coeffs + i * in.k * 3;
  if (in.shDegree < 0) {
    for (int c = 0; c < 3; c++) gco[c] = g.ctColors[3 * i + c];
    return;
  }
  const int count = (in.shDegree + 1) * (in.shDegree + 1);
  double graw[3];
  for (int c = 0; c < 3; c++) graw[c] = p.raw[c] < 0 ? 0 : static_cast<double>(g.ctColors[3 * i + c]);
  const T* co = in.coeffs + i * in.k * 3;
  double gbasis[16];
  for (int j = 0; j < count; j++) {
    double s = 0;
    for (int c = 0; c < 3; c++) {
      gco[3 * j + c] = static_cast<T>(p.basis[j] * graw[c]);
      s += static_cast<double>(co[3 * j + c]) * graw[c];
    }
    gbasis[j] = s;
  }
  double gdir[3] = {0, 0, 0};
  sh_basis_grad_add(p.dir[0], p.dir[1], p.dir[2], count, gbasis, gdir);
  // dir = v/|v|: ∂L/∂v = (gdir − dir (dir·gdir))/|v|.
  const double dg = p.dir[0] * gdir[0] + p.dir[1] * gdir[1] + p.dir[2] * gdir[2];
  for (int k = 0; k < 3; k++) gmean[k] += (gdir[k] - p.dir[k] * dg) / p.dirNorm;
}

/**
 * The chain rule for one visible Gaussian, output cotangents → input
 * gradients (the derivation is in the comments of each step, in reverse).
 */
template <class T>
RLX_ALWAYS_INLINE void backward_one(const ProjectIn<T>& in, const Camera& cam, const ProjectGrad<T>& g, int64_t i, const Proj& p) {
  const double gu = g.ctMeans2d[2 * i], gv = g.ctMeans2d[2 * i + 1];
  const double gq0 = g.ctConics[3 * i], gq1 = g.ctConics[3 * i + 1], gq2 = g.ctConics[3 * i + 2];
  const double gOpac = g.ctOpacities[i];
  double gt[3] = {0, 0, static_cast<double>(g.ctDepths[i])};  // ∂L/∂t (camera-space mean)
  double gmean[3] = {0, 0, 0};

  // 7. Colour.
  colour_backward(in, g, i, p, gmean);

  // 6. means2d: u = fx tx/tz + cx, v = fy ty/tz + cy (unclamped t).
  const double tz = p.t[2];
  gt[0] += gu * cam.fx / tz;
  gt[1] += gv * cam.fy / tz;
  gt[2] += -(gu * cam.fx * p.t[0] + gv * cam.fy * p.t[1]) / (tz * tz);

  // 4. Opacity compensation o' = o·√max(0, det₀/det) and the conic (c, −b, a)/det.
  double ga = 0, gb = 0, gc = 0;  // ∂L/∂(a, b, c): a, c blurred; a0, c0 have the same derivative
  if (in.antialiased) {
    const double sq = std::sqrt(js_max(0, p.ratio));
    g.opacities[i] = static_cast<T>(gOpac * sq);
    if (p.ratio > 0) {
      const double gr = gOpac * p.opacityIn * 0.5 / sq;  // ∂L/∂ratio
      const double d2 = p.det * p.det;
      ga += gr * (p.c0 / p.det - p.det0 * p.c / d2);
      gc += gr * (p.a0 / p.det - p.det0 * p.a / d2);
      gb += gr * (-2 * p.b / p.det + p.det0 * 2 * p.b / d2);
    }
  } else {
    g.opacities[i] = static_cast<T>(gOpac);
  }
  {
    const double d = p.det, d2 = d * d, a = p.a, b = p.b, c = p.c;
    ga += -gq0 * c * c / d2 + gq1 * b * c / d2 + gq2 * (1 / d - a * c / d2);
    gb += gq0 * 2 * b * c / d2 + gq1 * (-1 / d - 2 * b * b / d2) + gq2 * 2 * a * b / d2;
    gc += gq0 * (1 / d - a * c / d2) + gq1 * a * b / d2 - gq2 * a * a / d2;
  }

  // 3. Σ₂ = J Σc Jᵀ with G₂ = [[ga, gb/2], [gb/2, gc]]: ∂L/∂Σc = Jᵀ G₂ J,
  // ∂L/∂J = 2 G₂ J Σc (G₂ and Σc symmetric).
  const double* J = p.J;
  const double G2[4] = {ga, 0.5 * gb, 0.5 * gb, gc};
  double GJ[6];  // G₂ J, 2×3
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 3; k++) GJ[3 * r + k] = G2[2 * r] * J[k] + G2[2 * r + 1] * J[3 + k];
  double gSigmaCam[9];
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) gSigmaCam[3 * r + k] = J[r] * GJ[k] + J[3 + r] * GJ[3 + k];
  double gJ[6];
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 3; k++)
      gJ[3 * r + k] = 2 * (GJ[3 * r] * p.sigmaCam[k] + GJ[3 * r + 1] * p.sigmaCam[3 + k] + GJ[3 * r + 2] * p.sigmaCam[6 + k]);
  // J = [[fx/tz, 0, −fx t'x/tz²], [0, fy/tz, −fy t'y/tz²]], t' = tz·clamp(t/tz):
  // unclamped t' = t; clamped t' = tz·limit (a function of tz alone).
  const double tz2 = tz * tz, tz3 = tz2 * tz;
  gt[2] += -cam.fx / tz2 * gJ[0] - cam.fy / tz2 * gJ[4];
  gt[2] += 2 * cam.fx * p.txc / tz3 * gJ[2] + 2 * cam.fy * p.tyc / tz3 * gJ[5];
  if (p.clampX) gt[2] += -cam.fx / tz2 * (p.txc / tz) * gJ[2];
  else gt[0] += -cam.fx / tz2 * gJ[2];
  if (p.clampY) gt[2] += -cam.fy / tz2 * (p.tyc / tz) * gJ[5];
  else gt[1] += -cam.fy / tz2 * gJ[5];

  // 2. t = W μ + w: ∂L/∂μ += Wᵀ ∂L/∂t; Σc = W Σ Wᵀ: ∂L/∂Σ = Wᵀ ∂L/∂Σc W.
  for (int k = 0; k < 3; k++) gmean[k] += cam.W[k] * gt[0] + cam.W[3 + k] * gt[1] + cam.W[6 + k] * gt[2];
  for (int k = 0; k < 3; k++) g.means[3 * i + k] = static_cast<T>(gmean[k]);
  double tmp[9], gSigma[9];
  mul_atb(cam.W, gSigmaCam, tmp);
  mul_ab(tmp, cam.W, gSigma);

  // 1. Σ = M Mᵀ: ∂L/∂M = 2 ∂L/∂Σ M (symmetric); M = R diag(s).
  double gM[9];
  mul_ab(gSigma, p.M, gM);
  for (int k = 0; k < 9; k++) gM[k] *= 2;
  double gR[9];
  for (int k = 0; k < 3; k++) {
    double gs = 0;
    for (int r = 0; r < 3; r++) {
      gR[3 * r + k] = gM[3 * r + k] * p.s[k];
      gs += gM[3 * r + k] * p.R[3 * r + k];
    }
    g.scales[3 * i + k] = static_cast<T>(gs);
  }
  // R(q̂) → ∂L/∂q̂, then q̂ = q/|q|: ∂L/∂q = (∂L/∂q̂ − q̂ (q̂·∂L/∂q̂))/|q|.
  const double w = p.q[0], x = p.q[1], y = p.q[2], z = p.q[3];
  const double gw = 2 * (-z * gR[1] + y * gR[2] + z * gR[3] - x * gR[5] - y * gR[6] + x * gR[7]);
  const double gx = 2 * (y * gR[1] + z * gR[2] + y * gR[3] - 2 * x * gR[4] - w * gR[5] + z * gR[6] + w * gR[7] - 2 * x * gR[8]);
  const double gy = 2 * (-2 * y * gR[0] + x * gR[1] + w * gR[2] + x * gR[3] + z * gR[5] - w * gR[6] + z * gR[7] - 2 * y * gR[8]);
  const double gz = 2 * (-2 * z * gR[0] - w * gR[1] + x * gR[2] + w * gR[3] - 2 * z * gR[4] + y * gR[5] + x * gR[6] + y * gR[7]);
  const double dq = w * gw + x * gx + y * gy + z * gz;
  const double gqh[4] = {gw, gx, gy, gz};
  for (int k = 0; k < 4; k++) g.quats[4 * i + k] = static_cast<T>((gqh[k] - p.q[k] * dq) / p.qNorm);
}

}  // namespace project_detail
}  // namespace splat
}  // namespace rlx
