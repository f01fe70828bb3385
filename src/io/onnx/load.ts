// io.loadOnnx: an ONNX model file as a rlx model. The file is decoded
// (schema.ts), checked (interpret.ts) and its float initializers become rlx
// tensors (`weights`); the graph itself is kept and evaluated with rlx ops on
// demand, at the concrete shapes it is called with, because exported graphs
// compute their reshapes from their inputs' shapes (values.ts). Three ways to
// call it: forward() with tensors (plain rlx ops: usable under grad, jit and
// vmap, weights replaceable for differentiation), func(shapes) for a graph()
// Func whose params are the weights, and run() which compiles that Func once
// per input-shape signature and runs it.

import { readFileSync } from 'node:fs';
import { Tensor } from '../../tensor/tensor.js';
import { tensor, type TensorData } from '../../tensor/create.js';
import type { DType } from '../../tensor/dtype.js';
import { ValueError } from '../../tensor/errors.js';
import { graph, type Func, type CompiledFunc } from '../../compiler/trace.js';
import { OnnxError } from './errors.js';
import { readModel, type GraphProto } from './schema.js';
import { checkModel, evaluate } from './interpret.js';
import { type Val, isHost, protoValue, rlxDType, toTensor, elemName } from './values.js';

/** A graph input or output: its name, rlx dtype and dims (numbers, symbolic names, or null when the file leaves them unknown). */
export interface OnnxValueInfo {
  name: string;
  dtype: DType;
  shape: (number | string | null)[] | undefined;
}

/**
 * An ONNX model imported into rlx (io.loadOnnx): its inputs, outputs and weights, and run / forward / func to evaluate it.
 * @example
 * ```ts
 * const m = io.loadOnnx(Buffer.from('CAcSB3B5dG9yY2gaBjEuMTMuMDpCChMKAXgSAXkaBS9SZWx1IgRSZWx1Egl0b3JjaF9qaXRaDwoBeBIKCggIARIECgIIAmIPCgF5EgoKCAgBEgQKAggCQgIQDg==', 'base64'));   // y = Relu(x), x: float32 [2]
 * m.outputs;   // [{ name: 'y', dtype: 'float32', shape: [2] }]
 * m.opset;     // 14
 * ```
 */
export class OnnxModel {
  /** The inputs a caller provides (graph inputs that are not initializers). */
  readonly inputs: OnnxValueInfo[];
  /** The graph outputs, in the file's order. */
  readonly outputs: OnnxValueInfo[];
  /** The float initializers (the model's weights) by name: the params of func() and the defaults of forward(). */
  readonly weights: Record<string, Tensor>;
  /** The version of the default ONNX opset the model imports. */
  readonly opset: number;
  /** producer_name and producer_version of the file (e.g. 'pytorch 1.13.0'). */
  readonly producer: string;

  private readonly graphProto: GraphProto;
  private readonly constants: Map<string, Val>;
  private readonly compiled = new Map<string, CompiledFunc>();

  /** @internal Use io.loadOnnx. */
  constructor(bytes: Uint8Array) {
    const m = readModel(bytes);
    const { graph: g, opset } = checkModel(m);
    this.graphProto = g;
    this.opset = opset;
    this.producer = `${m.producerName} ${m.producerVersion}`.trim();
    this.constants = new Map();
    this.weights = {};
    for (const t of g.initializers) {
      const v = protoValue(t, `initializer '${t.name}'`);
      this.constants.set(t.name, v);
      if (!isHost(v)) this.weights[t.name] = v;
    }
    const info = (v: GraphProto['inputs'][number], what: string): OnnxValueInfo => {
      const dtype = v.elemType === undefined ? undefined : rlxDType(v.elemType);
      if (dtype === undefined) throw new OnnxError('loadOnnx', undefined, undefined, `${what} '${v.name}' has ${v.elemType === undefined ? 'no tensor type' : `element type ${elemName(v.elemType)}, which rlx does not read`}`);
      if (v.shape?.some((d) => typeof d === 'number' && (!Number.isSafeInteger(d) || d < 0))) throw new OnnxError('loadOnnx', undefined, undefined, `${what} '${v.name}' has an invalid dim in [${v.shape.join(', ')}]`);
      return { name: v.name, dtype, shape: v.shape };
    };
    this.inputs = g.inputs.filter((v) => !this.constants.has(v.name)).map((v) => info(v, 'input'));
    this.outputs = g.outputs.map((v) => info(v, 'output'));
  }

  /** Checks one input tensor against the declared dtype and numeric dims. */
  private checkInput(spec: OnnxValueInfo, t: Tensor): void {
    if (t.dtype !== spec.dtype) throw new OnnxError('run', undefined, undefined, `input '${spec.name}' must be ${spec.dtype}, got ${t.dtype}`);
    const s = spec.shape;
    if (s === undefined) return;
    if (t.shape.length !== s.length || s.some((d, i) => typeof d === 'number' && typeof t.shape[i] === 'number' && d !== t.shape[i]))
      throw new OnnxError('run', undefined, undefined, `input '${spec.name}' must have shape [${s.map((d) => d ?? '?').join(', ')}], got [${t.shape.join(', ')}]`);
  }

  /**
   * Evaluates the model with rlx ops on `inputs` (tensors of the declared dtypes), with `weights` replacing the
   * file's (some or all, by name): plain lazy tensor code, so grad, jit and vmap apply to it.
   * @example
   * ```ts
   * const m = io.loadOnnx(Buffer.from('CAcSB3B5dG9yY2gaBjEuMTMuMDpCChMKAXgSAXkaBS9SZWx1IgRSZWx1Egl0b3JjaF9qaXRaDwoBeBIKCggIARIECgIIAmIPCgF5EgoKCAgBEgQKAggCQgIQDg==', 'base64'));   // y = Relu(x)
   * const dydx = grad((x: Tensor) => m.forward({ x })['y']!.sum());
   * dydx(tensor([-1, 2], { dtype: 'float32' })).tolist();   // [0, 1]
   * ```
   */
  forward(inputs: Record<string, Tensor>, weights: Record<string, Tensor> = {}): Record<string, Tensor> {
    const env = new Map(this.constants);
    for (const [k, w] of Object.entries(weights)) {
      if (!(k in this.weights)) throw new ValueError(`OnnxModel.forward: '${k}' is not a weight of the model`);
      env.set(k, w);
    }
    for (const spec of this.inputs) {
      const t = inputs[spec.name];
      if (!(t instanceof Tensor)) throw new ValueError(`OnnxModel.forward: input '${spec.name}' is missing or not a Tensor (inputs: ${this.inputs.map((i) => i.name).join(', ')})`);
      this.checkInput(spec, t);
      env.set(spec.name, t);
    }
    for (const k of Object.keys(inputs)) if (!this.inputs.some((i) => i.name === k)) throw new ValueError(`OnnxModel.forward: unknown input '${k}' (inputs: ${this.inputs.map((i) => i.name).join(', ')})`);
    const outs = evaluate(this.graphProto, this.opset, env);
    return Object.fromEntries(this.outputs.map((o, i) => [o.name, toTensor(outs[i]!, `output '${o.name}'`)]));
  }

  /**
   * The model as a graph() Func at concrete input shapes (default: the file's, when every dim is a number):
   * inputs are the model's inputs, params its weights, outputs a record by output name.
   * @example
   * ```ts
   * const m = io.loadOnnx(Buffer.from('CAcSB3B5dG9yY2gaBjEuMTMuMDpCChMKAXgSAXkaBS9SZWx1IgRSZWx1Egl0b3JjaF9qaXRaDwoBeBIKCggIARIECgIIAmIPCgF5EgoKCAgBEgQKAggCQgIQDg==', 'base64'));   // y = Relu(x), x: float32 [2]
   * const f = m.func();
   * f.inputNames;   // ['x']
   * (f.compile().run({ x: tensor([3, -3], { dtype: 'float32' }) }) as Record<string, Tensor>)['y']!.tolist();   // [3, 0]
   * ```
   */
  func(shapes: Record<string, number[]> = {}): Func {
    return graph(this.graphProto.name || 'onnx', (g) => {
      const inputs: Record<string, Tensor> = {};
      for (const spec of this.inputs) {
        const shape = shapes[spec.name] ?? spec.shape;
        if (shape === undefined || shape.some((d) => typeof d !== 'number')) throw new OnnxError('run', undefined, undefined, `input '${spec.name}' has dims [${(spec.shape ?? ['?']).map((d) => d ?? '?').join(', ')}] that are not all numbers: pass its shape to func({ '${spec.name}': [...] })`);
        inputs[spec.name] = g.input(spec.name, shape as number[], spec.dtype);
      }
      const weights = Object.fromEntries(Object.entries(this.weights).map(([k, w]) => [k, g.param(k, w.shape as number[], w.dtype)]));
      return this.forward(inputs, weights);
    });
  }

  /**
   * Runs the model: compiled once per set of input shapes (cached), then executed; returns {outputName: Tensor}.
   * @example
   * ```ts
   * const m = io.loadOnnx(Buffer.from('CAcSB3B5dG9yY2gaBjEuMTMuMDpCChMKAXgSAXkaBS9SZWx1IgRSZWx1Egl0b3JjaF9qaXRaDwoBeBIKCggIARIECgIIAmIPCgF5EgoKCAgBEgQKAggCQgIQDg==', 'base64'));   // y = Relu(x), x: float32 [2]
   * m.run({ x: [-0.5, 0.5] })['y']!.tolist();   // [0, 0.5]
   * ```
   */
  run(inputs: Record<string, Tensor | TensorData>): Record<string, Tensor> {
    const ts: Record<string, Tensor> = {};
    for (const spec of this.inputs) {
      const v = inputs[spec.name];
      if (v === undefined) throw new ValueError(`OnnxModel.run: missing input '${spec.name}' (inputs: ${this.inputs.map((i) => i.name).join(', ')})`);
      ts[spec.name] = v instanceof Tensor ? v : tensor(v, { dtype: spec.dtype });
      this.checkInput(spec, ts[spec.name]!);
    }
    for (const k of Object.keys(inputs)) if (!(k in ts)) throw new ValueError(`OnnxModel.run: unknown input '${k}' (inputs: ${this.inputs.map((i) => i.name).join(', ')})`);
    const key = this.inputs.map((i) => `${i.name}:${ts[i.name]!.shape.join('x')}`).join(';');
    let exe = this.compiled.get(key);
    if (exe === undefined) {
      exe = this.func(Object.fromEntries(Object.entries(ts).map(([k, t]) => [k, t.shape as number[]]))).compile();
      this.compiled.set(key, exe);
    }
    return exe.run({ ...ts, ...this.weights }) as Record<string, Tensor>;
  }
}

/**
 * Imports an ONNX model (a path or the file's bytes) as an OnnxModel: run(inputs) → {output: Tensor}, forward() for grad/jit, func() for a graph Func.
 * @example
 * ```ts
 * // y = Relu(x) for x of shape [2], as a 91-byte ONNX file (torch.onnx.export of nn.ReLU, opset 14).
 * const bytes = Buffer.from('CAcSB3B5dG9yY2gaBjEuMTMuMDpCChMKAXgSAXkaBS9SZWx1IgRSZWx1Egl0b3JjaF9qaXRaDwoBeBIKCggIARIECgIIAmIPCgF5EgoKCAgBEgQKAggCQgIQDg==', 'base64');
 * const m = io.loadOnnx(bytes);
 * m.inputs;   // [{ name: 'x', dtype: 'float32', shape: [2] }]
 * m.run({ x: [-1, 2] })['y']!.tolist();   // [0, 2]
 * ```
 */
export function loadOnnx(source: string | Uint8Array): OnnxModel {
  let bytes: Uint8Array;
  if (typeof source === 'string') bytes = readFileSync(source);
  else if (source instanceof Uint8Array) bytes = source;
  else throw new ValueError(`io.loadOnnx: expects a path or a Uint8Array, got ${source === null ? 'null' : typeof source}`);
  return new OnnxModel(bytes);
}
