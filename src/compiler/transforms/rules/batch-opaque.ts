// Batching rules of the whole-op kernels whose operands interact across axes:
// matmul, gather and scatterAdd. See batch.ts for the table.

import { Tensor } from '../../../tensor/tensor.js';
import { TransformError } from '../../../tensor/errors.js';
import { fromStorage } from '../../../tensor/create.js';
import { type Dim, fmtShape } from '../../../tensor/shape.js';
import type { BatchRule } from '../rule-types.js';
import { batchAt, batchDim, bindT, broadcastBatch, moveAxis, physAxis } from './batch-helpers.js';

const reshapeT = (t: Tensor, shape: readonly Dim[]): Tensor => bindT('reshape', [t], { shape: [...shape] });
const isNum = (d: Dim | undefined): d is number => typeof d === 'number';

/**
 * matmul [...b, m, k] @ [...b, k, n]. Both batched: batch axes brought to one
 * position among the leading batch dims (nothing moves when they already share
 * one). One side batched: when its batch axis is next to m (left) or n (right),
 * it is folded into that axis by a reshape (one larger matmul, no copy of the
 * other operand); otherwise the unbatched operand is broadcast with expand (a
 * stride-0 view).
 */
export const matmulBatch: BatchRule = ({ inputs }, dims) => {
  const [x, y] = inputs as [Tensor, Tensor];
  const [dx, dy] = dims as [number | null, number | null];
  const r = dx === null ? x.ndim : x.ndim - 1; // unbatched rank (≥ 2)
  const b = batchDim(inputs, dims);
  const mm = (p: Tensor, q: Tensor) => bindT('matmul', [p, q]);
  if (dx !== null && dy !== null) {
    if (dx === dy && dx <= r - 2) return { out: mm(x, y), dim: dx };
    const at = dx <= r - 2 ? dx : dy <= r - 2 ? dy : 0;
    return { out: mm(moveAxis(x, dx, at), moveAxis(y, dy, at)), dim: at };
  }
  if (dx !== null) {
    const P = x.node.shape; // [...lead, (B, m) or (m, B), k]
    const p0 = P[r - 2],
      p1 = P[r - 1];
    if ((dx === r - 2 || dx === r - 1) && isNum(p0) && isNum(p1)) {
      const lead = P.slice(0, r - 2);
      const o = mm(reshapeT(x, [...lead, p0 * p1, P[r]!]), y);
      return { out: reshapeT(o, [...lead, p0, p1, o.node.shape[r - 1]!]), dim: dx };
    }
    const at = dx <= r - 2 ? dx : 0;
    return { out: mm(moveAxis(x, dx, at), broadcastBatch(y, b, at)), dim: at };
  }
  const Q = y.node.shape; // [...lead, k, (B, n) or (n, B)]
  const q0 = Q[r - 1],
    q1 = Q[r];
  if ((dy === r - 1 || dy === r) && isNum(q0) && isNum(q1)) {
    const lead = Q.slice(0, r - 2);
    const o = mm(x, reshapeT(y, [...lead, Q[r - 2]!, q0 * q1]));
    return { out: reshapeT(o, [...lead, o.node.shape[r - 2]!, q0, q1]), dim: dy! };
  }
  const at = dy! <= r - 2 ? dy! : 0;
  return { out: mm(broadcastBatch(x, b, at), moveAxis(y, dy!, at)), dim: at };
};

/**
 * Per-example indices idx [B, ...I] (batch first) into an axis of size n, made
 * indices into the merged axis of size B·n: normalized (negatives count from the
 * end), offset by example·n; an index out of range maps to B·n so that the
 * kernel still reports it (IndexError).
 */
function mergedIndices(idx: Tensor, B: number, n: number): Tensor {
  const off = new Int32Array(B);
  for (let i = 0; i < B; i++) off[i] = i * n;
  const offs = fromStorage(off, [B, ...Array<number>(idx.ndim - 1).fill(1)], 'int32');
  const valid = idx.ge(-n).logicalAnd(idx.lt(n));
  const norm = idx.add(n).where(idx.lt(0), idx);
  return norm.add(offs).where(valid, B * n);
}

function staticMerge(op: string, b: Dim, n: Dim | undefined, shape: readonly Dim[]): [number, number] {
  if (!isNum(b) || !isNum(n)) {
    throw new TransformError(`vmap: ${op} with batched indices and a batched or written operand needs a static batch size and axis (got batch ${b}, operand shape ${fmtShape(shape)})`);
  }
  return [b, n];
}

/**
 * gather (np.take along `axis`). x batched only: gather along the shifted axis,
 * the batch axis stays where it is. Indices batched only: the batch axis lands
 * inside the index dims. Both: x's batch is merged with the gathered axis
 * (reshape [.., B, n, ..] → [.., B·n, ..]) and the indices are offset per example.
 */
export const gatherBatch: BatchRule = ({ attrs, inputs }, dims) => {
  const [x, idx] = inputs as [Tensor, Tensor];
  const [dx, di] = dims as [number | null, number | null];
  const a = attrs['axis'] as number;
  if (di === null) {
    const q = idx.ndim;
    return { out: bindT('gather', [x, idx], { ...attrs, axis: physAxis(a, dx!) }), dim: dx! <= a ? dx! : dx! + q - 1 };
  }
  if (dx === null) return { out: bindT('gather', [x, idx], attrs), dim: a + di };
  const xm = moveAxis(x, dx, a); // [pre, B, n, post]
  const P = xm.node.shape;
  const [B, n] = staticMerge('gather', P[a]!, P[a + 1], x.node.shape);
  const merged = reshapeT(xm, [...P.slice(0, a), B * n, ...P.slice(a + 2)]);
  return { out: bindT('gather', [merged, mergedIndices(moveAxis(idx, di, 0), B, n)], attrs), dim: a };
};

/**
 * scatterAdd(x, idx, upd, axis): x and upd are batched together (an unbatched
 * one is broadcast, a copy that the output needs anyway). Indices unbatched:
 * scatter along the shifted axis, keeping x's batch position (or upd's, when x
 * is unbatched). Indices batched: the merged-axis construction of gather.
 */
export const scatterAddBatch: BatchRule = ({ attrs, inputs }, dims) => {
  const [x, idx, upd] = inputs as [Tensor, Tensor, Tensor];
  const [dx, di, du] = dims as [number | null, number | null, number | null];
  const a = attrs['axis'] as number;
  const b = batchDim(inputs, dims);
  const q = di === null ? idx.ndim : idx.ndim - 1; // unbatched index rank
  // Position in upd of x's axis p (upd = x[:a] + idx + x[a+1:]).
  const updPos = (p: number) => (p <= a ? p : p + q - 1);
  if (di === null) {
    const p = dx !== null ? dx : du! <= a ? du! : du! >= a + q ? du! - q + 1 : a;
    const xs = batchAt(x, dx, b, p);
    const us = batchAt(upd, du, b, updPos(p));
    return { out: bindT('scatterAdd', [xs, idx, us], { ...attrs, axis: physAxis(a, p) }), dim: p };
  }
  const xm = batchAt(x, dx, b, a); // [pre, B, n, post]
  const P = xm.node.shape;
  const [B, n] = staticMerge('scatterAdd', b, P[a + 1], xm.node.shape);
  const merged = reshapeT(xm, [...P.slice(0, a), B * n, ...P.slice(a + 2)]);
  const us = batchAt(upd, du, b, a); // [pre, B, I, post]
  const out = bindT('scatterAdd', [merged, mergedIndices(moveAxis(idx, di, 0), B, n), us], attrs);
  return { out: reshapeT(out, P), dim: a };
};
