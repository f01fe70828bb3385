// Quantized linear layers.
//
// QuantLinear: y = scaledMatmul(quantized x, quantized weight) + bias. The
// weight is held as its codes and scales (module parameters `weight_codes`,
// `weight_scale`; the scale layout, bits and group size are static
// configuration). Activations are quantized on every call, 8-bit symmetric:
// with the calibrated per-tensor `input_scale` when there is one (static
// quantization, PyTorch's prepare/calibrate/convert flow), or per row from the
// row's own max|x| when `input_scale` is null (dynamic quantization, PyTorch's
// quantize_dynamic, but per row rather than per tensor).
//
// QatLinear: an nn.Linear (same parameters, `weight` and `bias`, so optimizers
// and state dicts see a Linear) whose forward fake-quantizes the weight the
// way quant.ptq will quantize it (and optionally the input, per row, 8-bit),
// with the straight-through gradient; quant.qat builds it, quant.ptq turns it
// into a QuantLinear.

import { Tensor } from '../tensor/tensor.js';
import { tensor } from '../tensor/create.js';
import { ShapeError, ValueError } from '../tensor/errors.js';
import { Module } from '../nn/module.js';
import { LinearModule } from '../nn/linear.js';
import { callableClass } from '../nn/callable.js';
import { linearAs } from '../nn/functional/layers.js';
import { QuantizedTensor, type Bits, type ScaleLayout } from './quantized.js';
import { quantize, MIN_SCALE, describe, type QuantizeOptions } from './quantize.js';
import { fakeQuant } from './fake-quant.js';
import { scaledMatmul } from './scaled-matmul.js';

/** Options of quant.QuantLinear. */
export interface QuantLinearOptions {
  /** A static activation scale (per tensor, 8-bit symmetric: codes = round(x / inputScale) clamped to ±127); default: dynamic per-row scales. */
  inputScale?: number | Tensor;
}

/**
 * How quant quantizes a Linear weight [out, in]: 8 bits per output channel;
 * 4 bits per group of `groupSize` inputs, where a group size that does not
 * divide `inFeatures` (or is odd) is lowered to the largest even divisor below it (112 for 784 at 128).
 */
export function weightQuantOptions(op: string, bits: Bits, groupSize: number, inFeatures: number): QuantizeOptions {
  if (bits !== 8 && bits !== 4) throw new ValueError(`${op}: bits must be 8 or 4, got ${String(bits)}`);
  if (bits === 8) return { bits: 8, axis: 0 };
  if (!Number.isInteger(groupSize) || groupSize < 1) throw new ValueError(`${op}: groupSize must be a positive integer, got ${String(groupSize)}`);
  if (inFeatures % 2 !== 0) throw new ShapeError(`${op}: 4-bit weights pack two inputs per byte, so inFeatures must be even; got ${inFeatures}`);
  let g = Math.min(groupSize, inFeatures);
  while (inFeatures % g !== 0 || g % 2 !== 0) g--; // int4Matmul's groups are whole bytes
  return { bits: 4, groupSize: g };
}

/** The class behind quant.QuantLinear (construct it through quant.QuantLinear, with or without `new`). */
export class QuantLinearModule extends Module {
  inFeatures: number;
  outFeatures: number;
  bits: Bits;
  /** The weight's scale layout (per channel for 8 bits, per block for 4). */
  weight_layout: ScaleLayout;
  /** int8 [out, in] (8 bits) or uint8 [out, in/2] packed nibbles (4 bits). */
  weight_codes: Tensor;
  /** float32 scales of the weight, shaped by weight_layout. */
  weight_scale: Tensor;
  /** [outFeatures], or null. */
  bias: Tensor | null;
  /** float32 scalar: the static activation scale, or null for dynamic per-row scales. */
  input_scale: Tensor | null;

  constructor(weight: QuantizedTensor, bias: Tensor | null = null, opts: QuantLinearOptions = {}) {
    super();
    const op = 'quant.QuantLinear';
    if (!(weight instanceof QuantizedTensor)) throw new ValueError(`${op}: weight must be a QuantizedTensor (quant.quantize(w, ...)), got ${describe(weight)}`);
    if (weight.ndim !== 2) throw new ShapeError(`${op}: weight must be [out, in], got shape [${weight.shape}]`);
    if (weight.zeroPoints !== null) throw new ValueError(`${op}: weights must be quantized symmetrically (symmetric: true)`);
    const [out, inF] = weight.shape as [number, number];
    if (bias !== null && (!(bias instanceof Tensor) || bias.ndim !== 1 || bias.shape[0] !== out)) throw new ShapeError(`${op}: bias must be a Tensor of shape [${out}], got ${bias instanceof Tensor ? `shape [${bias.shape}]` : typeof bias}`);
    let inputScale: Tensor | null = null;
    if (opts.inputScale !== undefined) {
      const v = opts.inputScale;
      if (typeof v === 'number' ? !(v > 0 && Number.isFinite(v)) : !(v instanceof Tensor) || v.ndim !== 0)
        throw new ValueError(`${op}: inputScale must be a positive finite number or a scalar tensor, got ${v instanceof Tensor ? `shape [${v.shape}]` : String(v)}`);
      inputScale = (typeof v === 'number' ? tensor(v, { dtype: 'float32' }) : v.cast('float32')).realize();
    }
    this.inFeatures = inF;
    this.outFeatures = out;
    this.bits = weight.bits;
    this.weight_layout = weight.layout;
    this.weight_codes = weight.codes.realize();
    this.weight_scale = weight.scales.realize();
    this.bias = bias === null ? null : bias.cast('float32').realize();
    this.input_scale = inputScale;
  }

  /** The weight as a QuantizedTensor. */
  get weight(): QuantizedTensor {
    return new QuantizedTensor({ codes: this.weight_codes, scales: this.weight_scale, zeroPoints: null, layout: this.weight_layout, bits: this.bits, shape: [this.outFeatures, this.inFeatures], dtype: 'float32' });
  }

  /** x [..., inFeatures] (float) → float [..., outFeatures] (x's dtype). */
  forward(x: Tensor): Tensor {
    const op = 'quant.QuantLinear';
    if (!(x instanceof Tensor)) throw new ValueError(`${op}: input must be a Tensor, got ${x === null ? 'null' : typeof x}`);
    if (x.ndim < 1 || x.shape[x.ndim - 1] !== this.inFeatures) throw new ShapeError(`${op}: input's last dim must be inFeatures = ${this.inFeatures}, got input shape [${x.shape}]`);
    if (x.ndim === 1) {
      const y = this.forward(x.expandDims(0));
      return y.reshape([this.outFeatures]);
    }
    const xq = this.input_scale ? quantize(x, { scale: this.input_scale }) : quantize(x, { groupSize: this.inFeatures });
    let y = scaledMatmul(xq, this.weight);
    if (this.bias) y = y.add(this.bias);
    return y.dtype === x.dtype ? y : y.cast(x.dtype);
  }
}

/**
 * A linear layer on quantized weights (torch.ao.nn.quantized.Linear's role):
 * quant.QuantLinear(weight: QuantizedTensor [out, in], bias?, {inputScale?}).
 * Inputs are quantized to int8 on each call (with the static `inputScale`, or
 * per row) and multiplied in integer arithmetic by quant.scaledMatmul.
 * quant.ptq builds these from a model's nn.Linear layers.
 * @example
 * ```ts
 * const fc = nn.Linear(4, 2, { key: random.key(0) });
 * const q = quant.QuantLinear(quant.quantize(fc.weight, { axis: 0 }), fc.bias);
 * const x = random.normal(random.key(1), [3, 4]);
 * q.forward(x).shape;                                                    // [3, 2]
 * (q.forward(x).sub(fc.forward(x)).abs().max().item() as number) < 0.05;  // true
 * Object.keys(q.stateDict());   // ['weight_codes', 'weight_scale', 'bias']
 * ```
 */
export const QuantLinear = callableClass(QuantLinearModule);
export type QuantLinear = QuantLinearModule;

/**
 * Builds a QuantLinear from an nn.Linear: weight quantized symmetrically, 8
 * bits per output channel or 4 bits per group of `groupSize` inputs
 * (weightQuantOptions); `inputScale` as in QuantLinear.
 */
export function quantLinearFrom(op: string, lin: LinearModule, bits: Bits, groupSize: number, inputScale: number | undefined): QuantLinearModule {
  const wopts = weightQuantOptions(op, bits, groupSize, lin.inFeatures);
  const q = new QuantLinearModule(quantize(lin.weight, wopts), lin.bias, inputScale === undefined ? {} : { inputScale: Math.max(inputScale, MIN_SCALE) });
  q.training = lin.training;
  return q;
}

/**
 * The class of the layers quant.qat puts in place of nn.Linear: an nn.Linear
 * (same `weight` and `bias`) whose forward fake-quantizes its weight the way
 * quant.ptq will quantize it (and, with qat's `activations`, its input).
 * @example
 * ```ts
 * const q = quant.qat(nn.Sequential(nn.Linear(8, 2, { key: random.key(0) })), { bits: 4, groupSize: 4 });
 * const layer = q.layers[0]!;
 * layer instanceof quant.QatLinearModule;   // true
 * layer instanceof nn.Linear;               // true
 * ```
 */
export class QatLinearModule extends LinearModule {
  /** Weight bits (8: per output channel; 4: per group). */
  declare bits: Bits;
  /** 4-bit group size (after lowering to a divisor of inFeatures). */
  declare groupSize: number;
  /** Fake-quantize inputs too (8-bit, per row). */
  declare fakeQuantInput: boolean;

  /** x [..., inFeatures] → [..., outFeatures] through fake-quantized weights (straight-through gradients). */
  override forward(x: Tensor): Tensor {
    const op = 'quant.QatLinear';
    const w = fakeQuant(this.weight, weightQuantOptions(op, this.bits, this.groupSize, this.inFeatures));
    const xin = this.fakeQuantInput && x instanceof Tensor && x.ndim >= 1 ? fakeQuant(x, { groupSize: x.shape[x.ndim - 1]! }) : x;
    return linearAs(op, xin, w, this.bias);
  }
}

/** A QatLinear holding `lin`'s parameters (shared: tensors are values). */
export function qatLinearFrom(op: string, lin: LinearModule, bits: Bits, groupSize: number, fakeQuantInput: boolean): QatLinearModule {
  const g = bits === 4 ? (weightQuantOptions(op, bits, groupSize, lin.inFeatures).groupSize as number) : groupSize;
  const m = Object.create(QatLinearModule.prototype) as QatLinearModule;
  for (const k of Object.keys(lin)) (m as unknown as Record<string, unknown>)[k] = (lin as unknown as Record<string, unknown>)[k];
  m.bits = bits;
  m.groupSize = g;
  m.fakeQuantInput = fakeQuantInput;
  return m;
}
