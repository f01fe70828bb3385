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
// Several outputs, each with its own shape and dtype: the op's node (its
// call) has the first output's value, and each further output is a 'part'
// node over the call (primitives.ts: bindParts). The call's kernel writes
// every output at once, into its own buffer of its own dtype: int32 ids and
// counts stay exact. An output flagged `residual` is made for the op's
// derivative rules only (users never see it); an output with `count: j`
// has a data-dependent length: its leading core dim is an upper bound and
// int32 output j (a scalar per batch entry) says how many rows are valid.

import type { DType } from '../tensor/dtype.js';
import { ShapeError } from '../tensor/errors.js';
import { type Dim, fmtShape, shapesEqual } from '../tensor/shape.js';
import type { StorageArray } from '../tensor/dtype.js';
import { type Attrs, type Node, attrsKey, attrsOf, parentsOf } from './ir.js';
import { allocStorage } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import type { RuleCtx } from './transforms/rule-types.js';
import { type KernelFamily, hasKernels, kernelDevices, kernelsFor } from './kernel-registry.js';

/** The abstract value of one output (without batch dims). */
export interface PartAval {
  shape: number[];
  dtype: DType;
  /** Made for the derivative rules only: bindOp does not hand it to users. */
  residual?: boolean;
  /**
   * Data-dependent length: shape[0] is an upper bound, and output `count`
   * (int32, core shape []) holds the number of valid rows (the kernel's
   * count is checked against the bound).
   */
  count?: number;
}

/** What a registered op's derivative rules see: the primal context plus every output. */
export interface OpRuleCtx extends RuleCtx {
  /** The op's outputs (each with the batch dims), residuals included, in the order outputs() gave. */
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
  /** One array per output, in its dtype, of length batch · its core size (zeroed). */
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
  /**
   * Rank of each input's core (2 for matrices); leading dims beyond it are
   * batch dims. A function of the attrs for ops whose core rank is an
   * attribute (the n-D FFTs' `rank`).
   */
  coreRanks: readonly number[] | ((attrs: Attrs) => readonly number[]);
  /** Output avals (cores) from the inputs' core avals; throws ShapeError/DTypeError for bad inputs. */
  outputs(inputs: readonly PartAval[], attrs: Attrs): PartAval[];
  /** Runs the kernel and maps LAPACK-style info codes to typed errors. */
  run(kernels: K, args: OpRunArgs): void;
  /**
   * The same as run, awaiting the kernel set's off-thread twins where it has
   * them (`await t.data()` keeps the event loop turning during the call).
   * Absent: an awaited realization runs the op with run (on this thread).
   */
  runAsync?(kernels: K, args: OpRunArgs): Promise<void>;
  /**
   * Output tangents per output (null = zero), residuals included (a residual
   * read by vjp must get its true tangent, or higher derivatives through
   * vjp would miss it), from input tangents (null = zero). Absent: jvp of
   * the op is a TransformError.
   */
  jvp?(ctx: OpRuleCtx, tangents: (Tensor | null)[]): (Tensor | null)[];
  /** Input cotangents from the outputs' cotangents (null = zero; residuals always null), JAX's bilinear convention (vjp.ts). Absent: vjp of the op is a TransformError. */
  vjp?(ctx: OpRuleCtx, cts: (Tensor | null)[]): (Tensor | null)[];
  /** Appended to the TransformError of a rule the op does not offer (e.g. what to use instead). */
  missingRuleHint?: string;
  /** vmap: 'leading' (default) or 'none' (vmap of the op is a TransformError). */
  batching?: OpBatching;
  /**
   * The kernels write every element of every output (the fft transforms):
   * outputs may then come from the backend's allocUninit, skipping the zeroing
   * an op's outputs otherwise get (kernels that write only part of an output,
   * or accumulate into it, rely on it). Default false.
   */
  writesAll?: boolean;
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

/** An op's core ranks for a call's attrs. */
const ranksOf = (def: OpDef<unknown>, attrs: Attrs): readonly number[] => (typeof def.coreRanks === 'function' ? def.coreRanks(attrs) : def.coreRanks);

export interface OpLayout {
  batch: Dim[];
  /** Output avals without the batch dims. */
  parts: PartAval[];
  /** Each output's full shape, [...batch, ...core] (shared: never mutate). */
  shapes: Dim[][];
  /** Some output has a data-dependent length (PartAval.count). */
  counted: boolean;
}

/** Batch dims and outputs of a registered node with these inputs (nodes or avals). */
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
  const ranks = ranksOf(def, attrs);
  if (inputs.length !== ranks.length) throw new ShapeError(`${label}: expects ${ranks.length} inputs, got ${inputs.length}`);
  const batch = inputs[0]!.shape.slice(0, inputs[0]!.shape.length - ranks[0]!);
  const cores = inputs.map((x, i) => {
    const r = ranks[i]!;
    if (x.shape.length < r) throw new ShapeError(`${label}: input ${i} needs at least ${r} dims, got ${fmtShape(x.shape)}`);
    const b = x.shape.slice(0, x.shape.length - r);
    if (!shapesEqual(b, batch)) throw new ShapeError(`${label}: inputs must share their batch dims, got ${inputs.map((y) => fmtShape(y.shape)).join(', ')}`);
    const core = x.shape.slice(x.shape.length - r);
    if (core.some((d) => typeof d !== 'number')) throw new ShapeError(`${label}: matrix core dims must be static, got ${fmtShape(x.shape)}`);
    return { shape: core as number[], dtype: x.dtype };
  });
  const parts = def.outputs(cores, attrs);
  checkCounts(label, parts);
  return { batch, parts, shapes: parts.map((p) => [...batch, ...p.shape]), counted: parts.some((p) => p.count !== undefined) };
}

function checkCounts(label: string, parts: readonly PartAval[]): void {
  parts.forEach((p, i) => {
    if (p.count === undefined) return;
    const c = parts[p.count];
    if (c === undefined || c.dtype !== 'int32' || c.shape.length !== 0 || p.shape.length === 0) {
      throw new Error(`internal: ${label} output ${i} counts its rows by output ${p.count}, which must be an int32 scalar (and output ${i} must have a leading bound dim)`);
    }
  });
}

/** The call's abstract value: its first output (the primitive's shape rule). */
export function opInfer(inputs: readonly Node[], attrs: Attrs): { shape: Dim[]; dtype: DType } {
  const l = opLayout(inputs, attrs);
  return { shape: [...l.shapes[0]!], dtype: l.parts[0]!.dtype };
}

/** A part node's abstract value: output attrs.index of the registered call it reads (the 'part' primitive's shape rule). */
export function partInfer([call]: readonly Node[], attrs: Attrs): { shape: Dim[]; dtype: DType } {
  const i = attrs['index'] as number;
  const l = opLayout(parentsOf(call!), attrsOf(call!));
  if (!Number.isInteger(i) || i < 1 || i >= l.parts.length) throw new Error(`internal: part ${i} of a registered op with ${l.parts.length} outputs`);
  return { shape: [...l.shapes[i]!], dtype: l.parts[i]!.dtype };
}

/** What the backends hand to a registered op's kernel (the opaque-kernel arguments). */
export interface OpKernelArgs {
  /** Output 0 (the call's own buffer). */
  out: StorageArray;
  /** Output i ≥ 1 at index i, where the graph keeps it (others get scratch arrays). */
  parts?: readonly (StorageArray | undefined)[];
  ins: StorageArray[];
  inShapes: number[][];
  inDTypes: DType[];
  attrs: Attrs;
}

/** A backend's allocator of unzeroed storage (Backend.allocUninit): for the outputs of a writesAll op the graph does not use. */
export type UninitAlloc = (dtype: DType, n: number) => StorageArray;

/** Runs a registered node on one device's kernel set: each output is written into its own array of its own dtype. */
export function runOp(device: string, a: OpKernelArgs, allocUninit?: UninitAlloc): void {
  const c = prepareCall(device, a, allocUninit);
  c.def.run(c.kernels, c.args);
  if (c.counted) checkCountsRun(c);
}

/**
 * Below this many input scalars an awaited op runs on this thread: handing a
 * call to the pool and back costs tens of microseconds, which a small
 * factorization does not take.
 */
export const ASYNC_MIN_SCALARS = 1 << 14;

/**
 * runOp for an awaited realization: a Promise when the op has runAsync and
 * its inputs are large enough to be worth the thread hop; undefined when it
 * ran here instead (synchronously, as runOp).
 */
export function runOpAsync(device: string, a: OpKernelArgs, allocUninit?: UninitAlloc): Promise<void> | undefined {
  const c = prepareCall(device, a, allocUninit);
  let scalars = 0;
  for (const x of a.ins) scalars += x.length;
  if (c.def.runAsync === undefined || scalars < ASYNC_MIN_SCALARS) {
    c.def.run(c.kernels, c.args);
    if (c.counted) checkCountsRun(c);
    return undefined;
  }
  return c.def.runAsync(c.kernels, c.args).then(() => {
    if (c.counted) checkCountsRun(c);
  });
}

/** A kernel call that an op's steps yield: the kernel set's method name and its arguments. */
export type KernelCall<K> = { [M in keyof K & string]: K[M] extends (...a: infer A) => unknown ? readonly [M, ...A] : never }[keyof K & string];

/** An op's kernel work as steps: each `yield [method, ...args]` is one call of the device's kernel set and evaluates to its result. */
export type KernelSteps<K> = (a: OpRunArgs) => Generator<KernelCall<K>, void, unknown>;

/**
 * run and runAsync of an op written as steps of kernel calls (one body for
 * both): run makes each call on this thread; runAsync awaits the set's
 * off-thread twin of a call (`svdAsync` for `svd`, ...) where the device has
 * one, and makes the call itself where it has none.
 */
export function kernelSteps<K>(steps: KernelSteps<K>): Pick<OpDef<K>, 'run' | 'runAsync'> {
  // Called as methods of their set (a kernel set may use `this`).
  type Untyped = Record<string, ((...x: unknown[]) => unknown) | undefined>;
  return {
    run(k, a) {
      const set = k as unknown as Untyped;
      const g = steps(a);
      for (let r = g.next(); !r.done; ) {
        const [m, ...args] = r.value as unknown as [string, ...unknown[]];
        r = g.next(set[m]!(...args));
      }
    },
    async runAsync(k, a) {
      const set = k as unknown as Untyped;
      const g = steps(a);
      for (let r = g.next(); !r.done; ) {
        const [m, ...args] = r.value as unknown as [string, ...unknown[]];
        const twin = set[`${m}Async`];
        r = g.next(twin !== undefined ? await twin(...args) : set[m]!(...args));
      }
    },
  };
}

interface PreparedCall {
  def: OpDef<unknown>;
  label: string;
  device: string;
  kernels: unknown;
  parts: PartAval[];
  /** Some output has a data-dependent length (its count is checked after the kernel). */
  counted: boolean;
  args: OpRunArgs;
}

/** The kernel set, core shapes and output arrays of one call (scratch for the outputs the graph does not keep). */
function prepareCall(device: string, a: OpKernelArgs, allocUninit?: UninitAlloc): PreparedCall {
  const def = opDef(a.attrs['op'] as string);
  const label = def.label ?? (a.attrs['op'] as string);
  const kernels = kernelsFor(device, def.family, label, a.inDTypes[0]);
  const l = argsLayout(a);
  let batch = 1;
  for (let i = 0; i < l.batch.length; i++) batch *= l.batch[i] as number;
  // Core shapes: the inputs' shapes without their batch dims (as they are when there are none).
  const inShapes = l.batch.length === 0 ? a.inShapes : a.inShapes.map((s, i) => s.slice(s.length - ranksOf(def, a.attrs)[i]!));
  const parts = l.parts;
  const outs: StorageArray[] = new Array(parts.length);
  outs[0] = a.out;
  // Outputs the graph holds no node for: scratch the kernel writes, from the backend's allocUninit (when it passes one)
  // if the kernel writes them in full (writesAll), as the executable's planned buffers are. (A call's parts are
  // realized together (realize.ts), so a render's alpha, depth and residuals are planned outputs, not scratch.)
  const uninit = def.writesAll === true ? allocUninit : undefined;
  for (let i = 1; i < parts.length; i++) {
    const n = batch * size(parts[i]!.shape);
    outs[i] = a.parts?.[i] ?? (uninit !== undefined ? uninit(parts[i]!.dtype, n) : allocStorage(parts[i]!.dtype, n));
  }
  return { def, label, device, kernels, parts, counted: l.counted, args: { batch, ins: a.ins, inShapes, inDTypes: a.inDTypes, outs, attrs: a.attrs } };
}

/** Every count the kernel wrote lies within its output's bound. */
function checkCountsRun({ parts, args, label, device }: PreparedCall): void {
  for (let i = 0; i < parts.length; i++) {
    const j = parts[i]!.count;
    if (j === undefined) continue;
    const bound = parts[i]!.shape[0]!;
    const counts = args.outs[j]!;
    for (let b = 0; b < args.batch; b++) {
      const c = counts[b]!;
      if (!(c >= 0 && c <= bound)) throw new Error(`internal: ${label}'s kernel on '${device}' counted ${c} rows of output ${i}, outside [0, ${bound}]`);
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
