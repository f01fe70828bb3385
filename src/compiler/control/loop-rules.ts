// Transform rules of whileLoop and cond.

import { Tensor } from '../../tensor/tensor.js';
import { TransformError } from '../../tensor/errors.js';
import { cat } from '../../tensor/ops/movement.js';
import { where } from '../../tensor/ops/elementwise.js';
import { constNode } from '../primitives.js';
import type { BatchRule, JvpRule, VjpRule } from '../transforms/rule-types.js';
import { forwardMode, reverseMode } from '../transforms/autodiff.js';
import { batchGraph } from '../transforms/vmap.js';
import { batchFirst, batchSize } from '../transforms/rules/batch-helpers.js';
import type { PyTree } from '../transforms/pytree.js';
import { getBody } from '../bodies.js';
import { applyBody } from './inline.js';
import { cond, whileLoop } from './loop.js';

const zeros = (t: Tensor) => {
  const n = constNode(0, t.dtype, t.node.shape);
  n.device = t.node.device;
  return new Tensor(n);
};
const flatCat = (ts: Tensor[], lead: number[] = []) => (ts.length === 1 ? ts[0]!.reshape([...lead, -1]) : cat(ts.map((t) => t.reshape([...lead, -1])), lead.length));
const list = (p: PyTree) => (Array.isArray(p) ? (p as Tensor[]) : [p as Tensor]);

function condParts(attrs: Readonly<Record<string, unknown>>, inputs: Tensor[]) {
  const nt = attrs['nTrueConst'] as number,
    nf = attrs['nFalseConst'] as number;
  return {
    pred: inputs[0]!,
    tb: getBody(attrs['onTrue'] as number),
    fb: getBody(attrs['onFalse'] as number),
    tc: inputs.slice(1, 1 + nt),
    fc: inputs.slice(1 + nt, 1 + nt + nf),
    ops: inputs.slice(1 + nt + nf),
    nt,
    nf,
  };
}

export const condJvp: JvpRule = ({ attrs, inputs }, ts) => {
  const { pred, tb, fb, tc, fc, ops, nt, nf } = condParts(attrs, inputs);
  // Constants without a tangent stay symbolic zeros (null), as in scanJvp: a zero tensor would
  // meet legitimately infinite coefficients (x^y's log x at a negative x) and give NaN.
  const ttc = ts.slice(1, 1 + nt).map((x) => x ?? null),
    tfc = ts.slice(1 + nt, 1 + nt + nf).map((x) => x ?? null),
    tops = inputs.slice(1 + nt + nf).map((x, i) => ts[1 + nt + nf + i] ?? zeros(x));
  const n = ops.length;
  const branch = (b: typeof tb, consts: Tensor[], tconsts: (Tensor | null)[]) => (...a: Tensor[]) => {
    const outs = applyBody(b, [...consts, ...a.slice(0, n)]);
    return forwardMode(outs.map((o) => o.node), [...consts, ...a.slice(0, n)].map((x) => x.node), [...tconsts, ...a.slice(n)]).map((v, i) => v ?? zeros(outs[i]!));
  };
  return flatCat(list(cond(pred, branch(tb, tc, ttc), branch(fb, fc, tfc), ...ops, ...tops)));
};

export const condVjp: VjpRule = ({ node, attrs, inputs }, ct) => {
  const { pred, tb, fb, tc, fc, ops } = condParts(attrs, inputs);
  const n = ops.length;
  const outAvals = tb.outAvals.map((a) => ({ shape: a.shape, dtype: node.dtype }));
  const branch = (b: typeof tb, consts: Tensor[], isTrue: boolean) => (...a: Tensor[]) => {
    const xs = a.slice(0, n),
      cts = a.slice(n);
    const outs = applyBody(b, [...consts, ...xs]);
    const wrt = [...consts, ...xs];
    const g = reverseMode(outs.map((o) => o.node), cts, wrt.map((w) => w.node)).map((v, i) => v ?? zeros(wrt[i]!));
    const gc = g.slice(0, consts.length),
      gx = g.slice(consts.length);
    return [...gx, ...(isTrue ? gc : tc.map(zeros)), ...(isTrue ? fc.map(zeros) : gc)];
  };
  const cts = flatCat([ct]).reshape([-1]);
  // Split the packed cotangent into the branch outputs' shapes.
  let at = 0;
  const parts = outAvals.map((a) => {
    const size = a.shape.reduce<number>((p, d) => p * (d as number), 1);
    const s = cts.slice({ kind: 'slice', axes: [{ kind: 'rg', start: at, end: at + size, step: 1 }] }).reshape([...(a.shape as number[])]);
    at += size;
    return s;
  });
  const g = list(cond(pred, branch(tb, tc, true), branch(fb, fc, false), ...ops, ...parts));
  return [null, ...g.slice(n, n + tc.length), ...g.slice(n + tc.length), ...g.slice(0, n)];
};

export const condBatch: BatchRule = ({ attrs, inputs }, dims) => {
  const { pred, tb, fb, tc, fc, ops, nt, nf } = condParts(attrs, inputs);
  const B = batchSize(inputs, dims);
  const opDims = dims.slice(1 + nt + nf);
  const run = (b: typeof tb, consts: Tensor[], cdims: (number | null)[], args: Tensor[]) => {
    const env = new Map(b.inputs.map((nd, i) => [nd, i < consts.length ? { t: consts[i]!, dim: cdims[i]! } : { t: args[i - consts.length]!, dim: opDims[i - consts.length]! }]));
    return batchGraph(b.outputs, env).map((r) => batchFirst(r.t, r.dim, B));
  };
  const tcd = dims.slice(1, 1 + nt),
    fcd = dims.slice(1 + nt, 1 + nt + nf);
  if (dims[0] !== null) {
    // A batched predicate: both branches, then select per example.
    const p = batchFirst(pred, dims[0]!, B);
    const a = run(tb, tc, tcd, ops),
      b = run(fb, fc, fcd, ops);
    const sel = a.map((x, i) => where(p.reshape([B, ...Array(x.ndim - 1).fill(1)]), x, b[i]!));
    return { out: flatCat(sel, [B]), dim: 0 };
  }
  const outs = list(cond(pred, (...xs: Tensor[]) => run(tb, tc, tcd, xs), (...xs: Tensor[]) => run(fb, fc, fcd, xs), ...ops));
  return { out: flatCat(outs, [B]), dim: 0 };
};

export const whileJvp: JvpRule = ({ attrs, inputs }, ts) => {
  const c = getBody(attrs['cond'] as number),
    b = getBody(attrs['body'] as number);
  const nc = attrs['nCondConst'] as number,
    nb = attrs['nBodyConst'] as number;
  const cc = inputs.slice(0, nc),
    bc = inputs.slice(nc, nc + nb),
    init = inputs.slice(nc + nb);
  // Body constants without a tangent stay symbolic zeros (null), as in scanJvp; the carry's are concrete.
  const tbc = ts.slice(nc, nc + nb).map((x) => x ?? null),
    tinit = init.map((x, i) => ts[nc + nb + i] ?? zeros(x));
  const k = init.length;
  const out = list(
    whileLoop(
      (s) => applyBody(c, [...cc, ...list(s).slice(0, k)])[0]!,
      (s) => {
        const cur = list(s).slice(0, k),
          tcur = list(s).slice(k);
        const outs = applyBody(b, [...bc, ...cur]);
        const touts = forwardMode(outs.map((o) => o.node), [...bc, ...cur].map((x) => x.node), [...tbc, ...tcur]).map((v, i) => v ?? zeros(outs[i]!));
        return [...outs, ...touts];
      },
      [...init, ...tinit],
    ),
  );
  return flatCat(out.slice(k));
};

export const whileVjp: VjpRule = () => {
  throw new TransformError('whileLoop is not reverse-differentiable (its trip count depends on data); use scan or forLoop with a fixed number of steps, or jvp');
};

export const whileBatch: BatchRule = ({ attrs, inputs }, dims) => {
  const c = getBody(attrs['cond'] as number),
    b = getBody(attrs['body'] as number);
  const nc = attrs['nCondConst'] as number,
    nb = attrs['nBodyConst'] as number;
  const B = batchSize(inputs, dims);
  const cc = inputs.slice(0, nc),
    bc = inputs.slice(nc, nc + nb);
  const init = inputs.slice(nc + nb).map((x, i) => batchFirst(x, dims[nc + nb + i]!, B));
  const env = (body: typeof c, consts: Tensor[], cd: (number | null)[], carry: Tensor[]) =>
    new Map(body.inputs.map((nd, i) => [nd, i < consts.length ? { t: consts[i]!, dim: cd[i]! } : { t: carry[i - consts.length]!, dim: 0 }]));
  const predOf = (carry: Tensor[]) => {
    const r = batchGraph(c.outputs, env(c, cc, dims.slice(0, nc), carry))[0]!;
    return batchFirst(r.t, r.dim, B);
  };
  // Run while any example is still going; finished examples keep their carry.
  const out = list(
    whileLoop(
      (s) => predOf(list(s)).cast('int32').sum().gt(0),
      (s) => {
        const cur = list(s);
        const p = predOf(cur);
        const next = batchGraph(b.outputs, env(b, bc, dims.slice(nc, nc + nb), cur)).map((r) => batchFirst(r.t, r.dim, B));
        return next.map((x, i) => where(p.reshape([B, ...Array(x.ndim - 1).fill(1)]), x, cur[i]!));
      },
      init,
    ),
  );
  return { out: flatCat(out, [B]), dim: 0 };
};
