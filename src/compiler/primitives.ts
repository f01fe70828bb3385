// The closed set of primitives and their shape/dtype rules.
//
// User ops (src/tensor/ops) promote dtypes and make broadcasting explicit, then
// `bind` a primitive; so elementwise primitives see inputs of one shape, and the
// rule here only checks it. Derivative and batching rules will be registered per
// primitive in typed tables keyed by `Primitive`, next to these.

import { DTypeError, ShapeError } from '../tensor/errors.js';
import type { DType } from '../tensor/dtype.js';
import { isComplex, realDType, complexDType, isFloat, floatToInt } from '../tensor/dtype.js';
import { type Dim, type Shape, fmtShape, shapesEqual, staticSize } from '../tensor/shape.js';
import { type Attrs, Node, refreshDepth, parentsOf, attrsOf, producerOf } from './ir.js';
import { config } from './config.js';
import { type OpLayout, opInfer, opLayout, partInfer } from './op-registry.js';
import { f16BitsToF32, f32ToF16Bits, bf16BitsToF32, f32ToBf16Bits } from '../tensor/half.js';

export const UNARY_OPS = [
  'neg', 'abs', 'sign', 'exp', 'log', 'log1p', 'expm1', 'sqrt', 'rsqrt',
  'sin', 'cos', 'tan', 'tanh', 'sinh', 'cosh', 'asin', 'acos', 'atan',
  'floor', 'ceil', 'round', 'erf', 'sigmoid', 'softplus', 'gelu',
  'real', 'imag', 'conj', 'angle', 'logicalNot', 'cast',
  // Identity whose derivative is zero (removed by simplification before lowering).
  'stopGradient',
] as const;
export const BINARY_OPS = [
  'add', 'sub', 'mul', 'div', 'pow', 'maximum', 'minimum', 'atan2',
  'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr', 'complex',
] as const;
export const REDUCE_OPS = ['sum', 'prod', 'max', 'min', 'argmax', 'argmin'] as const;
export const MOVEMENT_OPS = ['reshape', 'permute', 'expand', 'slice'] as const;
/** Ops that run as whole kernels of their own (not fused into loops). */
export const OPAQUE_OPS = ['matmul', 'cumsum', 'gather', 'scatterAdd', 'concat', 'pad', 'registered', 'part'] as const;
/** Ops kept whole in the graph that a backend may run natively or decompose. */
export const COMPOSITE_OPS = ['logsumexp', 'custom'] as const;
/** Control flow: whole kernels that run compiled sub-graphs (src/compiler/control). */
export const CONTROL_OPS = ['scan', 'while', 'cond'] as const;
export const LEAF_OPS = ['buffer', 'const', 'input'] as const;

export type UnaryOp = (typeof UNARY_OPS)[number];
export type BinaryOp = (typeof BINARY_OPS)[number];
export type ReduceOp = (typeof REDUCE_OPS)[number];
export type MovementOp = (typeof MOVEMENT_OPS)[number];
export type OpaqueOp = (typeof OPAQUE_OPS)[number];
export type CompositeOp = (typeof COMPOSITE_OPS)[number];
export type ControlOp = (typeof CONTROL_OPS)[number];
export type ElementwiseOp = UnaryOp | BinaryOp | 'where';
export type Primitive = (typeof LEAF_OPS)[number] | ElementwiseOp | ReduceOp | MovementOp | OpaqueOp | CompositeOp | ControlOp;

export type OpKind = 'leaf' | 'elementwise' | 'reduce' | 'movement' | 'opaque' | 'composite';

interface Abstract {
  shape: Dim[];
  dtype: DType;
}
/** Shape/dtype rule: checks inputs and attrs, returns the output's abstract value. */
type InferRule = (inputs: readonly Node[], attrs: Attrs) => Abstract;

interface PrimitiveDef {
  kind: OpKind;
  infer: InferRule;
}

const sameShape = (op: string, xs: readonly Node[]): Dim[] => {
  const s = xs[0]!.shape;
  for (const x of xs) {
    if (!shapesEqual(x.shape, s)) throw new ShapeError(`${op}: primitive expects equal shapes, got ${xs.map((y) => fmtShape(y.shape)).join(', ')}`);
  }
  return [...s];
};
const sameDType = (op: string, xs: readonly Node[]): DType => {
  const d = xs[0]!.dtype;
  for (const x of xs) if (x.dtype !== d) throw new DTypeError(`${op}: primitive expects equal dtypes, got ${xs.map((y) => y.dtype).join(', ')}`);
  return d;
};

// Output dtype of unary ops whose result is not the input dtype.
const UNARY_OUT: Partial<Record<UnaryOp, (d: DType, a: Attrs) => DType>> = {
  abs: (d) => realDType(d),
  real: (d) => realDType(d),
  imag: (d) => realDType(d),
  angle: (d) => realDType(d),
  logicalNot: () => 'bool',
  cast: (_d, a) => a['dtype'] as DType,
};
const COMPARISONS = new Set<BinaryOp>(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr']);

const unary = (op: UnaryOp): PrimitiveDef => ({
  kind: 'elementwise',
  infer: ([x], a) => ({ shape: [...x!.shape], dtype: UNARY_OUT[op]?.(x!.dtype, a) ?? x!.dtype }),
});
const binary = (op: BinaryOp): PrimitiveDef => ({
  kind: 'elementwise',
  infer: (xs) => {
    const shape = sameShape(op, xs);
    const d = sameDType(op, xs);
    if (op === 'complex') {
      if (!isFloat(d)) throw new DTypeError(`complex: expects real floating inputs, got ${d}`);
      return { shape, dtype: complexDType(d) };
    }
    return { shape, dtype: COMPARISONS.has(op) ? 'bool' : d };
  },
});

const reduceRule =
  (op: ReduceOp): InferRule =>
  ([x], a) => {
    const axes = a['axes'] as number[];
    const shape = x!.shape.filter((_, i) => !axes.includes(i));
    if ((op === 'max' || op === 'min' || op === 'argmax' || op === 'argmin') && isComplex(x!.dtype)) {
      throw new DTypeError(`${op}: complex values have no order (got ${x!.dtype})`);
    }
    return { shape, dtype: op === 'argmax' || op === 'argmin' ? 'int32' : x!.dtype };
  };

const leaf: PrimitiveDef = { kind: 'leaf', infer: () => { throw new Error('leaves are built directly'); } };

/** The primitive table: every primitive's kind and shape/dtype rule. */
export const PRIMITIVES: { readonly [P in Primitive]: PrimitiveDef } = {
  buffer: leaf,
  const: leaf,
  input: leaf,
  ...(Object.fromEntries(UNARY_OPS.map((o) => [o, unary(o)])) as Record<UnaryOp, PrimitiveDef>),
  ...(Object.fromEntries(BINARY_OPS.map((o) => [o, binary(o)])) as Record<BinaryOp, PrimitiveDef>),
  where: {
    kind: 'elementwise',
    infer: ([c, x, y]) => {
      if (c!.dtype !== 'bool') throw new DTypeError(`where: condition must be bool, got ${c!.dtype}`);
      return { shape: sameShape('where', [c!, x!, y!]), dtype: sameDType('where', [x!, y!]) };
    },
  },
  ...(Object.fromEntries(REDUCE_OPS.map((o) => [o, { kind: 'reduce', infer: reduceRule(o) }])) as Record<ReduceOp, PrimitiveDef>),
  reshape: {
    kind: 'movement',
    infer: ([x], a) => {
      const shape = a['shape'] as Dim[];
      const n0 = staticSize(x!.shape),
        n1 = staticSize(shape);
      if (n0 !== undefined && n1 !== undefined && n0 !== n1) throw new ShapeError(`reshape: cannot reshape ${fmtShape(x!.shape)} (${n0} elements) into ${fmtShape(shape)} (${n1} elements)`);
      return { shape: [...shape], dtype: x!.dtype };
    },
  },
  permute: {
    kind: 'movement',
    infer: ([x], a) => ({ shape: (a['perm'] as number[]).map((p) => x!.shape[p]!), dtype: x!.dtype }),
  },
  expand: { kind: 'movement', infer: ([x], a) => ({ shape: [...(a['shape'] as Dim[])], dtype: x!.dtype }) },
  slice: {
    kind: 'movement',
    // attrs: start[i], step[i], size[i] per axis (negative steps walk backwards).
    infer: ([x], a) => ({ shape: [...(a['size'] as Dim[])], dtype: x!.dtype }),
  },
  matmul: {
    kind: 'opaque',
    // [...b, m, k] @ [...b, k, n] -> [...b, m, n]; batch dims already broadcast.
    infer: ([x, y]) => {
      const r = x!.shape.length;
      const d = sameDType('matmul', [x!, y!]);
      if (r < 2 || y!.shape.length !== r || x!.shape[r - 1] !== y!.shape[r - 2] || !shapesEqual(x!.shape.slice(0, -2), y!.shape.slice(0, -2))) {
        throw new ShapeError(`matmul: primitive expects [...b, m, k] @ [...b, k, n], got ${fmtShape(x!.shape)} @ ${fmtShape(y!.shape)}`);
      }
      return { shape: [...x!.shape.slice(0, -1), y!.shape[r - 1]!], dtype: d };
    },
  },
  cumsum: { kind: 'opaque', infer: ([x]) => ({ shape: [...x!.shape], dtype: x!.dtype }) },
  gather: {
    kind: 'opaque',
    // np.take(x, indices, axis): x.shape[:axis] + indices.shape + x.shape[axis+1:]
    infer: ([x, idx], a) => {
      const ax = a['axis'] as number;
      if (idx!.dtype !== 'int32') throw new DTypeError(`gather: indices must be int32, got ${idx!.dtype}`);
      return { shape: [...x!.shape.slice(0, ax), ...idx!.shape, ...x!.shape.slice(ax + 1)], dtype: x!.dtype };
    },
  },
  scatterAdd: {
    kind: 'opaque',
    infer: ([x, idx, upd]) => {
      if (idx!.dtype !== 'int32') throw new DTypeError(`scatterAdd: indices must be int32, got ${idx!.dtype}`);
      sameDType('scatterAdd', [x!, upd!]);
      return { shape: [...x!.shape], dtype: x!.dtype };
    },
  },
  concat: {
    kind: 'opaque',
    infer: (xs, a) => {
      const ax = a['axis'] as number;
      const d = sameDType('concat', xs);
      let total: Dim = 0;
      for (const x of xs) total = typeof total === 'number' && typeof x.shape[ax] === 'number' ? total + (x.shape[ax] as number) : '?';
      if (total === '?') throw new ShapeError('concat: the concatenated axis must be static');
      const shape = [...xs[0]!.shape];
      shape[ax] = total;
      return { shape, dtype: d };
    },
  },
  pad: {
    kind: 'opaque',
    infer: ([x], a) => {
      const w = a['widths'] as [number, number][];
      return { shape: x!.shape.map((d, i) => (typeof d === 'number' ? d + w[i]![0] + w[i]![1] : w[i]![0] + w[i]![1] === 0 ? d : '?')), dtype: x!.dtype };
    },
  },
  // An op a module registered (attrs.op names it: linalg factorizations and
  // solves, sparse products and solves, ...): compiler/op-registry.ts. The
  // node is the op's call and its value is the op's first output; every
  // further output i is a 'part' node (attrs.index = i) over the call, with
  // its own shape and dtype. The call's kernel writes all of them at once.
  registered: { kind: 'opaque', infer: opInfer },
  part: { kind: 'opaque', infer: partInfer },
  logsumexp: { kind: 'composite', infer: reduceRule('sum') },
  // Control flow packs every result into one flat tensor of one dtype (attrs.total,
  // attrs.dtype) that users see through slice/reshape views: single-output nodes.
  scan: { kind: 'opaque', infer: (_x, a) => ({ shape: [a['total'] as number], dtype: a['dtype'] as DType }) },
  while: { kind: 'opaque', infer: (_x, a) => ({ shape: [a['total'] as number], dtype: a['dtype'] as DType }) },
  cond: { kind: 'opaque', infer: (_x, a) => ({ shape: [a['total'] as number], dtype: a['dtype'] as DType }) },
  // custom(inputs..., value): value with user-given derivative rules (attrs.rule).
  custom: { kind: 'composite', infer: (xs) => ({ shape: [...xs[xs.length - 1]!.shape], dtype: xs[xs.length - 1]!.dtype }) },
};

export const kindOf = (op: Primitive): OpKind => PRIMITIVES[op].kind;

/** Creates the node for primitive `op` applied to `inputs`, after its shape/dtype rule. */
export function bind(op: Primitive, inputs: Node[], attrs: Attrs = {}): Node {
  // A registered call is born with its part nodes; a part is looked up, not made twice.
  if (op === 'part') return partOf(inputs[0]!, attrs['index'] as number);
  const { shape, dtype } = PRIMITIVES[op].infer(inputs, attrs);
  const n = bindInferred(op, inputs, attrs, shape, dtype);
  if (op === 'registered') bindParts(n);
  return n;
}

// The outputs of each registered call, [call, part 1, part 2, ...], are its
// Node.parts. Every call gets its parts when it is bound (bind, bindOp), so a
// realization can compute all of them together (realize.ts keeps 'call
// realized ⇒ its parts realized').

/** Creates the part nodes of a freshly bound registered call (none for a single-output op); `l`: its layout, when the caller has it. */
export function bindParts(call: Node, l: OpLayout = opLayout(parentsOf(call), attrsOf(call))): void {
  const n = l.parts.length;
  if (n < 2) return;
  const outs: Node[] = new Array(n);
  outs[0] = call;
  for (let i = 1; i < n; i++) {
    const p = new Node('part', [call], PART_ATTRS[i] ?? { index: i }, l.shapes[i]!, l.parts[i]!.dtype);
    p.device = call.device;
    outs[i] = p;
  }
  call.parts = outs;
}
// Shared attrs of the first parts (attrs are never mutated; sharing keeps keys cheap).
const PART_ATTRS: Attrs[] = Array.from({ length: 8 }, (_, i) => Object.freeze({ index: i }));

/** Every output node of a registered call, the call first (just [call] for a single-output op). */
export function callOutputs(call: Node): readonly Node[] {
  return call.parts ?? [call];
}

/** Output `index` of registered call `call` (0: the call itself). */
export function partOf(call: Node, index: number): Node {
  const n = index === 0 ? call : call.parts?.[index];
  if (n === undefined) throw new Error(`internal: registered call #${call.id} (${producerOf(call)}) has no output ${index}`);
  return n;
}

// Computing nodes is the compiler runtime's job (realize.ts, a layer above this
// one): it installs itself here when loaded, and tensor/tensor.ts, through
// which every graph is built, imports it. Binding on bare nodes without it
// (a pass's unit test) just leaves deep graphs uncut.
let realizeDeep: (nodes: Node[]) => void = () => {};
/** Called once by realize.ts: how bindInferred computes inputs past the depth limit. */
export function setDeepRealizer(f: (nodes: Node[]) => void): void {
  realizeDeep = f;
}

/**
 * bind() for a caller that already holds what op's shape/dtype rule returns
 * for these inputs and attrs (a memo of it: the linalg ops' layouts), so the
 * rule is not run again. `shape` may be shared with other nodes (shapes are
 * never mutated).
 */
export function bindInferred(op: Primitive, inputs: Node[], attrs: Attrs, shape: Shape, dtype: DType): Node {
  // A lazy graph never grows without bound: past the depth limit the deepest
  // inputs are computed now (they become leaves).
  let deep: Node[] | undefined;
  for (let i = 0; i < inputs.length; i++) {
    const x = inputs[i]!;
    if (x.depth >= config.maxGraphDepth && !x.symbolic && refreshDepth(x) >= config.maxGraphDepth) (deep ??= []).push(x);
  }
  if (deep) realizeDeep(deep);
  const n = new Node(op, inputs, attrs, shape, dtype);
  for (const x of inputs) if (x.device !== undefined) n.device = x.device;
  return n;
}

/** Literal node: one value broadcast to `shape` (no storage); [re, im] for complex dtypes. */
export function constNode(value: number | readonly [number, number], dtype: DType, shape: Shape = []): Node {
  // A literal takes its dtype's precision first (NEP 50: f32 tensor * 0.1 uses float32(0.1)).
  const r = (x: number) => roundToDType(x, dtype);
  const v = typeof value === 'number' ? (isComplex(dtype) ? [r(value), 0] : r(value)) : isComplex(dtype) ? [r(value[0]), r(value[1])] : r(value[0]);
  return new Node('const', [], { value: v }, shape, dtype);
}

/** x rounded to the values dtype d can hold (casting semantics for literals). */
export function roundToDType(x: number, d: DType): number {
  switch (d) {
    case 'float32':
    case 'complex64':
      return Math.fround(x);
    case 'float16':
      return f16BitsToF32(f32ToF16Bits(x));
    case 'bfloat16':
      return bf16BitsToF32(f32ToBf16Bits(Math.fround(x)));
    case 'int32':
      return Math.trunc(x) | 0;
    case 'int8':
    case 'uint8':
      return floatToInt(x, d); // astype's rule (dtype.ts): truncate, then modulo 256
    case 'bool':
      return x !== 0 ? 1 : 0;
    default:
      return x;
  }
}
