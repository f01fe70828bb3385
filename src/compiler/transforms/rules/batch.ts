// Batching rules, one per primitive (vmap). See rule-types.ts.
//
// A rule receives the batched inputs and the position of each one's batch axis
// (null = unbatched) and returns the batched output and its batch position.
// Rules keep the batch axis where it is whenever the primitive allows it (they
// shift attrs such as axes/perm/widths instead), so a chain of ops under vmap
// adds no transposes. The whole-op rules of matmul/gather/scatterAdd are in
// batch-opaque.ts.

import { BINARY_OPS, UNARY_OPS, type BinaryOp, type UnaryOp } from '../../primitives.js';
import type { Dim } from '../../../tensor/shape.js';
import { shapesEqual } from '../../../tensor/shape.js';
import type { BatchRule, RulePrimitive } from '../rule-types.js';
import { batchAt, batchDim, bindT, elementwiseBatch, firstDim, moveAxis, opOf, physAxis } from './batch-helpers.js';
import { gatherBatch, matmulBatch, scatterAddBatch } from './batch-opaque.js';
import { opBatch } from './op-rules.js';

const insertAt = <T>(xs: readonly T[], at: number, v: T): T[] => [...xs.slice(0, at), v, ...xs.slice(at)];

/** sum/prod/max/min/argmax/argmin/logsumexp: axes shifted past the batch axis, which stays (moved left by the reduced axes before it). */
const reduceBatch: BatchRule = ({ node, attrs, inputs: [x] }, [d]) => {
  const axes = attrs['axes'] as number[];
  const bd = d!;
  return {
    out: bindT(opOf(node), [x!], { ...attrs, axes: axes.map((a) => physAxis(a, bd)) }),
    dim: bd - axes.filter((a) => a < bd).length,
  };
};

const staticProd = (s: readonly Dim[]): number | undefined => {
  let p = 1;
  for (const d of s) {
    if (typeof d !== 'number') return undefined;
    p *= d;
  }
  return p;
};

/**
 * Where the batch axis can sit in a reshape's target without moving: a position
 * k whose target prefix holds exactly the elements of the source prefix before
 * the batch axis (then the reshape regroups the dims before and after the batch
 * separately, which is the per-example reshape). The candidate closest to the
 * current position wins; null when there is none.
 */
function reshapeBatchPos(src: readonly Dim[], bd: number, target: readonly Dim[]): number | null {
  if (bd <= target.length && shapesEqual(src.slice(0, bd), target.slice(0, bd))) return bd;
  const want = staticProd(src.slice(0, bd));
  if (want === undefined) return null;
  let best: number | null = null;
  for (let k = 0; k <= target.length; k++) {
    if (staticProd(target.slice(0, k)) === want && (best === null || Math.abs(k - bd) < Math.abs(best - bd))) best = k;
  }
  return best;
}

/**
 * reshape: when the target splits into a part made of the dims before the batch
 * axis and a part made of those after it, the batch axis stays between them (no
 * movement); otherwise the batch goes first and its size is prepended to the target.
 */
const reshapeBatch: BatchRule = ({ attrs, inputs: [x] }, [d]) => {
  const bd = d!;
  const shape = attrs['shape'] as Dim[];
  const src = x!.node.shape;
  const b = src[bd]!;
  const k = reshapeBatchPos([...src.slice(0, bd), ...src.slice(bd + 1)], bd, shape);
  if (k !== null) return { out: bindT('reshape', [x!], { ...attrs, shape: insertAt(shape, k, b) }), dim: k };
  return { out: bindT('reshape', [moveAxis(x!, bd, 0)], { ...attrs, shape: [b, ...shape] }), dim: 0 };
};

/** permute: the batch axis keeps its position in the output. */
const permuteBatch: BatchRule = ({ attrs, inputs: [x] }, [d]) => {
  const bd = d!;
  const perm = (attrs['perm'] as number[]).map((a) => physAxis(a, bd));
  return { out: bindT('permute', [x!], { ...attrs, perm: insertAt(perm, bd, bd) }), dim: bd };
};

/** expand: the batch size is inserted into the target shape at the batch position. */
const expandBatch: BatchRule = ({ attrs, inputs: [x] }, [d]) => {
  const bd = d!;
  const shape = attrs['shape'] as Dim[];
  return { out: bindT('expand', [x!], { ...attrs, shape: insertAt(shape, bd, x!.node.shape[bd]!) }), dim: bd };
};

/** slice: the full range on the batch axis. */
const sliceBatch: BatchRule = ({ attrs, inputs: [x] }, [d]) => {
  const bd = d!;
  return {
    out: bindT('slice', [x!], {
      ...attrs,
      start: insertAt(attrs['start'] as number[], bd, 0),
      step: insertAt(attrs['step'] as number[], bd, 1),
      size: insertAt(attrs['size'] as Dim[], bd, x!.node.shape[bd]!),
    }),
    dim: bd,
  };
};

/** cumsum: the axis shifted past the batch axis. */
const cumsumBatch: BatchRule = ({ attrs, inputs: [x] }, [d]) => ({
  out: bindT('cumsum', [x!], { ...attrs, axis: physAxis(attrs['axis'] as number, d!) }),
  dim: d!,
});

/** pad: no padding on the batch axis. */
const padBatch: BatchRule = ({ attrs, inputs: [x] }, [d]) => ({
  out: bindT('pad', [x!], { ...attrs, widths: insertAt(attrs['widths'] as [number, number][], d!, [0, 0]) }),
  dim: d!,
});

/** concat: every operand's batch axis at the first batched operand's position (unbatched ones broadcast). */
const concatBatch: BatchRule = ({ attrs, inputs }, dims) => {
  const b = batchDim(inputs, dims);
  const at = firstDim(dims);
  const xs = inputs.map((t, i) => batchAt(t, dims[i] ?? null, b, at));
  return { out: bindT('concat', xs, { ...attrs, axis: physAxis(attrs['axis'] as number, at) }), dim: at };
};

/** vmap rules: one per primitive (a primitive without one fails to type-check). */
export const BATCH_RULES: { readonly [P in RulePrimitive]: BatchRule } = {
  // (stopGradient, a unary op, is structural: vmap.ts takes its rule from structural-rules.ts.)
  ...(Object.fromEntries(UNARY_OPS.filter((o: string) => o !== 'stopGradient').map((o) => [o, elementwiseBatch])) as Record<UnaryOp & RulePrimitive, BatchRule>),
  ...(Object.fromEntries(BINARY_OPS.map((o) => [o, elementwiseBatch])) as Record<BinaryOp, BatchRule>),
  where: elementwiseBatch,
  sum: reduceBatch,
  prod: reduceBatch,
  max: reduceBatch,
  min: reduceBatch,
  argmax: reduceBatch,
  argmin: reduceBatch,
  logsumexp: reduceBatch,
  reshape: reshapeBatch,
  permute: permuteBatch,
  expand: expandBatch,
  slice: sliceBatch,
  matmul: matmulBatch,
  cumsum: cumsumBatch,
  gather: gatherBatch,
  scatterAdd: scatterAddBatch,
  concat: concatBatch,
  pad: padBatch,
  registered: opBatch,
};
