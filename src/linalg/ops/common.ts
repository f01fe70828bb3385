// Shared pieces of the linalg ops: binding the packed primitive, checking
// dtypes, turning kernel info codes into typed errors, and the generic VJP
// (the transpose of an op's JVP).

import { Tensor } from '../../tensor/tensor.js';
import { bindInferred } from '../../compiler/primitives.js';
import { type LinalgKernelSet, type LinalgRuleCtx, linalgLayout } from '../../compiler/linalg-registry.js';
import { unpackParts } from '../../compiler/transforms/rules/linalg-rules.js';
import { reverseMode } from '../../compiler/transforms/autodiff.js';
import { wrap } from '../../compiler/transforms/grad.js';
import { zerosOf } from '../../compiler/transforms/rules/ad-helpers.js';
import { DTypeError, ShapeError } from '../../tensor/errors.js';
import { type DType } from '../../tensor/dtype.js';
import type { Attrs } from '../../compiler/ir.js';
import type { LinalgDType, LinalgKernels, FloatArray } from '../kernels/contract.js';
import type { PartAval } from '../../compiler/linalg-registry.js';
import { fmtShape } from '../../tensor/shape.js';

export const LINALG_DTYPES: readonly DType[] = ['float32', 'float64', 'complex64', 'complex128'];

/** The kernel set as the contract's type (the compiler keeps it opaque). */
export const K = (k: LinalgKernelSet): LinalgKernels => k as LinalgKernels;

export const asFloat = (a: unknown): FloatArray => a as FloatArray;

/** Throws DTypeError unless d is one of the four LAPACK dtypes. */
export function linalgDType(op: string, d: DType): LinalgDType {
  if (!LINALG_DTYPES.includes(d)) throw new DTypeError(`linalg.${op}: expects float32, float64, complex64 or complex128, got ${d}`);
  return d as LinalgDType;
}

/** Core shape checks. */
export function square(op: string, a: PartAval): number {
  const [m, n] = a.shape;
  if (a.shape.length !== 2 || m !== n) throw new ShapeError(`linalg.${op}: expects square matrices [..., n, n], got core ${fmtShape(a.shape)}`);
  return n!;
}

export function sameDType(op: string, xs: readonly PartAval[]): LinalgDType {
  const d = linalgDType(op, xs[0]!.dtype);
  for (const x of xs) if (x.dtype !== d) throw new DTypeError(`linalg.${op}: inputs must share one dtype, got ${xs.map((y) => y.dtype).join(', ')}`);
  return d;
}

/**
 * { op, ...attrs } with its keys in sorted order: attrs keys (CSE, the compile
 * cache, the layout memo) are then built without sorting on every use, which
 * was the largest JS cost of a small linalg call ({op, log} is out of order).
 */
function sortedAttrs(op: string, attrs: Attrs): Attrs {
  const merged: Attrs = { ...attrs, op };
  const keys = Object.keys(merged);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1]! < keys[i]!;
  if (sorted) return merged;
  const out: Record<string, unknown> = {};
  for (const k of keys.sort()) out[k] = merged[k];
  return out;
}

// The merged attrs of a constant (frozen) attrs object (NO_ATTRS, det's
// { log: false }, ...), made once: the node of every call then carries the
// same attrs object, whose layout linalgLayout memoizes by identity, so a
// repeated call neither merges nor keys anything.
const MERGED = new WeakMap<Attrs, { op: string; attrs: Attrs }>();

/** No attrs (a shared object: see MERGED). */
export const NO_ATTRS: Attrs = Object.freeze({});

/** Binds a linalg op and returns its parts as tensors with the batch dims. */
export function bindLinalg(op: string, inputs: readonly Tensor[], attrs: Attrs = NO_ATTRS): Tensor[] {
  let a: Attrs;
  const m = MERGED.get(attrs);
  if (m !== undefined && m.op === op) a = m.attrs;
  else {
    a = sortedAttrs(op, attrs);
    if (Object.isFrozen(attrs)) MERGED.set(attrs, { op, attrs: a });
  }
  const nodes = inputs.length === 1 ? [inputs[0]!.node] : inputs.map((x) => x.node);
  // The layout is the primitive's shape rule (linalgInfer), memoized: derived once here.
  const l = linalgLayout(nodes, a);
  return unpackParts(new Tensor(bindInferred('linalg', nodes, a, l.shape, l.dtype)), l, true);
}

/**
 * The VJP of an op as the transpose of its JVP: the JVP is linear in the
 * tangents, so reverse mode over the JVP graph, taken at placeholder tangents,
 * gives the transpose under the same bilinear pairing the primitive rules use
 * (JAX's linearize + transpose). Ops whose JVP applies the op itself to a
 * tangent (solve, triangularSolve) have explicit VJPs instead, or this would recurse.
 */
export function transposeJvp(jvp: (ctx: LinalgRuleCtx, ts: (Tensor | null)[]) => (Tensor | null)[]) {
  return (ctx: LinalgRuleCtx, cts: (Tensor | null)[]): (Tensor | null)[] => {
    const ph = ctx.inputs.map((x) => wrap(zerosOf(x.dtype, x.node.shape)));
    const outs = jvp(ctx, ph);
    const used = outs.map((o, i) => (o && cts[i] ? i : -1)).filter((i) => i >= 0);
    if (used.length === 0) return ctx.inputs.map(() => null);
    return reverseMode(
      used.map((i) => outs[i]!.node),
      used.map((i) => cts[i]!),
      ph.map((p) => p.node),
    );
  };
}

/** info codes per batch entry: the first failing entry, or -1. */
export function firstFailure(info: Int32Array): number {
  for (let b = 0; b < info.length; b++) if (info[b]! !== 0) return b;
  return -1;
}
