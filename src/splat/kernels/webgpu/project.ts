// 'splat.project' and 'splat.projectBackward' on webgpu: one invocation per
// Gaussian (every batch entry's Gaussians in one dispatch: the inputs are
// batch-major, so batch × N Gaussians are one flat list).
//
// Forward: projection.ts's project and shade, then the six outputs, all
// zero for a culled Gaussian (../contract.ts, "project").
//
// Backward: the chain rule of ../js/project.ts (backwardOne, quatBackward,
// colorBackward) after recomputing the forward, with every clamp, cull and
// threshold held at its forward value; zero gradients for a Gaussian whose
// forward radius is 0. projection.ts carries Σ₂ and det scaled by k² and k⁴
// (k = max(1, max |scale|)); the backward stays in those units (G̃ = k²·∂L/∂Σ₂,
// ṽM = k·∂L/∂M) so a huge-scale Gaussian's gradients do not overflow. The
// five cotangents are first packed into one buffer: the backward shader
// would otherwise bind 17 storage buffers (the GL path allows 16).

import type { GpuOpArgs } from '../../../backends/webgpu/registered.js';
import type { Attrs } from '../../../compiler/ir.js';
import { cameraOf } from '../../ops/project.js';
import { SH_C1, SH_C2, SH_C3 } from '../../constants.js';
import { ENTRY, launch, lit, Params, scratch, WG } from './common.js';
import { GAUSSIAN_BINDINGS, PROJECTION_WGSL, projectParams } from './projection.js';

const FORWARD = /* wgsl */ `
${GAUSSIAN_BINDINGS}
@group(0) @binding(5) var<storage, read_write> oMeans2d: array<f32>;
@group(0) @binding(6) var<storage, read_write> oConics: array<f32>;
@group(0) @binding(7) var<storage, read_write> oDepths: array<f32>;
@group(0) @binding(8) var<storage, read_write> oRadii: array<i32>;
@group(0) @binding(9) var<storage, read_write> oColors: array<f32>;
@group(0) @binding(10) var<storage, read_write> oOpac: array<f32>;
@group(0) @binding(11) var<storage, read> P: array<u32>;
${PROJECTION_WGSL}
${ENTRY}
  let i = wgi * ${WG}u + li;
  if (i >= P[0]) { return; }
  if (!project(i)) {
    oMeans2d[2u * i] = 0.0; oMeans2d[2u * i + 1u] = 0.0;
    for (var c = 0u; c < 3u; c++) { oConics[3u * i + c] = 0.0; oColors[3u * i + c] = 0.0; }
    oDepths[i] = 0.0; oRadii[i] = 0; oOpac[i] = 0.0;
    return;
  }
  shade(i);
  oMeans2d[2u * i] = u; oMeans2d[2u * i + 1u] = v;
  for (var c = 0u; c < 3u; c++) { oConics[3u * i + c] = conic[c]; oColors[3u * i + c] = col[c]; }
  oDepths[i] = t[2];
  oRadii[i] = select(i32(radius), 2147483647, radius >= 2147483648.0);
  oOpac[i] = opOut;
}`;

/** The project ops' attrs as the kernels use them. */
export function projectAttrs(attrs: Attrs) {
  return { camera: cameraOf(attrs['camera'] as number[]), shDegree: attrs['shDegree'] as number, antialiased: attrs['antialiased'] as boolean };
}

/** Runs 'splat.project' for float32: inputs means, quats, scales, opacities, coeffs; outputs means2d, conics, depths, radii, colors, opacities. */
export function projectForwardGpu(a: GpuOpArgs): void {
  const n = a.batch * a.inShapes[0]![0]!;
  const k = a.inShapes[4]![1]!;
  const { camera, shDegree, antialiased } = projectAttrs(a.attrs);
  launch(a, FORWARD, [...a.ins.slice(0, 5), ...a.outs], projectParams(n, k, shDegree, antialiased, camera), Math.ceil(n / WG));
}

/** Floats of a Gaussian's packed cotangents: means2d 2, conics 3, depth, colour 3, opacity. */
const CT = 10;

// P: [n]. The five cotangents of Gaussian i into ct[CT·i ..].
const PACK_CT = /* wgsl */ `
@group(0) @binding(0) var<storage, read> vMeans2d: array<f32>;
@group(0) @binding(1) var<storage, read> vConics: array<f32>;
@group(0) @binding(2) var<storage, read> vDepths: array<f32>;
@group(0) @binding(3) var<storage, read> vColors: array<f32>;
@group(0) @binding(4) var<storage, read> vOpac: array<f32>;
@group(0) @binding(5) var<storage, read_write> ct: array<f32>;
@group(0) @binding(6) var<storage, read> P: array<u32>;
${ENTRY}
  let i = wgi * ${WG}u + li;
  if (i >= P[0]) { return; }
  let o = ${CT}u * i;
  ct[o] = vMeans2d[2u * i]; ct[o + 1u] = vMeans2d[2u * i + 1u];
  for (var c = 0u; c < 3u; c++) { ct[o + 2u + c] = vConics[3u * i + c]; ct[o + 6u + c] = vColors[3u * i + c]; }
  ct[o + 5u] = vDepths[i];
  ct[o + 9u] = vOpac[i];
}`;

const BACKWARD = /* wgsl */ `
${GAUSSIAN_BINDINGS}
@group(0) @binding(5) var<storage, read> radii: array<i32>;
@group(0) @binding(6) var<storage, read> ct: array<f32>;
@group(0) @binding(7) var<storage, read_write> gMeans: array<f32>;
@group(0) @binding(8) var<storage, read_write> gQuats: array<f32>;
@group(0) @binding(9) var<storage, read_write> gScales: array<f32>;
@group(0) @binding(10) var<storage, read_write> gOpac: array<f32>;
@group(0) @binding(11) var<storage, read_write> gCoeffs: array<f32>;
@group(0) @binding(12) var<storage, read> P: array<u32>;
${PROJECTION_WGSL}

// Σ_j w_j ∇basis_j(x, y, z), j < count (js/sh.ts shBasisGradAdd).
fn shBasisGrad(x: f32, y: f32, z: f32, count: u32, w: ptr<function, array<f32, 16>>) -> vec3f {
  if (count <= 1u) { return vec3f(0.0); }
  var gx = -${lit(SH_C1)} * (*w)[3];
  var gy = -${lit(SH_C1)} * (*w)[1];
  var gz = ${lit(SH_C1)} * (*w)[2];
  if (count > 4u) {
    let c4 = ${lit(SH_C2[0])} * (*w)[4]; let c5 = ${lit(SH_C2[1])} * (*w)[5]; let c6 = ${lit(SH_C2[2])} * (*w)[6];
    let c7 = ${lit(SH_C2[3])} * (*w)[7]; let c8 = ${lit(SH_C2[4])} * (*w)[8];
    gx += c4 * y - 2.0 * x * c6 + c7 * z + 2.0 * x * c8;
    gy += c4 * x + c5 * z - 2.0 * y * c6 - 2.0 * y * c8;
    gz += c5 * y + 4.0 * z * c6 + c7 * x;
  }
  if (count > 9u) {
    let xx = x * x; let yy = y * y; let zz = z * z;
    let c9 = ${lit(SH_C3[0])} * (*w)[9]; let c10 = ${lit(SH_C3[1])} * (*w)[10]; let c11 = ${lit(SH_C3[2])} * (*w)[11];
    let c12 = ${lit(SH_C3[3])} * (*w)[12]; let c13 = ${lit(SH_C3[4])} * (*w)[13]; let c14 = ${lit(SH_C3[5])} * (*w)[14];
    let c15 = ${lit(SH_C3[6])} * (*w)[15];
    gx += c9 * 6.0 * x * y + c10 * y * z - c11 * 2.0 * x * y - c12 * 6.0 * x * z + c13 * (4.0 * zz - 3.0 * xx - yy) + c14 * 2.0 * x * z + c15 * 3.0 * (xx - yy);
    gy += c9 * 3.0 * (xx - yy) + c10 * x * z + c11 * (4.0 * zz - xx - 3.0 * yy) - c12 * 6.0 * y * z - c13 * 2.0 * x * y - c14 * 2.0 * y * z - c15 * 6.0 * x * y;
    gz += c10 * x * y + c11 * 8.0 * y * z + c12 * (6.0 * zz - 3.0 * xx - 3.0 * yy) + c13 * 8.0 * x * z + c14 * (xx - yy);
  }
  return vec3f(gx, gy, gz);
}

${ENTRY}
  let i = wgi * ${WG}u + li;
  if (i >= P[0]) { return; }
  let kc = 3u * P[1];
  for (var c = 0u; c < 3u; c++) { gMeans[3u * i + c] = 0.0; gScales[3u * i + c] = 0.0; }
  for (var c = 0u; c < 4u; c++) { gQuats[4u * i + c] = 0.0; }
  for (var c = 0u; c < kc; c++) { gCoeffs[kc * i + c] = 0.0; }
  gOpac[i] = 0.0;
  if (radii[i] <= 0 || !project(i)) { return; } // culled in the forward: zero gradients
  shade(i);
  let o = ${CT}u * i;
  let fx = cam(15u); let fy = cam(16u);
  let tx = t[0]; let ty = t[1]; let tz = t[2];

  // Opacity (step 4): X = (v_conic · conic′)/det′, Y = v_ratio/det′ (both scale-free).
  let vOpOut = ct[o + 9u];
  var Y = 0.0;
  if (P[3] != 0u) {
    let root = sqrt(max(0.0, ratio));
    gOpac[i] = vOpOut * root;
    if (ratio > 0.0) { Y = (vOpOut * opIn) / (2.0 * root) / det; }
  } else {
    gOpac[i] = vOpOut;
  }
  let vk0 = ct[o + 2u]; let vk1 = ct[o + 3u]; let vk2 = ct[o + 4u];
  let X = (vk0 * C - vk1 * B + vk2 * A) / det / det;
  // G̃ = k²·∂L/∂Σ₂ (the blur is a constant shift: ∂a₀ = ∂a, ∂c₀ = ∂c).
  let va = e2 * (vk2 / det - X * C) + Y * (C0 - ratio * C);
  let vc = e2 * (vk0 / det - X * A) + Y * (A0 - ratio * A);
  let vb = -e2 * vk1 / det + 2.0 * B * (e2 * X + Y * (ratio - 1.0));
  let G00 = va; let G01 = 0.5 * vb; let G11 = vc;
  let Jm = array<f32, 6>(J0, 0.0, J2, 0.0, J4, J5);
  var gj: array<f32, 6>;
  for (var c = 0u; c < 3u; c++) { gj[c] = G00 * Jm[c] + G01 * Jm[3u + c]; gj[3u + c] = G01 * Jm[c] + G11 * Jm[3u + c]; }
  // Σc′ = (W M′)(W M′)ᵀ; ṽΣc = Jᵀ G̃ J; v_J = 2 G̃ J Σc′ (true units).
  var Sc: array<f32, 9>;
  for (var r = 0u; r < 3u; r++) { for (var c = 0u; c < 3u; c++) { Sc[3u * r + c] = WM[3u * r] * WM[3u * c] + WM[3u * r + 1u] * WM[3u * c + 1u] + WM[3u * r + 2u] * WM[3u * c + 2u]; } }
  var vSc: array<f32, 9>;
  for (var r = 0u; r < 3u; r++) { for (var c = 0u; c < 3u; c++) { vSc[3u * r + c] = Jm[r] * gj[c] + Jm[3u + r] * gj[3u + c]; } }
  var vJ: array<f32, 6>;
  for (var r = 0u; r < 2u; r++) { for (var c = 0u; c < 3u; c++) { vJ[3u * r + c] = 2.0 * (gj[3u * r] * Sc[c] + gj[3u * r + 1u] * Sc[3u + c] + gj[3u * r + 2u] * Sc[6u + c]); } }
  // ṽΣ = Wᵀ ṽΣc W; ṽM = (ṽΣ + ṽΣᵀ) M′; v_s = Σ_r ṽM R / k; v_R = ṽM diag(s/k).
  var tmp: array<f32, 9>;
  for (var r = 0u; r < 3u; r++) { for (var c = 0u; c < 3u; c++) { tmp[3u * r + c] = Wr(0u, r) * vSc[c] + Wr(1u, r) * vSc[3u + c] + Wr(2u, r) * vSc[6u + c]; } }
  var vS: array<f32, 9>;
  for (var r = 0u; r < 3u; r++) { for (var c = 0u; c < 3u; c++) { vS[3u * r + c] = tmp[3u * r] * Wr(0u, c) + tmp[3u * r + 1u] * Wr(1u, c) + tmp[3u * r + 2u] * Wr(2u, c); } }
  var vR: array<f32, 9>;
  for (var c = 0u; c < 3u; c++) {
    var vs = 0.0;
    for (var r = 0u; r < 3u; r++) {
      var m = 0.0;
      for (var j = 0u; j < 3u; j++) { m += (vS[3u * r + j] + vS[3u * j + r]) * Mp[3u * j + c]; }
      vs += m * R[3u * r + c];
      vR[3u * r + c] = m * sk[c];
    }
    gScales[3u * i + c] = vs / kScale;
  }
  // Quaternion: ∂R/∂q̂ entry by entry, then q̂ = q/|q|.
  let w = q[0]; let x = q[1]; let y = q[2]; let z = q[3];
  let qw = 2.0 * (-z * vR[1] + y * vR[2] + z * vR[3] - x * vR[5] - y * vR[6] + x * vR[7]);
  let qx = 2.0 * (y * vR[1] + z * vR[2] + y * vR[3] - 2.0 * x * vR[4] - w * vR[5] + z * vR[6] + w * vR[7] - 2.0 * x * vR[8]);
  let qy = 2.0 * (-2.0 * y * vR[0] + x * vR[1] + w * vR[2] + x * vR[3] + z * vR[5] - w * vR[6] + z * vR[7] - 2.0 * y * vR[8]);
  let qz = 2.0 * (-2.0 * z * vR[0] - w * vR[1] + x * vR[2] + w * vR[3] - 2.0 * z * vR[4] + y * vR[5] + x * vR[6] + y * vR[7]);
  let qd = w * qw + x * qx + y * qy + z * qz;
  gQuats[4u * i] = (qw - w * qd) / qNorm;
  gQuats[4u * i + 1u] = (qx - x * qd) / qNorm;
  gQuats[4u * i + 2u] = (qy - y * qd) / qNorm;
  gQuats[4u * i + 3u] = (qz - z * qd) / qNorm;

  // J's dependence on t (step 3; a clamped t′ = t_z·L passes L to t_z only), then means2d and depth (step 6).
  let tz2 = tz * tz; let tz3 = tz2 * tz;
  let vTxC = (-fx / tz2) * vJ[2];
  let vTyC = (-fy / tz2) * vJ[5];
  var vtx = 0.0; var vty = 0.0;
  var vtz = (-fx / tz2) * vJ[0] + (-fy / tz2) * vJ[4] + ((2.0 * fx * txc) / tz3) * vJ[2] + ((2.0 * fy * tyc) / tz3) * vJ[5];
  if (clampX) { vtz += (vTxC * txc) / tz; } else { vtx += vTxC; }
  if (clampY) { vtz += (vTyC * tyc) / tz; } else { vty += vTyC; }
  let vu = ct[o]; let vv = ct[o + 1u];
  vtx += (vu * fx) / tz;
  vty += (vv * fy) / tz;
  vtz += (-vu * fx * tx) / tz2 - (vv * fy * ty) / tz2 + ct[o + 5u];
  var vMean = vec3f(0.0);
  for (var c = 0u; c < 3u; c++) { vMean[c] = Wr(0u, c) * vtx + Wr(1u, c) * vty + Wr(2u, c) * vtz; }

  // Colour (step 7): as given, or SH with the view direction's gradient (zero on a clamped channel).
  if (shDegree() < 0) {
    for (var c = 0u; c < 3u; c++) { gCoeffs[3u * i + c] = ct[o + 6u + c]; }
  } else {
    let count = shCount();
    let base = i * kc;
    var g: array<f32, 3>;
    for (var c = 0u; c < 3u; c++) { g[c] = select(ct[o + 6u + c], 0.0, raw[c] < 0.0); }
    var sw: array<f32, 16>;
    for (var j = 0u; j < count; j++) {
      var acc = 0.0;
      for (var c = 0u; c < 3u; c++) {
        gCoeffs[base + 3u * j + c] = basis[j] * g[c];
        acc += g[c] * coeffs[base + 3u * j + c];
      }
      sw[j] = acc;
    }
    let vDir = shBasisGrad(dir[0], dir[1], dir[2], count, &sw);
    let d = vec3f(dir[0], dir[1], dir[2]);
    vMean += (vDir - d * dot(d, vDir)) / dirNorm;
  }
  for (var c = 0u; c < 3u; c++) { gMeans[3u * i + c] = vMean[c]; }
}`;

/**
 * Runs 'splat.projectBackward' for float32: inputs means, quats, scales,
 * opacities, coeffs, radii, then the cotangents of means2d, conics, depths,
 * colors, opacities; outputs the gradients of the five Gaussian inputs.
 */
export function projectBackwardGpu(a: GpuOpArgs): void {
  const n = a.batch * a.inShapes[0]![0]!;
  if (n === 0) return;
  const k = a.inShapes[4]![1]!;
  const { camera, shDegree, antialiased } = projectAttrs(a.attrs);
  const ct = scratch(a, 4 * CT * n);
  launch(a, PACK_CT, [...a.ins.slice(6, 11), ct], new Params().u32(n), Math.ceil(n / WG));
  launch(a, BACKWARD, [...a.ins.slice(0, 6), ct, ...a.outs], projectParams(n, k, shDegree, antialiased, camera), Math.ceil(n / WG));
}
