// Errors: typed (ShapeError / DTypeError / IndexError / ValueError / DeviceError),
// thrown when the op is built or at the latest when it is computed, with messages
// that name what was received; and an error never poisons tensors created before it.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { ax, ix, rg, s } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import { FEW, runs, shapeArb } from '../harness/arbitraries.js';

const fmt = (shape: readonly number[]) => `[${shape.join(', ')}]`;

/** Nothing was thrown: fails every toBeInstanceOf(SomeRlxError) with the case's label. */
class NoError {
  constructor(readonly result: unknown) {}
}

/** Runs f (build + compute) and returns what it threw (a NoError when nothing was). */
function thrown(f: () => unknown): unknown {
  try {
    const r = f();
    if (r instanceof rlx.Tensor) return new NoError(r.toArray());
    return new NoError(r);
  } catch (e) {
    return e;
  }
}

/** Two shapes that do not broadcast: one aligned axis has sizes d ≠ e, both ≥ 2; every other axis of b is 1. */
const nonBroadcastPair = fc
  .tuple(shapeArb({ minRank: 1, maxRank: 4, maxDim: 4 }), fc.nat(3), fc.integer({ min: 2, max: 5 }), fc.nat(3), fc.nat(2), fc.boolean())
  .map(([sa, pos, e, drop, extra, swap]) => {
    const a = [...sa];
    const i = pos % a.length;
    if (a[i]! < 2) a[i] = 2;
    const ev = e === a[i] ? e + 1 : e;
    const j = drop % (i + 1);
    const b = [...Array(j === 0 ? extra : 0).fill(3), ...a.slice(j).map((_, k) => (k + j === i ? ev : 1))];
    return swap ? ([b, a] as const) : ([a, b] as const);
  });

describe.each(DEVICES)('errors on %s', (device) => {
  const T = (shape: readonly number[], dtype: rlx.DTypeLike = 'float64') => rlx.zeros(shape, { dtype }).on(device);

  it('ShapeError for non-broadcastable shapes names both shapes (binary ops, where, matmul batches)', () => {
    fc.assert(
      fc.property(nonBroadcastPair, ([sa, sb]) => {
        for (const op of ['add', 'sub', 'mul', 'div', 'maximum', 'pow', 'lt', 'eq'] as const) {
          const e = thrown(() => T(sa)[op](T(sb)));
          expect(e, `${op} ${fmt(sa)} ${fmt(sb)}`).toBeInstanceOf(rlx.ShapeError);
          expect((e as Error).message).toContain(fmt(sa));
          expect((e as Error).message).toContain(fmt(sb));
        }
        const w = thrown(() => rlx.where(T(sa, 'bool'), T(sb), 0));
        expect(w).toBeInstanceOf(rlx.ShapeError);
        expect((w as Error).message).toContain(fmt(sa));
        expect((w as Error).message).toContain(fmt(sb));
      }),
      runs(FEW),
    );
    const m = thrown(() => T([2, 3, 4]).matmul(T([5, 4, 2])));
    expect(m).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => T([2, 3]).matmul(T([4, 2])))).toBeInstanceOf(rlx.ShapeError);
    expect((thrown(() => T([2, 3]).matmul(T([4, 2]))) as Error).message).toMatch(/\[2, 3\].*\[4, 2\]/);
    expect(thrown(() => T([]).matmul(T([2])))).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => T([2]).broadcastTo([3]))).toBeInstanceOf(rlx.ShapeError);
  });

  it('ShapeError for bad axes (out of range, negative out of range, repeated, non-integer)', () => {
    const t = T([2, 3, 4]);
    const cases: [string, () => unknown][] = [
      ['sum(3)', () => t.sum(3)],
      ['sum(-4)', () => t.sum(-4)],
      ['sum([0, -3])', () => t.sum([0, -3])],
      ['sum(1.5)', () => t.sum(1.5)],
      ['max(5)', () => t.max(5)],
      ['mean([0, 7])', () => t.mean([0, 7])],
      ['var(3)', () => t.var(3)],
      ['argmax(3)', () => t.argmax(3)],
      ['argmin(-4)', () => t.argmin(-4)],
      ['cumsum(3)', () => t.cumsum(3)],
      ['logsumexp(9)', () => t.logsumexp(9)],
      ['transpose([0, 0, 1])', () => t.transpose([0, 0, 1])],
      ['transpose([0, 1])', () => t.transpose([0, 1])],
      ['transpose([0, 1, 3])', () => t.transpose([0, 1, 3])],
      ['swapaxes(0, 3)', () => t.swapaxes(0, 3)],
      ['squeeze(0) of size 2', () => t.squeeze(0)],
      ['squeeze(3)', () => t.squeeze(3)],
      ['expandDims(5)', () => t.expandDims(5)],
      ['flip(3)', () => t.flip(3)],
      ['gather(axis 3)', () => t.gather([0], 3)],
      ['scatterAdd(axis -4)', () => t.scatterAdd([0], T([1]), -4)],
      ['cat axis 3', () => rlx.cat([t, t], 3)],
      ['stack axis 4', () => rlx.stack([t, t], 4)],
      ['select(3, 0)', () => t.select(3, 0)],
      ['slice with 4 specs on rank 3', () => t.slice(s(ax(), ax(), ax(), ax()))],
      ['pad with 2 pairs on rank 3', () => t.pad([[1, 1], [1, 1]] as [number, number][])],
      ['pad with a negative width', () => t.pad(-1)],
    ];
    for (const [what, f] of cases) expect(thrown(f), what).toBeInstanceOf(rlx.ShapeError);
  });

  it('ShapeError for reshape size mismatches (message names the shapes) and bad -1 use', () => {
    fc.assert(
      fc.property(shapeArb({ minRank: 1 }), shapeArb({ minRank: 1 }), (sa, sb) => {
        const n = (x: number[]) => x.reduce((p, q) => p * q, 1);
        fc.pre(n(sa) !== n(sb));
        const e = thrown(() => T(sa).reshape(sb));
        expect(e, `reshape ${fmt(sa)} -> ${fmt(sb)}`).toBeInstanceOf(rlx.ShapeError);
        expect((e as Error).message).toContain(fmt(sb));
      }),
      runs(FEW),
    );
    expect(thrown(() => T([2, 3]).reshape(-1, 4))).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => T([2, 3]).reshape(-1, -1))).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => T([2, 3]).reshape(-2, 3))).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => T([3, 0]).reshape(-1, 0))).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => rlx.cat([T([2, 3]), T([2, 4])], 0))).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => rlx.stack([T([2, 3]), T([3, 2])]))).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => T([2, 3]).item())).toBeInstanceOf(rlx.ShapeError);
    expect(thrown(() => T([0, 3]).max(0))).toBeInstanceOf(rlx.ShapeError);
  });

  it('DTypeError for unknown dtype names', () => {
    for (const bad of ['float8', 'int64', 'uint16', 'Float32', '']) {
      expect(thrown(() => rlx.tensor([1, 2], { dtype: bad as rlx.DTypeLike })), `tensor dtype '${bad}'`).toBeInstanceOf(rlx.DTypeError);
      expect(thrown(() => rlx.zeros([2], { dtype: bad as rlx.DTypeLike })), `zeros dtype '${bad}'`).toBeInstanceOf(rlx.DTypeError);
      expect(thrown(() => T([2]).cast(bad as rlx.DTypeLike)), `cast '${bad}'`).toBeInstanceOf(rlx.DTypeError);
      expect(thrown(() => T([2]).astype(bad as rlx.DTypeLike)), `astype '${bad}'`).toBeInstanceOf(rlx.DTypeError);
    }
    expect((thrown(() => T([2]).cast('float8' as rlx.DTypeLike)) as Error).message).toContain('float8');
  });

  it('DTypeError for ordering ops (and real-only ops) on complex inputs', () => {
    const z = rlx.complex(rlx.tensor([1, 2]), rlx.tensor([3, 4])).on(device);
    const cases: [string, () => unknown][] = [
      ['maximum', () => z.maximum(z)],
      ['minimum', () => z.minimum(0)],
      ['lt', () => z.lt(z)],
      ['le', () => z.le(1)],
      ['gt', () => z.gt(z)],
      ['ge', () => z.ge(z)],
      ['max', () => z.max()],
      ['min', () => z.min(0)],
      ['argmax', () => z.argmax()],
      ['argmin', () => z.argmin(0)],
      ['clip', () => z.clip(0, 1)],
      ['relu', () => z.relu()],
      ['atan2', () => z.atan2(z)],
      ['floor', () => z.floor()],
      ['ceil', () => z.ceil()],
      ['round', () => z.round()],
      ['erf', () => z.erf()],
      ['logsumexp', () => z.logsumexp()],
      ['real tensor < complex', () => rlx.tensor([1, 2]).on(device).lt(z)],
      ['complex(complex, ·)', () => rlx.complex(z, 1)],
    ];
    for (const [what, f] of cases) expect(thrown(f), what).toBeInstanceOf(rlx.DTypeError);
    // Equality is defined for complex.
    expect([...z.eq(z).toArray()]).toEqual([1, 1]);
  });

  it('IndexError / ValueError / DeviceError', () => {
    const t = T([3, 4]);
    expect(thrown(() => t.slice(s(ix(3))))).toBeInstanceOf(rlx.IndexError);
    expect(thrown(() => t.slice(s(ix(-4))))).toBeInstanceOf(rlx.IndexError);
    expect(thrown(() => t.select(1, 4))).toBeInstanceOf(rlx.IndexError);
    expect(thrown(() => t.slice(s(rg(0, 3, 0))))).toBeInstanceOf(rlx.ValueError);
    expect(thrown(() => t.gather([1.5]))).toBeInstanceOf(rlx.IndexError); // not a valid index, as select/slice (issue 13)
    expect(thrown(() => t.gather([3]))).toBeInstanceOf(rlx.IndexError);
    expect(thrown(() => rlx.cat([]))).toBeInstanceOf(rlx.ValueError);
    expect(thrown(() => rlx.tensor([[1, 2], [3]]))).toBeInstanceOf(rlx.ValueError);
    expect(thrown(() => t.on('no-such-device'))).toBeInstanceOf(rlx.DeviceError);
    // probe: devices that start on first use (webgpu) are tried first, so 'unavailable' means unavailable.
    for (const b of rlx.backends({ probe: true }).filter((x) => !x.available)) expect(thrown(() => t.on(b.name)), b.name).toBeInstanceOf(rlx.DeviceError);
    // Every error is an RlxError.
    expect(thrown(() => t.sum(9))).toBeInstanceOf(rlx.RlxError);
  });

  it('after errors, tensors created before (lazy and realized) still compute correctly', () => {
    const a = rlx.tensor([1, 2, 3]).on(device);
    const b = rlx.tensor([[10], [20]]).on(device);
    const lazy = a.add(b).mul(2); // not computed yet
    const realized = a.mul(a);
    expect([...realized.toArray()]).toEqual([1, 4, 9]);
    const failures: (() => unknown)[] = [
      () => a.add(rlx.tensor([1, 2]).on(device)),
      () => a.reshape(2, 2),
      () => a.cast('float8' as rlx.DTypeLike),
      () => a.gather([5]),
      () => a.gather([-9]).add(1),
      () => a.scatterAdd([3], a),
      () => a.sum(4),
      () => rlx.complex(a, 1).max(),
      () => a.slice(s(ix(7))),
      () => b.matmul(a),
    ];
    for (const f of failures) expect(thrown(f)).toBeInstanceOf(rlx.RlxError);
    expect([...lazy.toArray()]).toEqual([22, 24, 26, 42, 44, 46]);
    expect([...realized.add(a).toArray()]).toEqual([2, 6, 12]);
    expect([...a.gather([2, 0]).toArray()]).toEqual([3, 1]);
    // A failing computation fails the same way again, and does not leave a half-computed tensor behind.
    const bad = a.gather([0, 3]);
    expect(thrown(() => bad)).toBeInstanceOf(rlx.IndexError);
    expect(thrown(() => bad)).toBeInstanceOf(rlx.IndexError);
    expect(bad.isRealized).toBe(false);
    expect([...a.sum().toArray()]).toEqual([6]);
  });
});
