// How an ONNX operator is implemented in rlx: an OpImpl takes the node's input
// values (undefined for an omitted optional input) and a context holding its
// attributes and opset, and returns its outputs. The ops-*.ts files each
// export a table of OpImpls by op type; OPS merges them, and its keys are the
// list of supported operators that loadOnnx checks a model against.

import { OnnxError } from './errors.js';
import { ATTR, type AttributeProto, type NodeProto } from './schema.js';
import { type Host, type Val, isHost, isFloatElem, protoHost, elemName } from './values.js';

/** A node's attributes and opset, and its name for errors. */
export class NodeCtx {
  private readonly attrs: Map<string, AttributeProto>;
  constructor(
    readonly node: NodeProto,
    /** The opset version of the node's domain that the model imports. */
    readonly opset: number,
  ) {
    this.attrs = new Map(node.attributes.map((a) => [a.name, a]));
  }

  /** "OpType 'name'", how errors name the node. */
  get label(): string {
    return `${this.node.opType} '${this.node.name}'`;
  }

  fail(detail: string): never {
    throw new OnnxError('run', undefined, this.label, detail);
  }

  has(name: string): boolean {
    return this.attrs.has(name);
  }

  private get(name: string, type: number): AttributeProto | undefined {
    const a = this.attrs.get(name);
    if (a !== undefined && a.type !== type && a.type !== 0) this.fail(`attribute '${name}' has type ${a.type}, expected ${type}`);
    return a;
  }

  int(name: string, def?: number): number {
    const a = this.get(name, ATTR.INT);
    if (a !== undefined) return a.i;
    if (def === undefined) this.fail(`attribute '${name}' is required`);
    return def;
  }

  ints(name: string, def?: number[]): number[] {
    const a = this.get(name, ATTR.INTS);
    if (a !== undefined) return a.ints;
    if (def === undefined) this.fail(`attribute '${name}' is required`);
    return def;
  }

  float(name: string, def: number): number {
    const a = this.get(name, ATTR.FLOAT);
    return a !== undefined ? a.f : def;
  }

  floats(name: string): number[] | undefined {
    return this.get(name, ATTR.FLOATS)?.floats;
  }

  string(name: string, def: string): string {
    const a = this.get(name, ATTR.STRING);
    return a !== undefined ? new TextDecoder().decode(a.s) : def;
  }

  tensor(name: string): Host | undefined {
    const a = this.get(name, ATTR.TENSOR);
    if (a === undefined) return undefined;
    if (a.t === undefined) this.fail(`attribute '${name}' holds no tensor`);
    return protoHost(a.t, `${this.label} attribute '${name}'`);
  }

  /** Input i, which the op requires. */
  input(ins: readonly (Val | undefined)[], i: number, what: string): Val {
    const v = ins[i];
    if (v === undefined) this.fail(`input ${i} (${what}) is required`);
    return v;
  }

  /** Input i as host integers (shapes, axes, indices of slices): it must be a constant of the graph. */
  hostInts(ins: readonly (Val | undefined)[], i: number, what: string): number[] {
    const v = this.input(ins, i, what);
    if (!isHost(v)) this.fail(`input ${i} (${what}) must be a constant or computed from shapes; it depends on the model's inputs`);
    if (isFloatElem(v.elem)) this.fail(`input ${i} (${what}) must be integers, got ${elemName(v.elem)}`);
    return v.data;
  }

  /** An axis attribute or input normalised to [0, rank). */
  axis(a: number, rank: number, what = 'axis'): number {
    if (!Number.isInteger(a) || a < -rank || a >= rank) this.fail(`${what} ${a} is out of range for rank ${rank}`);
    return a < 0 ? a + rank : a;
  }
}

/** An operator: the node's inputs (undefined where omitted) → its outputs. */
export type OpImpl = (ins: readonly (Val | undefined)[], ctx: NodeCtx) => Val[];
