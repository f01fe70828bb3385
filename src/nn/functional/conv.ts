// 2-D convolution (torch.nn.functional.conv2d, NCHW) as im2col + matmul over
// the tensor ops: every kernel tap is a strided slice of the padded input, the
// taps are stacked into columns and one batched matmul per group contracts
// them with the weight. No conv primitive: grad, vmap and jit see slices,
// pads and a matmul they already know.

import type { Tensor } from '../../tensor/tensor.js';
import { stack } from '../../tensor/ops/movement.js';
import { s, ax, rg } from '../../tensor/slicing.js';
import { ShapeError, ValueError } from '../../tensor/errors.js';
import { checkFloatTensor } from './check.js';

/** A size per spatial dim: one number for both, or [height, width]. */
export type Pair = number | readonly [number, number];

/** Options of conv2d (PyTorch's). */
export interface Conv2dOptions {
  /** Step between output positions (default 1). */
  stride?: Pair;
  /** Zero padding per side (default 0), or 'valid' (none) / 'same' (output size = input size; stride 1 only). */
  padding?: Pair | 'valid' | 'same';
  /** Spacing between kernel taps (default 1). */
  dilation?: Pair;
  /** Input and output channels split into this many independent groups (default 1). */
  groups?: number;
}

/** A Pair as [h, w] of integers ≥ min, or a ValueError naming the op and option. */
export function pairOf(op: string, name: string, v: Pair, min: number): [number, number] {
  const p = typeof v === 'number' ? [v, v] : Array.isArray(v) && v.length === 2 ? [v[0], v[1]] : null;
  if (p === null || p.some((x) => typeof x !== 'number' || !Number.isInteger(x) || x < min)) throw new ValueError(`${op}: ${name} must be an integer ≥ ${min} or a pair of them, got ${JSON.stringify(v)}`);
  return p as [number, number];
}

/**
 * 2-D convolution (cross-correlation, as PyTorch): x [N, C, H, W] (or [C, H, W]), weight [O, C/groups, kh, kw], bias [O] or null → [N, O, Ho, Wo].
 * @example
 * ```ts
 * const x = arange(9).reshape([1, 1, 3, 3]);
 * nn.functional.conv2d(x, ones([1, 1, 2, 2])).tolist();   // [[[[8, 12], [20, 24]]]]
 * ```
 */
export function conv2d(x: Tensor, weight: Tensor, bias: Tensor | null = null, opts: Conv2dOptions = {}): Tensor {
  return conv2dAs('conv2d', x, weight, bias, opts);
}

/** conv2d with errors naming `op` (the layer that calls it). */
export function conv2dAs(op: string, x: Tensor, weight: Tensor, bias: Tensor | null, opts: Conv2dOptions): Tensor {
  checkFloatTensor(op, 'input', x);
  checkFloatTensor(op, 'weight', weight);
  if (x.ndim !== 3 && x.ndim !== 4) throw new ShapeError(`${op}: input must be [N, C, H, W] or [C, H, W], got [${x.shape}]`);
  if (weight.ndim !== 4) throw new ShapeError(`${op}: weight must be [outCh, inCh/groups, kh, kw], got [${weight.shape}]`);
  const unbatched = x.ndim === 3;
  const xb = unbatched ? x.expandDims(0) : x;
  const [N, C, H, W] = xb.shape as [number, number, number, number];
  const [O, Cg, kh, kw] = weight.shape as [number, number, number, number];
  const groups = opts.groups ?? 1;
  if (!Number.isInteger(groups) || groups < 1) throw new ValueError(`${op}: groups must be a positive integer, got ${groups}`);
  if (C !== Cg * groups) throw new ShapeError(`${op}: input has ${C} channels but weight [${weight.shape}] with groups = ${groups} expects ${Cg * groups}`);
  if (O % groups !== 0) throw new ShapeError(`${op}: out channels ${O} must be divisible by groups = ${groups}`);
  const [sh, sw] = pairOf(op, 'stride', opts.stride ?? 1, 1);
  const [dh, dw] = pairOf(op, 'dilation', opts.dilation ?? 1, 1);
  const padding = opts.padding ?? 0;
  let pads: [[number, number], [number, number]];
  if (padding === 'valid') pads = [[0, 0], [0, 0]];
  else if (padding === 'same') {
    if (sh !== 1 || sw !== 1) throw new ValueError(`${op}: padding 'same' needs stride 1, got stride [${sh}, ${sw}]`);
    // PyTorch puts the odd pixel of the total padding at the end.
    const th = dh * (kh - 1),
      tw = dw * (kw - 1);
    pads = [[th >> 1, th - (th >> 1)], [tw >> 1, tw - (tw >> 1)]];
  } else {
    const [ph, pw] = pairOf(op, 'padding', padding, 0);
    pads = [[ph, ph], [pw, pw]];
  }
  const Hp = H + pads[0][0] + pads[0][1],
    Wp = W + pads[1][0] + pads[1][1];
  const Ho = Math.floor((Hp - dh * (kh - 1) - 1) / sh) + 1,
    Wo = Math.floor((Wp - dw * (kw - 1) - 1) / sw) + 1;
  if (Ho < 1 || Wo < 1) throw new ShapeError(`${op}: the (dilated) kernel ${kh}x${kw} is larger than the padded input ${Hp}x${Wp}`);
  const xp = xb.pad([[0, 0], [0, 0], pads[0], pads[1]]);
  // One strided view per kernel tap, [N, C, Ho, Wo]; stacked in the weight's (kh, kw) order after C.
  const taps: Tensor[] = [];
  for (let i = 0; i < kh; i++)
    for (let j = 0; j < kw; j++) taps.push(xp.slice(s(ax(), ax(), rg(i * dh, i * dh + sh * (Ho - 1) + 1, sh), rg(j * dw, j * dw + sw * (Wo - 1) + 1, sw))));
  const K = Cg * kh * kw;
  const cols = stack(taps, 2).reshape([N, groups, K, Ho * Wo]);
  let y = weight.reshape([groups, O / groups, K]).matmul(cols).reshape([N, O, Ho, Wo]);
  if (bias !== null && bias !== undefined) {
    if (bias.ndim !== 1 || bias.shape[0] !== O) throw new ShapeError(`${op}: bias must have shape [${O}], got [${bias.shape}]`);
    y = y.add(bias.reshape([O, 1, 1]));
  }
  return unbatched ? y.reshape([O, Ho, Wo]) : y;
}
