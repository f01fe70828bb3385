// project_math.h's projection and chain rule on four Gaussians at once, one
// per lane of a v4d: the same operations in the same order (a cull becomes a
// lane mask, a branch a per-lane select of the two results the branch could
// give), so every lane holds the bits project_one / backward_one give for its
// Gaussian. The colours (shade_one and the SH part of the chain rule) stay per
// Gaussian: project.cc runs them on the lanes that are drawn.
//
// Why: one Gaussian's projection is a long chain of dependent divisions and
// square roots, which left a core mostly waiting; four independent chains
// side by side keep it busy (benchmarks/probes/splat-breakdown.mjs, 100k
// Gaussians, 2 threads: projectForward 3.8 → 2.1-2.3 ms, projectBackward
// 7.1 → 3.0-3.2 ms).
#pragma once

#include "splat/project_math.h"

namespace rlx {
namespace splat {
namespace project_detail {

/** Four Gaussians' Proj (project_math.h), lane l for Gaussian i + l, and which lanes project_one would keep. */
struct Proj4 {
  v4d q[4], qNorm;
  v4d R[9], s[3], M[9], sigma[9], sigmaCam[9];
  v4d t[3], txc, tyc;
  v4m clampX, clampY;
  v4d J[6];
  v4d a0, b, c0, a, c, det0, det, ratio;
  v4d conic[3];
  v4d opacityIn, opacity;
  v4d radius, u, v;
  /** All ones where project_one returns true. */
  v4m alive;
};

/** x[stride·(i + l) + k] for the four lanes l, as doubles. */
template <class T>
RLX_ALWAYS_INLINE v4d load4(const T* x, int64_t stride, int64_t i, int k) {
  return v4d{static_cast<double>(x[stride * i + k]), static_cast<double>(x[stride * (i + 1) + k]), static_cast<double>(x[stride * (i + 2) + k]),
             static_cast<double>(x[stride * (i + 3) + k])};
}

/** project_one for Gaussians i … i + 3. */
template <class T>
RLX_ALWAYS_INLINE void project_four(const ProjectIn<T>& in, const Camera& cam, int64_t i, Proj4& p) {
  const v4d mx = load4(in.means, 3, i, 0), my = load4(in.means, 3, i, 1), mz = load4(in.means, 3, i, 2);
  const v4d q0 = load4(in.quats, 4, i, 0), q1 = load4(in.quats, 4, i, 1), q2 = load4(in.quats, 4, i, 2), q3 = load4(in.quats, 4, i, 3);
  for (int k = 0; k < 3; k++) p.s[k] = load4(in.scales, 3, i, k);
  p.opacityIn = load4(in.opacities, 1, i, 0);
  v4m alive = v4_finite(mx) & v4_finite(my) & v4_finite(mz) & v4_finite(q0) & v4_finite(q1) & v4_finite(q2) & v4_finite(q3) &
              v4_finite(p.s[0]) & v4_finite(p.s[1]) & v4_finite(p.s[2]) & v4_finite(p.opacityIn);
  // 1. Σ = R S Sᵀ Rᵀ from the normalised quaternion.
  const v4d qn = v4_sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
  alive &= (qn > 0.0) & v4_finite(qn);
  p.qNorm = qn;
  const v4d w = q0 / qn, x = q1 / qn, y = q2 / qn, z = q3 / qn;
  p.q[0] = w, p.q[1] = x, p.q[2] = y, p.q[3] = z;
  v4d* R = p.R;
  R[0] = 1 - 2 * (y * y + z * z), R[1] = 2 * (x * y - w * z), R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z), R[4] = 1 - 2 * (x * x + z * z), R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y), R[7] = 2 * (y * z + w * x), R[8] = 1 - 2 * (x * x + y * y);
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) p.M[3 * r + k] = R[3 * r + k] * p.s[k];
  mul_abt(p.M, p.M, p.sigma);

  // 2. Camera-space mean; near/far cull.
  for (int r = 0; r < 3; r++) p.t[r] = cam.W[3 * r] * mx + cam.W[3 * r + 1] * my + cam.W[3 * r + 2] * mz + cam.w[r];
  const v4d tz = p.t[2];
  alive &= (tz > cam.near) & (tz < cam.far);

  // 3. Clamped Jacobian and Σ₂ = J W Σ Wᵀ Jᵀ.
  const v4d rx = p.t[0] / tz, ry = p.t[1] / tz;
  p.clampX = (rx < -cam.limXNeg) | (rx > cam.limXPos);
  p.clampY = (ry < -cam.limYNeg) | (ry > cam.limYPos);
  p.txc = tz * v4_js_min(v4_splat(cam.limXPos), v4_js_max(v4_splat(-cam.limXNeg), rx));
  p.tyc = tz * v4_js_min(v4_splat(cam.limYPos), v4_js_max(v4_splat(-cam.limYNeg), ry));
  v4d* J = p.J;
  const v4d zero = v4_splat(0);
  J[0] = cam.fx / tz, J[1] = zero, J[2] = (-cam.fx * p.txc) / (tz * tz);
  J[3] = zero, J[4] = cam.fy / tz, J[5] = (-cam.fy * p.tyc) / (tz * tz);
  v4d tmp[9];
  mul_ab(cam.W, p.sigma, tmp);
  mul_abt(tmp, cam.W, p.sigmaCam);
  const v4d* S = p.sigmaCam;
  const v4d j0 = J[0], j2 = J[2], j4 = J[4], j5 = J[5];
  p.a0 = j0 * j0 * S[0] + 2 * j0 * j2 * S[2] + j2 * j2 * S[8];
  p.b = j0 * j4 * S[1] + j0 * j5 * S[2] + j2 * j4 * S[7] + j2 * j5 * S[8];
  p.c0 = j4 * j4 * S[4] + 2 * j4 * j5 * S[5] + j5 * j5 * S[8];

  // 4. Blur, conic, antialiasing compensation.
  p.det0 = p.a0 * p.c0 - p.b * p.b;
  p.a = p.a0 + COV2D_BLUR, p.c = p.c0 + COV2D_BLUR;
  p.det = p.a * p.c - p.b * p.b;
  alive &= (p.det > 0.0) & v4_finite(p.det);
  p.conic[0] = p.c / p.det, p.conic[1] = -p.b / p.det, p.conic[2] = p.a / p.det;
  p.ratio = p.det0 / p.det;
  p.opacity = in.antialiased ? p.opacityIn * v4_sqrt(v4_js_max(zero, p.ratio)) : p.opacityIn;

  // 5. Radius from the larger eigenvalue.
  const v4d mid = 0.5 * (p.a + p.c);
  const v4d lambda = mid + v4_sqrt(v4_js_max(v4_splat(EIGEN_FLOOR), mid * mid - p.det));
  p.radius = v4_ceil(RADIUS_SIGMAS * v4_sqrt(lambda));
  alive &= v4_finite(p.radius);

  // 6. Image point (unclamped t) and the box cull.
  p.u = (cam.fx * p.t[0]) / tz + cam.cx;
  p.v = (cam.fy * p.t[1]) / tz + cam.cy;
  const v4d r = p.radius;
  alive &= ~((p.u + r <= 0.0) | (p.u - r >= cam.width) | (p.v + r <= 0.0) | (p.v - r >= cam.height));
  p.alive = alive;
}

/** backward_one's gradients of four Gaussians (the colour part excepted: the caller's, per lane). */
struct Grad4 {
  v4d means[3], scales[3], quats[4], opacity;
};

/**
 * backward_one for Gaussians i … i + 3 from their Proj4, after the colour
 * step: gmean holds what that step added to ∂L/∂mean (zero without SH, as
 * in backward_one, which starts from 0 and adds the SH part).
 */
template <class T>
RLX_ALWAYS_INLINE void backward_four(const ProjectIn<T>& in, const Camera& cam, const ProjectGrad<T>& g, int64_t i, const Proj4& p, v4d gmean[3],
                                     Grad4& out) {
  const v4d gu = load4(g.ctMeans2d, 2, i, 0), gv = load4(g.ctMeans2d, 2, i, 1);
  const v4d gq0 = load4(g.ctConics, 3, i, 0), gq1 = load4(g.ctConics, 3, i, 1), gq2 = load4(g.ctConics, 3, i, 2);
  const v4d gOpac = load4(g.ctOpacities, 1, i, 0);
  const v4d zero = v4_splat(0);
  v4d gt[3] = {zero, zero, load4(g.ctDepths, 1, i, 0)};

  // 6. means2d.
  const v4d tz = p.t[2];
  gt[0] += gu * cam.fx / tz;
  gt[1] += gv * cam.fy / tz;
  gt[2] += -(gu * cam.fx * p.t[0] + gv * cam.fy * p.t[1]) / (tz * tz);

  // 4. Opacity compensation and the conic.
  v4d ga = zero, gb = zero, gc = zero;
  if (in.antialiased) {
    const v4d sq = v4_sqrt(v4_js_max(zero, p.ratio));
    out.opacity = gOpac * sq;
    const v4m positive = p.ratio > 0.0;
    const v4d gr = gOpac * p.opacityIn * 0.5 / sq;
    const v4d d2 = p.det * p.det;
    ga = v4_select(positive, ga + gr * (p.c0 / p.det - p.det0 * p.c / d2), ga);
    gc = v4_select(positive, gc + gr * (p.a0 / p.det - p.det0 * p.a / d2), gc);
    gb = v4_select(positive, gb + gr * (-2 * p.b / p.det + p.det0 * 2 * p.b / d2), gb);
  } else {
    out.opacity = gOpac;
  }
  {
    const v4d d = p.det, d2 = d * d, a = p.a, b = p.b, c = p.c;
    ga += -gq0 * c * c / d2 + gq1 * b * c / d2 + gq2 * (1 / d - a * c / d2);
    gb += gq0 * 2 * b * c / d2 + gq1 * (-1 / d - 2 * b * b / d2) + gq2 * 2 * a * b / d2;
    gc += gq0 * (1 / d - a * c / d2) + gq1 * a * b / d2 - gq2 * a * a / d2;
  }

  // 3. Σ₂ = J Σc Jᵀ.
  const v4d* J = p.J;
  const v4d G2[4] = {ga, 0.5 * gb, 0.5 * gb, gc};
  v4d GJ[6];
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 3; k++) GJ[3 * r + k] = G2[2 * r] * J[k] + G2[2 * r + 1] * J[3 + k];
  v4d gSigmaCam[9];
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++) gSigmaCam[3 * r + k] = J[r] * GJ[k] + J[3 + r] * GJ[3 + k];
  v4d gJ[6];
  for (int r = 0; r < 2; r++)
    for (int k = 0; k < 3; k++)
      gJ[3 * r + k] = 2 * (GJ[3 * r] * p.sigmaCam[k] + GJ[3 * r + 1] * p.sigmaCam[3 + k] + GJ[3 * r + 2] * p.sigmaCam[6 + k]);
  const v4d tz2 = tz * tz, tz3 = tz2 * tz;
  gt[2] += -cam.fx / tz2 * gJ[0] - cam.fy / tz2 * gJ[4];
  gt[2] += 2 * cam.fx * p.txc / tz3 * gJ[2] + 2 * cam.fy * p.tyc / tz3 * gJ[5];
  gt[2] = v4_select(p.clampX, gt[2] + -cam.fx / tz2 * (p.txc / tz) * gJ[2], gt[2]);
  gt[0] = v4_select(p.clampX, gt[0], gt[0] + -cam.fx / tz2 * gJ[2]);
  gt[2] = v4_select(p.clampY, gt[2] + -cam.fy / tz2 * (p.tyc / tz) * gJ[5], gt[2]);
  gt[1] = v4_select(p.clampY, gt[1], gt[1] + -cam.fy / tz2 * gJ[5]);

  // 2. t = W μ + w; Σc = W Σ Wᵀ.
  for (int k = 0; k < 3; k++) out.means[k] = gmean[k] + (cam.W[k] * gt[0] + cam.W[3 + k] * gt[1] + cam.W[6 + k] * gt[2]);
  v4d tmp[9], gSigma[9];
  mul_atb(cam.W, gSigmaCam, tmp);
  mul_ab(tmp, cam.W, gSigma);

  // 1. Σ = M Mᵀ, M = R diag(s); then the quaternion's normalisation.
  v4d gM[9];
  mul_ab(gSigma, p.M, gM);
  for (int k = 0; k < 9; k++) gM[k] *= 2;
  v4d gR[9];
  for (int k = 0; k < 3; k++) {
    v4d gs = zero;
    for (int r = 0; r < 3; r++) {
      gR[3 * r + k] = gM[3 * r + k] * p.s[k];
      gs += gM[3 * r + k] * p.R[3 * r + k];
    }
    out.scales[k] = gs;
  }
  const v4d w = p.q[0], x = p.q[1], y = p.q[2], z = p.q[3];
  const v4d gw = 2 * (-z * gR[1] + y * gR[2] + z * gR[3] - x * gR[5] - y * gR[6] + x * gR[7]);
  const v4d gx = 2 * (y * gR[1] + z * gR[2] + y * gR[3] - 2 * x * gR[4] - w * gR[5] + z * gR[6] + w * gR[7] - 2 * x * gR[8]);
  const v4d gy = 2 * (-2 * y * gR[0] + x * gR[1] + w * gR[2] + x * gR[3] + z * gR[5] - w * gR[6] + z * gR[7] - 2 * y * gR[8]);
  const v4d gz = 2 * (-2 * z * gR[0] - w * gR[1] + x * gR[2] + w * gR[3] - 2 * z * gR[4] + y * gR[5] + x * gR[6] + y * gR[7]);
  const v4d dq = w * gw + x * gx + y * gy + z * gz;
  const v4d gqh[4] = {gw, gx, gy, gz};
  for (int k = 0; k < 4; k++) out.quats[k] = (gqh[k] - p.q[k] * dq) / p.qNorm;
}

}  // namespace project_detail
}  // namespace splat
}  // namespace rlx
