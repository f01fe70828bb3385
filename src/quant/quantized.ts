// QuantizedTensor: integer codes, float scales (and zero points when
// asymmetric), and how the scales are laid out over the tensor (ScaleLayout):
// one for the whole tensor, one per index of a channel axis, or one per block
// of `blockSize` consecutive elements of the last axis.
//
// 8-bit codes are an int8 tensor of the logical shape. 4-bit codes are packed
// two to a byte along the last axis: a uint8 tensor [..., K/2] whose byte j
// holds element 2j in its low nibble and element 2j+1 in its high nibble, each
// a two's-complement signed nibble (-8..7) — the layout quant's int4 GEMM reads.
//
// A QuantizedTensor is a pytree node (codes, scales, zero points are its
// children; bits, layout, logical shape and dtype its static part), so jit,
// vmap-free transforms and tree.map pass it through like a module.

import { Tensor } from '../tensor/tensor.js';
import { stack } from '../tensor/ops/movement.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import type { DType } from '../tensor/dtype.js';
import { registerPytreeNode, type PyTree, type PytreeNode, PYTREE_NODE } from '../compiler/transforms/pytree.js';

/** Code widths quant supports. */
export type Bits = 8 | 4;

/**
 * How scales (and zero points) map onto a quantized tensor's elements:
 * `tensor`: one scale (scales shape []); `channel`: one per index of `axis`
 * (scales [shape[axis]], PyTorch's per-channel); `block`: one per
 * `blockSize` consecutive elements of the last axis (scales [...shape[:-1], K/blockSize],
 * the group-wise layout of GPTQ/AWQ-style INT4 weights).
 */
export type ScaleLayout = { kind: 'tensor' } | { kind: 'channel'; axis: number } | { kind: 'block'; axis: number; blockSize: number };

/** The float dtypes quantize accepts and dequantize returns. */
export type FloatDType = 'float32' | 'float64' | 'float16' | 'bfloat16';

/** The fields of a QuantizedTensor (its constructor's argument). */
export interface QuantizedTensorFields {
  /** int8 codes of the logical shape (bits 8), or uint8 packed nibbles [..., K/2] (bits 4). */
  codes: Tensor;
  /** float32 scales, shaped by the layout. */
  scales: Tensor;
  /** int32 zero points shaped like scales (asymmetric), or null (symmetric: zero is code 0). */
  zeroPoints: Tensor | null;
  layout: ScaleLayout;
  bits: Bits;
  /** The logical (dequantized) shape. */
  shape: readonly number[];
  /** The float dtype dequantize returns. */
  dtype: FloatDType;
}

/**
 * A quantized tensor: x ≈ (codes − zeroPoints) · scales, the scales laid out
 * per tensor, per channel or per block (ScaleLayout). Made by quant.quantize,
 * read back by quant.dequantize, multiplied by quant.scaledMatmul.
 * @example
 * ```ts
 * const q = quant.quantize(tensor([[0.5, -1], [2, 4]]), { axis: 0 });
 * q.layout.kind;          // 'channel'
 * q.codes.dtype;          // 'int8'
 * q.scales.shape;         // [2]
 * q.shape;                // [2, 2]
 * ```
 */
export class QuantizedTensor implements PytreeNode {
  declare readonly [PYTREE_NODE]: true;
  readonly codes: Tensor;
  readonly scales: Tensor;
  readonly zeroPoints: Tensor | null;
  readonly layout: ScaleLayout;
  readonly bits: Bits;
  readonly shape: readonly number[];
  readonly dtype: FloatDType;

  constructor(f: QuantizedTensorFields) {
    const op = 'quant.QuantizedTensor';
    if (f.bits !== 8 && f.bits !== 4) throw new ValueError(`${op}: bits must be 8 or 4, got ${String(f.bits)}`);
    if (!(f.codes instanceof Tensor) || !(f.scales instanceof Tensor)) throw new ValueError(`${op}: codes and scales must be tensors`);
    const want = f.bits === 8 ? 'int8' : 'uint8';
    if (f.codes.dtype !== want) throw new ValueError(`${op}: ${f.bits}-bit codes must be ${want}, got ${f.codes.dtype}`);
    const codeShape = f.bits === 8 ? [...f.shape] : [...f.shape.slice(0, -1), (f.shape[f.shape.length - 1] ?? 0) / 2];
    if (!sameShape(f.codes.shape, codeShape)) throw new ShapeError(`${op}: codes of a ${f.bits}-bit tensor of shape [${f.shape}] must have shape [${codeShape}], got [${f.codes.shape}]`);
    const sShape = scaleShape(f.shape, f.layout);
    if (!sameShape(f.scales.shape, sShape)) throw new ShapeError(`${op}: scales for layout ${JSON.stringify(f.layout)} of shape [${f.shape}] must have shape [${sShape}], got [${f.scales.shape}]`);
    if (f.zeroPoints !== null && !sameShape(f.zeroPoints.shape, sShape)) throw new ShapeError(`${op}: zero points must have the scales' shape [${sShape}], got [${f.zeroPoints.shape}]`);
    this.codes = f.codes;
    this.scales = f.scales;
    this.zeroPoints = f.zeroPoints;
    this.layout = f.layout;
    this.bits = f.bits;
    this.shape = [...f.shape];
    this.dtype = f.dtype;
  }

  /** Number of logical dimensions. */
  get ndim(): number {
    return this.shape.length;
  }

  /** True when zero is code 0 (no zero points). */
  get symmetric(): boolean {
    return this.zeroPoints === null;
  }
}

registerPytreeNode(QuantizedTensor, {
  flatten(q) {
    const aux = { layout: q.layout, bits: q.bits, shape: q.shape, dtype: q.dtype, hasZero: q.zeroPoints !== null };
    return { children: q.zeroPoints ? [q.codes, q.scales, q.zeroPoints] : [q.codes, q.scales], aux, auxKey: JSON.stringify(aux) };
  },
  unflatten(auxIn, children: PyTree[]) {
    const aux = auxIn as { layout: ScaleLayout; bits: Bits; shape: number[]; dtype: FloatDType; hasZero: boolean };
    // Built without the constructor's checks: a transform may hand back other leaves (a tree.map's results).
    const q = Object.create(QuantizedTensor.prototype) as { -readonly [K in keyof QuantizedTensor]: unknown };
    q.codes = children[0];
    q.scales = children[1];
    q.zeroPoints = aux.hasZero ? children[2] : null;
    q.layout = aux.layout;
    q.bits = aux.bits;
    q.shape = aux.shape;
    q.dtype = aux.dtype;
    return q as unknown as QuantizedTensor;
  },
});

export const sameShape = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((d, i) => d === b[i]);

/** The shape of the scales of a tensor of `shape` under `layout`. */
export function scaleShape(shape: readonly number[], layout: ScaleLayout): number[] {
  if (layout.kind === 'tensor') return [];
  if (layout.kind === 'channel') return [shape[layout.axis]!];
  return [...shape.slice(0, -1), shape[shape.length - 1]! / layout.blockSize];
}

/** The integer range of the codes: symmetric codes are ±(2^(bits-1) − 1) (narrow range: −127..127, −7..7), asymmetric the full range. */
export function codeRange(bits: Bits, symmetric: boolean): [number, number] {
  const m = 2 ** (bits - 1);
  return symmetric ? [-(m - 1), m - 1] : [-m, m - 1];
}

/**
 * x (logical shape) seen so that a tensor of the layout's scale shape, passed
 * through `expand`, broadcasts against it; `back` returns to the logical shape.
 * Block layouts split the last axis into [K/blockSize, blockSize].
 */
export function layoutView(shape: readonly number[], layout: ScaleLayout): { view: (x: Tensor) => Tensor; expand: (s: Tensor) => Tensor; back: (y: Tensor) => Tensor; reduceAxes: number[] } {
  const n = shape.length;
  if (layout.kind === 'tensor') return { view: (x) => x, expand: (s) => s, back: (y) => y, reduceAxes: [...Array(n).keys()] };
  if (layout.kind === 'channel') {
    const bshape = shape.map((d, i) => (i === layout.axis ? d : 1));
    return { view: (x) => x, expand: (s) => s.reshape(bshape), back: (y) => y, reduceAxes: [...Array(n).keys()].filter((i) => i !== layout.axis) };
  }
  const k = shape[n - 1]!;
  const grouped = [...shape.slice(0, -1), k / layout.blockSize, layout.blockSize];
  return { view: (x) => x.reshape(grouped), expand: (s) => s.expandDims(-1), back: (y) => y.reshape([...shape]), reduceAxes: [n] };
}

/** Packs signed 4-bit codes (a float or integer tensor [..., K] of values in −8..7, K even) into uint8 [..., K/2]: element 2j in the low nibble. */
export function packNibbles(c: Tensor): Tensor {
  const shape = c.shape;
  const k = shape[shape.length - 1]!;
  const u = c.cast('float32');
  const n = u.where(u.ge(0), u.add(16)); // two's-complement nibble 0..15
  const pairs = n.reshape([...shape.slice(0, -1), k / 2, 2]);
  return pairs.select(-1, 0).add(pairs.select(-1, 1).mul(16)).cast('uint8');
}

/** The inverse of packNibbles: uint8 [..., K/2] → int8 [..., K] of values −8..7. */
export function unpackNibbles(b: Tensor): Tensor {
  const shape = b.shape;
  const f = b.cast('float32');
  const hi = f.div(16).floor();
  const lo = f.sub(hi.mul(16));
  const signed = (v: Tensor) => v.where(v.lt(8), v.sub(16));
  return stack([signed(lo), signed(hi)], -1)
    .reshape([...shape.slice(0, -1), shape[shape.length - 1]! * 2])
    .cast('int8');
}

/** The integer codes of q as an int8 tensor of its logical shape (4-bit codes unpacked). */
export function codesOf(q: QuantizedTensor): Tensor {
  return q.bits === 8 ? q.codes : unpackNibbles(q.codes);
}
