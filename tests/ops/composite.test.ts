// Composite patterns that exercise the compiler (fusion of elementwise prologues
// into reductions, epilogues after reductions, views of reduced values, shared
// subexpressions): softmax, layer norm, reductions of views, views of reductions,
// a value used by several consumers, and matmul + bias + activation, each against
// the naive reference, with intermediates optionally realized first (so fused and
// unfused paths are both compared).
//
// Tolerance: a handful of roundings per element and sums of ≤ 625 terms of
// magnitude ≤ ~e^10: rtol 1e-11, atol 1e-11.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import * as N from '../harness/naive.js';
import { expectTensor, FEW, narrOf, runs, shapeArb, toTensor } from '../harness/arbitraries.js';

const TOL = { rtol: 1e-11, atol: 1e-11 };

/** x (rank ≥ 1, non-empty) and an axis, plus a flag to realize intermediates. */
const xAxis = shapeArb({ minRank: 1, nonEmpty: true }).chain((s) =>
  fc.tuple(narrOf(s, { min: -10, max: 10 }), fc.integer({ min: -s.length, max: s.length - 1 }), fc.boolean()),
);

const maybeRealize = (t: rlx.Tensor, yes: boolean): rlx.Tensor => {
  if (yes) t.toArray();
  return t;
};

describe.each(DEVICES)('composite patterns on %s', (device) => {
  it('softmax along an axis: exp(x - max) / sum(exp(x - max))', () => {
    fc.assert(
      fc.property(xAxis, ([x, a, mid]) => {
        const t = toTensor(x, device);
        const e = maybeRealize(t.sub(t.max(a, true)).exp(), mid);
        const r = e.div(e.sum(a, true));
        const m = N.reduce(x, 'max', a, true);
        const en = N.unary(N.binary(x, m, (p, q) => p - q), Math.exp);
        expectTensor(r, N.binary(en, N.reduce(en, 'sum', a, true), (p, q) => p / q), TOL, `softmax axis ${a} of [${x.shape}]`);
      }),
      runs(),
    );
  });

  it('layer norm: (x - mean) / sqrt(var + eps) · gamma + beta', () => {
    fc.assert(
      fc.property(xAxis, ([x, a, mid]) => {
        const t = toTensor(x, device);
        const ax = a < 0 ? a + x.shape.length : a;
        const pshape = x.shape.map((d, i) => (i === ax ? d : 1));
        const gamma = N.make(pshape, Array.from({ length: N.sizeOf(pshape) }, (_, i) => 1 + i / 7));
        const beta = N.make(pshape, Array.from({ length: N.sizeOf(pshape) }, (_, i) => -i / 3));
        const mu = maybeRealize(t.mean(a, true), mid);
        const r = t.sub(mu).div(t.var(a, true).add(1e-5).sqrt()).mul(toTensor(gamma, device)).add(toTensor(beta, device));
        const mn = N.reduce(x, 'mean', a, true);
        const vn = N.variance(x, a, true);
        const ref = N.binary(N.binary(N.binary(N.binary(x, mn, (p, q) => p - q), N.unary(vn, (v) => Math.sqrt(v + 1e-5)), (p, q) => p / q), gamma, (p, q) => p * q), beta, (p, q) => p + q);
        expectTensor(r, ref, { rtol: 1e-9, atol: 1e-9 }, `layernorm axis ${a} of [${x.shape}]`);
      }),
      runs(),
    );
  });

  it('reductions of views (transposed, flipped, strided) and views of reductions', () => {
    fc.assert(
      fc.property(
        shapeArb({ minRank: 2, maxRank: 4, nonEmpty: true }).chain((s) => fc.tuple(narrOf(s), fc.nat(23), fc.nat(3), fc.boolean())),
        ([x, pr, a, mid]) => {
          const r = x.shape.length;
          const perm = Array.from({ length: r }, (_, i) => i);
          for (let i = r - 1, q = pr; i > 0; i--, q = Math.floor(q / 2)) {
            const j = q % (i + 1);
            [perm[i], perm[j]] = [perm[j]!, perm[i]!];
          }
          const axis = a % r;
          const t = toTensor(x, device);
          const view = t.transpose(perm).flip(0).slice(rlx.s(rlx.rg(null, null, 2)));
          const vn = N.slice(N.flip(N.transpose(x, perm), 0), [{ step: 2 }]);
          const s = maybeRealize(view.mul(view).sum(axis, true), mid);
          const sn = N.reduce(N.binary(vn, vn, (p, q) => p * q), 'sum', axis, true);
          expectTensor(s, sn, TOL, 'sum of a view');
          // A view of the reduction, combined with the view it came from.
          const back = view.sub(s.flip(-1));
          expectTensor(back, N.binary(vn, N.flip(sn, -1), (p, q) => p - q), TOL, 'view - flip(sum)');
          expectTensor(view.cumsum(axis).max(axis), N.reduce(N.cumsum(vn, axis), 'max', axis), TOL, 'max of cumsum of a view');
        },
      ),
      runs(),
    );
  });

  it('one value with several consumers (elementwise, reduction, view), computed once and reused', () => {
    fc.assert(
      fc.property(
        shapeArb({ minRank: 1, nonEmpty: true }).chain((s) => fc.tuple(narrOf(s, { min: -3, max: 3 }), fc.boolean())),
        ([x, mid]) => {
          const t = toTensor(x, device);
          const u = maybeRealize(t.mul(2).sin(), mid);
          const r = u.add(u.sum()).sub(u.flip()).mul(u.abs().max());
          const un = N.unary(x, (v) => Math.sin(2 * v));
          const tot = N.reduce(un, 'sum').data[0]!;
          const mx = N.reduce(N.unary(un, Math.abs), 'max').data[0]!;
          const ref = N.binary(N.unary(un, (v) => v + tot), N.flip(un), (p, q) => (p - q) * mx);
          expectTensor(r, ref, TOL, 'shared value');
        },
      ),
      runs(),
    );
  });

  it('matmul + bias + activation, and a reduction of the matmul output', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 3 })).chain(([m, k, n, b]) =>
          fc.tuple(narrOf([b, m, k], { min: -2, max: 2 }), narrOf([k, n], { min: -2, max: 2 }), narrOf([n], { min: -1, max: 1 }), fc.boolean()),
        ),
        ([a, w, bias, mid]) => {
          const mm = maybeRealize(toTensor(a, device).matmul(toTensor(w, device)), mid);
          const y = mm.add(toTensor(bias, device)).tanh();
          const mn = N.matmul(a, w);
          const yn = N.unary(N.binary(mn, bias, (p, q) => p + q), Math.tanh);
          expectTensor(y, yn, TOL, 'tanh(a @ w + b)');
          expectTensor(y.sum(-1, true).add(mm.mean([0, 1])), N.binary(N.reduce(yn, 'sum', -1, true), N.reduce(mn, 'mean', [0, 1]), (p, q) => p + q), TOL, 'sum(y) + mean(mm)');
        },
      ),
      runs(),
    );
  });

  it('where / clip / comparisons feeding reductions (masked mean, count of positives)', () => {
    fc.assert(
      fc.property(xAxis, ([x, a]) => {
        const t = toTensor(x, device);
        const pos = t.gt(0);
        const count = pos.sum(a);
        const masked = rlx.where(pos, t, 0).sum(a).div(count.maximum(1));
        const pn = N.unary(x, (v) => (v > 0 ? 1 : 0));
        const cn = N.reduce(pn, 'sum', a);
        const mref = N.binary(N.reduce(N.unary(x, (v) => (v > 0 ? v : 0)), 'sum', a), N.unary(cn, (c) => Math.max(c, 1)), (p, q) => p / q);
        expectTensor(count, cn, { rtol: 0, atol: 0 }, 'count');
        expectTensor(masked, mref, TOL, 'masked mean');
        expectTensor(t.clip(-1, 1).sum(a, true).sub(t.clip(-1, 1)), N.binary(N.reduce(N.unary(x, (v) => Math.min(Math.max(v, -1), 1)), 'sum', a, true), N.unary(x, (v) => Math.min(Math.max(v, -1), 1)), (p, q) => p - q), TOL, 'clip');
      }),
      runs(FEW),
    );
  });

  type Case = [string, (a: rlx.Tensor, b: rlx.Tensor) => rlx.Tensor];
  const CONST_CASES: Case[] = [
    ['a + b', (a, b) => a.add(b)],
    ['exp(a) * b', (a, b) => a.exp().mul(b)],
    ['sum(a, -1)', (a) => a.sum(-1)],
    ['prod(a, 0)', (a) => a.prod(0)],
    ['sum(a)', (a) => a.sum()],
    ['max(a, -1)', (a) => (a.shape[a.ndim - 1] === 0 ? a : a.max(-1))],
    ['cumsum(a, 0)', (a) => a.cumsum(0)],
    ['a @ b^T', (a, b) => a.matmul(b.swapaxes(-1, -2))],
    ['a^T @ b', (a, b) => a.swapaxes(-1, -2).matmul(b)],
    ['flip(a) - b', (a, b) => a.flip().sub(b)],
    ['pad(a, 1)', (a) => a.pad(1, 3)],
    ['cat([a, b], 0)', (a, b) => rlx.cat([a, b], 0)],
    ['stack([a, b], -1)', (a, b) => rlx.stack([a, b], -1)],
    ['a[::-1, 1:]', (a) => a.slice(rlx.s(rlx.rg(null, null, -1), rlx.tail(1)))],
    ['where(a > 1, a, b)', (a, b) => rlx.where(a.gt(1), a, b)],
    ['mean(a, 0)', (a) => a.mean(0)],
    ['var(a, -1)', (a) => a.var(-1)],
    ['gather(a, [0, -1], -1)', (a) => (a.shape[a.ndim - 1] === 0 ? a : a.gather([0, -1], -1))],
  ];
  for (const [what, f] of CONST_CASES) {
    it(`constant inputs (full: lazy literals) give the same result as realized buffers: ${what}`, () => {
      fc.assert(
        fc.property(shapeArb({ minRank: 2, maxRank: 3, maxDim: 4 }), fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }), (shape, va, vb) => {
          const real = f(toTensor(N.filled(shape, va), device), toTensor(N.filled(shape, vb), device));
          const lazy = f(rlx.full(shape, va).on(device), rlx.full(shape, vb).on(device));
          let got: Float64Array | Float32Array | Int32Array | Int8Array | Uint8Array;
          try {
            got = lazy.toArray();
          } catch (e) {
            throw new Error(`${what} on full(${JSON.stringify(shape)}, ${va} / ${vb}) threw ${String(e)}; with realized inputs it gives shape [${real.shape}]`);
          }
          expect(lazy.shape, what).toEqual(real.shape);
          expect(got, `${what} on [${shape}]`).toBeAllclose(real.toArray(), { rtol: 1e-13, atol: 1e-13 });
        }),
        runs(FEW),
      );
    });
  }
});
