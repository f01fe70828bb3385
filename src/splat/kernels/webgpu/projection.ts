// The forward projection of ONE Gaussian in WGSL (steps 1–8 of project in
// ../contract.ts), shared by the forward and backward project kernels: the
// twin of ../js/projection.ts, in f32 (float32 storage only: WGSL has no
// f64), keeping the intermediates the backward needs in private variables.
//
// Where f32 would lose what the js reference computes in double, the
// arithmetic is rearranged, not approximated:
// * Σ₂ = J W Σ Wᵀ Jᵀ is formed as T Tᵀ with T = J W M (2×3), and
//   det₀ = a₀c₀ − b² as the sum of T's squared 2×2 minors (Cauchy–Binet), so
//   a thin splat's determinant does not cancel; mid² − det as
//   ((a − c)/2)² + b².
// * Scales above 1 are divided by k = max(1, max |s|) (M′ = M/k): Σ₂ and det
//   are carried as Σ₂/k² and det/k⁴ and the conic, radius and blur are
//   formed from those, so a splat with scales near 1e20 (whose Σ is finite
//   in double and not in float) still projects as in the reference.
// * The quaternion's norm and the SH view direction's are taken after
//   dividing by the largest component (no overflow of the squares).
// * Finiteness is tested on the bits (WGSL has no isNan, and a shader
//   compiler may assume there are no NaNs in comparisons).
//
// What is left is f32 rounding (relative ~1e-7 per operation): a radius
// whose 3√λ lies within that of an integer, or a cull test on its edge, can
// differ from the reference.

import { COV2D_BLUR, EIGEN_FLOOR, RADIUS_SIGMAS, SH_C0, SH_C1, SH_C2, SH_C3, SH_OFFSET } from '../../constants.js';
import type { SplatCamera } from '../contract.js';
import { cameraFrame } from '../js/camera.js';
import { lit, Params, WGSL_FINITE } from './common.js';

/** Where the camera starts in P (after n, k, shDegree, antialiased). */
export const CAM_AT = 4;

/** P of the project kernels: [n, k, shDegree, antialiased, camera (27 floats)]. */
export function projectParams(n: number, k: number, shDegree: number, antialiased: boolean, camera: SplatCamera): Params {
  const c = cameraFrame(camera);
  return new Params()
    .u32(n, k)
    .i32(shDegree)
    .u32(antialiased ? 1 : 0)
    .f32(...c.W, ...c.w, ...c.centre, c.fx, c.fy, c.cx, c.cy, c.width, c.height, c.near, c.far, c.limXPos, c.limXNeg, c.limYPos, c.limYNeg);
}

/** Bindings every project kernel declares first: the five Gaussian inputs. */
export const GAUSSIAN_BINDINGS = /* wgsl */ `
@group(0) @binding(0) var<storage, read> means: array<f32>;
@group(0) @binding(1) var<storage, read> quats: array<f32>;
@group(0) @binding(2) var<storage, read> scales: array<f32>;
@group(0) @binding(3) var<storage, read> opac: array<f32>;
@group(0) @binding(4) var<storage, read> coeffs: array<f32>;
`;

/** project(i) → visible?, then shade(i); reads means, quats, scales, opac, coeffs and P. */
export const PROJECTION_WGSL = /* wgsl */ `
${WGSL_FINITE}
const BLUR = ${lit(COV2D_BLUR)};
const EIGEN_FLOOR = ${lit(EIGEN_FLOOR)};
const RADIUS_SIGMAS = ${lit(RADIUS_SIGMAS)};
const SH_OFFSET = ${lit(SH_OFFSET)};
const FLT_MAX = 3.4028234663852886e38;

// The camera: W (row-major) at 0, w at 9, centre at 12, fx fy cx cy at 15, width height near far at 19, limits at 23.
fn cam(k: u32) -> f32 { return pf(${CAM_AT}u + k); }
fn Wr(r: u32, c: u32) -> f32 { return cam(3u * r + c); }

// Normalised quaternion and its norm; R(q); scales over k (sk), k, 1/k²; M′ = R diag(sk); WM = W M′.
var<private> q: array<f32, 4>;
var<private> qNorm: f32;
var<private> R: array<f32, 9>;
var<private> sk: array<f32, 3>;
var<private> kScale: f32;
var<private> e2: f32;
var<private> Mp: array<f32, 9>;
var<private> WM: array<f32, 9>;
// Camera-space mean, clamped t′x, t′y, whether clamped; J = [[J0, 0, J2], [0, J4, J5]].
var<private> t: array<f32, 3>;
var<private> txc: f32;
var<private> tyc: f32;
var<private> clampX: bool;
var<private> clampY: bool;
var<private> J0: f32;
var<private> J2: f32;
var<private> J4: f32;
var<private> J5: f32;
// Σ₂/k² before (A0, C0) and after (A, C) the blur, its off-diagonal B; det₀/k⁴, det/k⁴.
var<private> A0: f32;
var<private> C0: f32;
var<private> A: f32;
var<private> B: f32;
var<private> C: f32;
var<private> det0: f32;
var<private> det: f32;
var<private> conic: array<f32, 3>;
var<private> opIn: f32;
var<private> opOut: f32;
var<private> ratio: f32;
var<private> radius: f32;
var<private> u: f32;
var<private> v: f32;
// SH: unit direction, |μ − centre|, basis, unclamped and clamped colour.
var<private> dir: array<f32, 3>;
var<private> dirNorm: f32;
var<private> basis: array<f32, 16>;
var<private> raw: array<f32, 3>;
var<private> col: array<f32, 3>;

fn project(i: u32) -> bool {
  for (var j = 0u; j < 3u; j++) { if (!finite(means[3u * i + j]) || !finite(scales[3u * i + j])) { return false; } }
  for (var j = 0u; j < 4u; j++) { if (!finite(quats[4u * i + j])) { return false; } }
  if (!finite(opac[i])) { return false; }

  // 1. Normalised quaternion, R(q), M′ = R diag(s/k).
  let q0 = quats[4u * i]; let q1 = quats[4u * i + 1u]; let q2 = quats[4u * i + 2u]; let q3 = quats[4u * i + 3u];
  let qm = max(max(abs(q0), abs(q1)), max(abs(q2), abs(q3)));
  if (!(qm > 0.0)) { return false; }
  let r0 = q0 / qm; let r1 = q1 / qm; let r2 = q2 / qm; let r3 = q3 / qm;
  let rn = sqrt(r0 * r0 + r1 * r1 + r2 * r2 + r3 * r3);
  qNorm = qm * rn;
  if (!finite(qNorm)) { return false; }
  let w = r0 / rn; let x = r1 / rn; let y = r2 / rn; let z = r3 / rn;
  q = array<f32, 4>(w, x, y, z);
  R = array<f32, 9>(
    1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - w * z), 2.0 * (x * z + w * y),
    2.0 * (x * y + w * z), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - w * x),
    2.0 * (x * z - w * y), 2.0 * (y * z + w * x), 1.0 - 2.0 * (x * x + y * y));
  let s0 = scales[3u * i]; let s1 = scales[3u * i + 1u]; let s2 = scales[3u * i + 2u];
  kScale = max(1.0, max(abs(s0), max(abs(s1), abs(s2))));
  e2 = (1.0 / kScale) / kScale;
  sk = array<f32, 3>(s0 / kScale, s1 / kScale, s2 / kScale);
  for (var r = 0u; r < 3u; r++) { for (var c = 0u; c < 3u; c++) { Mp[3u * r + c] = R[3u * r + c] * sk[c]; } }

  // 2. Camera-space mean; near/far cull.
  for (var r = 0u; r < 3u; r++) {
    t[r] = Wr(r, 0u) * means[3u * i] + Wr(r, 1u) * means[3u * i + 1u] + Wr(r, 2u) * means[3u * i + 2u] + cam(9u + r);
  }
  let tz = t[2];
  if (!finite(tz) || !(tz > cam(21u) && tz < cam(22u))) { return false; }

  // 3. Clamped Jacobian; T = J W M′, Σ₂/k² = T Tᵀ.
  let fx = cam(15u); let fy = cam(16u);
  let rx = t[0] / tz; let ry = t[1] / tz;
  clampX = rx < -cam(24u) || rx > cam(23u);
  clampY = ry < -cam(26u) || ry > cam(25u);
  txc = tz * min(cam(23u), max(-cam(24u), rx));
  tyc = tz * min(cam(25u), max(-cam(26u), ry));
  J0 = fx / tz; J2 = -fx * txc / (tz * tz);
  J4 = fy / tz; J5 = -fy * tyc / (tz * tz);
  for (var r = 0u; r < 3u; r++) {
    for (var c = 0u; c < 3u; c++) { WM[3u * r + c] = Wr(r, 0u) * Mp[c] + Wr(r, 1u) * Mp[3u + c] + Wr(r, 2u) * Mp[6u + c]; }
  }
  var T0: array<f32, 3>; var T1: array<f32, 3>;
  for (var c = 0u; c < 3u; c++) { T0[c] = J0 * WM[c] + J2 * WM[6u + c]; T1[c] = J4 * WM[3u + c] + J5 * WM[6u + c]; }
  A0 = T0[0] * T0[0] + T0[1] * T0[1] + T0[2] * T0[2];
  C0 = T1[0] * T1[0] + T1[1] * T1[1] + T1[2] * T1[2];
  B = T0[0] * T1[0] + T0[1] * T1[1] + T0[2] * T1[2];
  let m0 = T0[1] * T1[2] - T0[2] * T1[1]; let m1 = T0[2] * T1[0] - T0[0] * T1[2]; let m2 = T0[0] * T1[1] - T0[1] * T1[0];
  det0 = m0 * m0 + m1 * m1 + m2 * m2;

  // 4. Blur, conic, antialiasing compensation.
  let blur = BLUR * e2;
  A = A0 + blur; C = C0 + blur;
  det = det0 + blur * (A0 + C0) + blur * blur;
  if (!(det > 0.0) || !finite(det)) { return false; }
  conic = array<f32, 3>(C / det * e2, -B / det * e2, A / det * e2);
  opIn = opac[i];
  ratio = det0 / det;
  opOut = opIn;
  if (P[3] != 0u) { opOut = opIn * sqrt(max(0.0, ratio)); }

  // 5. Radius from the larger eigenvalue.
  let mid = 0.5 * (A + C); let h = 0.5 * (A - C);
  let lam = mid + sqrt(max(EIGEN_FLOOR * e2 * e2, h * h + B * B));
  if (!finite(lam)) { return false; }
  radius = ceil(RADIUS_SIGMAS * kScale * sqrt(lam));
  if (!finite(radius)) { radius = FLT_MAX; } // finite in double: stored as the int32 maximum

  // 6. Image point (unclamped t), box cull.
  u = fx * t[0] / tz + cam(17u);
  v = fy * t[1] / tz + cam(18u);
  if (u + radius <= 0.0 || u - radius >= cam(19u) || v + radius <= 0.0 || v - radius >= cam(20u)) { return false; }
  return true;
}

fn shBasis(x: f32, y: f32, z: f32, count: u32) {
  basis[0] = ${lit(SH_C0)};
  if (count <= 1u) { return; }
  basis[1] = -${lit(SH_C1)} * y;
  basis[2] = ${lit(SH_C1)} * z;
  basis[3] = -${lit(SH_C1)} * x;
  if (count <= 4u) { return; }
  let xx = x * x; let yy = y * y; let zz = z * z;
  basis[4] = ${lit(SH_C2[0])} * x * y;
  basis[5] = ${lit(SH_C2[1])} * y * z;
  basis[6] = ${lit(SH_C2[2])} * (2.0 * zz - xx - yy);
  basis[7] = ${lit(SH_C2[3])} * x * z;
  basis[8] = ${lit(SH_C2[4])} * (xx - yy);
  if (count <= 9u) { return; }
  basis[9] = ${lit(SH_C3[0])} * y * (3.0 * xx - yy);
  basis[10] = ${lit(SH_C3[1])} * x * y * z;
  basis[11] = ${lit(SH_C3[2])} * y * (4.0 * zz - xx - yy);
  basis[12] = ${lit(SH_C3[3])} * z * (2.0 * zz - 3.0 * xx - 3.0 * yy);
  basis[13] = ${lit(SH_C3[4])} * x * (4.0 * zz - xx - yy);
  basis[14] = ${lit(SH_C3[5])} * z * (xx - yy);
  basis[15] = ${lit(SH_C3[6])} * x * (xx - 3.0 * yy);
}

fn shDegree() -> i32 { return bitcast<i32>(P[2]); }
fn shCount() -> u32 { let d = u32(shDegree() + 1); return d * d; }

// Step 7 for a visible Gaussian i: col (and dir, dirNorm, basis, raw for SH).
fn shade(i: u32) {
  if (shDegree() < 0) {
    for (var c = 0u; c < 3u; c++) { col[c] = coeffs[3u * i + c]; raw[c] = col[c]; }
    return;
  }
  var d: array<f32, 3>;
  var m = 0.0;
  for (var k = 0u; k < 3u; k++) { d[k] = means[3u * i + k] - cam(12u + k); m = max(m, abs(d[k])); }
  let rn = sqrt((d[0] / m) * (d[0] / m) + (d[1] / m) * (d[1] / m) + (d[2] / m) * (d[2] / m));
  dirNorm = m * rn;
  for (var k = 0u; k < 3u; k++) { dir[k] = (d[k] / m) / rn; }
  let count = shCount();
  shBasis(dir[0], dir[1], dir[2], count);
  let base = i * P[1] * 3u;
  for (var c = 0u; c < 3u; c++) {
    var s = SH_OFFSET;
    for (var j = 0u; j < count; j++) { s = s + basis[j] * coeffs[base + 3u * j + c]; }
    raw[c] = s;
    col[c] = select(select(s, 0.0, s < 0.0), s, isnan(s)); // a NaN channel stays NaN (llvmpipe turned the bare select into a max)
  }
}
`;
