// What the `rlx splat` subcommands share: parsing their option values
// (--camera lookat:..., --size WxH, --background r,g,b, --device, --up),
// reading a scene file (.ply or .splat) into Gaussians on the chosen device,
// a scene's centre and radius for default cameras, and writing PNG frames. A
// value the command line got wrong is a UsageError (exit 2); a file that is
// missing or malformed is a CliFailure naming it (exit 1).

import { mkdirSync } from 'node:fs';
import { extname } from 'node:path';
import { deviceNames, backends } from '../backends/registry.js';
import { lookAt } from '../splat/camera.js';
import { readPly } from '../splat/io/ply.js';
import { readSplat } from '../splat/io/splat-file.js';
import { savePng } from '../splat/io/png.js';
import type { Camera, Gaussians } from '../splat/types.js';
import type { Tensor } from '../tensor/tensor.js';
import { CliFailure, UsageError } from './errors.js';
import { numberOption, type ParsedArgs } from './command.js';
import { firstLine, requireFile } from './matrix-io.js';

export { requireFile };

export type Vec3 = [number, number, number];

/** A comma-separated list of `n` finite numbers, or a UsageError naming the option and the form expected. */
export function numberList(name: string, text: string, n: number, form: string): number[] {
  const parts = text.split(',');
  const xs = parts.map((p) => (p.trim() === '' ? NaN : Number(p)));
  if (parts.length !== n || xs.some((x) => !Number.isFinite(x))) throw new UsageError(`${name} expects ${form}, got '${text}'`);
  return xs;
}

/** A camera pose from `--camera lookat:ex,ey,ez:tx,ty,tz[:ux,uy,uz]` (eye, target, optional up). */
export interface LookAtSpec {
  eye: Vec3;
  target: Vec3;
  up?: Vec3;
}

const CAMERA_FORM = 'lookat:ex,ey,ez:tx,ty,tz[:ux,uy,uz] (eye, target, optional up)';

/** Parses the --camera value; UsageError for anything but the lookat form. */
export function parseCamera(text: string): LookAtSpec {
  const parts = text.split(':');
  if (parts[0] !== 'lookat' || (parts.length !== 3 && parts.length !== 4)) throw new UsageError(`--camera expects ${CAMERA_FORM}, got '${text}'`);
  const v = (s: string): Vec3 => numberList('--camera', s, 3, CAMERA_FORM) as Vec3;
  // numberList names the whole option's form, so a bad part reads as the whole value being wrong.
  try {
    const spec: LookAtSpec = { eye: v(parts[1]!), target: v(parts[2]!) };
    if (parts[3] !== undefined) spec.up = v(parts[3]);
    return spec;
  } catch {
    throw new UsageError(`--camera expects ${CAMERA_FORM}, got '${text}'`);
  }
}

/** `--size WxH` (default `fallback`): two positive integers. */
export function parseSize(args: ParsedArgs, fallback: [number, number]): [number, number] {
  const v = args.values['size'];
  if (v === undefined) return fallback;
  const m = /^(\d+)[x×](\d+)$/.exec(String(v).trim());
  const w = m ? Number(m[1]) : NaN,
    h = m ? Number(m[2]) : NaN;
  if (!(w >= 1 && h >= 1 && w <= 32768 && h <= 32768)) throw new UsageError(`--size expects WIDTHxHEIGHT in pixels (1 to 32768 each), e.g. 800x600, got '${String(v)}'`);
  return [w, h];
}

/** `--fov` (vertical, degrees, default `fallback`), in (0, 180). */
export function parseFov(args: ParsedArgs, fallback: number): number {
  const f = numberOption(args, 'fov', { positive: true }) ?? fallback;
  if (!(f < 180)) throw new UsageError(`--fov is the vertical field of view in degrees, in (0, 180), got '${String(args.values['fov'])}'`);
  return f;
}

/** `--background r,g,b` in [0, 1] (default black). */
export function parseBackground(args: ParsedArgs): Vec3 {
  const v = args.values['background'];
  if (v === undefined) return [0, 0, 0];
  const form = 'r,g,b with each in [0, 1], e.g. 1,1,1 for white';
  const bg = numberList('--background', String(v), 3, form);
  if (bg.some((x) => x < 0 || x > 1)) throw new UsageError(`--background expects ${form}, got '${String(v)}'`);
  return bg as Vec3;
}

/** `--up ux,uy,uz` (default +y). */
export function parseUp(args: ParsedArgs): Vec3 {
  const v = args.values['up'];
  if (v === undefined) return [0, 1, 0];
  const up = numberList('--up', String(v), 3, 'ux,uy,uz, the world direction shown upwards (default 0,1,0)') as Vec3;
  if (Math.hypot(...up) === 0) throw new UsageError(`--up must not be the zero vector, got '${String(v)}'`);
  return up;
}

/**
 * `--device` (default: rlx's default device): an unknown name is a UsageError; a
 * known device that is not available here (native not built) is a CliFailure.
 */
export function parseDevice(args: ParsedArgs): string | undefined {
  const v = args.values['device'];
  if (v === undefined) return undefined;
  const known = backends();
  const b = known.find((k) => k.name === v);
  if (!b) throw new UsageError(`--device must be one of ${known.map((k) => k.name).join(', ')}, got '${String(v)}'`);
  if (!deviceNames().includes(String(v))) throw new CliFailure(`device '${String(v)}' is not available: ${b.reason ?? 'unknown reason'}`);
  return String(v);
}

/** A lookAt camera; its own checks (eye = target, up parallel to the view) are the command line's fault, so UsageError. */
export function lookAtCamera(spec: LookAtSpec, fovY: number, size: [number, number]): Camera {
  try {
    return lookAt({ eye: spec.eye, target: spec.target, up: spec.up ?? [0, 1, 0], fovY, width: size[0], height: size[1] });
  } catch (e) {
    throw new UsageError(`--camera: ${firstLine(e).replace(/^splat\.lookAt: /, '')}`);
  }
}


/** Reads a .ply (3DGS layout) or .splat scene; the extension decides (UsageError for any other). Tensors moved to `device` when given. */
export function readScene(path: string, device: string | undefined): Gaussians {
  const ext = extname(path).toLowerCase();
  if (ext !== '.ply' && ext !== '.splat') throw new UsageError(`the scene must be a .ply (3DGS) or .splat file, got '${path}'`);
  requireFile(path);
  let g: Gaussians;
  try {
    g = ext === '.ply' ? readPly(path) : readSplat(path);
  } catch (e) {
    throw new CliFailure(`${path}: ${firstLine(e)}`);
  }
  if ((g.means.shape[0] as number) === 0) throw new CliFailure(`${path}: the file holds no Gaussians`);
  return device === undefined ? g : onDevice(g, device);
}

/** The same Gaussians with every tensor on `device`. */
export function onDevice(g: Gaussians, device: string): Gaussians {
  const out: Gaussians = { means: g.means.on(device), quats: g.quats.on(device), scales: g.scales.on(device), opacities: g.opacities.on(device) };
  if (g.colors) out.colors = g.colors.on(device);
  if (g.sh) out.sh = g.sh.on(device);
  return out;
}

/** The SH degree the coefficients hold (−1 for colours). */
export function heldShDegree(g: Gaussians): number {
  return g.sh ? Math.sqrt(g.sh.shape[1] as number) - 1 : -1;
}

/** `--sh-degree d`: checked against what the file holds (a mismatch is the file's: CliFailure). */
export function parseShDegree(args: ParsedArgs, g: Gaussians, path: string): number | undefined {
  const d = numberOption(args, 'sh-degree', { integer: true });
  if (d === undefined) return undefined;
  if (d < 0 || d > 3) throw new UsageError(`--sh-degree expects an integer in [0, 3], got '${String(args.values['sh-degree'])}'`);
  const held = heldShDegree(g);
  if (held < 0) throw new CliFailure(`${path}: --sh-degree applies to SH coefficients, but the file has plain colours`);
  if (d > held) throw new CliFailure(`${path}: --sh-degree ${d} asks for more than the file holds (degree ${held})`);
  return d;
}

/**
 * Where a scene is and how big, for default cameras: the centre is the
 * per-axis median of the means and the radius the 90th percentile of the
 * means' distances to it, so a few far-away floaters (common in captured
 * scenes) neither move the centre nor shrink the scene to a dot.
 */
export function sceneBounds(g: Gaussians): { centre: Vec3; radius: number } {
  const m = g.means.toArray() as ArrayLike<number>;
  const n = m.length / 3;
  const finite: number[] = [];
  for (let i = 0; i < n; i++) if (Number.isFinite(m[3 * i]!) && Number.isFinite(m[3 * i + 1]!) && Number.isFinite(m[3 * i + 2]!)) finite.push(i);
  if (finite.length === 0) throw new CliFailure('the scene has no Gaussian with a finite position');
  const centre = [0, 1, 2].map((k) => quantile(finite.map((i) => Number(m[3 * i + k])), 0.5)) as Vec3;
  const dist = finite.map((i) => Math.hypot(m[3 * i]! - centre[0], m[3 * i + 1]! - centre[1], m[3 * i + 2]! - centre[2]));
  const r = quantile(dist, 0.9);
  return { centre, radius: r > 0 ? r : 1 };
}

/** The q-quantile of xs (linear interpolation between order statistics). */
function quantile(xs: number[], q: number): number {
  const s = Float64Array.from(xs).sort();
  const p = q * (s.length - 1);
  const lo = Math.floor(p);
  return lo + 1 < s.length ? s[lo]! + (p - lo) * (s[lo + 1]! - s[lo]!) : s[lo]!;
}

/** The distance at which a sphere of `radius` fills the vertical field of view `fovY` (degrees), with a 10 % margin. */
export function framingDistance(radius: number, fovY: number): number {
  return (1.1 * radius) / Math.sin((fovY * Math.PI) / 360);
}

/**
 * The eye of a camera orbiting `centre` at `distance`: `azimuth` (radians)
 * about the `up` axis, `elevation` (degrees) above the plane perpendicular
 * to it. Azimuth 0 looks from the side of the world's +z (for up = +y).
 */
export function orbitEye(centre: Vec3, distance: number, azimuth: number, elevation: number, up: Vec3): Vec3 {
  const u = normalize(up);
  // A horizontal reference direction: +z made perpendicular to up (or +x when up is along z).
  const ref: Vec3 = Math.abs(u[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0];
  const d = dot(ref, u);
  const a = normalize([ref[0] - d * u[0], ref[1] - d * u[1], ref[2] - d * u[2]]);
  const b = cross(u, a);
  const el = (elevation * Math.PI) / 180;
  const ce = Math.cos(el),
    se = Math.sin(el);
  const ca = Math.cos(azimuth),
    sa = Math.sin(azimuth);
  return [0, 1, 2].map((k) => centre[k]! + distance * (ce * (ca * a[k]! + sa * b[k]!) + se * u[k]!)) as Vec3;
}

const dot = (a: Vec3, b: Vec3): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: Vec3, b: Vec3): Vec3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const normalize = (a: Vec3): Vec3 => {
  const l = Math.hypot(...a);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** Writes an image [H, W, 3] as PNG; CliFailure naming the file when it cannot be written. */
export function writePng(image: Tensor, path: string): void {
  try {
    savePng(image, path);
  } catch (e) {
    throw new CliFailure(`${path}: ${firstLine(e)}`);
  }
}

/** Creates the output folder (and its parents); CliFailure when it cannot be (a file is in the way, no permission). */
export function ensureDir(path: string): void {
  try {
    mkdirSync(path, { recursive: true });
  } catch (e) {
    throw new CliFailure(`${path}: cannot create the folder: ${firstLine(e)}`);
  }
}

/** Seconds or milliseconds, as the other commands print times. */
export const fmtMs = (ms: number): string => (ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);
