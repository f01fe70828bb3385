// Pinhole cameras for splatting: splat.camera from a view matrix and
// intrinsics, splat.lookAt from an eye, a target and a field of view. A
// camera is plain numbers (validated here once), so render passes it to the
// kernels as attributes: cameras are not differentiated.
//
// Conventions (gsplat's): viewmat is world → camera, row-major 4×4, in OpenCV
// axes (x right, y down, z forward); K = [[fx, 0, cx], [0, fy, cy], [0, 0, 1]]
// in pixels, with the centre of pixel (row i, column j) at image point
// (j + 0.5, i + 0.5), so an ideal centred camera has cx = width/2.

import { Tensor } from '../tensor/tensor.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import { DEFAULT_FAR, DEFAULT_NEAR } from './constants.js';
import type { Camera } from './types.js';

/** A 4×4 or 3×3 matrix as nested rows, 16 / 9 numbers row-major, or a Tensor. */
export type MatrixLike = readonly (readonly number[])[] | readonly number[] | Tensor;

export interface CameraOptions {
  /** World → camera, 4×4 (OpenCV axes: x right, y down, z forward). */
  viewmat: MatrixLike;
  /** Intrinsics, 3×3 [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] in pixels. */
  K: MatrixLike;
  width: number;
  height: number;
  /** Gaussians with camera-space z ≤ near are culled (default 0.01). */
  near?: number;
  /** Gaussians with camera-space z ≥ far are culled (default 1e10). */
  far?: number;
}

function flatten(op: string, name: string, m: MatrixLike, n: number): number[] {
  let flat: number[];
  if (m instanceof Tensor) {
    if (m.ndim !== 2 || m.shape[0] !== n || m.shape[1] !== n) throw new ShapeError(`${op}: ${name} must be ${n}×${n}, got a Tensor of shape [${m.shape.join(', ')}]`);
    flat = Array.from(m.toArray() as ArrayLike<number>, Number);
  } else if (Array.isArray(m) && m.length > 0 && Array.isArray(m[0])) {
    const rows = m as readonly (readonly number[])[];
    if (rows.length !== n || rows.some((r) => !Array.isArray(r) || r.length !== n)) throw new ShapeError(`${op}: ${name} must be ${n}×${n}, got rows of lengths [${rows.map((r) => (Array.isArray(r) ? r.length : typeof r)).join(', ')}]`);
    flat = rows.flat();
  } else if (Array.isArray(m) || ArrayBuffer.isView(m)) {
    flat = Array.from(m as ArrayLike<number>);
    if (flat.length !== n * n) throw new ShapeError(`${op}: ${name} must have ${n * n} numbers (row-major ${n}×${n}), got ${flat.length}`);
  } else throw new ValueError(`${op}: ${name} must be a ${n}×${n} matrix (nested rows, ${n * n} numbers or a Tensor), got ${typeof m}`);
  const bad = flat.findIndex((v) => typeof v !== 'number' || !Number.isFinite(v));
  if (bad >= 0) throw new ValueError(`${op}: ${name} must be finite, got ${String(flat[bad])} at row ${Math.floor(bad / n)}, column ${bad % n}`);
  return flat;
}

function checkSize(op: string, width: unknown, height: unknown): void {
  for (const [name, v] of [['width', width], ['height', height]] as const)
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 1 << 15) throw new ValueError(`${op}: ${name} must be an integer in [1, 32768], got ${String(v)}`);
}

function checkPlanes(op: string, near: number, far: number): void {
  if (!(typeof near === 'number' && near > 0 && Number.isFinite(near))) throw new ValueError(`${op}: near must be a positive finite number, got ${String(near)}`);
  if (!(typeof far === 'number' && far > near)) throw new ValueError(`${op}: far must be greater than near (${near}), got ${String(far)}`);
}

/**
 * A pinhole camera from a world → camera view matrix (OpenCV axes) and 3×3 intrinsics.
 * @example
 * ```ts
 * const cam = splat.camera({ viewmat: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 5], [0, 0, 0, 1]], K: [[100, 0, 32], [0, 100, 24], [0, 0, 1]], width: 64, height: 48 });
 * cam.width;   // 64
 * cam.near;    // 0.01
 * ```
 */
export function camera(opts: CameraOptions): Camera {
  const op = 'splat.camera';
  if (typeof opts !== 'object' || opts === null) throw new ValueError(`${op}: expects an options object {viewmat, K, width, height}, got ${String(opts)}`);
  const viewmat = flatten(op, 'viewmat', opts.viewmat, 4);
  const K = flatten(op, 'K', opts.K, 3);
  if (viewmat[12] !== 0 || viewmat[13] !== 0 || viewmat[14] !== 0 || viewmat[15] !== 1) throw new ValueError(`${op}: viewmat's last row must be [0, 0, 0, 1], got [${viewmat.slice(12).join(', ')}]`);
  if (!(K[0]! > 0 && K[4]! > 0)) throw new ValueError(`${op}: K's focal lengths fx = K[0][0] and fy = K[1][1] must be positive, got ${K[0]} and ${K[4]}`);
  if (K[1] !== 0 || K[3] !== 0 || K[6] !== 0 || K[7] !== 0 || K[8] !== 1) throw new ValueError(`${op}: K must be [[fx, 0, cx], [0, fy, cy], [0, 0, 1]] (no skew), got [${K.join(', ')}]`);
  checkSize(op, opts.width, opts.height);
  const near = opts.near ?? DEFAULT_NEAR,
    far = opts.far ?? DEFAULT_FAR;
  checkPlanes(op, near, far);
  return Object.freeze({ viewmat: Object.freeze(viewmat), K: Object.freeze(K), width: opts.width, height: opts.height, near, far });
}

export interface LookAtOptions {
  /** The camera's position (world). */
  eye: readonly number[];
  /** The point it looks at (world). */
  target: readonly number[];
  /** The world's up direction (default [0, 1, 0]); the image's top side is towards it. */
  up?: readonly number[];
  /** Vertical field of view in degrees (0 < fovY < 180). */
  fovY: number;
  width: number;
  height: number;
  near?: number;
  far?: number;
}

function vec3(op: string, name: string, v: unknown): [number, number, number] {
  if (!Array.isArray(v) || v.length !== 3 || v.some((x) => typeof x !== 'number' || !Number.isFinite(x))) throw new ValueError(`${op}: ${name} must be 3 finite numbers, got ${JSON.stringify(v)}`);
  return [v[0], v[1], v[2]];
}

const cross = (a: number[], b: number[]): number[] => [a[1]! * b[2]! - a[2]! * b[1]!, a[2]! * b[0]! - a[0]! * b[2]!, a[0]! * b[1]! - a[1]! * b[0]!];
const norm = (a: number[]): number => Math.hypot(a[0]!, a[1]!, a[2]!);

/**
 * A camera at `eye` looking at `target` with a vertical field of view in degrees; square pixels, principal point at the image centre.
 * @example
 * ```ts
 * const cam = splat.lookAt({ eye: [0, 0, -5], target: [0, 0, 0], fovY: 60, width: 64, height: 48 });
 * cam.viewmat.slice(8, 12);      // [0, 0, 1, 5]  (camera z is the world's +z here, 5 units ahead)
 * Math.round(cam.K[4] * 1000);   // 41569  (fy = 24 / tan(30°))
 * ```
 */
export function lookAt(opts: LookAtOptions): Camera {
  const op = 'splat.lookAt';
  if (typeof opts !== 'object' || opts === null) throw new ValueError(`${op}: expects an options object {eye, target, fovY, width, height}, got ${String(opts)}`);
  const eye = vec3(op, 'eye', opts.eye),
    target = vec3(op, 'target', opts.target),
    up = vec3(op, 'up', opts.up ?? [0, 1, 0]);
  const fov = opts.fovY;
  if (typeof fov !== 'number' || !(fov > 0 && fov < 180)) throw new ValueError(`${op}: fovY must be in degrees, in (0, 180), got ${String(fov)}`);
  checkSize(op, opts.width, opts.height);
  const f = [target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]];
  const fl = norm(f);
  if (!(fl > 0)) throw new ValueError(`${op}: eye and target must differ, both are [${eye.join(', ')}]`);
  const z = f.map((v) => v / fl);
  // x (right) = forward × up; y (down) = forward × right: OpenCV axes, with the image's top towards up.
  const r = cross(z, up);
  const rl = norm(r);
  if (!(rl > 1e-12 * norm(up))) throw new ValueError(`${op}: up [${up.join(', ')}] must not be parallel to the viewing direction [${z.map((v) => +v.toFixed(6)).join(', ')}]`);
  const x = r.map((v) => v / rl);
  const y = cross(z, x);
  const t = [x, y, z].map((row) => -(row[0]! * eye[0] + row[1]! * eye[1] + row[2]! * eye[2]));
  const viewmat = [...x, t[0]!, ...y, t[1]!, ...z, t[2]!, 0, 0, 0, 1].map((v) => (Object.is(v, -0) ? 0 : v));
  const fy = (0.5 * opts.height) / Math.tan((fov * Math.PI) / 360);
  const K = [fy, 0, opts.width / 2, 0, fy, opts.height / 2, 0, 0, 1];
  return camera({ viewmat, K, width: opts.width, height: opts.height, near: opts.near, far: opts.far });
}
