// The forward projection of ONE Gaussian (steps 1–8 of project in
// ../contract.ts), keeping every intermediate so projectBackward can
// recompute it and run the chain rule back through the same numbers.
// One object is reused for all Gaussians of a call (no per-Gaussian
// allocation); all arithmetic is float64 whatever the storage dtype.

import { COV2D_BLUR, EIGEN_FLOOR, RADIUS_SIGMAS } from '../../constants.js';
import type { FloatArray, ProjectArgs } from '../contract.js';
import type { CameraFrame } from './camera.js';
import { SH_MAX_COEFFS, shBasis, shColor } from './sh.js';

/** radii are Int32: a larger (finite) radius is stored as this (see the report on the contract). */
export const MAX_RADIUS = 2147483647;

const isFinite4 = (x: FloatArray, o: number, k: number): boolean => {
  for (let j = 0; j < k; j++) if (!Number.isFinite(x[o + j]!)) return false;
  return true;
};

export class GaussianProjection {
  /** Normalised quaternion (w, x, y, z) and the norm of the given one. */
  readonly q = new Float64Array(4);
  qNorm = 0;
  /** R(q), M = R·diag(s), Σ = M Mᵀ (world), Σc = W Σ Wᵀ (camera); row-major 3×3. */
  readonly R = new Float64Array(9);
  readonly s = new Float64Array(3);
  readonly M = new Float64Array(9);
  readonly sigma = new Float64Array(9);
  readonly sigmaCam = new Float64Array(9);
  /** Camera-space mean and the clamped t'_x, t'_y of the Jacobian. */
  readonly t = new Float64Array(3);
  txClamped = 0;
  tyClamped = 0;
  /** Whether t_x/t_z (t_y/t_z) was clamped. */
  clampX = false;
  clampY = false;
  /** J, row-major 2×3. */
  readonly J = new Float64Array(6);
  /** Σ₂ = [[a, b], [b, c]] after the blur; det₀ before it, det after. */
  a = 0;
  b = 0;
  c = 0;
  det0 = 0;
  det = 0;
  readonly conic = new Float64Array(3);
  /** The opacity as given, and after the antialiasing compensation. */
  opacityIn = 0;
  opacity = 0;
  /** det₀/det (antialiased mode). */
  ratio = 0;
  /** ⌈RADIUS_SIGMAS·√λ⌉ before it is stored as Int32. */
  radius = 0;
  u = 0;
  v = 0;
  /** SH: unit view direction, |μ − centre|, basis values, unclamped and clamped colour. */
  readonly dir = new Float64Array(3);
  dirNorm = 0;
  readonly basis = new Float64Array(SH_MAX_COEFFS);
  readonly raw = new Float64Array(3);
  readonly color = new Float64Array(3);

  /** Steps 1–6 and 8 for Gaussian i: false when it is culled (nothing after the cull is meaningful). */
  project(args: ProjectArgs, cam: CameraFrame, i: number): boolean {
    const { means, quats, scales, opacities } = args;
    if (!isFinite4(means, 3 * i, 3) || !isFinite4(quats, 4 * i, 4) || !isFinite4(scales, 3 * i, 3) || !Number.isFinite(opacities[i]!)) return false;

    // 1. Σ = R S Sᵀ Rᵀ from the normalised quaternion.
    const q0 = quats[4 * i]!, q1 = quats[4 * i + 1]!, q2 = quats[4 * i + 2]!, q3 = quats[4 * i + 3]!;
    const qn = Math.sqrt(q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
    if (!(qn > 0) || !Number.isFinite(qn)) return false;
    this.qNorm = qn;
    const w = q0 / qn, x = q1 / qn, y = q2 / qn, z = q3 / qn;
    this.q[0] = w; this.q[1] = x; this.q[2] = y; this.q[3] = z;
    const R = this.R;
    R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z); R[2] = 2 * (x * z + w * y);
    R[3] = 2 * (x * y + w * z); R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
    R[6] = 2 * (x * z - w * y); R[7] = 2 * (y * z + w * x); R[8] = 1 - 2 * (x * x + y * y);
    for (let k = 0; k < 3; k++) this.s[k] = scales[3 * i + k]!;
    for (let r = 0; r < 3; r++) for (let k = 0; k < 3; k++) this.M[3 * r + k] = R[3 * r + k]! * this.s[k]!;
    mulABt(this.M, this.M, this.sigma);

    // 2. Camera-space mean; near/far cull (a NaN depth fails the test too).
    const W = cam.W, t = this.t;
    for (let r = 0; r < 3; r++) t[r] = W[3 * r]! * means[3 * i]! + W[3 * r + 1]! * means[3 * i + 1]! + W[3 * r + 2]! * means[3 * i + 2]! + cam.w[r]!;
    const tz = t[2]!;
    if (!(tz > cam.near && tz < cam.far)) return false;

    // 3. Clamped Jacobian and Σ₂ = J W Σ Wᵀ Jᵀ.
    const rx = t[0]! / tz, ry = t[1]! / tz;
    this.clampX = rx < -cam.limXNeg || rx > cam.limXPos;
    this.clampY = ry < -cam.limYNeg || ry > cam.limYPos;
    this.txClamped = tz * Math.min(cam.limXPos, Math.max(-cam.limXNeg, rx));
    this.tyClamped = tz * Math.min(cam.limYPos, Math.max(-cam.limYNeg, ry));
    const J = this.J;
    J[0] = cam.fx / tz; J[1] = 0; J[2] = (-cam.fx * this.txClamped) / (tz * tz);
    J[3] = 0; J[4] = cam.fy / tz; J[5] = (-cam.fy * this.tyClamped) / (tz * tz);
    const tmp = scratch9;
    mulAB(W, this.sigma, tmp);
    mulABt(tmp, W, this.sigmaCam);
    const S = this.sigmaCam;
    // Σ₂ = J Σc Jᵀ, only the three distinct entries.
    const j0 = J[0]!, j2 = J[2]!, j4 = J[4]!, j5 = J[5]!;
    const a0 = j0 * j0 * S[0]! + 2 * j0 * j2 * S[2]! + j2 * j2 * S[8]!;
    const b = j0 * j4 * S[1]! + j0 * j5 * S[2]! + j2 * j4 * S[7]! + j2 * j5 * S[8]!;
    const c0 = j4 * j4 * S[4]! + 2 * j4 * j5 * S[5]! + j5 * j5 * S[8]!;

    // 4. Blur, conic, antialiasing compensation.
    this.det0 = a0 * c0 - b * b;
    const a = a0 + COV2D_BLUR, c = c0 + COV2D_BLUR;
    const det = a * c - b * b;
    if (!(det > 0) || !Number.isFinite(det)) return false;
    this.a = a; this.b = b; this.c = c; this.det = det;
    this.conic[0] = c / det; this.conic[1] = -b / det; this.conic[2] = a / det;
    this.opacityIn = opacities[i]!;
    this.ratio = this.det0 / det;
    this.opacity = args.antialiased ? this.opacityIn * Math.sqrt(Math.max(0, this.ratio)) : this.opacityIn;

    // 5. Radius from the larger eigenvalue.
    const mid = 0.5 * (a + c);
    const lambda = mid + Math.sqrt(Math.max(EIGEN_FLOOR, mid * mid - det));
    this.radius = Math.ceil(RADIUS_SIGMAS * Math.sqrt(lambda));
    if (!Number.isFinite(this.radius)) return false;

    // 6. Image point (unclamped t) and the box cull.
    this.u = (cam.fx * t[0]!) / tz + cam.cx;
    this.v = (cam.fy * t[1]!) / tz + cam.cy;
    const r = this.radius;
    if (this.u + r <= 0 || this.u - r >= cam.width || this.v + r <= 0 || this.v - r >= cam.height) return false;
    return true;
  }

  /** Step 7 for a visible Gaussian i: this.color (and dir, basis, raw for SH). */
  shade(a: ProjectArgs, cam: CameraFrame, i: number): void {
    if (a.shDegree < 0) {
      for (let c = 0; c < 3; c++) this.color[c] = a.coeffs[3 * i + c]!;
      return;
    }
    let n2 = 0;
    for (let k = 0; k < 3; k++) {
      const d = a.means[3 * i + k]! - cam.centre[k]!;
      this.dir[k] = d;
      n2 += d * d;
    }
    this.dirNorm = Math.sqrt(n2);
    for (let k = 0; k < 3; k++) this.dir[k] /= this.dirNorm;
    const count = (a.shDegree + 1) * (a.shDegree + 1);
    shBasis(this.dir[0]!, this.dir[1]!, this.dir[2]!, count, this.basis);
    shColor(this.basis, count, a.coeffs, i * a.k * 3, this.raw, this.color);
  }
}

const scratch9 = new Float64Array(9);

/** out = A B (3×3, row-major). */
export function mulAB(A: Float64Array, B: Float64Array, out: Float64Array): void {
  for (let r = 0; r < 3; r++)
    for (let k = 0; k < 3; k++) out[3 * r + k] = A[3 * r]! * B[k]! + A[3 * r + 1]! * B[3 + k]! + A[3 * r + 2]! * B[6 + k]!;
}

/** out = A Bᵀ (3×3, row-major). */
export function mulABt(A: Float64Array, B: Float64Array, out: Float64Array): void {
  for (let r = 0; r < 3; r++)
    for (let k = 0; k < 3; k++) out[3 * r + k] = A[3 * r]! * B[3 * k]! + A[3 * r + 1]! * B[3 * k + 1]! + A[3 * r + 2]! * B[3 * k + 2]!;
}

/** out = Aᵀ B (3×3, row-major). */
export function mulAtB(A: Float64Array, B: Float64Array, out: Float64Array): void {
  for (let r = 0; r < 3; r++)
    for (let k = 0; k < 3; k++) out[3 * r + k] = A[r]! * B[k]! + A[3 + r]! * B[3 + k]! + A[6 + r]! * B[6 + k]!;
}
