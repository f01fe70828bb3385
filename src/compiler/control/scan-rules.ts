// Transform rules of the scan primitive.
//
// JVP: one scan carrying primal and tangent. VJP: a forward scan that records
// the carry entering each step (the forward is recomputed: scan is checkpointed
// by construction), then a reverse scan of the body's VJP that carries the
// carry cotangent and the accumulated cotangents of the closed-over values.
// Batching: the body is batched once; carries get the batch axis first, xs second.

import { Tensor } from '../../tensor/tensor.js';
import { cat } from '../../tensor/ops/movement.js';
import { constNode } from '../primitives.js';
import type { Node } from '../ir.js';
import type { BatchRule, JvpRule, VjpRule } from '../transforms/rule-types.js';
import { forwardMode, reverseMode } from '../transforms/autodiff.js';
import { batchGraph } from '../transforms/vmap.js';
import { batchFirst, batchSize, moveAxis } from '../transforms/rules/batch-helpers.js';
import { getBody } from '../bodies.js';
import { applyBody } from './inline.js';
import { scanFlat } from './scan.js';
import { unpack } from './pack.js';

/** The packed control node a view (slice/reshape/cast chain) reads from. */
function rootOf(n: Node): Node {
  let m = n;
  while (m.op === 'slice' || m.op === 'reshape' || m.op === 'cast') m = m.inputs[0]!;
  return m;
}

const zeros = (t: Tensor) => {
  const n = constNode(0, t.dtype, t.node.shape);
  n.device = t.node.device;
  return new Tensor(n);
};
const flatCat = (ts: Tensor[], lead: number[] = []) => (ts.length === 1 ? ts[0]!.reshape([...lead, -1]) : cat(ts.map((t) => t.reshape([...lead, -1])), lead.length));

function parts(attrs: Readonly<Record<string, unknown>>, inputs: Tensor[]) {
  const nC = attrs['nConst'] as number,
    nK = attrs['nCarry'] as number;
  return {
    b: getBody(attrs['body'] as number),
    L: attrs['length'] as number,
    reverse: attrs['reverse'] as boolean,
    nC,
    nK,
    consts: inputs.slice(0, nC),
    init: inputs.slice(nC, nC + nK),
    xs: inputs.slice(nC + nK),
  };
}

export const scanJvp: JvpRule = ({ attrs, inputs }, ts) => {
  const { b, L, reverse, nC, nK, consts, init, xs } = parts(attrs, inputs);
  // Inputs without a tangent stay symbolic zeros (null) inside the body: a
  // zero tensor there would meet coefficients that are legitimately infinite
  // (x^y's x^y·log x at a negative x, for a literal exponent lifted into the
  // body's constants) and turn the tangent into NaN. Only the carry needs
  // concrete tangents (it is carried from step to step).
  const tconsts = ts.slice(0, nC).map((x) => x ?? null);
  const tinit = init.map((x, i) => ts[nC + i] ?? zeros(x));
  const withTx = xs.map((_, i) => (ts[nC + nK + i] ?? null) !== null);
  const txs = xs.flatMap((_, i) => (withTx[i] ? [ts[nC + nK + i]!] : []));
  const nY = b.outputs.length - nK;
  const res = scanFlat(
    (_c, carry2, x2) => {
      const carry = carry2.slice(0, nK),
        tcarry = carry2.slice(nK);
      const x = x2.slice(0, xs.length),
        tx2 = x2.slice(xs.length);
      let j = 0;
      const tx = xs.map((_, i) => (withTx[i] ? tx2[j++]! : null));
      const outs = applyBody(b, [...consts, ...carry, ...x]);
      const wrt = [...consts, ...carry, ...x].map((v) => v.node);
      const touts = forwardMode(outs.map((o) => o.node), wrt, [...tconsts, ...tcarry, ...tx]).map((tt, i) => tt ?? zeros(outs[i]!));
      return { carry: [...outs.slice(0, nK), ...touts.slice(0, nK)], ys: [...outs.slice(nK), ...touts.slice(nK)] };
    },
    [...init, ...tinit],
    [...xs, ...txs],
    L,
    reverse,
  );
  return flatCat([...res.carry.slice(nK), ...res.ys.slice(nY)]);
};

export const scanVjp: VjpRule = (ctx, ct) => {
  const k = (ctx.attrs['checkpoint'] as number) ?? 0;
  return k > 1 && (ctx.attrs['length'] as number) > k ? scanVjpCheckpointed(ctx, ct, k) : scanVjpStored(ctx, ct);
};

/** The packed cotangent split like the outputs: final carries, then stacked ys. */
function unpackCotangent(node: Node, b: ReturnType<typeof getBody>, L: number, nK: number, ct: Tensor): Tensor[] {
  const outAvals = [...b.outAvals.slice(0, nK).map((a) => a.shape), ...b.outAvals.slice(nK).map((a) => [L, ...a.shape])].map((shape) => ({ shape, dtype: node.dtype }));
  return unpack(ct.node, outAvals);
}

/** The body's VJP at one step: cotangents of (carry in, x) and of the closed-over values. */
function stepVjp(b: ReturnType<typeof getBody>, consts: Tensor[], nK: number, cIn: Tensor[], xIn: Tensor[], gc: Tensor[], gy: Tensor[]) {
  const outs = applyBody(b, [...consts, ...cIn, ...xIn]);
  const wrt = [...consts, ...cIn, ...xIn];
  const g = reverseMode(outs.map((o) => o.node), [...gc, ...gy], wrt.map((w) => w.node)).map((v, i) => v ?? zeros(wrt[i]!));
  return { gConst: g.slice(0, consts.length), gCarry: g.slice(consts.length, consts.length + nK), gX: g.slice(consts.length + nK) };
}

/**
 * The reverse walk shared by both VJPs: starting from the carry cotangent and
 * zero accumulators, step back through `hist` (carry entering each step), `xs`
 * and the ys cotangents; returns the cotangents of the first carry, of the
 * closed-over values and of every x.
 */
function reverseSteps(b: ReturnType<typeof getBody>, consts: Tensor[], nK: number, gc0: Tensor[], acc0: Tensor[], hist: Tensor[], xs: Tensor[], gys: Tensor[], length: number, reverse: boolean) {
  const nX = xs.length;
  const r = scanFlat(
    (_c, carry, x) => {
      const g = stepVjp(b, consts, nK, x.slice(0, nK), x.slice(nK, nK + nX), carry.slice(0, nK), x.slice(nK + nX));
      return { carry: [...g.gCarry, ...carry.slice(nK).map((a, i) => a.add(g.gConst[i]!))], ys: g.gX };
    },
    [...gc0, ...acc0],
    [...hist, ...xs, ...gys],
    length,
    !reverse,
  );
  return { gInit: r.carry.slice(0, nK), gConsts: r.carry.slice(nK), gXs: r.ys };
}

/**
 * Checkpointed VJP: one stored carry per segment of k steps; the backward pass
 * walks the segments in reverse, recomputing each segment's carries and then
 * running the step VJPs over it.
 */
function scanVjpCheckpointed({ node, attrs, inputs }: Parameters<VjpRule>[0], ct: Tensor, k: number): (Tensor | null)[] {
  const { b, L, reverse, nK, consts, init, xs } = parts(attrs, inputs);
  const S = L / k;
  const cts = unpackCotangent(node, b, L, nK, ct);
  const seg = (t: Tensor) => t.reshape([S, k, ...t.shape.slice(1)]);
  const xsS = xs.map(seg),
    ctYsS = cts.slice(nK).map(seg);
  const stepFwd = (c: Tensor[], x: Tensor[]) => applyBody(b, [...consts, ...c, ...x]).slice(0, nK);
  // Carries entering each segment.
  const starts = scanFlat((_c, c, xseg) => ({ carry: scanFlat((_d, cc, x) => ({ carry: stepFwd(cc, x), ys: [] }), c, xseg, k, reverse).carry, ys: c }), init, xsS, S, reverse).ys;
  const nX = xs.length;
  const back = scanFlat(
    (_c, carry, x) => {
      const start = x.slice(0, nK),
        xseg = x.slice(nK, nK + nX);
      const hist = scanFlat((_d, cc, xx) => ({ carry: stepFwd(cc, xx), ys: cc }), start, xseg, k, reverse).ys;
      const r = reverseSteps(b, consts, nK, carry.slice(0, nK), carry.slice(nK), hist, xseg, x.slice(nK + nX), k, reverse);
      return { carry: [...r.gInit, ...r.gConsts], ys: r.gXs };
    },
    [...cts.slice(0, nK), ...consts.map(zeros)],
    [...starts, ...xsS, ...ctYsS],
    S,
    !reverse,
  );
  const gxs = back.ys.map((g) => g.reshape([L, ...g.shape.slice(2)]));
  return [...back.carry.slice(nK), ...back.carry.slice(0, nK), ...gxs];
}

function scanVjpStored({ node, attrs, inputs }: Parameters<VjpRule>[0], ct: Tensor): (Tensor | null)[] {
  const { b, L, reverse, nK, consts, init, xs } = parts(attrs, inputs);
  const cts = unpackCotangent(node, b, L, nK, ct);
  const ctCarry = cts.slice(0, nK),
    ctYs = cts.slice(nK);
  // 1. Carries entering each step. When the forward scan has not run yet it is
  // redefined as a view of one scan that also records them, so it runs once.
  const both = scanFlat(
    (_c, carry, x) => {
      const outs = applyBody(b, [...consts, ...carry, ...x]);
      return { carry: outs.slice(0, nK), ys: [...outs.slice(nK), ...carry] };
    },
    init,
    xs,
    L,
    reverse,
  );
  const hist = both.ys.slice(b.outputs.length - nK);
  const packedBoth = hist[0] ? rootOf(hist[0].node) : undefined;
  const total = attrs['total'] as number;
  if (node.op === 'scan' && !node.history && packedBoth && packedBoth.op === 'scan' && packedBoth.dtype === node.dtype) {
    node.redefine('slice', [packedBoth], { start: [0], step: [1], size: [total] });
  }
  // 2. The body's VJP, walked in the opposite direction.
  const r = reverseSteps(b, consts, nK, ctCarry, consts.map(zeros), hist, xs, ctYs, L, reverse);
  return [...r.gConsts, ...r.gInit, ...r.gXs];
}

export const scanBatch: BatchRule = ({ attrs, inputs }, dims) => {
  const { b, L, reverse, nC, nK, consts, init, xs } = parts(attrs, inputs);
  const B = batchSize(inputs, dims);
  const cDims = dims.slice(0, nC);
  const init0 = init.map((t, i) => batchFirst(t, dims[nC + i]!, B));
  const xDims = dims.slice(nC + nK).map((d, i) => (d === null ? null : 1 + 0 * i));
  const xs1 = xs.map((x, i) => {
    const d = dims[nC + nK + i]!;
    return d === null ? x : moveAxis(x, d, 1);
  });
  const res = scanFlat(
    (_c, carry, x) => {
      const env = new Map(b.inputs.map((n, i) => {
        if (i < nC) return [n, { t: consts[i]!, dim: cDims[i]! }];
        if (i < nC + nK) return [n, { t: carry[i - nC]!, dim: 0 }];
        const j = i - nC - nK;
        return [n, { t: x[j]!, dim: xDims[j] === null ? null : 0 }];
      }));
      const outs = batchGraph(b.outputs, env).map((r) => batchFirst(r.t, r.dim, B));
      return { carry: outs.slice(0, nK), ys: outs.slice(nK) };
    },
    init0,
    xs1,
    L,
    reverse,
    (attrs['checkpoint'] as number) ?? 0,
  );
  // Packed and batched: [B, total] from each part with its batch axis first.
  const ys0 = res.ys.map((y) => moveAxis(y, 1, 0));
  return { out: flatCat([...res.carry, ...ys0], [B]), dim: 0 };
};
