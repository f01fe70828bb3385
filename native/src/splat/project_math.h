// One Gaussian's projection (steps 1–8 of src/splat/kernels/contract.ts) and
// its chain rule, written once for a lane type V: double (one Gaussian) or
// v4d (four side by side, one a lane). project_lanes computes the projection
// and keeps every intermediate; backward_lanes runs the chain rule back
// through the same numbers (as the js reference does:
// src/splat/kernels/js/projection.ts). A cull is a lane mask (the scalar
// code computes past it, on numbers it then drops) and a branch of the chain
// rule a per-lane select of the two results it could give, so the four lanes
// of a v4d hold the bits the double instance gives each Gaussian (no FMA: the
// build contracts nothing). The colour (shade_one, colour_backward) is per
// Gaussian. project.cc runs four lanes at a time and doubles for the rest.
//
// Why four lanes: one Gaussian's projection is a long chain of dependent
// divisions and square roots, which left a core mostly waiting; four
// independent chains side by side keep it busy
// (benchmarks/probes/splat-breakdown.mjs, 100k Gaussians, 2 threads:
// projectForward 3.8 → 2.1-2.3 ms, projectBackward 7.1 → 3.0-3.2 ms).
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

/** out = A B, out = A Bᵀ, out = Aᵀ B (3×3 row-major; a camera's doubles with lanes V). */
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

/** The lane types: the operations whose spelling differs between one double and four. */
template <class V>
struct Lanes;
template <>
struct Lanes<double> {
  using Mask = bool;
  static double splat(double x) { return x; }
  static bool finite(double x) { return std::isfinite(x); }
  static double sqrt(double x) { return std::sqrt(x); }
  static double ceil(double x) { return std::ceil(x); }
  static double select(bool m, double a, double b) { return m ? a : b; }
  static double js_min(double a, double b) { return splat::js_min(a, b); }
  static double js_max(double a, double b) { return splat::js_max(a, b); }
  static bool lnot(bool m) { return !m; }
  template <class T>
  static double load(const T* x, int64_t stride, int64_t i, int k) {
    return static_cast<double>(x[stride * i + k]);
  }
};
template <>
struct Lanes<v4d> {
  using Mask = v4m;
  RLX_ALWAYS_INLINE static v4d splat(double x) { return v4_splat(x); }
  RLX_ALWAYS_INLINE static v4m finite(v4d x) { return v4_finite(x); }
  RLX_ALWAYS_INLINE static v4d sqrt(v4d x) { return v4_sqrt(x); }
  RLX_ALWAYS_INLINE static v4d ceil(v4d x) { return v4_ceil(x); }
  RLX_ALWAYS_INLINE static v4d select(v4m m, v4d a, v4d b) { return v4_select(m, a, b); }
  RLX_ALWAYS_INLINE static v4d js_min(v4d a, v4d b) { return v4_js_min(a, b); }
  RLX_ALWAYS_INLINE static v4d js_max(v4d a, v4d b) { return v4_js_max(a, b); }
  RLX_ALWAYS_INLINE static v4m lnot(v4m m) { return ~m; }
  /** x[stride·(i + l) + k] for the four lanes l, as doubles. */
  template <class T>
  RLX_ALWAYS_INLINE static v4d load(const T* x, int64_t stride, int64_t i, int k) {
    return v4d{static_cast<double>(x[stride * i + k]), static_cast<double>(x[stride * (i + 1) + k]), static_cast<double>(x[stride * (i + 2) + k]),
               static_cast<double>(x[stride * (i + 3) + k])};
  }
};

/** The projection of one Gaussian a lane, with every intermediate the chain rule needs, and which lanes are not culled. */
template <class V>
struct ProjT {
  using Mask = typename Lanes<V>::Mask;
  V q[4], qNorm;
  V R[9], s[3], M[9], sigma[9], sigmaCam[9];
  V t[3], txc, tyc;
  Mask clampX, clampY;
  V J[6];
  V a0, b, c0, a, c, det0, det, ratio;
  V conic[3];
  V opacityIn, opacity;
  V radius, u, v;
  /** true (all ones) in the lanes whose Gaussian is kept: not culled. */
  Mask alive;
};

/** A visible Gaussian's colour (step 7) and, for SH, the view direction and basis its chain rule needs. */
struct Shade {
  double dir[3], dirNorm, basis[16], raw[3], color[3];
};

/** Steps 1–6 and 8 for the Gaussians of p's lanes (i, …): p.alive says which are not culled. */
template <class V, class T>
RLX_ALWAYS_INLINE void project_lanes(const ProjectIn<T>& in, const Camera& cam, int64_t i, ProjT<V>& p) {
  using L = Lanes<V>;
  using M = typename L::Mask;
  const V mx = L::load(in.means, 3, i, 0), my = L::load(in.means, 3, i, 1), mz = L::load(in.means, 3, i, 2);
  const V q0 = L::load(in.quats, 4, i, 0), q1 = L::load(in.quats, 4, i, 1), q2 = L::load(in.quats, 4, i, 2), q3 = L::load(in.quats, 4, i, 3);
  for (int k = 0; k < 3; k++) p.s[k] = L::load(in.scales, 3, i, k);
  p.opacityIn = L::load(in.opacities, 1, i, 0);
  M alive = L::finite(mx) & L::finite(my) & L::finite(mz) & L::finite(q0) & L::finite(q1) & L::finite(q2) & L::finite(q3) &
              L::finite(p.s[0]) & L::finite(p.s[1]) & L::finite(p.s[2]) & L::finite(p.opacityIn);
  // 1. Σ = R S Sᵀ Rᵀ from the normalised quaternion.
  const V qn = L::sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
  alive &= (qn > 0.0) & L::finite(qn);
  p.qNorm = qn;
  const V w = q0 / qn, x = q1 / qn, y = q2 / qn, z = q3 / qn;
  p.q[0] = w, p.q[1] = x, p.q[2] = y, p.q[3] = z;
  V* R = p.R;
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) p.M[3 * r + k] = R[3 * r + k] * p.s[k];
  mul_abt(p.M, p.M, p.sigma);

  // 2. Camera-space mean; near/far cull.
  for (int r = 0; r < 3; r++) p.t[r] = cam.W[3 * r] * mx + cam.W[3 * r + 1] * my + cam.W[3 * r + 2] * mz + cam.w[r];
  const V tz = p.t[2];
  alive &= (tz > cam.near) & (tz < cam.far);

  // 3. Clamped Jacobian and Σ₂ = J W Σ Wᵀ Jᵀ.
  const V rx = p.t[0] / tz, ry = p.t[1] / tz;
  p.clampX = (rx < -cam.limXNeg) | (rx > cam.limXPos);
  p.clampY = (ry < -cam.limYNeg) | (ry > cam.limYPos);
  p.txc = tz * L::js_min(L::splat(cam.limXPos), L::js_max(L::splat(-cam.limXNeg), rx));
  p.tyc = tz * L::js_min(L::splat(cam.limYPos), L::js_max(L::splat(-cam.limYNeg), ry));
  V* J = p.J;
  const V zero = L::splat(0);
  J[0] = cam.fx / tz, J[1] = zero, J[2] = (-cam.fx * p.txc) / (tz * tz);
  J[3] = zero, J[4] = cam.fy / tz, J[5] = (-cam.fy * p.tyc) / (tz * tz);
  V tmp[9];
  mul_ab(cam.W, p.sigma, tmp);
  mul_abt(tmp, cam.W, p.sigmaCam);
  const V* S = p.sigmaCam;
  const V j0 = J[0], j2 = J[2], j4 = J[4], j5 = J[5];
  p.a0 = j0 * j0 * S[0] + 2 * j0 * j2 * S[2] + j2 * j2 * S[8];
  p.b = j0 * j4 * S[1] + j0 * j5 * S[2] + j2 * j4 * S[7] + j2 * j5 * S[8];
  p.c0 = j4 * j4 * S[4] + 2 * j4 * j5 * S[5] + j5 * j5 * S[8];

  // 4. Blur, conic, antialiasing compensation.
  p.det0 = p.a0 * p.c0 - p.b * p.b;
  p.a = p.a0 + COV2D_BLUR, p.c = p.c0 + COV2D_BLUR;
  p.det = p.a * p.c - p.b * p.b;
  alive &= (p.det > 0.0) & L::finite(p.det);
  p.conic[0] = p.c / p.det, p.conic[1] = -p.b / p.det, p.conic[2] = p.a / p.det;
  if (in.antialiased) {  // ratio only feeds the compensation (and its backward): no division otherwise
    p.ratio = p.det0 / p.det;
    p.opacity = p.opacityIn * L::sqrt(L::js_max(zero, p.ratio));
  } else {
    p.ratio = zero;
    p.opacity = p.opacityIn;
  }

  // 5. Radius from the larger eigenvalue.
  const V mid = 0.5 * (p.a + p.c);
  const V lambda = mid + L::sqrt(L::js_max(L::splat(EIGEN_FLOOR), mid * mid - p.det));
  p.radius = L::ceil(RADIUS_SIGMAS * L::sqrt(lambda));
  alive &= L::finite(p.radius);

  // 6. Image point (unclamped t) and the box cull.
  p.u = (cam.fx * p.t[0]) / tz + cam.cx;
  p.v = (cam.fy * p.t[1]) / tz + cam.cy;
  const V r = p.radius;
  alive &= L::lnot((p.u + r <= 0.0) | (p.u - r >= cam.width) | (p.v + r <= 0.0) | (p.v - r >= cam.height));
  p.alive = alive;
}

/** Step 7 for a visible Gaussian: s.color (and dir, basis, raw for SH). */
template <class T>
RLX_ALWAYS_INLINE void shade_one(const ProjectIn<T>& in, const Camera& cam, int64_t i, Shade& p) {
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
RLX_ALWAYS_INLINE void colour_backward(const ProjectIn<T>& in, const ProjectGrad<T>& g, int64_t i, const Shade& p, double gmean[3]) {
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

/** The chain rule's input gradients for p's lanes (the colour step's are colour_backward's, per Gaussian). */
template <class V>
struct GradT {
  V means[3], scales[3], quats[4], opacity;
};

/**
 * Steps 6 to 1 of the chain rule, output cotangents → input gradients, for
 * the visible Gaussians of p's lanes, after the colour step: gmean holds what
 * that step passed to ∂L/∂mean (zero without SH). The derivation is in the
 * comments of each step, in reverse.
 */
template <class V, class T>
RLX_ALWAYS_INLINE void backward_lanes(const ProjectIn<T>& in, const Camera& cam, const ProjectGrad<T>& g, int64_t i, const ProjT<V>& p,
                                      const V gmean[3], GradT<V>& out) {
  using L = Lanes<V>;
  using M = typename L::Mask;
  const V gu = L::load(g.ctMeans2d, 2, i, 0), gv = L::load(g.ctMeans2d, 2, i, 1);
  const V gq0 = L::load(g.ctConics, 3, i, 0), gq1 = L::load(g.ctConics, 3, i, 1), gq2 = L::load(g.ctConics, 3, i, 2);
  const V gOpac = L::load(g.ctOpacities, 1, i, 0);
  const V zero = L::splat(0);
  V gt[3] = {zero, zero, L::load(g.ctDepths, 1, i, 0)};

  // 6. means2d.
  const V tz = p.t[2];
  gt[0] += gu * cam.fx / tz;
  gt[1] += gv * cam.fy / tz;
  gt[2] += -(gu * cam.fx * p.t[0] + gv * cam.fy * p.t[1]) / (tz * tz);

  // 4. Opacity compensation and the conic.
  V ga = zero, gb = zero, gc = zero;
  if (in.antialiased) {
    const V sq = L::sqrt(L::js_max(zero, p.ratio));
    out.opacity = gOpac * sq;
    const M positive = p.ratio > 0.0;
    const V gr = gOpac * p.opacityIn * 0.5 / sq;
    const V d2 = p.det * p.det;
    ga = L::select(positive, ga + gr * (p.c0 / p.det - p.det0 * p.c / d2), ga);
    gc = L::select(positive, gc + gr * (p.a0 / p.det - p.det0 * p.a / d2), gc);
    gb = L::select(positive, gb + gr * (-2 * p.b / p.det + p.det0 * 2 * p.b / d2), gb);
  } else {
    out.opacity = gOpac;
  }
  {
    const V d = p.det, d2 = d * d, a = p.a, b = p.b, c = p.c;
    ga += -gq0 * c * c / d2 + gq1 * b * c / d2 + gq2 * (1 / d - a * c / d2);
    gb += gq0 * 2 * b * c / d2 + gq1 * (-1 / d - 2 * b * b / d2) + gq2 * 2 * a * b / d2;
    gc += gq0 * (1 / d - a * c / d2) + gq1 * a * b / d2 - gq2 * a * a / d2;
  }

  // 3. Σ₂ = J Σc Jᵀ.
  const V* J = p.J;
  const V G2[4] = {ga, 0.5 * gb, 0.5 * gb, gc};
  V GJ[6];
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 3; k++) GJ[3 * r + k] = G2[2 * r] * J[k] + G2[2 * r + 1] * J[3 + k];
  V gSigmaCam[9];
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) gSigmaCam[3 * r + k] = J[r] * GJ[k] + J[3 + r] * GJ[3 + k];
  V gJ[6];
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 3; k++)
      gJ[3 * r + k] = 2 * (GJ[3 * r] * p.sigmaCam[k] + GJ[3 * r + 1] * p.sigmaCam[3 + k] + GJ[3 * r + 2] * p.sigmaCam[6 + k]);
  const V tz2 = tz * tz, tz3 = tz2 * tz;
  gt[2] += -cam.fx / tz2 * gJ[0] - cam.fy / tz2 * gJ[4];
  gt[2] += 2 * cam.fx * p.txc / tz3 * gJ[2] + 2 * cam.fy * p.tyc / tz3 * gJ[5];
  gt[2] = L::select(p.clampX, gt[2] + -cam.fx / tz2 * (p.txc / tz) * gJ[2], gt[2]);
  gt[0] = L::select(p.clampX, gt[0], gt[0] + -cam.fx / tz2 * gJ[2]);
  gt[2] = L::select(p.clampY, gt[2] + -cam.fy / tz2 * (p.tyc / tz) * gJ[5], gt[2]);
  gt[1] = L::select(p.clampY, gt[1], gt[1] + -cam.fy / tz2 * gJ[5]);

  // 2. t = W μ + w; Σc = W Σ Wᵀ.
  for (int k = 0; k < 3; k++) out.means[k] = gmean[k] + (cam.W[k] * gt[0] + cam.W[3 + k] * gt[1] + cam.W[6 + k] * gt[2]);
  V tmp[9], gSigma[9];
  mul_atb(cam.W, gSigmaCam, tmp);
  mul_ab(tmp, cam.W, gSigma);

  // 1. Σ = M Mᵀ, M = R diag(s); then the quaternion's normalisation.
  V gM[9];
  mul_ab(gSigma, p.M, gM);
  for (int k = 0; k < 9; k++) gM[k] *= 2;
  V gR[9];
  for (int k = 0; k < 3; k++) {
    V gs = zero;
    for (int r = 0; r < 3; r++) {
      gR[3 * r + k] = gM[3 * r + k] * p.s[k];
      gs += gM[3 * r + k] * p.R[3 * r + k];
    }
    out.scales[k] = gs;
  }
  const V w = p.q[0], x = p.q[1], y = p.q[2], z = p.q[3];
  const V gw = 2 * (-z * gR[1] + y * gR[2] + z * gR[3] - x * gR[5] - y * gR[6] + x * gR[7]);
  const V gx = 2 * (y * gR[1] + z * gR[2] + y * gR[3] - 2 * x * gR[4] - w * gR[5] + z * gR[6] + w * gR[7] - 2 * x * gR[8]);
  const V gy = 2 * (-2 * y * gR[0] + x * gR[1] + w * gR[2] + x * gR[3] + z * gR[5] - w * gR[6] + z * gR[7] - 2 * y * gR[8]);
  const V gz = 2 * (-2 * z * gR[0] - w * gR[1] + x * gR[2] + w * gR[3] - 2 * z * gR[4] + y * gR[5] + x * gR[6] + y * gR[7]);
  const V dq = w * gw + x * gx + y * gy + z * gz;
  const V gqh[4] = {gw, gx, gy, gz};
  for (int k = 0; k < 4; k++) out.quats[k] = (gqh[k] - p.q[k] * dq) / p.qNorm;
}

}  // namespace project_detail
}  // namespace splat
}  // namespace rlx
