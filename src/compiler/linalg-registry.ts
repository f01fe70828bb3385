// The 'linalg' primitive: one IR primitive for every dense factorization and
// solve (cholesky, lu, qr, eigh, svd, ...), each a registered *linalg op* with
// its shape rule, kernel call and derivative rules next to it (src/linalg/ops).
//
// Why one primitive and a registry instead of a dozen primitives: the rules
// that every pass and transform needs are the same for all of them (leading
// batch dims, whole-op kernels whose inputs are buffers, several outputs), so
// they are written once here; what differs per op lives in one file per op.
//
// Several outputs: the IR has single-output nodes, so a linalg node produces
// its parts packed along one last axis, [...batch, total], in the parts'
// common dtype, and users see each part through a slice + reshape (+ cast back)
// view (`unpackLinalg`). Pivots stored in a float dtype are exact integers.

import type { DType } from '../tensor/dtype.js';
import { promoteTypes } from '../tensor/dtype.js';
import { ShapeError } from '../tensor/errors.js';
import { type Dim, fmtShape, shapesEqual } from '../tensor/shape.js';
import type { StorageArray } from '../tensor/dtype.js';
import { type Attrs, type Node, attrsKey } from './ir.js';
import { DTYPE_INFO, allocStorage } from '../tensor/dtype.js';
import type { Tensor } from '../tensor/tensor.js';
import type { RuleCtx } from './transforms/rule-types.js';

/** The abstract value of one part (without batch dims). */
export interface PartAval {
  shape: number[];
  dtype: DType;
}

/** What a linalg op's derivative rules see: the primal context plus the unpacked outputs. */
export interface LinalgRuleCtx extends RuleCtx {
  /** The op's outputs (each with the batch dims), as the user sees them. */
  outs: Tensor[];
}

/** What a kernel call gets: contiguous inputs, one output array per part. */
export interface LinalgRunArgs {
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

/** The linalg kernels of one backend (src/linalg/kernels/contract.ts, src/sparse/kernels/contract.ts), opaque to the compiler. */
export type LinalgKernelSet = unknown;
export type KernelFamily = 'dense' | 'sparse';

export interface LinalgOpDef {
  /** Which kernel set runs it: dense (LAPACK-style, default) or sparse. */
  family?: KernelFamily;
  /** Rank of each input's core (2 for matrices); leading dims beyond it are batch dims. */
  coreRanks: readonly number[];
  /** Part avals from the inputs' core avals; throws ShapeError/DTypeError for bad inputs. */
  outputs(inputs: readonly PartAval[], attrs: Attrs): PartAval[];
  /** Runs the kernel and maps LAPACK-style info codes to typed errors. */
  run(kernels: LinalgKernelSet, args: LinalgRunArgs): void;
  /** Output tangents per part (null = zero) from input tangents (null = zero). */
  jvp(ctx: LinalgRuleCtx, tangents: (Tensor | null)[]): (Tensor | null)[];
  /** Input cotangents from the parts' cotangents (null = zero), JAX's bilinear convention (vjp.ts). */
  vjp(ctx: LinalgRuleCtx, cts: (Tensor | null)[]): (Tensor | null)[];
}

const OPS = new Map<string, LinalgOpDef>();

// Layouts by op, attrs and input avals: one call of an op needs its layout
// three times (binding, the shape rule, the kernel call), and a loop calling
// the op with the same shapes needs the same one every time. Layouts are
// never mutated. Bounded: cleared when full. Dense ops only: their attrs are a
// few flags (sparse solves carry option objects that are not worth keying).
const LAYOUTS = new Map<string, LinalgLayout>();
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
  layout: LinalgLayout;
}
let BY_ATTRS = new WeakMap<Attrs, AttrsMemo>();

export function registerLinalgOp(name: string, def: LinalgOpDef): void {
  OPS.set(name, def);
  LAYOUTS.clear();
  BY_ATTRS = new WeakMap();
}

export function linalgOp(name: string): LinalgOpDef {
  const d = OPS.get(name);
  if (!d) throw new Error(`internal: unknown linalg op '${name}'`);
  return d;
}

const size = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

export interface LinalgLayout {
  batch: Dim[];
  parts: PartAval[];
  offsets: number[];
  total: number;
  dtype: DType;
  /** The packed node's shape, [...batch, total] (shared: never mutate). */
  shape: Dim[];
}

/** Batch dims, parts and packing of a linalg node with these inputs (nodes or avals). */
export function linalgLayout(inputs: readonly { shape: readonly Dim[]; dtype: DType }[], attrs: Attrs): LinalgLayout {
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

function keyedLayout(inputs: readonly { shape: readonly Dim[]; dtype: DType }[], attrs: Attrs): LinalgLayout {
  if (linalgOp(attrs['op'] as string).family === 'sparse') return computeLayout(inputs, attrs);
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

function computeLayout(inputs: readonly { shape: readonly Dim[]; dtype: DType }[], attrs: Attrs): LinalgLayout {
  const name = attrs['op'] as string;
  const def = linalgOp(name);
  if (inputs.length !== def.coreRanks.length) throw new ShapeError(`linalg.${name}: expects ${def.coreRanks.length} inputs, got ${inputs.length}`);
  const batch = inputs[0]!.shape.slice(0, inputs[0]!.shape.length - def.coreRanks[0]!);
  const cores = inputs.map((x, i) => {
    const r = def.coreRanks[i]!;
    if (x.shape.length < r) throw new ShapeError(`linalg.${name}: input ${i} needs at least ${r} dims, got ${fmtShape(x.shape)}`);
    const b = x.shape.slice(0, x.shape.length - r);
    if (!shapesEqual(b, batch)) throw new ShapeError(`linalg.${name}: inputs must share their batch dims, got ${inputs.map((y) => fmtShape(y.shape)).join(', ')}`);
    const core = x.shape.slice(x.shape.length - r);
    if (core.some((d) => typeof d !== 'number')) throw new ShapeError(`linalg.${name}: matrix dims must be static, got ${fmtShape(x.shape)}`);
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
export function linalgInfer(inputs: readonly Node[], attrs: Attrs): { shape: Dim[]; dtype: DType } {
  const l = linalgLayout(inputs, attrs);
  return { shape: [...l.shape], dtype: l.dtype };
}

/** What the backends hand to a linalg kernel (the opaque-kernel arguments). */
export interface LinalgKernelArgs {
  out: StorageArray;
  ins: StorageArray[];
  inShapes: number[][];
  inDTypes: DType[];
  attrs: Attrs;
}

/**
 * Runs a linalg node on one backend's kernel set: each part is computed into
 * its own array of its own dtype, then packed into the node's output (per batch
 * entry, parts one after another, converted to the packed dtype).
 */
export function runLinalg(backend: string, a: LinalgKernelArgs): void {
  const def = linalgOp(a.attrs['op'] as string);
  const kernels = linalgKernels(backend, def.family ?? 'dense');
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
function argsLayout(a: LinalgKernelArgs): LinalgLayout {
  const m = BY_ATTRS.get(a.attrs);
  if (m !== undefined && m.dtypes.length === a.inShapes.length) {
    let same = true;
    for (let i = 0; i < a.inShapes.length && same; i++) same = a.inDTypes[i] === m.dtypes[i] && dimsEqual(a.inShapes[i]!, m.shapes[i]!);
    if (same) return m.layout;
  }
  return linalgLayout(a.inShapes.map((shape, i) => ({ shape, dtype: a.inDTypes[i]! })), a.attrs);
}

// Kernel sets per backend, provided by the modules that implement them
// (src/linalg/index.ts registers the js reference and, when the addon is
// built, the LAPACKE kernels), so the backends do not import the linalg module.
const KERNEL_SETS: Record<KernelFamily, Map<string, LinalgKernelSet>> = { dense: new Map(), sparse: new Map() };

export function provideLinalgKernels(backend: string, kernels: LinalgKernelSet, family: KernelFamily = 'dense'): void {
  KERNEL_SETS[family].set(backend, kernels);
}

/** The kernel set a backend runs linalg nodes with (its own, else the js reference). */
export function linalgKernels(backend: string, family: KernelFamily = 'dense'): LinalgKernelSet {
  const sets = KERNEL_SETS[family];
  const k = sets.get(backend) ?? sets.get('js');
  if (!k) throw new Error(`internal: no ${family} linalg kernels registered (import the linalg and sparse modules)`);
  return k;
}
