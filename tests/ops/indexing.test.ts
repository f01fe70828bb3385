// pad, gather (np.take), scatterAdd (np.add.at), cat and stack against the naive
// reference. gather/pad/cat/stack only move values (exact); scatterAdd sums
// repeated indices, possibly in another order than the reference: rtol 1e-12 with
// an atol of 1e-12 (values are below 100 in magnitude, at most 8 terms per slot).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import * as N from '../harness/naive.js';
import { expectTensor, FEW, narrOf, runs, shapeArb, toTensor } from '../harness/arbitraries.js';

const EXACT = { rtol: 0, atol: 0 };

/** x of rank ≥ 1 with a chosen axis. */
const xAxisArb = (o: { minRank?: number } = {}) =>
  shapeArb({ minRank: o.minRank ?? 1 }).chain((shape) => fc.tuple(narrOf(shape), fc.integer({ min: -shape.length, max: shape.length - 1 })));

/** Indices (shape of rank 0-2) valid for an axis of size d, negatives and repeats included. */
const indicesArb = (d: number, maxRank = 2) =>
  (d === 0 ? fc.constant([0]) : shapeArb({ maxRank, maxDim: 4 })).chain((shape) =>
    fc.array(fc.integer({ min: -d, max: Math.max(0, d - 1) }), { minLength: N.sizeOf(shape), maxLength: N.sizeOf(shape) }).map((v) => N.make(shape, v)),
  );

const idxTensor = (i: N.NArr, device: string) => rlx.tensor(Int32Array.from(i.data), { shape: i.shape, dtype: 'int32' }).on(device);

describe.each(DEVICES)('pad / gather / scatterAdd / cat / stack on %s', (device) => {
  it('pad with per-axis widths, a [before, after] pair, a single width, and a fill value', () => {
    fc.assert(
      fc.property(
        shapeArb().chain((shape) =>
          fc.tuple(narrOf(shape), fc.array(fc.tuple(fc.nat(2), fc.nat(2)), { minLength: shape.length, maxLength: shape.length }), fc.nat(2), fc.nat(2), fc.double({ min: -9, max: 9, noNaN: true })),
        ),
        ([x, widths, b, a, value]) => {
          const t = toTensor(x, device);
          expectTensor(t.pad(widths, value), N.pad(x, widths, value), EXACT, `pad ${JSON.stringify(widths)}`);
          expectTensor(t.pad([b, a]), N.pad(x, x.shape.map(() => [b, a] as [number, number]), 0), EXACT, `pad [${b}, ${a}]`);
          expectTensor(t.pad(b, value), N.pad(x, x.shape.map(() => [b, b] as [number, number]), value), EXACT, `pad ${b}`);
          expect(t.pad(widths, value).dtype).toBe('float64');
        },
      ),
      runs(),
    );
  });

  it('pad keeps int32 / float32 dtypes', () => {
    const i = rlx.tensor(new Int32Array([1, 2])).on(device).pad([1, 1], 7);
    expect(i.dtype).toBe('int32');
    expect([...i.toArray()]).toEqual([7, 1, 2, 7]);
    const f = rlx.tensor([1.5], { dtype: 'float32' }).on(device).pad([0, 2], 0.1);
    expect(f.dtype).toBe('float32');
    expect([...f.toArray()]).toEqual([1.5, Math.fround(0.1), Math.fround(0.1)]);
  });

  it('gather = np.take with repeated and negative indices of rank 0-2, as int32 tensor or number[]', () => {
    fc.assert(
      fc.property(
        xAxisArb().chain(([x, axis]) => fc.tuple(fc.constant(x), fc.constant(axis), indicesArb(x.shape[axis < 0 ? axis + x.shape.length : axis]!))),
        ([x, axis, idx]) => {
          const t = toTensor(x, device);
          const ref = N.take(x, idx, axis);
          expectTensor(t.gather(idxTensor(idx, device), axis), ref, EXACT, `gather axis ${axis} idx [${idx.shape}]=${[...idx.data]} from [${x.shape}]`);
          if (idx.shape.length === 1) expectTensor(t.gather([...idx.data], axis), ref, EXACT, 'gather with number[]');
        },
      ),
      runs(),
    );
  });

  it('scatterAdd accumulates repeated and negative indices (full and broadcast updates)', () => {
    fc.assert(
      fc.property(
        xAxisArb()
          .chain(([x, axis]) => {
            const a = axis < 0 ? axis + x.shape.length : axis;
            return fc.tuple(fc.constant(x), fc.constant(axis), indicesArb(x.shape[a]!, 1));
          })
          .chain(([x, axis, idx]) => {
            const a = axis < 0 ? axis + x.shape.length : axis;
            const ushape = [...x.shape.slice(0, a), ...idx.shape, ...x.shape.slice(a + 1)];
            return fc.tuple(fc.constant(x), fc.constant(axis), fc.constant(idx), narrOf(ushape), fc.double({ min: -9, max: 9, noNaN: true }));
          }),
        ([x, axis, idx, upd, k]) => {
          const t = toTensor(x, device);
          const tol = { rtol: 1e-12, atol: 1e-12 };
          expectTensor(t.scatterAdd(idxTensor(idx, device), toTensor(upd, device), axis), N.scatterAdd(x, idx, upd, axis), tol, `scatterAdd axis ${axis} idx ${[...idx.data]}`);
          // Broadcast updates: a 0-d tensor added at every indexed position.
          const u0 = N.make([], [k]);
          expectTensor(t.scatterAdd([...idx.data], toTensor(u0, device), axis), N.scatterAdd(x, idx, u0, axis), tol, 'scatterAdd scalar update');
        },
      ),
      runs(),
    );
  });

  it('scatterAdd: a hand-checked np.add.at example; gather/scatterAdd reject out-of-range indices with IndexError', () => {
    const x = rlx.zeros([4]).on(device);
    const r = x.scatterAdd([1, 1, -1, 3], rlx.tensor([1, 2, 3, 4]).on(device));
    expect([...r.toArray()]).toEqual([0, 3, 0, 7]);
    const g = rlx.tensor([10, 20, 30]).on(device);
    expect([...g.gather([2, -3, 2]).toArray()]).toEqual([30, 10, 30]);
    expect(() => g.gather([3]).toArray()).toThrow(rlx.IndexError);
    expect(() => g.gather([-4]).toArray()).toThrow(rlx.IndexError);
    expect(() => x.scatterAdd([4], rlx.tensor([1]).on(device)).toArray()).toThrow(rlx.IndexError);
    // The tensors used above still compute.
    expect([...g.add(1).toArray()]).toEqual([11, 21, 31]);
  });

  it('edge cases on every storage dtype: size-0 axes, single elements, negative axes, complex and float16 lanes', () => {
    // [1, 2, 3, 4, 5, 6] as [2, 3] in each dtype (complex: imaginary parts 0, interleaved).
    for (const dtype of ['float64', 'float32', 'float16', 'bfloat16', 'int32', 'complex64', 'complex128'] as const) {
      const cplx = dtype.startsWith('complex');
      const vals = (xs: number[]) => (cplx ? xs.flatMap((v) => [v, 0]) : xs);
      const x = rlx.tensor([[1, 2, 3], [4, 5, 6]]).cast(dtype).on(device);
      const got = (t: rlx.Tensor) => [...t.toArray()];
      expect(got(x.cumsum(-1)), `cumsum ${dtype}`).toEqual(vals([1, 3, 6, 4, 9, 15]));
      expect(got(x.cumsum(-2)), `cumsum ${dtype}`).toEqual(vals([1, 2, 3, 5, 7, 9]));
      expect(got(x.gather([-1, 0, -1], -1)), `gather ${dtype}`).toEqual(vals([3, 1, 3, 6, 4, 6]));
      expect(got(x.gather([], -2)).length, `gather [] ${dtype}`).toBe(0);
      expect(got(x.scatterAdd([-1, -1], x.gather([0, 0], -1), -1)), `scatterAdd ${dtype}`).toEqual(vals([1, 2, 5, 4, 5, 14]));
      expect(got(rlx.cat([x, x.slice(rlx.s(rlx.ax(), rlx.rg(0, 0))), x.gather([2], 1)], -1)), `cat ${dtype}`).toEqual(vals([1, 2, 3, 3, 4, 5, 6, 6]));
      expect(got(x.pad([[0, 1], [1, 0]], 7)), `pad ${dtype}`).toEqual(vals([7, 1, 2, 3, 7, 4, 5, 6, 7, 7, 7, 7]));
      // Single elements and size-0 axes.
      const one = x.gather([1], 0).gather([2], 1);
      expect(got(one.cumsum(0)), `one ${dtype}`).toEqual(vals([6]));
      expect(got(one.pad(1, 0)), `one pad ${dtype}`).toEqual(vals([0, 0, 0, 0, 6, 0, 0, 0, 0]));
      const empty = x.slice(rlx.s(rlx.rg(0, 0)));
      expect(empty.cumsum(0).shape).toEqual([0, 3]);
      expect(empty.gather([0, -1], 1).shape).toEqual([0, 2]);
      expect(empty.scatterAdd([2], rlx.zeros([0, 1]).cast(dtype).on(device), 1).shape).toEqual([0, 3]);
      expect(got(empty.pad([[1, 0], [0, 0]], 2)), `empty pad ${dtype}`).toEqual(vals([2, 2, 2]));
      expect(got(rlx.cat([empty, x], 0)), `empty cat ${dtype}`).toEqual(vals([1, 2, 3, 4, 5, 6]));
    }
    expect(() => rlx.tensor([1, 2]).on(device).gather([0, 2]).toArray()).toThrow('gather: index 2 is out of range for an axis of size 2');
    expect(() => rlx.zeros([3, 0]).on(device).gather([0], 1).toArray()).toThrow(rlx.IndexError);
  });

  it('cat along any axis (including empty pieces) and stack at any position', () => {
    fc.assert(
      fc.property(
        shapeArb({ minRank: 1, maxRank: 3 }).chain((shape) =>
          fc.tuple(
            fc.integer({ min: -shape.length, max: shape.length - 1 }),
            fc.array(fc.nat(3), { minLength: 1, maxLength: 4 }),
          ).chain(([axis, sizes]) => {
            const a = axis < 0 ? axis + shape.length : axis;
            return fc.tuple(fc.constant(axis), fc.tuple(...sizes.map((d) => narrOf(shape.map((v, i) => (i === a ? d : v))))));
          }),
        ),
        ([axis, parts]) => {
          const ts = parts.map((p) => toTensor(p, device));
          expectTensor(rlx.cat(ts, axis), N.concat(parts, axis), EXACT, `cat axis ${axis} of ${parts.map((p) => `[${p.shape}]`).join(' ')}`);
        },
      ),
      runs(),
    );
    fc.assert(
      fc.property(
        shapeArb({ maxRank: 3 }).chain((shape) =>
          fc.tuple(fc.integer({ min: -shape.length - 1, max: shape.length }), fc.array(narrOf(shape), { minLength: 1, maxLength: 4 })),
        ),
        ([axis, parts]) => {
          const ts = parts.map((p) => toTensor(p, device));
          expectTensor(rlx.stack(ts, axis), N.stack(parts, axis), EXACT, `stack axis ${axis} of ${parts.length} x [${parts[0]!.shape}]`);
        },
      ),
      runs(),
    );
  });

  it('cat / stack promote dtypes (int32 + float32 → float64, bool + int32 → int32)', () => {
    const i = rlx.tensor(new Int32Array([1, 2])).on(device);
    const f = rlx.tensor([0.5], { dtype: 'float32' }).on(device);
    const b = rlx.tensor([true]).on(device);
    const c1 = rlx.cat([i, f]);
    expect(c1.dtype).toBe('float64');
    expect([...c1.toArray()]).toEqual([1, 2, 0.5]);
    const c2 = rlx.cat([b, i]);
    expect(c2.dtype).toBe('int32');
    expect([...c2.toArray()]).toEqual([1, 1, 2]);
    const s = rlx.stack([f, f.mul(2)], 1);
    expect(s.shape).toEqual([1, 2]);
    expect(s.dtype).toBe('float32');
    expect([...s.toArray()]).toEqual([0.5, 1]);
  });

  it('gather / cat of views (slice, transpose) read the view, not the base', () => {
    fc.assert(
      fc.property(shapeArb({ minRank: 2, maxRank: 3, nonEmpty: true }).chain((sh) => narrOf(sh)), (x) => {
        const t = toTensor(x, device).flip(0).T;
        const v = N.transpose(N.flip(x, 0));
        const d = v.shape[0]!;
        const idx = N.make([3], [0, d - 1, -1]);
        expectTensor(t.gather([0, d - 1, -1], 0), N.take(v, idx, 0), EXACT, 'gather of view');
        expectTensor(rlx.cat([t, t.neg()], -1), N.concat([v, N.unary(v, (q) => -q)], -1), EXACT, 'cat of views');
      }),
      runs(FEW),
    );
  });
});
