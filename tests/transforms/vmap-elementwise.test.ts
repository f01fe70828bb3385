// vmap of the elementwise primitives (every unary and binary op, where, cast)
// against the per-example loop, bit for bit: random shapes, batch sizes 1-3,
// inAxes 0 / 1 / -1 / null per argument, outAxes 0 / 1 / -1.

import fc from 'fast-check';
import { describe, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { UNARY_OPS, BINARY_OPS } from '../../src/compiler/primitives.js';
import { DEVICES } from '../harness/devices.js';
import { type Ax, axArb, batchedShape, expectVmap, fitAx, gen, outArb, runs, someBatched } from './vmap-harness.js';

const shapeArb = (maxRank = 3) => fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 0, maxLength: maxRank });
const seedArb = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const bArb = fc.integer({ min: 1, max: 3 });

/** A per-example shape broadcastable to `s`: a suffix of it with some dims set to 1. */
const bcastOf = (s: number[]) =>
  fc.tuple(fc.integer({ min: 0, max: s.length }), fc.array(fc.boolean(), { minLength: s.length, maxLength: s.length })).map(([drop, ones]) => s.slice(drop).map((d, i) => (ones[i + drop] ? 1 : d)));

type T = rlx.Tensor;
const UNARY: Record<string, (x: T) => T> = {
  neg: (x) => x.neg(), abs: (x) => x.abs(), sign: (x) => x.sign(), exp: (x) => x.exp(), log: (x) => x.log(),
  log1p: (x) => x.log1p(), expm1: (x) => x.expm1(), sqrt: (x) => x.sqrt(), rsqrt: (x) => x.rsqrt(),
  sin: (x) => x.sin(), cos: (x) => x.cos(), tan: (x) => x.tan(), tanh: (x) => x.tanh(), sinh: (x) => x.sinh(),
  cosh: (x) => x.cosh(), asin: (x) => x.asin(), acos: (x) => x.acos(), atan: (x) => x.atan(),
  floor: (x) => x.floor(), ceil: (x) => x.ceil(), round: (x) => x.round(), erf: (x) => x.erf(),
  sigmoid: (x) => x.sigmoid(), softplus: (x) => x.softplus(), gelu: (x) => x.gelu(),
  // Complex parts: a complex value built inside f from x (real/imag/conj/angle need complex input to bind).
  real: (x) => rlx.complex(x, x.mul(0.5)).real(), imag: (x) => rlx.complex(x, x.mul(-2)).imag(),
  conj: (x) => rlx.complex(x, x.add(1)).conj().imag(), angle: (x) => rlx.complex(x, x.sub(0.5)).angle(),
  logicalNot: (x) => x.gt(0).logicalNot(),
  cast: (x) => x.cast('float32').add(x.cast('int32').cast('float32')),
};
const BINARY: Record<string, (x: T, y: T) => T> = {
  add: (x, y) => x.add(y), sub: (x, y) => x.sub(y), mul: (x, y) => x.mul(y), div: (x, y) => x.div(y),
  pow: (x, y) => x.pow(y), maximum: (x, y) => x.maximum(y), minimum: (x, y) => x.minimum(y),
  atan2: (x, y) => x.atan2(y), eq: (x, y) => x.eq(y), ne: (x, y) => x.ne(y), lt: (x, y) => x.lt(y),
  le: (x, y) => x.le(y), gt: (x, y) => x.gt(y), ge: (x, y) => x.ge(y),
  logicalAnd: (x, y) => x.gt(0).logicalAnd(y.lt(1)), logicalOr: (x, y) => x.gt(0).logicalOr(y.lt(-1)),
  complex: (x, y) => rlx.complex(x, y),
};

describe.each(DEVICES)('vmap of elementwise primitives on %s', (device) => {
  const { randn } = gen(device);
  it('covers every unary and binary primitive (the tables below are complete)', () => {
    const missingU = UNARY_OPS.filter((o) => o !== 'stopGradient' && !(o in UNARY));
    const missingB = BINARY_OPS.filter((o) => !(o in BINARY));
    if (missingU.length || missingB.length) throw new Error(`untested: ${[...missingU, ...missingB].join(', ')}`);
  });

  it('unary ops, with NaN / ±Inf / -0 among the values', () => {
    fc.assert(
      fc.property(shapeArb(), bArb, axArb, outArb, seedArb, (shape, B, ax0, out, seed) => {
        const ax = fitAx(ax0 ?? 0, shape.length);
        const x = randn(batchedShape(shape, B, ax), seed, { specials: true });
        for (const [name, f] of Object.entries(UNARY)) expectVmap(f, [x], [ax], out, name);
      }),
      runs(30),
    );
  });

  it('unary ops on complex128 and float32 inputs', () => {
    fc.assert(
      fc.property(shapeArb(), bArb, axArb, outArb, seedArb, (shape, B, ax0, out, seed) => {
        const ax = fitAx(ax0 ?? 0, shape.length);
        const s = batchedShape(shape, B, ax);
        const z = rlx.complex(randn(s, seed), randn(s, seed + 1));
        for (const f of [(t: T) => t.exp(), (t: T) => t.abs(), (t: T) => t.real(), (t: T) => t.imag(), (t: T) => t.conj(), (t: T) => t.angle(), (t: T) => t.sqrt(), (t: T) => t.cast('complex64')]) {
          expectVmap(f, [z], [ax], out, `complex ${f.toString()}`);
        }
        const x32 = randn(s, seed + 2).cast('float32');
        for (const f of [(t: T) => t.exp(), (t: T) => t.tanh().mul(t), (t: T) => t.cast('float64'), (t: T) => t.cast('bool')]) {
          expectVmap(f, [x32], [ax], out, `float32 ${f.toString()}`);
        }
      }),
      runs(30),
    );
  });

  it('binary ops with broadcasting inside f, either side unbatched', () => {
    fc.assert(
      fc.property(
        shapeArb().chain((s) => fc.tuple(fc.constant(s), bcastOf(s), fc.boolean())),
        bArb,
        axArb,
        axArb,
        outArb,
        seedArb,
        ([sx, sy, swap], B, a0, a1, out, seed) => {
          const [s0, s1] = swap ? [sy, sx] : [sx, sy];
          const axes = someBatched([fitAx(a0, s0.length), fitAx(a1, s1.length)]);
          const x = randn(batchedShape(s0, B, axes[0]!), seed, { specials: true });
          const y = randn(batchedShape(s1, B, axes[1]!), seed + 7, { specials: true });
          for (const [name, f] of Object.entries(BINARY)) expectVmap(f, [x, y], axes, out, name);
        },
      ),
      runs(30),
    );
  });

  it('scalar operands (weak literals) and int32 / bool inputs', () => {
    fc.assert(
      fc.property(shapeArb(), bArb, axArb, outArb, seedArb, (shape, B, ax0, out, seed) => {
        const ax = fitAx(ax0 ?? 0, shape.length);
        const x = randn(batchedShape(shape, B, ax), seed);
        const i = x.mul(3).cast('int32');
        expectVmap((t) => t.mul(2.5).add(1).pow(2), [x], [ax], out, 'literals');
        expectVmap((t) => rlx.where(t.gt(0), 1, -1), [x], [ax], out, 'where with two literals');
        expectVmap((t) => t.add(3).mul(t).sub(1), [i], [ax], out, 'int32');
        expectVmap((t) => t.gt(0).logicalAnd(true).logicalOr(t.lt(-1)), [x], [ax], out, 'bool');
        expectVmap((t) => t.div(2), [i], [ax], out, 'int32 true division');
      }),
      runs(30),
    );
  });

  it('where with any of condition / x / y batched, broadcasting', () => {
    fc.assert(
      fc.property(
        shapeArb().chain((s) => fc.tuple(fc.constant(s), bcastOf(s), bcastOf(s))),
        bArb,
        fc.tuple(axArb, axArb, axArb),
        outArb,
        seedArb,
        ([sc, sx, sy], B, [a0, a1, a2], out, seed) => {
          const axes = someBatched([fitAx(a0, sc.length), fitAx(a1, sx.length), fitAx(a2, sy.length)]);
          const c = randn(batchedShape(sc, B, axes[0]!), seed);
          const x = randn(batchedShape(sx, B, axes[1]!), seed + 1, { specials: true });
          const y = randn(batchedShape(sy, B, axes[2]!), seed + 2).cast('float32');
          expectVmap((cc, xx, yy) => rlx.where(cc.gt(0), xx, yy), [c, x, y], axes, out, 'where');
          expectVmap((cc, xx, yy) => xx.where(cc.lt(0.5), yy.neg()), [c, x, y], axes, out, 'Tensor.where');
        },
      ),
      runs(40),
    );
  });

  it('clip, relu, square and chains of elementwise ops stay fused-equal', () => {
    fc.assert(
      fc.property(shapeArb(), bArb, axArb, axArb, outArb, seedArb, (shape, B, a0, a1, out, seed) => {
        const axes: Ax[] = someBatched([fitAx(a0, shape.length), fitAx(a1, shape.length)]);
        const x = randn(batchedShape(shape, B, axes[0]!), seed);
        const y = randn(batchedShape(shape, B, axes[1]!), seed + 3);
        expectVmap((p, q) => p.clip(-1, q).relu().square().add(q.sigmoid().mul(p)), [x, y], axes, out, 'chain');
      }),
      runs(40),
    );
  });
});
