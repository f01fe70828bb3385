// The public shapes of the splat module: a set of Gaussians (activated
// parameters, as render takes them and the file readers return them) and a
// pinhole camera. Shared by render, the file formats, the scenes and fit.

import type { Tensor } from '../tensor/tensor.js';

/**
 * N 3-D Gaussians with activated parameters (float32 or float64, one dtype).
 * Exactly one of `colors` and `sh` is given.
 */
export interface Gaussians {
  /** [N, 3] world-space centres */
  means: Tensor;
  /** [N, 4] rotations as quaternions (w, x, y, z); normalized inside render */
  quats: Tensor;
  /** [N, 3] standard deviations along the rotated axes (positive) */
  scales: Tensor;
  /** [N] opacities in (0, 1) */
  opacities: Tensor;
  /** [N, 3] RGB colours used as given (no SH) */
  colors?: Tensor;
  /** [N, K, 3] spherical-harmonics coefficients, K = (d + 1)², d ≤ 3 */
  sh?: Tensor;
}

/** A pinhole camera (OpenCV axes: x right, y down, z forward); make one with splat.camera or splat.lookAt. */
export interface Camera {
  /** World → camera, row-major 4×4 (16 numbers). */
  readonly viewmat: readonly number[];
  /** Intrinsics, row-major 3×3: [fx, 0, cx, 0, fy, cy, 0, 0, 1]. */
  readonly K: readonly number[];
  readonly width: number;
  readonly height: number;
  readonly near: number;
  readonly far: number;
}
