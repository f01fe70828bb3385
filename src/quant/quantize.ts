// quantize / dequantize: float tensors to integer codes and back.
//
// Scales (min-max, from the tensor itself unless given):
//   symmetric:  scale = max|x| / qmax, codes in [-qmax, qmax], qmax = 127 (8 bit) or 7 (4 bit);
//   asymmetric: scale = (max(x, 0) − min(x, 0)) / (2^bits − 1), zero point
//               z = clamp(qmin − round(min(x, 0) / scale), qmin, qmax), codes in
//               [qmin, qmax] = [−128, 127] or [−8, 7] (PyTorch's MinMaxObserver
//               arithmetic, which keeps 0 exactly representable).
// Codes: clamp(round(x · (1/scale)) + z, qmin, qmax) computed in float32, with
// round half to even — what PyTorch 1.13's quantize_per_tensor /
// quantize_per_channel and fake_quantize_* compute (nearbyint of x times the
// float32 inverse scale). A scale is never below float32's smallest normal
// (2^-126): an all-zero slice gets that scale and codes 0 instead of 0/0 =
// NaN (PyTorch clamps at float32's epsilon, 2^-23, which would flush a tensor
// of tiny values to zero; the smallest normal keeps their resolution and
// keeps 1/scale finite).

import { Tensor } from '../tensor/tensor.js';
import { tensor } from '../tensor/create.js';
import { DTypeError, ShapeError, ValueError } from '../tensor/errors.js';
import { QuantizedTensor, codeRange, codesOf, layoutView, packNibbles, sameShape, scaleShape, type Bits, type FloatDType, type ScaleLayout } from './quantized.js';

/** Options of quant.quantize (and, with `scale`, of quant.fakeQuant). */
export interface QuantizeOptions {
  /** Code width: 8 (int8) or 4 (packed int4); default 8. */
  bits?: Bits;
  /** One scale per index of this axis (per-channel); default: one scale for the tensor. */
  axis?: number;
  /** One scale per `groupSize` consecutive elements of the last axis (per-block); must divide it. */
  groupSize?: number;
  /** Zero is code 0 (default true); false adds a zero point per scale (min-max range). */
  symmetric?: boolean;
  /** Given scales instead of min-max ones: a number, or a tensor of the layout's scale shape. */
  scale?: number | Tensor;
  /** Given zero points (asymmetric only, with `scale`): a number or a tensor of the scale shape. */
  zeroPoint?: number | Tensor;
}

/** What a wrong argument was, for messages. */
export const describe = (v: unknown): string => (v === null ? 'null' : v instanceof Tensor ? 'a Tensor' : Array.isArray(v) ? 'an array' : typeof v);

/** float32's smallest normal: the least scale (see the header). */
export const MIN_SCALE = 2 ** -126;

const FLOATS = new Set(['float32', 'float64', 'float16', 'bfloat16']);

/** Checked options: the layout, bits and symmetry, for a tensor of `shape`. */
export interface Resolved {
  layout: ScaleLayout;
  bits: Bits;
  symmetric: boolean;
}

/** Validates x and the options shared by quantize and fakeQuant (errors name `op`). */
export function resolveOptions(op: string, x: unknown, opts: QuantizeOptions, packed: boolean): Resolved {
  if (!(x instanceof Tensor)) throw new ValueError(`${op}: expected a Tensor, got ${x === null ? 'null' : typeof x}`);
  if (!FLOATS.has(x.dtype)) throw new DTypeError(`${op}: expected a float tensor (float32, float64, float16, bfloat16), got ${x.dtype}`);
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${op}: options must be an object, got ${opts === null ? 'null' : typeof opts}`);
  const bits = opts.bits ?? 8;
  if (bits !== 8 && bits !== 4) throw new ValueError(`${op}: bits must be 8 or 4, got ${String(bits)}`);
  const symmetric = opts.symmetric ?? true;
  if (typeof symmetric !== 'boolean') throw new ValueError(`${op}: symmetric must be a boolean, got ${typeof symmetric}`);
  const n = x.ndim;
  if (opts.axis !== undefined && opts.groupSize !== undefined) throw new ValueError(`${op}: give axis (per-channel) or groupSize (per-block along the last axis), not both`);
  let layout: ScaleLayout = { kind: 'tensor' };
  if (opts.axis !== undefined) {
    const a = opts.axis;
    if (!Number.isInteger(a) || a < -n || a >= n) throw new ValueError(`${op}: axis must be an integer in [${-n}, ${n}) for a ${n}-d tensor, got ${String(a)}`);
    layout = { kind: 'channel', axis: a < 0 ? a + n : a };
  } else if (opts.groupSize !== undefined) {
    const g = opts.groupSize;
    if (!Number.isInteger(g) || g < 1) throw new ValueError(`${op}: groupSize must be a positive integer, got ${String(g)}`);
    if (n === 0) throw new ShapeError(`${op}: groupSize needs at least one axis; got a scalar`);
    const k = x.shape[n - 1]!;
    if (k % g !== 0) throw new ShapeError(`${op}: groupSize ${g} must divide the last axis (size ${k}) of shape [${x.shape}]`);
    layout = { kind: 'block', axis: n - 1, blockSize: g };
  }
  if (packed && bits === 4 && (n === 0 || x.shape[n - 1]! % 2 !== 0)) throw new ShapeError(`${op}: 4-bit codes are packed in pairs along the last axis, which must be even; got shape [${x.shape}]`);
  return { layout, bits, symmetric };
}

/** Given scales (and zero points) as float32 / int32 tensors of the layout's scale shape. */
function givenParams(op: string, shape: readonly number[], r: Resolved, scale: number | Tensor, zeroPoint: number | Tensor | undefined): { scales: Tensor; zeroPoints: Tensor | null } {
  const sShape = scaleShape(shape, r.layout);
  const asTensor = (v: number | Tensor, what: string, dtype: 'float32' | 'int32'): Tensor => {
    if (typeof v === 'number') return tensor(v, { dtype }).broadcastTo(sShape);
    if (!(v instanceof Tensor)) throw new ValueError(`${op}: ${what} must be a number or a Tensor, got ${v === null ? 'null' : typeof v}`);
    if (!sameShape(v.shape, sShape)) throw new ShapeError(`${op}: ${what} for layout ${r.layout.kind} must have shape [${sShape}], got [${v.shape}]`);
    return v.cast(dtype);
  };
  if (typeof scale === 'number' && !(scale > 0 && Number.isFinite(scale))) throw new ValueError(`${op}: scale must be positive and finite, got ${scale}`);
  const scales = asTensor(scale, 'scale', 'float32');
  if (r.symmetric && zeroPoint !== undefined) throw new ValueError(`${op}: zeroPoint needs symmetric: false`);
  if (!r.symmetric && zeroPoint === undefined) throw new ValueError(`${op}: an asymmetric given scale needs a zeroPoint too`);
  const [qmin, qmax] = codeRange(r.bits, r.symmetric);
  if (typeof zeroPoint === 'number' && !(Number.isInteger(zeroPoint) && zeroPoint >= qmin && zeroPoint <= qmax)) throw new ValueError(`${op}: zeroPoint must be an integer in [${qmin}, ${qmax}], got ${zeroPoint}`);
  return { scales, zeroPoints: zeroPoint === undefined ? null : asTensor(zeroPoint, 'zeroPoint', 'int32') };
}

/** Min-max scales (and zero points) of x32 (float32) under r (see the header). */
export function minMaxParams(x32: Tensor, r: Resolved): { scales: Tensor; zeroPoints: Tensor | null } {
  const lv = layoutView(x32.shape, r.layout);
  const xv = lv.view(x32);
  const [qmin, qmax] = codeRange(r.bits, r.symmetric);
  if (r.symmetric) return { scales: xv.abs().max(lv.reduceAxes).div(qmax).maximum(MIN_SCALE).cast('float32'), zeroPoints: null };
  const lo = xv.min(lv.reduceAxes).minimum(0);
  const hi = xv.max(lv.reduceAxes).maximum(0);
  const scales = hi.sub(lo).div(qmax - qmin).maximum(MIN_SCALE).cast('float32');
  const zeroPoints = lo.div(scales).round().neg().add(qmin).clip(qmin, qmax).cast('int32');
  return { scales, zeroPoints };
}

/** Scales and zero points for x under r: given ones, or min-max. */
export function paramsFor(op: string, x: Tensor, r: Resolved, opts: QuantizeOptions): { scales: Tensor; zeroPoints: Tensor | null } {
  if (opts.scale !== undefined) return givenParams(op, x.shape, r, opts.scale, opts.zeroPoint);
  if (opts.zeroPoint !== undefined) throw new ValueError(`${op}: zeroPoint needs a scale`);
  return minMaxParams(x.cast('float32'), r);
}

/** Integer codes (as float32, logical shape) of x under the given scales: clamp(round(x · (1/scale)) + z, qmin, qmax). */
export function codesFloat(x: Tensor, r: Resolved, scales: Tensor, zeroPoints: Tensor | null): Tensor {
  const lv = layoutView(x.shape, r.layout);
  const [qmin, qmax] = codeRange(r.bits, r.symmetric);
  const inv = lv.expand(tensor(1, { dtype: 'float32' }).div(scales));
  let q = lv.view(x.cast('float32')).mul(inv).round();
  if (zeroPoints) q = q.add(lv.expand(zeroPoints.cast('float32')));
  return lv.back(q.clip(qmin, qmax));
}

/** (codes − z) · scale in float32, codes given as a float32 tensor of the logical shape. */
export function dequantizeFloat(codes: Tensor, layout: ScaleLayout, scales: Tensor, zeroPoints: Tensor | null): Tensor {
  const lv = layoutView(codes.shape, layout);
  let c = lv.view(codes);
  if (zeroPoints) c = c.sub(lv.expand(zeroPoints.cast('float32')));
  return lv.back(c.mul(lv.expand(scales)));
}

/**
 * Quantizes a float tensor to 8- or 4-bit integer codes with float32 scales:
 * per tensor (default), per channel along `axis`, or per block of `groupSize`
 * along the last axis; symmetric (scale = max|x|/127, or /7 for 4 bits) or
 * asymmetric (min-max scale with a zero point). Rounds half to even in
 * float32 as PyTorch's quantize_per_tensor does. 4-bit codes are packed two
 * per byte along the last axis (low nibble first).
 * @example
 * ```ts
 * const q = quant.quantize(tensor([0.5, -1.27, 0.01]), { bits: 8 });
 * q.scales.item();                      // 0.009999999776482582
 * Array.from(q.codes.toArray());        // [50, -127, 1]
 * quant.quantize(ones([4, 64]), { bits: 4, groupSize: 32 }).codes.shape;   // [4, 32]
 * ```
 */
export function quantize(x: Tensor, opts: QuantizeOptions = {}): QuantizedTensor {
  const op = 'quant.quantize';
  const r = resolveOptions(op, x, opts, true);
  const { scales, zeroPoints } = paramsFor(op, x, r, opts);
  const c = codesFloat(x, r, scales, zeroPoints);
  const codes = r.bits === 8 ? c.cast('int8') : packNibbles(c);
  const dtype = (x.dtype === 'float64' || x.dtype === 'float16' || x.dtype === 'bfloat16' ? x.dtype : 'float32') as FloatDType;
  return new QuantizedTensor({ codes, scales, zeroPoints, layout: r.layout, bits: r.bits, shape: x.shape, dtype });
}

/**
 * The float tensor a QuantizedTensor stands for: (codes − zeroPoints) · scales,
 * computed in float32 and cast to the dtype that was quantized.
 * @example
 * ```ts
 * const x = tensor([[0.5, -1], [1.984375, 0.25]]);   // max|x| = 127/64, so the scale is 1/64
 * const q = quant.quantize(x);
 * q.scales.item();                      // 0.015625
 * Array.from(q.codes.toArray());        // [32, -64, 127, 16]
 * quant.dequantize(q).tolist();         // [[0.5, -1], [1.984375, 0.25]]
 * ```
 */
export function dequantize(q: QuantizedTensor): Tensor {
  if (!(q instanceof QuantizedTensor)) throw new ValueError(`quant.dequantize: expected a QuantizedTensor (from quant.quantize), got ${describe(q)}`);
  return dequantizeFloat(codesOf(q).cast('float32'), q.layout, q.scales, q.zeroPoints).cast(q.dtype);
}
