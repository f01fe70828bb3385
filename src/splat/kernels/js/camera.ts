// The camera as the project kernels use it: viewmat split into its rotation
// W (3×3, row-major) and translation w, the camera centre −Wᵀw (for the SH
// view direction) and the Jacobian clamp limits of step 3 of ../contract.ts.
// Computed once per call, shared by projectForward and projectBackward.

import { CLAMP_MARGIN } from '../../constants.js';
import type { SplatCamera } from '../contract.js';

export interface CameraFrame {
  /** World → camera rotation, row-major 3×3. */
  W: Float64Array;
  /** World → camera translation. */
  w: Float64Array;
  /** Camera centre in world coordinates, −Wᵀw. */
  centre: Float64Array;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  width: number;
  height: number;
  near: number;
  far: number;
  /** t_x/t_z is clamped to [−limXNeg, limXPos] in the Jacobian; likewise y. */
  limXPos: number;
  limXNeg: number;
  limYPos: number;
  limYNeg: number;
}

export function cameraFrame(c: SplatCamera): CameraFrame {
  const m = c.viewmat;
  const W = Float64Array.of(m[0]!, m[1]!, m[2]!, m[4]!, m[5]!, m[6]!, m[8]!, m[9]!, m[10]!);
  const w = Float64Array.of(m[3]!, m[7]!, m[11]!);
  const centre = new Float64Array(3);
  for (let k = 0; k < 3; k++) centre[k] = -(W[k]! * w[0]! + W[3 + k]! * w[1]! + W[6 + k]! * w[2]!);
  const tanX = (0.5 * c.width) / c.fx, tanY = (0.5 * c.height) / c.fy;
  return {
    W, w, centre,
    fx: c.fx, fy: c.fy, cx: c.cx, cy: c.cy,
    width: c.width, height: c.height, near: c.near, far: c.far,
    limXPos: (c.width - c.cx) / c.fx + CLAMP_MARGIN * tanX,
    limXNeg: c.cx / c.fx + CLAMP_MARGIN * tanX,
    limYPos: (c.height - c.cy) / c.fy + CLAMP_MARGIN * tanY,
    limYNeg: c.cy / c.fy + CLAMP_MARGIN * tanY,
  };
}
