// project's forward and backward kernels (../contract.ts, "project"): the
// loops over Gaussians around GaussianProjection (projection.ts), and the
// chain rule from the output cotangents back to means, quaternions, scales,
// opacities and colour/SH coefficients. The backward recomputes each
// visible Gaussian's forward (no residuals besides radii) and holds every
// clamp, cull and threshold at its forward value: a clamped SH channel and
// the clamped part of the Jacobian get zero gradient, and a non-positive
// det₀/det (its square root is clamped at 0) gives the opacity compensation
// no gradient through the covariance.

import { COV2D_BLUR } from '../../constants.js';
import type { ProjectArgs, ProjectCotangents, ProjectGrads, ProjectOutputs } from '../contract.js';
import { cameraFrame } from './camera.js';
import { checkProjectArgs, checkProjectCotangents, checkProjectGrads, checkProjectOutputs } from './check.js';
import { GaussianProjection, MAX_RADIUS, mulAB, mulAtB } from './projection.js';
import { SH_MAX_COEFFS, shBasisGradAdd } from './sh.js';

export function projectForward(a: ProjectArgs, out: ProjectOutputs): void {
  checkProjectArgs('projectForward', a);
  checkProjectOutputs('projectForward', a, out);
  for (const arr of [out.means2d, out.conics, out.depths, out.radii, out.colors, out.opacities]) arr.fill(0);
  const cam = cameraFrame(a.camera);
  const g = new GaussianProjection();
  for (let i = 0; i < a.n; i++) {
    if (!g.project(a, cam, i)) continue;
    g.shade(a, cam, i);
    out.means2d[2 * i] = g.u;
    out.means2d[2 * i + 1] = g.v;
    for (let k = 0; k < 3; k++) out.conics[3 * i + k] = g.conic[k]!;
    out.depths[i] = g.t[2]!;
    out.radii[i] = Math.min(g.radius, MAX_RADIUS);
    for (let c = 0; c < 3; c++) out.colors[3 * i + c] = g.color[c]!;
    out.opacities[i] = g.opacity;
  }
}

/** Per-call work arrays of the backward chain (3×3 row-major unless said). */
class BackwardScratch {
  readonly vSigmaCam = new Float64Array(9);
  readonly vSigma = new Float64Array(9);
  readonly vM = new Float64Array(9);
  readonly vR = new Float64Array(9);
  readonly tmp = new Float64Array(9);
  /** v_J, row-major 2×3. */
  readonly vJ = new Float64Array(6);
  /** Gradient with respect to the mean (world). */
  readonly vMean = new Float64Array(3);
  /** Gradient with respect to the unnormalised SH direction μ − centre, before normalisation. */
  readonly vDir = new Float64Array(3);
  /** Σ_c g_c coeffs[j, c] per basis function. */
  readonly shWeight = new Float64Array(SH_MAX_COEFFS);
}

export function projectBackward(a: ProjectArgs, radii: Int32Array, ct: ProjectCotangents, grads: ProjectGrads): void {
  checkProjectArgs('projectBackward', a);
  checkProjectCotangents('projectBackward', a, radii, ct);
  checkProjectGrads('projectBackward', a, grads);
  for (const arr of [grads.means, grads.quats, grads.scales, grads.opacities, grads.coeffs]) arr.fill(0);
  const cam = cameraFrame(a.camera);
  const g = new GaussianProjection();
  const s = new BackwardScratch();
  for (let i = 0; i < a.n; i++) {
    if (radii[i] === 0 || !g.project(a, cam, i)) continue;
    g.shade(a, cam, i);
    backwardOne(a, cam, g, s, i, ct, grads);
  }
}

function backwardOne(a: ProjectArgs, cam: ReturnType<typeof cameraFrame>, g: GaussianProjection, s: BackwardScratch, i: number, ct: ProjectCotangents, grads: ProjectGrads): void {
  const { fx, fy, W } = cam;
  const tx = g.t[0]!, ty = g.t[1]!, tz = g.t[2]!;
  s.vMean.fill(0);

  // Opacity (step 4): opacity' = o·√max(0, det₀/det) when antialiased.
  const vOpacityOut = ct.opacities[i]!;
  let vDet0 = 0, vDet = 0;
  if (a.antialiased) {
    const root = Math.sqrt(Math.max(0, g.ratio));
    grads.opacities[i] = vOpacityOut * root;
    if (g.ratio > 0) {
      const vRatio = (vOpacityOut * g.opacityIn) / (2 * root);
      vDet0 = vRatio / g.det;
      vDet = (-vRatio * g.ratio) / g.det;
    }
  } else {
    grads.opacities[i] = vOpacityOut;
  }

  // Conic = (c, −b, a)/det with the blurred a, c; det = ac − b², det₀ = (a − blur)(c − blur) − b².
  const vk0 = ct.conics[3 * i]!, vk1 = ct.conics[3 * i + 1]!, vk2 = ct.conics[3 * i + 2]!;
  vDet -= (vk0 * g.conic[0]! + vk1 * g.conic[1]! + vk2 * g.conic[2]!) / g.det;
  const blurredA = g.a, blurredC = g.c;
  let va = vk2 / g.det + vDet * blurredC;
  let vc = vk0 / g.det + vDet * blurredA;
  let vb = -vk1 / g.det - 2 * g.b * vDet;
  va += vDet0 * (blurredC - COV2D_BLUR);
  vc += vDet0 * (blurredA - COV2D_BLUR);
  vb += -2 * g.b * vDet0;

  // Σ₂ = J Σc Jᵀ: with G = [[va, vb/2], [vb/2, vc]], v_Σc = Jᵀ G J and v_J = 2 G J Σc.
  const J = g.J, S = g.sigmaCam;
  const G00 = va, G01 = 0.5 * vb, G11 = vc;
  // GJ (2×3)
  const gj = [G00 * J[0]! + G01 * J[3]!, G00 * J[1]! + G01 * J[4]!, G00 * J[2]! + G01 * J[5]!, G01 * J[0]! + G11 * J[3]!, G01 * J[1]! + G11 * J[4]!, G01 * J[2]! + G11 * J[5]!];
  for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) s.vSigmaCam[3 * r + k] = J[r]! * gj[k]! + J[3 + r]! * gj[3 + k]!;
  for (let r = 0; r < 2; r++) for (let k = 0; k < 3; k++) s.vJ[3 * r + k] = 2 * (gj[3 * r]! * S[k]! + gj[3 * r + 1]! * S[3 + k]! + gj[3 * r + 2]! * S[6 + k]!);

  // Σc = W Σ Wᵀ → v_Σ = Wᵀ v_Σc W; Σ = M Mᵀ → v_M = (v_Σ + v_Σᵀ) M.
  mulAtB(W, s.vSigmaCam, s.tmp);
  mulAB(s.tmp, W, s.vSigma);
  for (let r = 0; r < 3; r++)
    for (let k = 0; k < 3; k++) {
      let acc = 0;
      for (let m = 0; m < 3; m++) acc += (s.vSigma[3 * r + m]! + s.vSigma[3 * m + r]!) * g.M[3 * m + k]!;
      s.vM[3 * r + k] = acc;
    }
  // M = R diag(s).
  for (let k = 0; k < 3; k++) {
    let vs = 0;
    for (let r = 0; r < 3; r++) {
      vs += s.vM[3 * r + k]! * g.R[3 * r + k]!;
      s.vR[3 * r + k] = s.vM[3 * r + k]! * g.s[k]!;
    }
    grads.scales[3 * i + k] = vs;
  }
  quatBackward(g, s.vR, grads.quats, 4 * i);

  // J's dependence on t (step 3), then means2d and depth (step 6).
  const vJ = s.vJ;
  const tz2 = tz * tz, tz3 = tz2 * tz;
  const vTxClamped = (-fx / tz2) * vJ[2]!;
  const vTyClamped = (-fy / tz2) * vJ[5]!;
  let vtx = 0, vty = 0;
  let vtz = (-fx / tz2) * vJ[0]! + (-fy / tz2) * vJ[4]! + ((2 * fx * g.txClamped) / tz3) * vJ[2]! + ((2 * fy * g.tyClamped) / tz3) * vJ[5]!;
  // t' = t (unclamped) or t' = t_z·limit (clamped: no gradient to t_x, d t'/d t_z = limit = t'/t_z).
  if (g.clampX) vtz += (vTxClamped * g.txClamped) / tz;
  else vtx += vTxClamped;
  if (g.clampY) vtz += (vTyClamped * g.tyClamped) / tz;
  else vty += vTyClamped;
  const vu = ct.means2d[2 * i]!, vv = ct.means2d[2 * i + 1]!;
  vtx += (vu * fx) / tz;
  vty += (vv * fy) / tz;
  vtz += (-vu * fx * tx) / tz2 - (vv * fy * ty) / tz2 + ct.depths[i]!;
  // t = W μ + w.
  for (let k = 0; k < 3; k++) s.vMean[k] = W[k]! * vtx + W[3 + k]! * vty + W[6 + k]! * vtz;

  colorBackward(a, g, s, i, ct, grads);
  for (let k = 0; k < 3; k++) grads.means[3 * i + k] = s.vMean[k]!;
}

/** v_R → v_q̂ (the partial derivatives of R(q̂) entry by entry) → v_q through q̂ = q/|q|. */
function quatBackward(g: GaussianProjection, vR: Float64Array, out: ProjectGrads['quats'], o: number): void {
  const [w, x, y, z] = g.q as unknown as [number, number, number, number];
  const v = vR;
  const vw = 2 * (-z * v[1]! + y * v[2]! + z * v[3]! - x * v[5]! - y * v[6]! + x * v[7]!);
  const vx = 2 * (y * v[1]! + z * v[2]! + y * v[3]! - 2 * x * v[4]! - w * v[5]! + z * v[6]! + w * v[7]! - 2 * x * v[8]!);
  const vy = 2 * (-2 * y * v[0]! + x * v[1]! + w * v[2]! + x * v[3]! + z * v[5]! - w * v[6]! + z * v[7]! - 2 * y * v[8]!);
  const vz = 2 * (-2 * z * v[0]! - w * v[1]! + x * v[2]! + w * v[3]! - 2 * z * v[4]! + y * v[5]! + x * v[6]! + y * v[7]!);
  const dot = w * vw + x * vx + y * vy + z * vz;
  out[o] = (vw - w * dot) / g.qNorm;
  out[o + 1] = (vx - x * dot) / g.qNorm;
  out[o + 2] = (vy - y * dot) / g.qNorm;
  out[o + 3] = (vz - z * dot) / g.qNorm;
}

/**
 * Colour backward (step 7): as-given colours pass the cotangent through; SH
 * colours give v_coeffs = basis·g_c and a gradient to the mean through the
 * view direction (normalisation included), g_c = 0 on a clamped channel.
 */
function colorBackward(a: ProjectArgs, g: GaussianProjection, s: BackwardScratch, i: number, ct: ProjectCotangents, grads: ProjectGrads): void {
  if (a.shDegree < 0) {
    for (let c = 0; c < 3; c++) grads.coeffs[3 * i + c] = ct.colors[3 * i + c]!;
    return;
  }
  const count = (a.shDegree + 1) * (a.shDegree + 1);
  const base = i * a.k * 3;
  const g0 = g.raw[0]! < 0 ? 0 : ct.colors[3 * i]!;
  const g1 = g.raw[1]! < 0 ? 0 : ct.colors[3 * i + 1]!;
  const g2 = g.raw[2]! < 0 ? 0 : ct.colors[3 * i + 2]!;
  for (let j = 0; j < count; j++) {
    const b = g.basis[j]!;
    grads.coeffs[base + 3 * j] = b * g0;
    grads.coeffs[base + 3 * j + 1] = b * g1;
    grads.coeffs[base + 3 * j + 2] = b * g2;
    s.shWeight[j] = g0 * a.coeffs[base + 3 * j]! + g1 * a.coeffs[base + 3 * j + 1]! + g2 * a.coeffs[base + 3 * j + 2]!;
  }
  const d = g.dir;
  s.vDir.fill(0);
  shBasisGradAdd(d[0]!, d[1]!, d[2]!, count, s.shWeight, s.vDir);
  // d = r/|r| → v_r = (v_d − d (d·v_d))/|r|; r = μ − centre.
  const dot = d[0]! * s.vDir[0]! + d[1]! * s.vDir[1]! + d[2]! * s.vDir[2]!;
  for (let k = 0; k < 3; k++) s.vMean[k] += (s.vDir[k]! - d[k]! * dot) / g.dirNorm;
}
