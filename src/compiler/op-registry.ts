// Registered ops: the 'registered' primitive is every op a module adds to the
// IR without touching the compiler (the dense factorizations and solves of
// src/linalg/ops, the sparse products and solves of src/sparse/graph, and the
// modules to come: FFT, random numbers, ...). Each op is registered by name
// with its shape rule, its kernel family and kernel call, and optional
// derivative and batching rules, next to the op in its module.
//
// Why one primitive and a registry instead of a primitive per op: the rules
// that every pass and transform needs are the same for all of them (leading
// batch dims, whole-op kernels whose inputs are buffers, several outputs), so
// they are written once here; what differs per op lives in one file per op.
// Kernels reach a device through the kernel registry (kernel-registry.ts),
// keyed by device and the op's family: a device without them cannot run the op
// (the dispatch contract answers undefined: a LegalizationError).
//
// Several outputs: the IR has single-output nodes, so a registered node
// produces its parts packed along one last axis, [...batch, total], in the
// parts' common dtype, and users see each part through a slice + reshape (+ cast
// back) view (`unpackParts`). Integer parts stored in a float dtype are exact
// integers up to 2^24 (float32) or 2^53 (float64).

import type { DType } from '../tensor/dtype.js';
import { promoteTypes } from '../tensor/dtype.js';
import { ShapeError } from '../tensor/errors.js';
import { type Dim, fmtShape, shapesEqual } from '../tensor/shape.js';
import type { StorageArray } from '../tensor/dtype.js';
import { type Attrs, type Node, attrsKey } from './ir.js';
import { DTYPE_INFO, allocStorage } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import type { RuleCtx } from './transforms/rule-types.js';
import { type KernelFamily, hasKernels, kernelDevices, kernelsFor } from './kernel-registry.js';

/** The abstract value of one part (without batch dims). */
export interface PartAval {
  shape: number[];
  dtype: DType;
}

/** What a registered op's derivative rules see: the primal context plus the unpacked outputs. */
export interface OpRuleCtx extends RuleCtx {
  /** The op's outputs (each with the batch dims), as the user sees them. */
  outs: Tensor[];
}

/** What a kernel call gets: contiguous inputs, one output array per part. */
export interface OpRunArgs {
  /** Number of matrices (product of the batch dims). */
  batch: number;
  ins: StorageArray[];
  /** Core shapes of the inputs (batch dims removed). */
  inShapes: number[][];
  inDTypes: DType[];
  /** One array per part, in the part's dtype, of length batch · part size. */
  outs: StorageArray[];
  attrs: Attrs;
}

/** How a registered op maps under vmap: 'leading' (the default) batches over leading batch dims; 'none' has no batching rule. */
export type OpBatching = 'leading' | 'none';

export interface OpDef<K = unknown> {
  /** The kernel family that runs it (declared by the op's module: kernel-registry.ts). */
  family: KernelFamily<K>;
  /** The name errors show (e.g. 'linalg.cholesky'); the registered name by default. */
  label?: string;
  /** Rank of each input's core (2 for matrices); leading dims beyond it are batch dims. */
  coreRanks: readonly number[];
  /** Part avals from the inputs' core avals; throws ShapeError/DTypeError for bad inputs. */
  outputs(inputs: readonly PartAval[], attrs: Attrs): PartAval[];
  /** Runs the kernel and maps LAPACK-style info codes to typed errors. */
  run(kernels: K, args: OpRunArgs): void;
  /** Output tangents per part (null = zero) from input tangents (null = zero). Absent: jvp of the op is a TransformError. */
  jvp?(ctx: OpRuleCtx, tangents: (Tensor | null)[]): (Tensor | null)[];
  /** Input cotangents from the parts' cotangents (null = zero), JAX's bilinear convention (vjp.ts). Absent: vjp of the op is a TransformError. */
  vjp?(ctx: OpRuleCtx, cts: (Tensor | null)[]): (Tensor | null)[];
  /** Appended to the TransformError of a rule the op does not offer (e.g. what to use instead). */
  missingRuleHint?: string;
  /** vmap: 'leading' (default) or 'none' (vmap of the op is a TransformError). */
  batching?: OpBatching;
  /**
   * Layouts are memoized by attrs and input avals; an op whose attrs are large
   * option objects (the sparse solves') that are not worth keying opts out.
   */
  uncachedLayout?: boolean;
}

const OPS = new Map<string, OpDef<never>>();

// Layouts by op, attrs and input avals: one call of an op needs its layout
// three times (binding, the shape rule, the kernel call), and a loop calling
// the op with the same shapes needs the same one every time. Layouts are
// never mutated. Bounded: cleared when full. Ops with large option attrs opt
// out (OpDef.uncachedLayout).
const LAYOUTS = new Map<string, OpLayout>();
const LAYOUTS_MAX = 1024;

// In front of LAYOUTS, the last layout per attrs object (attrs are immutable):
// the three uses within one call share the node's attrs object, and an op that
// binds constant attrs objects (det, inv, solve, cholesky) shares one across
// calls, so a hit compares a few dims instead of building the string key,
// which was the largest cost of a small call still run by V8's interpreter
// (a benchmark's first hundred calls).
interface AttrsMemo {
  dtypes: DType[];
  shapes: Dim[][];
  layout: OpLayout;
}
let BY_ATTRS = new WeakMap<Attrs, AttrsMemo>();

export function registerOp<K>(name: string, def: OpDef<K>): void {
  if (OPS.has(name)) throw new Error(`internal: op '${name}' is registered twice`);
  OPS.set(name, def as unknown as OpDef<never>);
  LAYOUTS.clear();
  BY_ATTRS = new WeakMap();
}

/** The definition of registered op `name`. */
export function opDef(name: string): OpDef<unknown> {
  const d = OPS.get(name);
  if (!d) throw new Error(`internal: unknown registered op '${name}'`);
  return d as unknown as OpDef<unknown>;
}

/** The TransformError for a transform rule that registered op `name` does not offer. */
export function missingRule(transform: 'jvp' | 'vjp' | 'vmap', name: string): string {
  const d = opDef(name);
  const what = transform === 'jvp' ? 'JVP rule' : transform === 'vjp' ? 'VJP rule' : 'batching rule';
  return `${transform}: registered op '${d.label ?? name}' has no ${what}${d.missingRuleHint ? ` (${d.missingRuleHint})` : ''}`;
}

/** The label errors show for registered op `name`. */
export const opLabel = (name: string): string => opDef(name).label ?? name;

/** Names of every registered op (scripts/op-table.mjs). */
export const registeredOps = (): string[] => [...OPS.keys()];

/** Why `device` cannot run a registered node (for the LegalizationError of the dispatch contract). */
export function whyNotServed(device: string, attrs: Attrs): { op: string; detail: string } {
  const def = opDef(attrs['op'] as string);
  const on = kernelDevices(def.family);
  return { op: def.label ?? (attrs['op'] as string), detail: `no '${def.family.name}' kernels on this device; registered on: ${on.join(', ') || 'none'}` };
}

/** Whether `device` has the kernels of the registered node's op (the dispatch contract's answer). */
export function opServedOn(device: string, attrs: Attrs): boolean {
  return hasKernels(device, opDef(attrs['op'] as string).family);
}

const size = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

export interface OpLayout {
  batch: Dim[];
  parts: PartAval[];
  offsets: number[];
  total: number;
  dtype: DType;
  /** The packed node's shape, [...batch, total] (shared: never mutate). */
  shape: Dim[];
}

/** Batch dims, parts and packing of a registered node with these inputs (nodes or avals). */
export function opLayout(inputs: readonly { shape: readonly Dim[]; dtype: DType }[], attrs: Attrs): OpLayout {
  const m = BY_ATTRS.get(attrs);
  if (m !== undefined && m.dtypes.length === inputs.length) {
    let same = true;
    for (let i = 0; i < inputs.length && same; i++) same = inputs[i]!.dtype === m.dtypes[i] && dimsEqual(inputs[i]!.shape, m.shapes[i]!);
    if (same) return m.layout;
  }
  const l = keyedLayout(inputs, attrs);
  BY_ATTRS.set(attrs, { dtypes: inputs.map((x) => x.dtype), shapes: inputs.map((x) => [...x.shape]), layout: l });
  return l;
}

function dimsEqual(a: readonly Dim[], b: readonly Dim[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function keyedLayout(inputs: readonly { shape: readonly Dim[]; dtype: DType }[], attrs: Attrs): OpLayout {
  if (opDef(attrs['op'] as string).uncachedLayout) return computeLayout(inputs, attrs);
  let key = attrsKey(attrs);
  for (const x of inputs) {
    key += `|${x.dtype}`;
    for (const d of x.shape) key += typeof d === 'number' ? `,${d}` : `,'${d}`;
  }
  let l = LAYOUTS.get(key);
  if (!l) {
    l = computeLayout(inputs, attrs);
    if (LAYOUTS.size >= LAYOUTS_MAX) LAYOUTS.clear();
    LAYOUTS.set(key, l);
  }
  return l;
}

function computeLayout(inputs: readonly { shape: readonly Dim[]; dtype: DType }[], attrs: Attrs): OpLayout {
  const name = attrs['op'] as string;
  const def = opDef(name);
  const label = def.label ?? name;
  if (inputs.length !== def.coreRanks.length) throw new ShapeError(`${label}: expects ${def.coreRanks.length} inputs, got ${inputs.length}`);
  const batch = inputs[0]!.shape.slice(0, inputs[0]!.shape.length - def.coreRanks[0]!);
  const cores = inputs.map((x, i) => {
    const r = def.coreRanks[i]!;
    if (x.shape.length < r) throw new ShapeError(`${label}: input ${i} needs at least ${r} dims, got ${fmtShape(x.shape)}`);
    const b = x.shape.slice(0, x.shape.length - r);
    if (!shapesEqual(b, batch)) throw new ShapeError(`${label}: inputs must share their batch dims, got ${inputs.map((y) => fmtShape(y.shape)).join(', ')}`);
    const core = x.shape.slice(x.shape.length - r);
    if (core.some((d) => typeof d !== 'number')) throw new ShapeError(`${label}: matrix core dims must be static, got ${fmtShape(x.shape)}`);
    return { shape: core as number[], dtype: x.dtype };
  });
  const parts = def.outputs(cores, attrs);
  const offsets: number[] = [];
  let total = 0;
  for (const p of parts) offsets.push(total), (total += size(p.shape));
  // Integer parts (pivots, ranks) ride along exactly in the float dtype of the others.
  const floats = parts.filter((p) => p.dtype !== 'int32');
  const dtype = floats.length ? floats.reduce<DType>((d, p) => promoteTypes(d, p.dtype), floats[0]!.dtype) : 'int32';
  return { batch, parts, offsets, total, dtype, shape: [...batch, total] };
}

/** The packed output's abstract value (the primitive's shape rule). */
export function opInfer(inputs: readonly Node[], attrs: Attrs): { shape: Dim[]; dtype: DType } {
  const l = opLayout(inputs, attrs);
  return { shape: [...l.shape], dtype: l.dtype };
}

/** What the backends hand to a registered op's kernel (the opaque-kernel arguments). */
export interface OpKernelArgs {
  out: StorageArray;
  ins: StorageArray[];
  inShapes: number[][];
  inDTypes: DType[];
  attrs: Attrs;
}

/**
 * Runs a registered node on one device's kernel set: each part is computed into
 * its own array of its own dtype, then packed into the node's output (per batch
 * entry, parts one after another, converted to the packed dtype).
 */
export function runOp(device: string, a: OpKernelArgs): void {
  const def = opDef(a.attrs['op'] as string);
  const kernels = kernelsFor(device, def.family, def.label ?? (a.attrs['op'] as string), a.inDTypes[0]);
  const l = argsLayout(a);
  let batch = 1;
  for (let i = 0; i < l.batch.length; i++) batch *= l.batch[i] as number;
  // Core shapes: the inputs' shapes without their batch dims (as they are when there are none).
  const inShapes = l.batch.length === 0 ? a.inShapes : a.inShapes.map((s, i) => s.slice(s.length - def.coreRanks[i]!));
  const parts = l.parts;
  if (parts.length === 1 && parts[0]!.dtype === l.dtype) {
    // One part in the packed dtype: it is the whole output.
    def.run(kernels, { batch, ins: a.ins, inShapes, inDTypes: a.inDTypes, outs: [a.out], attrs: a.attrs });
    return;
  }
  // A part of the packed dtype that is contiguous in the packed output (the only
  // part, or any part of a single matrix) is written there directly; the others
  // get arrays of their own and are copied in after the kernel.
  const L = DTYPE_INFO[l.dtype].lanes;
  const direct: boolean[] = new Array(parts.length);
  const outs: StorageArray[] = new Array(parts.length);
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    const n = batch * size(p.shape);
    direct[i] = p.dtype === l.dtype && (parts.length === 1 || batch === 1);
    if (!direct[i]) outs[i] = allocStorage(p.dtype, n);
    else {
      const o = l.offsets[i]! * L;
      outs[i] = o === 0 && n * L === a.out.length ? a.out : a.out.subarray(o, o + n * L);
    }
  }
  def.run(kernels, { batch, ins: a.ins, inShapes, inDTypes: a.inDTypes, outs, attrs: a.attrs });
  for (let i = 0; i < parts.length; i++) {
    if (direct[i]) continue;
    const p = parts[i]!;
    const src = outs[i]!,
      n = size(p.shape),
      pl = DTYPE_INFO[p.dtype].lanes;
    for (let b = 0; b < batch; b++) {
      const o = (b * l.total + l.offsets[i]!) * L,
        s0 = b * n * pl;
      if (pl === L) for (let j = 0; j < n * L; j++) a.out[o + j] = src[s0 + j]!;
      else for (let j = 0; j < n; j++) (a.out[o + 2 * j] = src[s0 + j]!), (a.out[o + 2 * j + 1] = 0); // real part into a complex pack
    }
  }
}

/** The layout of a kernel call (its attrs' memo when the shapes match, without building avals). */
function argsLayout(a: OpKernelArgs): OpLayout {
  const m = BY_ATTRS.get(a.attrs);
  if (m !== undefined && m.dtypes.length === a.inShapes.length) {
    let same = true;
    for (let i = 0; i < a.inShapes.length && same; i++) same = a.inDTypes[i] === m.dtypes[i] && dimsEqual(a.inShapes[i]!, m.shapes[i]!);
    if (same) return m.layout;
  }
  return opLayout(a.inShapes.map((shape, i) => ({ shape, dtype: a.inDTypes[i]! })), a.attrs);
}
