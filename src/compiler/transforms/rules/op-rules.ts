// The JVP, VJP and batching rules of the 'registered' primitive: generic
// packing around each registered op's own per-part rules
// (compiler/op-registry.ts). An op registered without a rule is a
// TransformError naming it when a transform needs that rule.

import { Tensor } from '../../../tensor/tensor.js';
import { type Dim, shapesEqual } from '../../../tensor/shape.js';
import { type Attrs, type Node, attrsOf, parentsOf, producerOf } from '../../ir.js';
import { bind, bindInferred } from '../../primitives.js';
import { type OpLayout, opLayout, opDef, missingRule } from '../../op-registry.js';
import { TransformError } from '../../../tensor/errors.js';
import type { BatchRule, JvpRule, RuleCtx, VjpRule } from '../rule-types.js';
import { batchDim, batchFirst, bindT } from './batch-helpers.js';
import { zerosOf } from './ad-helpers.js';

const size = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

interface PartView {
  /** The slice attrs, or null when the part is the whole packed axis (a single part: a reshape alone). */
  slice: Attrs | null;
  sliceShape: Dim[];
  reshape: Attrs;
  shape: Dim[];
}
// The slice and reshape attrs of each part, per layout (layouts are memoized
// and immutable; attrs objects are never mutated, so nodes may share them).
const VIEWS = new WeakMap<OpLayout, PartView[]>();

function partViews(l: OpLayout): PartView[] {
  let vs = VIEWS.get(l);
  if (vs) return vs;
  const r = l.batch.length;
  vs = l.parts.map((p, i) => {
    const sliceShape = [...l.batch, size(p.shape)];
    const shape = [...l.batch.slice(0, r), ...p.shape];
    return {
      slice: l.parts.length === 1 ? null : { start: [...l.batch.map(() => 0), l.offsets[i]!], step: [...l.batch.map(() => 1), 1], size: sliceShape },
      sliceShape,
      reshape: { shape },
      shape,
    };
  });
  VIEWS.set(l, vs);
  return vs;
}

/**
 * The parts of a packed [...batch, total] tensor, each reshaped to [...batch, ...shape] in its own dtype.
 * `packedByLayout`: packed is the node bound with l's shape and dtype (the views' shapes are then known).
 */
export function unpackParts(packed: Tensor, l: OpLayout, packedByLayout = false): Tensor[] {
  const vs = partViews(l);
  const out: Tensor[] = new Array(vs.length);
  for (let i = 0; i < vs.length; i++) {
    const v = vs[i]!;
    let t: Tensor;
    if (packedByLayout) {
      const s = v.slice === null ? packed.node : bindInferred('slice', [packed.node], v.slice, v.sliceShape, l.dtype);
      t = new Tensor(bindInferred('reshape', [s], v.reshape, v.shape, l.dtype));
    } else {
      const s = v.slice === null ? packed.node : bind('slice', [packed.node], v.slice);
      t = new Tensor(bind('reshape', [s], v.reshape));
    }
    const d = l.parts[i]!.dtype;
    out[i] = t.dtype === d ? t : t.cast(d);
  }
  return out;
}

/** Packs per-part tensors (null = zeros) into [...batch, total] in the packed dtype. */
function packParts(parts: (Tensor | null)[], l: OpLayout): Tensor {
  const flat = parts.map((t, i) => {
    const shape: Dim[] = [...l.batch, size(l.parts[i]!.shape)];
    if (!t) return zerosOf(l.dtype, shape);
    const c = t.dtype === l.dtype ? t : t.cast(l.dtype);
    return new Tensor(bind('reshape', [c.node], { shape }));
  });
  return flat.length === 1 ? flat[0]! : new Tensor(bind('concat', flat.map((t) => t.node), { axis: l.batch.length }));
}

function opCtx(c: RuleCtx) {
  const l = opLayout(c.inputs.map((x) => x.node), c.attrs);
  return { l, def: opDef(c.attrs['op'] as string), ctx: { ...c, outs: unpackParts(c.out, l) } };
}

export const opJvp: JvpRule = (c, tangents) => {
  const name = c.attrs['op'] as string;
  if (!opDef(name).jvp) throw new TransformError(missingRule('jvp', name));
  const { l, def, ctx } = opCtx(c);
  const ts = def.jvp!(ctx, tangents);
  return ts.every((t) => t === null) ? null : packParts(ts, l);
};

/**
 * Whether positions [lo, hi) of the last axis of a packed cotangent are zero
 * by construction: a zero literal, the padding of a zero pad (the transpose of
 * the slice that unpacks a part), or zero in every term of a sum. Conservative:
 * false when it cannot tell.
 */
function zeroAlongLast(n: Node, lo: number, hi: number): boolean {
  if (hi <= lo) return true;
  const op = producerOf(n);
  const attrs = attrsOf(n);
  const ps = parentsOf(n);
  if (op === 'const') {
    const v = attrs['value'];
    return Array.isArray(v) ? v[0] === 0 && v[1] === 0 : v === 0;
  }
  if (op === 'pad') {
    if (attrs['value'] !== 0) return false;
    const r = n.shape.length;
    const pl = (attrs['widths'] as [number, number][])[r - 1]![0];
    const len = ps[0]!.shape[r - 1];
    if (typeof len !== 'number') return false;
    const a = Math.max(lo, pl),
      b = Math.min(hi, pl + len);
    return b <= a || zeroAlongLast(ps[0]!, a - pl, b - pl);
  }
  if (op === 'add') return ps.every((x) => shapesEqual(x.shape, n.shape) && zeroAlongLast(x, lo, hi));
  if ((op === 'cast' || op === 'neg') && shapesEqual(ps[0]!.shape, n.shape)) return zeroAlongLast(ps[0]!, lo, hi);
  return false;
}

/**
 * The parts' cotangents come out of one packed cotangent, in which a part
 * nobody used holds zeros. Those must reach the op's rule as symbolic zeros
 * (null), as they would for separate outputs: otherwise a transposed JVP
 * multiplies a zero cotangent by a coefficient that is legitimately infinite
 * (eigh's 1/(w_j − w_i) at a repeated eigenvalue, svd's at a repeated singular
 * value) and the gradient of the values alone, which is finite, became NaN.
 */
export const opVjp: VjpRule = (c, ct) => {
  const name = c.attrs['op'] as string;
  if (!opDef(name).vjp) throw new TransformError(missingRule('vjp', name));
  const { l, def, ctx } = opCtx(c);
  const cts = unpackParts(ct, l).map((t, i) => (zeroAlongLast(ct.node, l.offsets[i]!, l.offsets[i]! + size(l.parts[i]!.shape)) ? null : t));
  return def.vjp!(ctx, cts);
};

/** A registered op maps over leading batch dims (unless it says 'none'): the vmapped axis becomes the first batch dim of every input. */
export const opBatch: BatchRule = ({ inputs, attrs }, dims) => {
  const name = attrs['op'] as string;
  if (opDef(name).batching === 'none') throw new TransformError(missingRule('vmap', name));
  const b = batchDim(inputs, dims);
  const xs = inputs.map((x, i) => batchFirst(x, dims[i]!, b));
  return { out: bindT('registered', xs, attrs), dim: 0 };
};
