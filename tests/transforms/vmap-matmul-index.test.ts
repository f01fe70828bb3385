// vmap of matmul, gather and scatterAdd against the per-example loop, bit for
// bit: every combination of batched / unbatched operands and batch positions,
// which reaches each path of the rules (both batched, batch folded into m or n,
// the unbatched side broadcast; indices offset over a merged axis).
// The matmul kernel accumulates each output element over k in the same order
// whatever the other rows and columns are, so folding the batch into m or n
// does not change a bit; scatterAdd adds repeated indices in index order in
// both forms.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { vmap } from '../../src/compiler/transforms/vmap.js';
import { DEVICES } from '../harness/devices.js';
import { type Ax, axArb, batchedShape, expectVmap, fitAx, gen, outArb, runs, someBatched } from './vmap-harness.js';

type T = rlx.Tensor;
const seedArb = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const bArb = fc.integer({ min: 1, max: 3 });
const dim = fc.integer({ min: 1, max: 4 });

describe.each(DEVICES)('vmap of matmul on %s', (device) => {
  const { randn } = gen(device);
  it('[..., m, k] @ [..., k, n] with broadcast batch dims, each side batched anywhere or not at all', () => {
    fc.assert(
      fc.property(
        fc.tuple(dim, dim, dim, fc.array(fc.integer({ min: 1, max: 2 }), { maxLength: 2 }), fc.nat(2), fc.nat(2)),
        bArb,
        axArb,
        axArb,
        outArb,
        seedArb,
        ([m, k, n, lead, da, db], B, a0, a1, out, seed) => {
          const sa = [...lead.slice(da), m, k],
            sb = [...lead.slice(db), k, n];
          const axes = someBatched([fitAx(a0, sa.length), fitAx(a1, sb.length)]);
          const a = randn(batchedShape(sa, B, axes[0]!), seed, { specials: seed % 5 === 0 });
          const b = randn(batchedShape(sb, B, axes[1]!), seed + 1);
          expectVmap((p, q) => p.matmul(q), [a, b], axes, out, `matmul ${JSON.stringify(sa)} @ ${JSON.stringify(sb)}`);
          expectVmap((p, q) => p.matmul(q).add(1).relu(), [a, b], axes, out, 'matmul + epilogue');
        },
      ),
      runs(80),
    );
  });

  it('every batch position of a 2-D and a 3-D left or right operand (fold and broadcast paths)', () => {
    fc.assert(
      fc.property(fc.tuple(dim, dim, dim, dim), fc.integer({ min: 2, max: 3 }), fc.constantFrom(0, 1, 2, 3), fc.boolean(), outArb, seedArb, ([m, k, n, l], r, pos, left, out, seed) => {
        const B = 3;
        const p = Math.min(pos, r);
        const sa = r === 2 ? [m, k] : [l, m, k],
          sb = r === 2 ? [k, n] : [l, k, n];
        const axes: Ax[] = left ? [p, null] : [null, p];
        const a = randn(batchedShape(sa, B, axes[0]!), seed);
        const b = randn(batchedShape(sb, B, axes[1]!), seed + 1);
        expectVmap((x, y) => x.matmul(y), [a, b], axes, out, `matmul rank ${r}, ${left ? 'left' : 'right'} batched at ${p}`);
      }),
      runs(80),
    );
  });

  it('vectors (matmul / dot / outer), int32, bool, float32 and complex operands', () => {
    fc.assert(
      fc.property(fc.tuple(dim, dim), bArb, axArb, axArb, outArb, seedArb, ([m, k], B, a0, a1, out, seed) => {
        const axes = someBatched([fitAx(a0, 1), fitAx(a1, 2)]);
        const v = randn(batchedShape([k], B, axes[0]!), seed);
        const M = randn(batchedShape([k, m], B, axes[1]!), seed + 1);
        expectVmap((x, y) => x.matmul(y), [v, M], axes, out, 'vec @ mat');
        expectVmap((x, y) => y.transpose().matmul(x), [v, M], axes, out, 'mat @ vec');
        expectVmap((x, y) => x.dot(y.sum(1)), [v, M], axes, out, 'vec · vec');
        expectVmap((x, y) => x.outer(y), [v, M], axes, out, 'outer');
        expectVmap((x, y) => x.cast('int32').matmul(y.cast('int32')), [v, M], axes, out, 'int32');
        expectVmap((x, y) => x.gt(0).matmul(y.gt(0)), [v, M], axes, out, 'bool');
        expectVmap((x, y) => x.cast('float32').matmul(y.cast('float32')), [v, M], axes, out, 'float32');
        // Complex on native: the per-example vector product is OpenBLAS's zgemv, the batch folded into m
        // its zgemm, and the two differ in the sign of an exactly zero sum (one starts from +0, one from
        // the first product: x·(−0) − y·(+0) is −0 there, +0 here). The inputs have few significant
        // bits, so every product and sum is exact: the values must still be equal, signed zeros aside.
        expectVmap((x, y) => rlx.complex(x, x.neg()).matmul(rlx.complex(y, y.mul(0.5))), [v, M], axes, out, 'complex', { rtol: 0, atol: 0 });
      }),
      runs(),
    );
  });
});

/** Per-example shapes for gather/scatterAdd: x of rank 1-3, an axis, index shape of rank 0-2. */
const indexCase = fc
  .tuple(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 3 }), fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }), fc.nat(), fc.boolean())
  .map(([sx, si, a, neg]) => ({ sx, si, axis: (a % sx.length) - (neg ? sx.length : 0) }));

describe.each(DEVICES)('vmap of gather on %s', (device) => {
  const { randn, randInt } = gen(device);
  it('x and indices each batched or not (negative and repeated indices)', () => {
    fc.assert(
      fc.property(indexCase, bArb, axArb, axArb, outArb, seedArb, ({ sx, si, axis }, B, a0, a1, out, seed) => {
        const an = axis < 0 ? axis + sx.length : axis;
        const n = sx[an]!;
        const axes = someBatched([fitAx(a0, sx.length), fitAx(a1, si.length)]);
        const x = randn(batchedShape(sx, B, axes[0]!), seed, { specials: true });
        const idx = randInt(batchedShape(si, B, axes[1]!), seed + 1, -n, n - 1);
        expectVmap((p, i) => p.gather(i, axis), [x, idx], axes, out, `gather axis ${axis}`);
        expectVmap((p, i) => p.exp().gather(i.mul(-1).sub(1), axis).mul(2), [x, idx], axes, out, 'gather of computed values and indices');
        if (axes[0] !== null) expectVmap((p) => p.gather([0, -1, 0], axis), [x], [axes[0]!], out, 'gather with a number[]');
      }),
      runs(80),
    );
  });

  it('an out-of-range index still raises IndexError under vmap', () => {
    const x = rlx.arange(12).reshape(3, 4).on(device);
    const good = rlx.tensor(new Int32Array([0, 1, 2, 3, -4, 3]), { shape: [3, 2], dtype: 'int32' }).on(device);
    const bad = rlx.tensor(new Int32Array([0, 1, 2, 4, -4, 3]), { shape: [3, 2], dtype: 'int32' }).on(device);
    const badNeg = rlx.tensor(new Int32Array([0, 1, 2, 3, -5, 3]), { shape: [3, 2], dtype: 'int32' }).on(device);
    const f = (p: T, i: T) => p.gather(i, 0);
    expect((vmap(f)(x, good) as T).tolist()).toEqual([[0, 1], [6, 7], [8, 11]]);
    expect(() => (vmap(f)(x, bad) as T).toArray()).toThrow(rlx.IndexError);
    expect(() => (vmap(f)(x, badNeg) as T).toArray()).toThrow(rlx.IndexError);
    expect(() => (vmap(f, { inAxes: [null, 0] })(x.select(0, 0), bad) as T).toArray()).toThrow(rlx.IndexError);
    expect(() => (vmap(f, { inAxes: [0, null] })(x, bad.select(0, 1)) as T).toArray()).toThrow(rlx.IndexError);
  });
});

describe.each(DEVICES)('vmap of scatterAdd on %s', (device) => {
  const { randn, randInt } = gen(device);
  it('x, indices and updates each batched or not (repeats accumulate in order)', () => {
    fc.assert(
      fc.property(indexCase, bArb, fc.tuple(axArb, axArb, axArb), outArb, seedArb, ({ sx, si, axis }, B, [a0, a1, a2], out, seed) => {
        const an = axis < 0 ? axis + sx.length : axis;
        const n = sx[an]!;
        const su = [...sx.slice(0, an), ...si, ...sx.slice(an + 1)];
        const axes = someBatched([fitAx(a0, sx.length), fitAx(a1, si.length), fitAx(a2, su.length)]);
        const x = randn(batchedShape(sx, B, axes[0]!), seed);
        const idx = randInt(batchedShape(si, B, axes[1]!), seed + 1, -n, n - 1);
        const u = randn(batchedShape(su, B, axes[2]!), seed + 2);
        expectVmap((p, i, v) => p.scatterAdd(i, v, axis), [x, idx, u], axes, out, `scatterAdd axis ${axis} idx ${JSON.stringify(si)}`);
        expectVmap((p, i, v) => p.mul(2).scatterAdd(i, v.exp(), axis).sub(1), [x, idx, u], axes, out, 'scatterAdd of computed operands');
        // Updates broadcast inside f (a scalar update, cast from int32).
        if (axes[0] !== null || axes[1] !== null) expectVmap((p, i) => p.scatterAdd(i, rlx.tensor(3, { dtype: 'int32' }), axis), [x, idx], axes.slice(0, 2), out, 'scatterAdd scalar update');
      }),
      runs(80),
    );
  });

  it('every batch position of x, indices and updates for a rank-3 x (exhaustive)', () => {
    const sx = [2, 3, 4];
    let k = 0;
    for (const axis of [0, 1, 2])
      for (const si of [[], [2, 3]]) {
        const su = [...sx.slice(0, axis), ...si, ...sx.slice(axis + 1)];
        const n = sx[axis]!;
        for (const ax of [null, 0, 1, 2, 3])
          for (const ai of si.length ? [null, 0, -1] : [null, 0])
            for (const au of [null, 0, 1, 2, -1]) {
              if (ax === null && ai === null && au === null) continue;
              const axes: Ax[] = [ax, ai, au];
              const x = randn(batchedShape(sx, 2, ax), ++k);
              const idx = randInt(batchedShape(si, 2, ai), ++k, -n, n - 1);
              const u = randn(batchedShape(su, 2, au), ++k);
              expectVmap((p, i, v) => p.scatterAdd(i, v, axis), [x, idx, u], axes, k % 3 === 0 ? -1 : 0, `scatterAdd axis ${axis} idx ${JSON.stringify(si)}`);
              if (au === null) expectVmap((p, i) => p.gather(i, axis), [x, idx], [ax, ai], k % 2 === 0 ? 1 : 0, `gather axis ${axis} idx ${JSON.stringify(si)}`);
            }
      }
  });

  it('int32 and bool scatterAdd', () => {
    const x = rlx.tensor(new Int32Array([1, 2, 3, 4, 5, 6]), { shape: [2, 3], dtype: 'int32' }).on(device);
    const idx = rlx.tensor(new Int32Array([0, 0, 2, -1]), { shape: [2, 2], dtype: 'int32' }).on(device);
    const u = rlx.tensor(new Int32Array([10, 20, 30, 40]), { shape: [2, 2], dtype: 'int32' }).on(device);
    const f = (p: T, i: T, v: T) => p.scatterAdd(i, v, 0);
    expect((vmap(f)(x, idx, u) as T).tolist()).toEqual([[31, 2, 3], [4, 5, 76]]);
    expectVmap(f, [x, idx, u], [0, 0, 0], 0, 'int32');
    expectVmap((p, i, v) => p.gt(3).scatterAdd(i, v.gt(15), 0), [x, idx, u], [0, 1, 1], 1, 'bool');
  });
});
