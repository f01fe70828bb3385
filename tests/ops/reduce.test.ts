// Reductions over every axis subset (with and without keepdims), argmax/argmin,
// mean/var/std with ddof, logsumexp, cumsum, and matmul/dot/outer against the
// naive reference.
//
// Tolerances: with integer-valued data every partial sum is an exact integer below
// 2^53, so sum/cumsum/matmul must be exact whatever order a backend adds in. With
// random doubles the order may differ from the reference: rtol 1e-12 and an atol
// of 1e-10 (at most 625 terms of magnitude ≤ 100: n·ε·Σ|x| < 1e-8 worst case,
// ~1e-12 in practice). prod draws |x| in [0.5, 2] so it neither under- nor
// overflows; var/std/mean/logsumexp: rtol 1e-12.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import * as N from '../harness/naive.js';
import { broadcastShapesArb, expectTensor, FEW, narrOf, runs, shapeArb, toTensor, type ValueOpts } from '../harness/arbitraries.js';

const EXACT = { rtol: 0, atol: 0 };
const SUMTOL = { rtol: 1e-12, atol: 1e-10 };
const INTS: ValueOpts = { integers: true, min: -3, max: 3 };

/** Every subset of 0..rank-1, as sorted lists. */
const subsets = (rank: number): number[][] =>
  Array.from({ length: 1 << rank }, (_, m) => Array.from({ length: rank }, (_, i) => i).filter((i) => m & (1 << i)));

/** A few ways of naming the same axes: the list, negative axes, one number. */
function axisForms(axes: number[], rank: number): (number | number[])[] {
  const out: (number | number[])[] = [axes, [...axes].reverse().map((a) => a - rank)];
  if (axes.length === 1) out.push(axes[0]!, axes[0]! - rank);
  return out;
}

const reduces = (kind: 'sum' | 'prod' | 'max' | 'min' | 'mean') => (t: rlx.Tensor, axis: number | number[] | undefined, keep: boolean) => t[kind](axis, keep);

describe.each(DEVICES)('reductions on %s', (device) => {
  for (const kind of ['sum', 'prod', 'max', 'min', 'mean'] as const) {
    it(`${kind} over every axis subset, keepdims both ways`, () => {
      const vals: ValueOpts = kind === 'prod' ? { min: 0.5, max: 2 } : {};
      fc.assert(
        fc.property(shapeArb().chain((s) => fc.tuple(narrOf(s, vals), narrOf(s, INTS))), ([x, xi]) => {
          const rank = x.shape.length;
          for (const data of [x, xi]) {
            const t = toTensor(data, device);
            const tol = data === xi && kind !== 'mean' ? EXACT : kind === 'prod' ? { rtol: 1e-12, atol: 0 } : SUMTOL;
            for (const axes of [...subsets(rank), undefined]) {
              for (const keep of [false, true]) {
                const forms = axes === undefined ? [undefined] : axisForms(axes, rank);
                for (const ax of forms) {
                  const what = `${kind}(axis=${JSON.stringify(ax)}, keepdims=${keep}) of [${x.shape}]`;
                  let ref: N.NArr | undefined;
                  try {
                    ref = N.reduce(data, kind, ax, keep);
                  } catch {
                    ref = undefined; // max/min over an empty axis
                  }
                  if (ref) expectTensor(reduces(kind)(t, ax, keep), ref, tol, what);
                  else expect(() => reduces(kind)(t, ax, keep).toArray(), what).toThrow(rlx.ShapeError);
                }
              }
            }
          }
        }),
        runs(FEW),
      );
    });
  }

  it('max / min propagate NaN; sum / prod of empty axes are 0 / 1; mean of an empty axis is NaN', () => {
    fc.assert(
      fc.property(shapeArb({ minRank: 1, nonEmpty: true }).chain((s) => narrOf(s, { specials: true })), fc.nat(3), (x, a) => {
        const axis = a % x.shape.length;
        const t = toTensor(x, device);
        expectTensor(t.max(axis), N.reduce(x, 'max', axis), EXACT, 'max with NaN/inf');
        expectTensor(t.min(axis), N.reduce(x, 'min', axis), EXACT, 'min with NaN/inf');
      }),
      runs(FEW),
    );
    const e = rlx.zeros([2, 0]).on(device);
    expect([...e.sum(1).toArray()]).toEqual([0, 0]);
    expect([...e.prod(1).toArray()]).toEqual([1, 1]);
    expect(e.mean(1).toArray()).toBeAllclose([NaN, NaN]);
    expect(e.sum().item()).toBe(0);
  });

  it('argmax / argmin along each axis and flattened (first occurrence of ties, first NaN wins)', () => {
    fc.assert(
      fc.property(shapeArb({ minRank: 1 }).chain((s) => fc.tuple(narrOf(s, INTS), narrOf(s, { ...INTS, specials: true }))), ([x, xs]) => {
        for (const data of [x, xs]) {
          const t = toTensor(data, device);
          for (const op of ['argmax', 'argmin'] as const) {
            for (let a = -data.shape.length; a < data.shape.length; a++) {
              for (const keep of [false, true]) {
                const what = `${op}(${a}, ${keep}) of [${data.shape}] = ${[...data.data]}`;
                if (data.shape[a < 0 ? a + data.shape.length : a] === 0) {
                  expect(() => t[op](a, keep).toArray(), what).toThrow(rlx.ShapeError);
                  continue;
                }
                const r = t[op](a, keep);
                expect(r.dtype).toBe('int32');
                expectTensor(r, N.argReduce(data, op, a, keep), EXACT, what);
              }
            }
            if (N.sizeOf(data.shape) > 0) {
              expectTensor(t[op](), N.argReduce(data, op), EXACT, `${op}() flat`);
              expectTensor(t[op](undefined, true), N.argReduce(data, op, undefined, true), EXACT, `${op}(undefined, keepdims) flat`);
            } else expect(() => t[op]().toArray()).toThrow(rlx.ShapeError);
          }
        }
      }),
      runs(FEW),
    );
  });

  it('var / std with ddof 0, 1, 2 over random axes (n ≤ ddof gives inf/NaN like NumPy)', () => {
    fc.assert(
      fc.property(shapeArb().chain((s) => narrOf(s)), fc.nat(15), fc.nat(2), fc.boolean(), (x, mask, ddof, keep) => {
        const axes = subsets(x.shape.length)[mask % (1 << x.shape.length)]!;
        const t = toTensor(x, device);
        const tol = { rtol: 1e-10, atol: 1e-10 };
        const ref = N.variance(x, axes, keep, ddof);
        expectTensor(t.var(axes, keep, ddof), ref, tol, `var(${axes}, ${keep}, ddof=${ddof}) of [${x.shape}]`);
        expectTensor(t.std(axes, keep, ddof), N.unary(ref, Math.sqrt), tol, 'std');
        expectTensor(t.var(), N.variance(x), tol, 'var()');
      }),
      runs(),
    );
  });

  it('logsumexp is stable (inputs near ±1000) and matches log(sum(exp(x - m))) + m', () => {
    fc.assert(
      fc.property(shapeArb({ minRank: 1, nonEmpty: true }).chain((s) => narrOf(s, { min: -5, max: 5 })), fc.constantFrom(0, 1000, -1000), fc.nat(3), (x0, shift, a) => {
        const x = N.unary(x0, (v) => v + shift);
        const axis = a % x.shape.length;
        const m = N.reduce(x, 'max', axis, true);
        const ref = N.binary(N.unary(N.reduce(N.binary(x, m, (p, q) => Math.exp(p - q)), 'sum', axis), Math.log), N.reduce(m, 'max', axis), (p, q) => p + q);
        expectTensor(toTensor(x, device).logsumexp(axis), ref, { rtol: 1e-12, atol: 1e-12 }, `logsumexp(${axis}) shift ${shift}`);
      }),
      runs(FEW),
    );
  });

  it('cumsum along every axis and flattened; integer inputs accumulate in int32', () => {
    fc.assert(
      fc.property(shapeArb().chain((s) => fc.tuple(narrOf(s), narrOf(s, INTS))), ([x, xi]) => {
        const r = x.shape.length;
        for (let a = -r; a < r; a++) {
          expectTensor(toTensor(x, device).cumsum(a), N.cumsum(x, a), SUMTOL, `cumsum(${a}) of [${x.shape}]`);
          expectTensor(toTensor(xi, device).cumsum(a), N.cumsum(xi, a), EXACT, `cumsum(${a}) ints`);
          const ti = toTensor(xi, device, 'int32').cumsum(a);
          expect(ti.dtype).toBe('int32');
          expectTensor(ti, N.cumsum(xi, a), EXACT, 'int32 cumsum');
        }
        expectTensor(toTensor(xi, device).cumsum(), N.cumsum(xi), EXACT, 'cumsum() flat');
      }),
      runs(FEW),
    );
    const b = rlx.tensor([true, false, true, true]).on(device);
    expect(b.cumsum().dtype).toBe('int32');
    expect([...b.cumsum().toArray()]).toEqual([1, 1, 2, 3]);
  });

  it('reduction dtypes: sum of bool counts in int32; int32 sum stays int32; int32 mean is float64; float32 stays float32', () => {
    const b = rlx.tensor([true, true, false]).on(device);
    expect(b.sum().dtype).toBe('int32');
    expect(b.sum().item()).toBe(2);
    const i = rlx.tensor(new Int32Array([1, 2, 4])).on(device);
    expect(i.sum().dtype).toBe('int32');
    expect(i.max().dtype).toBe('int32');
    expect(i.mean().dtype).toBe('float64');
    expect(i.mean().item()).toBeCloseTo(7 / 3, 14);
    const f = rlx.tensor([1, 2], { dtype: 'float32' }).on(device);
    for (const op of ['sum', 'prod', 'max', 'min', 'mean', 'var', 'std'] as const) expect(f[op]().dtype, op).toBe('float32');
  });
});

describe.each(DEVICES)('matmul / dot / outer on %s', (device) => {
  /** [a shape, b shape] for matmul: broadcastable batches, m/k/n in 0..4, and 1-D operands. */
  const mmShapes = broadcastShapesArb(2, { maxRank: 2, maxDim: 3 }).chain(([ba, bb]) =>
    fc.tuple(fc.nat(4), fc.nat(4), fc.nat(4), fc.constantFrom('mm', 'vm', 'mv', 'vv')).map(([m, k, n, kind]) => {
      const a = kind === 'vm' || kind === 'vv' ? [k] : [...ba!, m, k];
      const b = kind === 'mv' || kind === 'vv' ? [k] : [...bb!, k, n];
      return [a, b] as const;
    }),
  );

  it('matmul with batch broadcasting and 1-D operands (integer data: exact; doubles: rtol 1e-12)', () => {
    fc.assert(
      fc.property(
        mmShapes.chain(([sa, sb]) => fc.tuple(narrOf(sa), narrOf(sb), narrOf(sa, INTS), narrOf(sb, INTS))),
        ([a, b, ai, bi]) => {
          const what = `[${a.shape}] @ [${b.shape}]`;
          expectTensor(toTensor(ai, device).matmul(toTensor(bi, device)), N.matmul(ai, bi), EXACT, `${what} ints`);
          expectTensor(toTensor(a, device).matmul(toTensor(b, device)), N.matmul(a, b), { rtol: 1e-12, atol: 1e-10 }, what);
          expectTensor(rlx.matmul(toTensor(ai, device, 'int32'), toTensor(bi, device, 'int32')), N.matmul(ai, bi), EXACT, `${what} int32`);
        },
      ),
      runs(),
    );
  });

  it('matmul of transposed / sliced views', () => {
    fc.assert(
      fc.property(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 })).chain(([m, k, n]) => fc.tuple(narrOf([k, m], INTS), narrOf([n, 2 * k], INTS))), ([at, bt]) => {
        const a = toTensor(at, device).T; // [m, k]
        const b = toTensor(bt, device).slice(rlx.s(rlx.ax(), rlx.rg(null, null, -2))).T; // [k, n]
        const ref = N.matmul(N.transpose(at), N.transpose(N.slice(bt, [{}, { step: -2 }])));
        expectTensor(a.matmul(b), ref, EXACT, 'view @ view');
      }),
      runs(FEW),
    );
  });

  it('matmul with constant operands (ones / zeros / full, i.e. lazy literals) and with eye', () => {
    const m = rlx.tensor([[1, 2], [3, 4]]).on(device);
    expect([...rlx.ones([2, 2]).on(device).matmul(rlx.ones([2, 2]).on(device)).toArray()]).toEqual([2, 2, 2, 2]);
    expect([...rlx.full([2, 2], 3).on(device).matmul(m).toArray()]).toEqual([12, 18, 12, 18]);
    expect([...m.matmul(rlx.full([2, 2], 3).on(device)).toArray()]).toEqual([9, 9, 21, 21]);
    expect([...rlx.ones([3]).on(device).dot(rlx.ones([3]).on(device)).toArray()]).toEqual([3]);
    expect([...rlx.zeros([2, 0]).on(device).matmul(rlx.zeros([0, 3]).on(device)).toArray()]).toEqual([0, 0, 0, 0, 0, 0]);
    expect([...rlx.eye(2).on(device).matmul(m).toArray()]).toEqual([1, 2, 3, 4]);
  });

  it('dot / outer; matmul dtypes (bool@bool → bool, int32@int32 → int32, float32@float64 → float64)', () => {
    const v = rlx.tensor([1, 2, 3]).on(device);
    expect(v.dot(v).item()).toBe(14);
    expect(v.dot(v).shape).toEqual([]);
    expectTensor(v.outer(rlx.tensor([1, -1]).on(device)), N.make([3, 2], [1, -1, 2, -2, 3, -3]), EXACT, 'outer');
    expect(rlx.dot(rlx.tensor(2).on(device), v).toArray()).toBeAllclose([2, 4, 6]);
    const b = rlx.tensor([[true, false], [true, true]]).on(device);
    expect(b.matmul(b).dtype).toBe('bool');
    expect([...b.matmul(b).toArray()]).toEqual([1, 0, 1, 1]);
    const i = rlx.tensor(new Int32Array([1, 2, 3, 4]), { shape: [2, 2] }).on(device);
    expect(i.matmul(i).dtype).toBe('int32');
    expect([...i.matmul(i).toArray()]).toEqual([7, 10, 15, 22]);
    expect(rlx.tensor([[1]], { dtype: 'float32' }).on(device).matmul(rlx.tensor([[2]]).on(device)).dtype).toBe('float64');
  });
});
