// Binary elementwise ops, where and clip: rlx vs the naive float64 reference on
// random broadcast-compatible shapes (rank 0-4, dims 0-5), on every device.
//
// Tolerances: +, -, *, / and sqrt are correctly rounded in IEEE float64, and the
// naive reference applies the same single operation to the same operands, so the
// results must be bit-identical (rtol = atol = 0). pow and atan2 go through the
// backend's libm, which may differ from V8's by a few ulp: rtol = 1e-13 (~450 ulp,
// far below any real bug, far above libm differences).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import * as N from '../harness/naive.js';
import { broadcastShapesArb, expectTensor, FEW, narrOf, runs, toTensor, valueArb, type ValueOpts } from '../harness/arbitraries.js';

type BinOp = 'add' | 'sub' | 'mul' | 'div' | 'maximum' | 'minimum' | 'pow' | 'atan2';
type CmpOp = 'eq' | 'ne' | 'lt' | 'le' | 'gt' | 'ge';

const EXACT = { rtol: 0, atol: 0 };
const LIBM = { rtol: 1e-13, atol: 0 };

// NumPy semantics for maximum/minimum: NaN propagates (Math.max/min do that too).
const BINARY: { op: BinOp; f: (x: number, y: number) => number; lhs: ValueOpts; rhs: ValueOpts; tol: { rtol: number; atol: number } }[] = [
  { op: 'add', f: (x, y) => x + y, lhs: { specials: true }, rhs: { specials: true }, tol: EXACT },
  { op: 'sub', f: (x, y) => x - y, lhs: { specials: true }, rhs: { specials: true }, tol: EXACT },
  { op: 'mul', f: (x, y) => x * y, lhs: { specials: true }, rhs: { specials: true }, tol: EXACT },
  // The divisor draws 0 (integers mode) so x/0 = ±inf and 0/0 = NaN are covered.
  { op: 'div', f: (x, y) => x / y, lhs: { specials: true }, rhs: { integers: true, min: -3, max: 3 }, tol: EXACT },
  { op: 'maximum', f: (x, y) => Math.max(x, y), lhs: { specials: true }, rhs: { specials: true }, tol: EXACT },
  { op: 'minimum', f: (x, y) => Math.min(x, y), lhs: { specials: true }, rhs: { specials: true }, tol: EXACT },
  { op: 'pow', f: (x, y) => Math.pow(x, y), lhs: { min: 0.01, max: 10 }, rhs: { min: -5, max: 5 }, tol: LIBM },
  { op: 'atan2', f: (x, y) => Math.atan2(x, y), lhs: { min: -10, max: 10 }, rhs: { integers: true, min: -2, max: 2 }, tol: LIBM },
];

const CMP: { op: CmpOp; f: (x: number, y: number) => boolean }[] = [
  { op: 'eq', f: (x, y) => x === y },
  { op: 'ne', f: (x, y) => x !== y },
  { op: 'lt', f: (x, y) => x < y },
  { op: 'le', f: (x, y) => x <= y },
  { op: 'gt', f: (x, y) => x > y },
  { op: 'ge', f: (x, y) => x >= y },
];

/** Two broadcast-compatible naive arrays. */
const pairArb = (lhs: ValueOpts, rhs: ValueOpts) =>
  broadcastShapesArb(2).chain(([sa, sb]) => fc.tuple(narrOf(sa!, lhs), narrOf(sb!, rhs)));

describe.each(DEVICES)('binary elementwise ops on %s', (device) => {
  for (const { op, f, lhs, rhs, tol } of BINARY) {
    it(`${op} broadcasts like NumPy (tensor ⊙ tensor)`, () => {
      fc.assert(
        fc.property(pairArb(lhs, rhs), ([a, b]) => {
          const r = toTensor(a, device)[op](toTensor(b, device));
          expect(r.dtype).toBe('float64');
          expect(r.device, 'the result stays pinned to the device of its inputs').toBe(device);
          expectTensor(r, N.binary(a, b, f), tol, `${op} [${a.shape}] [${b.shape}]`);
        }),
        runs(),
      );
    });
    it(`${op} with a weak JS scalar on the right`, () => {
      fc.assert(
        fc.property(
          broadcastShapesArb(1).chain(([s]) => fc.tuple(narrOf(s!, lhs), valueArb({ ...rhs, specials: false }))),
          ([a, k]) => {
            const r = toTensor(a, device)[op](k);
            expect(r.dtype).toBe('float64');
            expectTensor(r, N.binary(a, N.make([], [k]), f), tol, `${op} [${a.shape}] scalar ${k}`);
          },
        ),
        runs(FEW),
      );
    });
  }

  for (const { op, f } of CMP) {
    it(`${op} broadcasts and returns bool (ties drawn often)`, () => {
      const v: ValueOpts = { integers: true, min: -2, max: 2 };
      fc.assert(
        fc.property(pairArb(v, { ...v, specials: true }), ([a, b]) => {
          const r = toTensor(a, device)[op](toTensor(b, device));
          expect(r.dtype).toBe('bool');
          expectTensor(r, N.binary(a, b, (x, y) => Number(f(x, y))), { rtol: 0, atol: 0 }, `${op} [${a.shape}] [${b.shape}]`);
        }),
        runs(FEW),
      );
    });
  }

  it('logicalAnd / logicalOr / logicalNot on bool tensors', () => {
    const v: ValueOpts = { integers: true, min: 0, max: 1 };
    fc.assert(
      fc.property(pairArb(v, v), ([a, b]) => {
        const ta = toTensor(a, device, 'bool'),
          tb = toTensor(b, device, 'bool');
        expectTensor(ta.logicalAnd(tb), N.binary(a, b, (x, y) => Number(x !== 0 && y !== 0)), {}, 'and');
        expectTensor(ta.logicalOr(tb), N.binary(a, b, (x, y) => Number(x !== 0 || y !== 0)), {}, 'or');
        expectTensor(ta.logicalNot(), N.unary(a, (x) => Number(x === 0)), {}, 'not');
        expect(ta.logicalAnd(tb).dtype).toBe('bool');
      }),
      runs(FEW),
    );
  });

  it('where(cond, x, y) broadcasts all three (bool and non-bool conditions)', () => {
    fc.assert(
      fc.property(
        broadcastShapesArb(3).chain(([sc, sx, sy]) =>
          fc.tuple(narrOf(sc!, { integers: true, min: -1, max: 1 }), narrOf(sx!, { specials: true }), narrOf(sy!), fc.boolean()),
        ),
        ([c, x, y, boolCond]) => {
          const tc = boolCond ? toTensor(c, device, 'bool') : toTensor(c, device);
          const r = rlx.where(tc, toTensor(x, device), toTensor(y, device));
          expectTensor(r, N.ternary(c, x, y, (k, p, q) => (k !== 0 ? p : q)), EXACT, 'where');
        },
      ),
      runs(FEW),
    );
  });

  it('where with scalar branches keeps the tensor dtype (weak scalars)', () => {
    const c = rlx.tensor([true, false, true]).on(device);
    const x = rlx.tensor([1, 2, 3], { dtype: 'float32' }).on(device);
    const r = rlx.where(c, x, 0);
    expect(r.dtype).toBe('float32');
    expect([...r.toArray()]).toEqual([1, 0, 3]);
    expect([...rlx.where(c, 7, -1).on(device).toArray()]).toEqual([7, -1, 7]);
  });

  it('clip with scalar bounds (lo > hi gives hi, like NumPy), null bounds, tensor bounds', () => {
    fc.assert(
      fc.property(
        broadcastShapesArb(3).chain(([sx, sl, sh]) =>
          fc.tuple(narrOf(sx!, { specials: true }), narrOf(sl!), narrOf(sh!), valueArb(), valueArb()),
        ),
        ([x, lo, hi, a, b]) => {
          const t = toTensor(x, device);
          const ref = (l: number | null, h: number | null) =>
            N.unary(x, (v) => {
              let r = v;
              if (l !== null) r = Math.max(r, l);
              if (h !== null) r = Math.min(r, h);
              return r;
            });
          expectTensor(t.clip(a, b), ref(a, b), EXACT, `clip(${a}, ${b})`);
          expectTensor(t.clip(null, b), ref(null, b), EXACT, 'clip(null, hi)');
          expectTensor(t.clip(a, null), ref(a, null), EXACT, 'clip(lo, null)');
          const both = N.binary(N.binary(x, lo, Math.max), hi, Math.min);
          expectTensor(t.clip(toTensor(lo, device), toTensor(hi, device)), both, EXACT, 'clip(tensor, tensor)');
        },
      ),
      runs(FEW),
    );
  });

  it('relu and square match maximum(x, 0) and x * x', () => {
    fc.assert(
      fc.property(
        broadcastShapesArb(1).chain(([s]) => narrOf(s!, { specials: true })),
        (x) => {
          const t = toTensor(x, device);
          expectTensor(t.relu(), N.unary(x, (v) => Math.max(v, 0)), EXACT, 'relu');
          expectTensor(t.square(), N.unary(x, (v) => v * v), EXACT, 'square');
        },
      ),
      runs(FEW),
    );
  });
});
