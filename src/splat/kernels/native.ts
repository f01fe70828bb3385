// The splat module's native glue: the SplatKernels contract (contract.ts) on
// the addon's C++ kernels (native/src/splat: splatProjectForward,
// splatProjectBackward, splatRasterizeForward, splatRasterizeBackward).
//
// This is the TS half of the safe boundary, as src/fft/kernels/native.ts:
// every argument is checked here with a typed error naming the kernel, what
// it got and what it expected (dtype and array types: DTypeError; counts,
// sizes and array lengths: ShapeError; other values: ValueError), and again
// in C++, so a bad call never reaches memory there; whatever the addon still
// throws becomes a typed error through nativeError. Numbers inside the arrays
// are not checked: NaN propagates (or culls) as the contract says.

import type { NativeAddon } from '../../backends/native/addon.js';
import { nativeError } from '../../backends/native/errors.js';
import { DTypeError, DeviceError, ShapeError, ValueError } from '../../tensor/errors.js';
import type { FloatArray, ProjectArgs, RasterArgs, SplatCamera, SplatKernels, SplatTimings } from './contract.js';

type Arr = FloatArray | Int32Array | Float64Array;
type Fn = (...args: unknown[]) => void;

const FUNCTIONS = ['splatProjectForward', 'splatProjectBackward', 'splatRasterizeForward', 'splatRasterizeBackward'] as const;
const MAX_INT = 2 ** 31 - 1;
/** Largest image side the addon takes (native/src/splat/splat_binding.cc). */
const MAX_SIDE = 2 ** 20;

/** Whether `addon` has the splat kernels (an addon built before them has not). */
export function hasNativeSplat(addon: NativeAddon | undefined): boolean {
  if (addon === undefined) return false;
  const a = addon as unknown as Record<string, unknown>;
  return FUNCTIONS.every((f) => typeof a[f] === 'function');
}

const nameOf = (x: unknown): string =>
  x === null ? 'null' : ArrayBuffer.isView(x) ? x.constructor.name : Array.isArray(x) ? 'Array' : typeof x === 'number' ? `number ${x}` : typeof x;

function int(op: string, name: string, v: unknown, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) throw new ShapeError(`${op}: ${name} must be an integer in [${lo}, ${hi}], got ${nameOf(v)}`);
  return v;
}

function numbers(op: string, name: string, v: unknown, len: number): Float64Array {
  if (!(Array.isArray(v) || ArrayBuffer.isView(v)) || (v as ArrayLike<unknown>).length !== len)
    throw new ShapeError(`${op}: ${name} must be ${len} numbers, got ${Array.isArray(v) ? `an Array of length ${v.length}` : nameOf(v)}`);
  const out = new Float64Array(len);
  for (let i = 0; i < len; i++) {
    const x = (v as ArrayLike<unknown>)[i];
    if (typeof x !== 'number') throw new ValueError(`${op}: ${name}[${i}] must be a number, got ${nameOf(x)}`);
    out[i] = x;
  }
  return out;
}

/** One call's arrays: type and exact length checked as they are named; overlap checked at the end. */
class ArrayCheck {
  readonly seen: { name: string; a: Arr; out: boolean }[] = [];
  constructor(
    readonly op: string,
    readonly dtype: string,
  ) {}
  float(name: string, a: unknown, len: number, out = false): FloatArray {
    const Want = this.dtype === 'float32' ? Float32Array : Float64Array;
    if (!(a instanceof Want)) throw new DTypeError(`${this.op}: ${name} must be a ${Want.name} for dtype ${this.dtype}, got ${nameOf(a)}`);
    return this.length(name, a, len, out);
  }
  int32(name: string, a: unknown, len: number, out = false): Int32Array {
    if (!(a instanceof Int32Array)) throw new DTypeError(`${this.op}: ${name} must be an Int32Array, got ${nameOf(a)}`);
    return this.length(name, a, len, out);
  }
  private length<A extends Arr>(name: string, a: A, len: number, out: boolean): A {
    if (a.length !== len) throw new ShapeError(`${this.op}: ${name} must have length ${len}, got ${a.length}`);
    this.seen.push({ name, a, out });
    return a;
  }
  /** No output shares memory with any other array of the call. */
  noOverlap(): void {
    const s = this.seen;
    for (let i = 0; i < s.length; i++)
      for (let j = 0; j < s.length; j++) {
        const x = s[i]!, y = s[j]!;
        if (i === j || !x.out || x.a.length === 0 || y.a.length === 0 || x.a.buffer !== y.a.buffer) continue;
        if (x.a.byteOffset < y.a.byteOffset + y.a.byteLength && y.a.byteOffset < x.a.byteOffset + x.a.byteLength)
          throw new ValueError(`${this.op}: ${x.name} shares memory with ${y.name}; outputs must not overlap any other array`);
      }
  }
}

function dtypeOf(op: string, d: unknown): 'float32' | 'float64' {
  if (d !== 'float32' && d !== 'float64') throw new DTypeError(`${op}: dtype must be 'float32' or 'float64', got ${typeof d === 'string' ? `'${d}'` : nameOf(d)}`);
  return d;
}

/** The camera as the addon's 24 numbers (viewmat, fx, fy, cx, cy, width, height, near, far). */
function cameraNumbers(op: string, c: SplatCamera): Float64Array {
  if (typeof c !== 'object' || c === null) throw new ValueError(`${op}: camera must be an object, got ${nameOf(c)}`);
  const out = new Float64Array(24);
  out.set(numbers(op, 'camera.viewmat', c.viewmat, 16));
  const rest = ['fx', 'fy', 'cx', 'cy', 'width', 'height', 'near', 'far'] as const;
  rest.forEach((k, i) => {
    const v = c[k];
    if (typeof v !== 'number') throw new ValueError(`${op}: camera.${k} must be a number, got ${nameOf(v)}`);
    out[16 + i] = v;
  });
  return out;
}

/** Checks project's arguments; returns the addon's leading arguments (dtype … coeffs). */
function projectHead(op: string, a: ProjectArgs, arrays: ArrayCheck): unknown[] {
  const n = int(op, 'n', a.n, 0, MAX_INT);
  const k = int(op, 'k', a.k, 1, 2 ** 24);
  const d = int(op, 'shDegree', a.shDegree, -1, 3);
  if (d < 0 && k !== 1) throw new ShapeError(`${op}: k must be 1 for colours (shDegree -1), got ${k}`);
  if ((d + 1) ** 2 > k) throw new ShapeError(`${op}: shDegree ${d} needs k >= ${(d + 1) ** 2} coefficients, got ${k}`);
  if (typeof a.antialiased !== 'boolean') throw new ValueError(`${op}: antialiased must be a boolean, got ${nameOf(a.antialiased)}`);
  const cam = cameraNumbers(op, a.camera);
  return [
    a.dtype, n, k, d, a.antialiased, cam,
    arrays.float('means', a.means, 3 * n), arrays.float('quats', a.quats, 4 * n), arrays.float('scales', a.scales, 3 * n),
    arrays.float('opacities', a.opacities, n), arrays.float('coeffs', a.coeffs, 3 * k * n),
  ];
}

/** Checks rasterize's arguments; returns the addon's leading arguments (dtype … radii) and the pixel count. */
function rasterHead(op: string, a: RasterArgs, arrays: ArrayCheck): [unknown[], number] {
  const n = int(op, 'n', a.n, 0, MAX_INT);
  const w = int(op, 'width', a.width, 0, MAX_SIDE);
  const h = int(op, 'height', a.height, 0, MAX_SIDE);
  const ts = int(op, 'tileSize', a.tileSize, 1, 2 ** 16);
  if (3 * w * h > Number.MAX_SAFE_INTEGER) throw new ShapeError(`${op}: image ${w}×${h} too large`);
  const bg = numbers(op, 'background', a.background, 3);
  const head = [
    a.dtype, n, w, h, ts, bg,
    arrays.float('means2d', a.means2d, 2 * n), arrays.float('conics', a.conics, 3 * n), arrays.float('colors', a.colors, 3 * n),
    arrays.float('opacities', a.opacities, n), arrays.float('depths', a.depths, n), arrays.int32('radii', a.radii, n),
  ];
  return [head, w * h];
}

function addTimings(t: SplatTimings | undefined, ms: Float64Array | null): void {
  if (!t || !ms) return;
  t.project = (t.project ?? 0) + ms[0]!;
  t.bin = (t.bin ?? 0) + ms[1]!;
  t.sort = (t.sort ?? 0) + ms[2]!;
  t.raster = (t.raster ?? 0) + ms[3]!;
}

/** The C++ splat kernels on a loaded addon; DeviceError when the addon predates them. */
export function nativeSplatKernels(addon: NativeAddon): SplatKernels {
  if (!hasNativeSplat(addon)) throw new DeviceError('the native addon has no splat kernels (no splatProjectForward(); rebuild it: npm run build:native)');
  const raw = addon as unknown as Record<(typeof FUNCTIONS)[number], Fn>;
  const call = (op: string, f: Fn, args: unknown[]) => {
    try {
      f.apply(addon, args);
    } catch (e) {
      throw nativeError(op, e);
    }
  };
  return {
    projectForward(a, out) {
      const op = 'native splat projectForward';
      const arrays = new ArrayCheck(op, dtypeOf(op, a.dtype));
      const head = projectHead(op, a, arrays);
      const n = a.n;
      const outs = [
        arrays.float('means2d', out.means2d, 2 * n, true), arrays.float('conics', out.conics, 3 * n, true), arrays.float('depths', out.depths, n, true),
        arrays.int32('radii', out.radii, n, true), arrays.float('colors', out.colors, 3 * n, true), arrays.float('out opacities', out.opacities, n, true),
      ];
      arrays.noOverlap();
      call(op, raw.splatProjectForward, [...head, ...outs]);
    },
    projectBackward(a, radii, ct, grads) {
      const op = 'native splat projectBackward';
      const arrays = new ArrayCheck(op, dtypeOf(op, a.dtype));
      const head = projectHead(op, a, arrays);
      const n = a.n;
      const rest = [
        arrays.int32('radii', radii, n),
        arrays.float('ct.means2d', ct.means2d, 2 * n), arrays.float('ct.conics', ct.conics, 3 * n), arrays.float('ct.depths', ct.depths, n),
        arrays.float('ct.colors', ct.colors, 3 * n), arrays.float('ct.opacities', ct.opacities, n),
        arrays.float('grads.means', grads.means, 3 * n, true), arrays.float('grads.quats', grads.quats, 4 * n, true),
        arrays.float('grads.scales', grads.scales, 3 * n, true), arrays.float('grads.opacities', grads.opacities, n, true),
        arrays.float('grads.coeffs', grads.coeffs, 3 * a.k * n, true),
      ];
      arrays.noOverlap();
      call(op, raw.splatProjectBackward, [...head, ...rest]);
    },
    rasterizeForward(a, out, timings) {
      const op = 'native splat rasterizeForward';
      const arrays = new ArrayCheck(op, dtypeOf(op, a.dtype));
      const [head, px] = rasterHead(op, a, arrays);
      const outs = [
        arrays.float('image', out.image, 3 * px, true), arrays.float('alpha', out.alpha, px, true), arrays.float('depth', out.depth, px, true),
        arrays.float('finalT', out.finalT, px, true), arrays.int32('lastIndex', out.lastIndex, px, true),
      ];
      arrays.noOverlap();
      const ms = timings ? new Float64Array(4) : null;
      call(op, raw.splatRasterizeForward, [...head, ...outs, ms]);
      addTimings(timings, ms);
    },
    rasterizeBackward(a, fwd, ct, grads, timings) {
      const op = 'native splat rasterizeBackward';
      const arrays = new ArrayCheck(op, dtypeOf(op, a.dtype));
      const [head, px] = rasterHead(op, a, arrays);
      const n = a.n;
      const rest = [
        arrays.float('fwd.finalT', fwd.finalT, px), arrays.int32('fwd.lastIndex', fwd.lastIndex, px),
        arrays.float('ct.image', ct.image, 3 * px), arrays.float('ct.alpha', ct.alpha, px), arrays.float('ct.depth', ct.depth, px),
        arrays.float('grads.means2d', grads.means2d, 2 * n, true), arrays.float('grads.conics', grads.conics, 3 * n, true),
        arrays.float('grads.colors', grads.colors, 3 * n, true), arrays.float('grads.opacities', grads.opacities, n, true),
        arrays.float('grads.depths', grads.depths, n, true),
      ];
      arrays.noOverlap();
      const ms = timings ? new Float64Array(4) : null;
      call(op, raw.splatRasterizeBackward, [...head, ...rest, ms]);
      addTimings(timings, ms);
    },
  };
}
