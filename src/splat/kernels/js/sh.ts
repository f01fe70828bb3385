// Spherical-harmonics colour of one Gaussian seen from one direction (step 7
// of project in ../contract.ts), forward and its exact backward. Shared by
// project.ts; one place for the 16 basis functions and their gradients so
// the two passes cannot drift apart.
//
// The basis is the real SH basis of the 3DGS notes (constants in
// ../../constants.ts) evaluated as the polynomials written there; the
// backward differentiates those polynomials in (x, y, z) and leaves the
// normalisation of the direction to the caller.

import { MAX_SH_DEGREE, SH_C0, SH_C1, SH_C2, SH_C3, SH_OFFSET } from '../../constants.js';

/** Basis values and gradients for up to 16 coefficients (degree 3). */
export const SH_MAX_COEFFS = (MAX_SH_DEGREE + 1) ** 2;

/** Writes basis_j(x, y, z) for j < count into out. */
export function shBasis(x: number, y: number, z: number, count: number, out: Float64Array): void {
  out[0] = SH_C0;
  if (count <= 1) return;
  out[1] = -SH_C1 * y;
  out[2] = SH_C1 * z;
  out[3] = -SH_C1 * x;
  if (count <= 4) return;
  const xx = x * x, yy = y * y, zz = z * z;
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

/**
 * Adds Σ_j w_j ∇basis_j(x, y, z) (j < count) to grad[0..2]: the gradient of a
 * weighted sum of basis functions with respect to the (unnormalised) point.
 */
export function shBasisGradAdd(x: number, y: number, z: number, count: number, w: Float64Array, grad: Float64Array): void {
  if (count <= 1) return;
  let gx = 0, gy = 0, gz = 0;
  gy -= SH_C1 * w[1]!;
  gz += SH_C1 * w[2]!;
  gx -= SH_C1 * w[3]!;
  if (count > 4) {
    const c4 = SH_C2[0] * w[4]!, c5 = SH_C2[1] * w[5]!, c6 = SH_C2[2] * w[6]!, c7 = SH_C2[3] * w[7]!, c8 = SH_C2[4] * w[8]!;
    gx += c4 * y - 2 * x * c6 + c7 * z + 2 * x * c8;
    gy += c4 * x + c5 * z - 2 * y * c6 - 2 * y * c8;
    gz += c5 * y + 4 * z * c6 + c7 * x;
  }
  if (count > 9) {
    const xx = x * x, yy = y * y, zz = z * z;
    const c9 = SH_C3[0] * w[9]!, c10 = SH_C3[1] * w[10]!, c11 = SH_C3[2] * w[11]!, c12 = SH_C3[3] * w[12]!;
    const c13 = SH_C3[4] * w[13]!, c14 = SH_C3[5] * w[14]!, c15 = SH_C3[6] * w[15]!;
    gx += c9 * 6 * x * y + c10 * y * z - c11 * 2 * x * y - c12 * 6 * x * z + c13 * (4 * zz - 3 * xx - yy) + c14 * 2 * x * z + c15 * 3 * (xx - yy);
    gy += c9 * 3 * (xx - yy) + c10 * x * z + c11 * (4 * zz - xx - 3 * yy) - c12 * 6 * y * z - c13 * 2 * x * y - c14 * 2 * y * z - c15 * 6 * x * y;
    gz += c10 * x * y + c11 * 8 * y * z + c12 * (6 * zz - 3 * xx - 3 * yy) + c13 * 8 * x * z + c14 * (xx - yy);
  }
  grad[0] += gx;
  grad[1] += gy;
  grad[2] += gz;
}

/**
 * colour_c = max(0, Σ_{j<count} basis_j(dir)·coeffs[base + 3j + c] + SH_OFFSET)
 * for unit dir; raw (unclamped) values go to raw[0..2] for the backward pass.
 * A NaN channel stays NaN (the clamp is written `v < 0 ? 0 : v`).
 */
export function shColor(basis: Float64Array, count: number, coeffs: ArrayLike<number>, base: number, raw: Float64Array, color: Float64Array): void {
  for (let c = 0; c < 3; c++) {
    let v = SH_OFFSET;
    for (let j = 0; j < count; j++) v += basis[j]! * coeffs[base + 3 * j + c]!;
    raw[c] = v;
    color[c] = v < 0 ? 0 : v;
  }
}
