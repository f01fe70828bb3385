// `rlx splat render` and `rlx splat orbit`: a scene file (.ply or .splat)
// rendered through splat.render to PNG, from one camera (--camera, or a
// default view framing the scene) or from a turntable of cameras circling
// the scene's centre. Both print one summary line per output on stdout;
// orbit draws a progress bar on a TTY stderr.

import { basename, extname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { realize } from '../compiler/realize.js';
import { render } from '../splat/render.js';
import type { Camera, Gaussians } from '../splat/types.js';
import type { Tensor } from '../tensor/tensor.js';
import { progress } from '../progress.js';
import { defaultDevice } from '../backends/registry.js';
import { UsageError } from './errors.js';
import { numberOption, type ParsedArgs } from './command.js';
import {
  ensureDir,
  fmtMs,
  framingDistance,
  heldShDegree,
  lookAtCamera,
  orbitEye,
  parseBackground,
  parseCamera,
  parseDevice,
  parseFov,
  parseShDegree,
  parseSize,
  parseUp,
  readScene,
  sceneBounds,
  writePng,
  type Vec3,
} from './splat-args.js';

/** Default elevation of the inferred cameras above the plane perpendicular to --up (degrees). */
const DEFAULT_ELEVATION = 20;

interface Loaded {
  path: string;
  g: Gaussians;
  device: string | undefined;
  opts: { background: Vec3; shDegree?: number };
}

/** Reads the scene and the options every rendering subcommand shares. */
function load(args: ParsedArgs, path: string): Loaded {
  const device = parseDevice(args);
  const background = parseBackground(args);
  const g = readScene(path, device);
  const shDegree = parseShDegree(args, g, path);
  return { path, g, device, opts: shDegree === undefined ? { background } : { background, shDegree } };
}

/** "1000 Gaussians, SH degree 3" / "..., colours". */
function describe(g: Gaussians): string {
  const d = heldShDegree(g);
  return `${g.means.shape[0]} Gaussians, ${d < 0 ? 'colours' : `SH degree ${d}`}`;
}

/** The image [H, W, 3] and the fraction of pixels whose alpha exceeds 1/2 (a black frame is spotted at once). */
function renderFrame(l: Loaded, cam: Camera): { image: Tensor; coverage: number } {
  const r = render(l.g, cam, l.opts);
  realize([r.image.node, r.alpha.node]); // one rasterization for both outputs
  const image = r.image;
  const a = r.alpha.toArray() as ArrayLike<number>;
  let covered = 0;
  for (let i = 0; i < a.length; i++) if (a[i]! > 0.5) covered++;
  return { image, coverage: covered / a.length };
}

/** The camera distance and elevation of the inferred views (--radius / --elevation override them). */
function orbitGeometry(args: ParsedArgs, g: Gaussians, fovY: number): { centre: Vec3; distance: number; elevation: number; radius: number } {
  const { centre, radius } = sceneBounds(g);
  const distance = numberOption(args, 'radius', { positive: true }) ?? framingDistance(radius, fovY);
  const elevation = numberOption(args, 'elevation') ?? DEFAULT_ELEVATION;
  if (!(elevation > -90 && elevation < 90)) throw new UsageError(`--elevation is in degrees, in (−90, 90), got '${String(args.values['elevation'])}'`);
  return { centre, distance, elevation, radius };
}

/** `rlx splat render scene.ply [--camera lookat:...] -o out.png`. */
export function renderCommand(args: ParsedArgs, path: string): number {
  const fovY = parseFov(args, 60);
  const size = parseSize(args, [800, 600]);
  const up = parseUp(args);
  const camText = args.values['camera'] as string | undefined;
  const spec = camText === undefined ? undefined : parseCamera(camText);
  const out = (args.values['output'] as string | undefined) ?? `${basename(path, extname(path))}.png`;
  if (extname(out).toLowerCase() !== '.png') throw new UsageError(`-o must end in .png, got '${out}'`);
  const l = load(args, path);
  let pose: { eye: Vec3; target: Vec3; up: Vec3 };
  if (spec) pose = { eye: spec.eye, target: spec.target, up: spec.up ?? up };
  else {
    const o = orbitGeometry(args, l.g, fovY);
    pose = { eye: orbitEye(o.centre, o.distance, 0, o.elevation, up), target: o.centre, up };
  }
  const cam = lookAtCamera(pose, fovY, size);
  const t0 = performance.now();
  const { image, coverage } = renderFrame(l, cam);
  const t = performance.now() - t0;
  writePng(image, out);
  const fmt = (v: Vec3): string => v.map((x) => +x.toPrecision(6)).join(',');
  console.log(`${path}: ${describe(l.g)} -> ${out} (${size[0]}×${size[1]}, ${(100 * coverage).toFixed(1)} % of pixels covered, ${fmtMs(t)} on ${l.device ?? defaultDevice()})`);
  if (!spec) console.log(`camera: --camera lookat:${fmt(pose.eye)}:${fmt(pose.target)}:${fmt(pose.up)} --fov ${fovY}`);
  return 0;
}

/** `rlx splat orbit scene.ply -o frames/`: --frames PNGs frame-000.png … around the scene's centre. */
export function orbitCommand(args: ParsedArgs, path: string): number {
  const fovY = parseFov(args, 60);
  const size = parseSize(args, [512, 512]);
  const up = parseUp(args);
  const frames = numberOption(args, 'frames', { positive: true, integer: true }) ?? 36;
  if (frames > 100000) throw new UsageError(`--frames expects at most 100000, got '${String(args.values['frames'])}'`);
  const dir = (args.values['output'] as string | undefined) ?? `${basename(path, extname(path))}-orbit`;
  if (extname(dir).toLowerCase() === '.png') throw new UsageError(`-o is a folder for orbit's frames, got '${dir}'`);
  const l = load(args, path);
  const o = orbitGeometry(args, l.g, fovY);
  ensureDir(dir);
  const digits = Math.max(3, String(frames - 1).length);
  const bar = progress({ label: 'orbit', total: frames, enabled: args.values['quiet'] !== true && process.stderr.isTTY === true });
  const t0 = performance.now();
  let minCoverage = 1;
  for (let k = 0; k < frames; k++) {
    const eye = orbitEye(o.centre, o.distance, (2 * Math.PI * k) / frames, o.elevation, up);
    const { image, coverage } = renderFrame(l, lookAtCamera({ eye, target: o.centre, up }, fovY, size));
    minCoverage = Math.min(minCoverage, coverage);
    writePng(image, join(dir, `frame-${String(k).padStart(digits, '0')}.png`));
    bar.update(k + 1, `frame ${k + 1}/${frames}`);
  }
  bar.done(undefined, { clear: true });
  const t = performance.now() - t0;
  console.log(`${path}: ${describe(l.g)} -> ${frames} frames ${size[0]}×${size[1]} in ${dir}/ (${fmtMs(t / frames)} per frame on ${l.device ?? defaultDevice()})`);
  console.log(`orbit: centre ${o.centre.map((x) => +x.toPrecision(4)).join(',')}, scene radius ${+o.radius.toPrecision(4)}, camera distance ${+o.distance.toPrecision(4)}, elevation ${o.elevation}°, fov ${fovY}°; least coverage ${(100 * minCoverage).toFixed(1)} %`);
  return 0;
}
