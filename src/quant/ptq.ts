// Post-training quantization (quant.ptq) and quantization-aware training (quant.qat).
//
// ptq follows PyTorch's static flow (prepare → calibrate → convert) in one
// call: it runs the float model on the calibration batches, recording the
// input range of every nn.Linear (max|x| for 'minmax', the given percentile of
// |x| for 'percentile', over all calibration inputs of the layer), then
// returns a new model in which every Linear is a QuantLinear: weights
// symmetric per output channel (8 bits) or per group of inputs (4 bits),
// activations 8-bit symmetric per tensor with scale = range / 127 (values
// beyond the range clamp). activations: 'dynamic' skips calibration and
// quantizes each input row by its own max|x| at run time instead
// (quantize_dynamic's idea).
//
// Models are rebuilt, not mutated: every module on the path to a Linear is a
// fresh instance with the same class and properties (as pytree unflatten
// builds them), so the model passed in is unchanged and shares its tensors.

import { Tensor } from '../tensor/tensor.js';
import { ValueError } from '../tensor/errors.js';
import { Module } from '../nn/module.js';
import { LinearModule } from '../nn/linear.js';
import type { Bits } from './quantized.js';
import { QatLinearModule, qatLinearFrom, quantLinearFrom } from './linear.js';

/** Options of quant.ptq. */
export interface PtqOptions {
  /** Weight bits: 8 (per output channel) or 4 (group-wise); default 8, or each QAT layer's own bits. */
  bits?: Bits;
  /** How calibration sets the activation range: max|x| ('minmax', default) or a percentile of |x|. */
  method?: 'minmax' | 'percentile';
  /** The percentile of |x| for method 'percentile' (default 99.99), in (0, 100]. */
  percentile?: number;
  /** 4-bit group size along the inputs (default 128, or each QAT layer's own; lowered to a divisor of in_features). */
  groupSize?: number;
  /** 'static' (default): calibrated per-tensor activation scales; 'dynamic': per-row scales at run time, no calibration needed. */
  activations?: 'static' | 'dynamic';
}

/** A calibration batch: the model's input, or an object with it as `x` (what io.batches yields). */
export type CalibrationBatch = Tensor | { x: Tensor };

/** Options of quant.qat. */
export interface QatOptions {
  /** Weight bits to train for: 8 or 4 (default 8). */
  bits?: Bits;
  /** 4-bit group size (default 128, lowered to a divisor of in_features). */
  groupSize?: number;
  /** Also fake-quantize each Linear's input, 8-bit per row (what ptq's activations: 'dynamic' computes); default false. */
  activations?: boolean;
}

/** A copy of `m` in which replace(module, path) supplies replacements (undefined: keep, recursing into its submodules). */
function mapModules(m: Module, replace: (m: Module, path: string) => Module | undefined, path = ''): Module {
  const r = replace(m, path);
  if (r) return r;
  const copy = Object.create(Object.getPrototypeOf(m) as object) as Record<string, unknown>;
  for (const k of Object.keys(m)) {
    const v = (m as unknown as Record<string, unknown>)[k];
    copy[k] = v instanceof Module ? mapModules(v, replace, path ? `${path}.${k}` : k) : v;
  }
  return copy as unknown as Module;
}

/** Records what one Linear saw during calibration. */
class Observer {
  max = 0;
  chunks: Float32Array[] = [];
  seen = 0;
  constructor(readonly keepValues: boolean) {}
  observe(x: Tensor): void {
    const a = x.abs();
    if (this.keepValues) {
      const v = Float32Array.from(a.toArray() as ArrayLike<number>);
      this.chunks.push(v);
      for (let i = 0; i < v.length; i++) if (v[i]! > this.max) this.max = v[i]!;
    } else this.max = Math.max(this.max, a.max().item() as number);
    this.seen++;
  }
  /** The q-th percentile (0-100) of every value seen, NumPy's default (linear) interpolation. */
  percentile(q: number): number {
    const n = this.chunks.reduce((s, c) => s + c.length, 0);
    const all = new Float32Array(n);
    let o = 0;
    for (const c of this.chunks) {
      all.set(c, o);
      o += c.length;
    }
    all.sort();
    const pos = ((n - 1) * q) / 100;
    const lo = Math.floor(pos),
      hi = Math.min(lo + 1, n - 1);
    return all[lo]! + (all[hi]! - all[lo]!) * (pos - lo);
  }
}

/** Observers by the calibration wrapper that owns them. */
const OBSERVERS = new WeakMap<Module, Observer>();

/** The calibration stand-in for a Linear: records its input, then runs it. */
class ObservedLinear extends Module {
  constructor(readonly inner: LinearModule) {
    super();
  }
  forward(x: Tensor): Tensor {
    if (x instanceof Tensor) OBSERVERS.get(this)!.observe(x);
    return this.inner.forward(x);
  }
}

/**
 * Post-training quantization: a new model (the input is unchanged) in which
 * every nn.Linear, at any depth, is a quant.QuantLinear: weights 8-bit per
 * output channel or 4-bit per group of inputs, activations 8-bit with a
 * static per-tensor scale calibrated on `calibrationBatches` (max|x|, or a
 * percentile of |x| with method 'percentile'), or dynamic per-row scales
 * (activations: 'dynamic'). A model from quant.qat converts with its QAT
 * bits and group size.
 * @example
 * ```ts
 * const model = nn.Sequential(nn.Linear(8, 16, { key: random.key(0) }), nn.ReLU(), nn.Linear(16, 3, { key: random.key(1) }));
 * const x = random.normal(random.key(2), [32, 8]);
 * const q = quant.ptq(model, [x], { bits: 8 });
 * q.layers[0] instanceof quant.QuantLinear;                                         // true
 * model.layers[0] instanceof nn.Linear;                                             // true
 * (q.forward(x).sub(model.forward(x)).abs().max().item() as number) < 0.05;         // true
 * ```
 */
export function ptq<M extends Module>(model: M, calibrationBatches: Iterable<CalibrationBatch>, opts: PtqOptions = {}): M {
  const op = 'quant.ptq';
  if (!(model instanceof Module)) throw new ValueError(`${op}: model must be an nn.Module, got ${model === null ? 'null' : typeof model}`);
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${op}: options must be an object, got ${opts === null ? 'null' : typeof opts}`);
  if (opts.bits !== undefined && opts.bits !== 8 && opts.bits !== 4) throw new ValueError(`${op}: bits must be 8 or 4, got ${String(opts.bits)}`);
  const method = opts.method ?? 'minmax';
  if (method !== 'minmax' && method !== 'percentile') throw new ValueError(`${op}: method must be 'minmax' or 'percentile', got ${String(method)}`);
  const pct = opts.percentile ?? 99.99;
  if (typeof pct !== 'number' || !(pct > 0 && pct <= 100)) throw new ValueError(`${op}: percentile must be a number in (0, 100], got ${String(pct)}`);
  const activations = opts.activations ?? 'static';
  if (activations !== 'static' && activations !== 'dynamic') throw new ValueError(`${op}: activations must be 'static' or 'dynamic', got ${String(activations)}`);
  if (opts.groupSize !== undefined && (!Number.isInteger(opts.groupSize) || opts.groupSize < 1)) throw new ValueError(`${op}: groupSize must be a positive integer, got ${String(opts.groupSize)}`);

  const ranges = new Map<LinearModule, number>();
  if (activations === 'static') {
    if (calibrationBatches === null || typeof (calibrationBatches as Iterable<CalibrationBatch>)?.[Symbol.iterator] !== 'function')
      throw new ValueError(`${op}: calibrationBatches must be an iterable of input tensors (or of {x} batches), got ${calibrationBatches === null ? 'null' : typeof calibrationBatches}`);
    const observers = new Map<LinearModule, Observer>();
    const calib = mapModules(model, (m) => {
      if (!(m instanceof LinearModule)) return undefined;
      const o = new ObservedLinear(m);
      const obs = new Observer(method === 'percentile');
      OBSERVERS.set(o, obs);
      observers.set(m, obs);
      return o;
    }).eval();
    let n = 0;
    for (const b of calibrationBatches) {
      const x = b instanceof Tensor ? b : (b as { x?: unknown })?.x;
      if (!(x instanceof Tensor)) throw new ValueError(`${op}: calibration batch ${n} must be a Tensor or {x: Tensor}, got ${b === null ? 'null' : typeof b}`);
      calib.forward(x);
      n++;
    }
    if (n === 0) throw new ValueError(`${op}: static activation quantization needs at least one calibration batch (or pass activations: 'dynamic')`);
    for (const [lin, obs] of observers) {
      if (obs.seen === 0) continue; // a Linear the forward pass never called: left dynamic
      ranges.set(lin, method === 'percentile' ? obs.percentile(pct) : obs.max);
    }
  }
  return mapModules(model, (m, path) => {
    if (!(m instanceof LinearModule)) return undefined;
    const qat = m instanceof QatLinearModule;
    const bits = opts.bits ?? (qat ? m.bits : 8);
    const groupSize = opts.groupSize ?? (qat ? m.groupSize : 128);
    const range = ranges.get(m);
    return quantLinearFrom(`${op} (layer '${path}')`, m, bits, groupSize, range === undefined ? undefined : range / 127);
  }) as M;
}

/**
 * Prepares a model for quantization-aware training: a new model in which
 * every nn.Linear is a QatLinear, still an nn.Linear with the same
 * `weight` and `bias` (so nn.train, optimizers and state dicts work as
 * before), whose forward uses fake-quantized weights (quant.fakeQuant with
 * the layout quant.ptq will use; straight-through gradients). Train it, then
 * quant.ptq(trained, calibrationBatches) converts it.
 * @example
 * ```ts
 * const model = nn.Sequential(nn.Linear(8, 4, { key: random.key(0) }), nn.ReLU(), nn.Linear(4, 2, { key: random.key(1) }));
 * const q = quant.qat(model, { bits: 4, groupSize: 4 });
 * q.layers[0] instanceof nn.Linear;                    // true
 * Object.keys(q.stateDict());                          // ['0.weight', '0.bias', '2.weight', '2.bias']
 * const g = grad((m: typeof q) => m.forward(ones([1, 8])).sum())(q);
 * g.layers[0] instanceof nn.Linear;                    // true
 * ```
 */
export function qat<M extends Module>(model: M, opts: QatOptions = {}): M {
  const op = 'quant.qat';
  if (!(model instanceof Module)) throw new ValueError(`${op}: model must be an nn.Module, got ${model === null ? 'null' : typeof model}`);
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${op}: options must be an object, got ${opts === null ? 'null' : typeof opts}`);
  const bits = opts.bits ?? 8;
  if (bits !== 8 && bits !== 4) throw new ValueError(`${op}: bits must be 8 or 4, got ${String(bits)}`);
  const groupSize = opts.groupSize ?? 128;
  if (!Number.isInteger(groupSize) || groupSize < 1) throw new ValueError(`${op}: groupSize must be a positive integer, got ${String(groupSize)}`);
  const act = opts.activations ?? false;
  if (typeof act !== 'boolean') throw new ValueError(`${op}: activations must be a boolean, got ${typeof act}`);
  return mapModules(model, (m, path) => (m instanceof LinearModule ? qatLinearFrom(`${op} (layer '${path}')`, m, bits, groupSize, act) : undefined)) as M;
}
