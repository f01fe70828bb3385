// vmap of reductions (sum prod max min argmax argmin, logsumexp, mean/var),
// movement ops (reshape permute expand slice) and cumsum / pad / concat against
// the per-example loop, bit for bit: the batched kernels accumulate each output
// over the same axes in the same order as the per-example ones.

import fc from 'fast-check';
import { describe, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import { type Ax, axArb, batchedShape, expectVmap, fitAx, gen, outArb, runs, someBatched } from './vmap-harness.js';

type T = rlx.Tensor;
const seedArb = fc.integer({ min: 0, max: 2 ** 31 - 1 });
const bArb = fc.integer({ min: 1, max: 3 });
const shapeArb = (minRank = 0, maxRank = 3, minDim = 1) => fc.array(fc.integer({ min: minDim, max: 4 }), { minLength: minRank, maxLength: maxRank });

/** A per-example shape, a batch size, one inAxes choice fitted to it, outAxes, a seed. */
const oneArg = (minRank = 0, maxRank = 3, minDim = 1) =>
  fc.tuple(shapeArb(minRank, maxRank, minDim), bArb, axArb, outArb, seedArb).map(([shape, B, ax, out, seed]) => ({ shape, B, ax: fitAx(ax ?? 0, shape.length) as number, out, seed }));

/** A subset of the axes of rank r (possibly empty) and a keepdims flag. */
const axesOf = (r: number) => fc.tuple(fc.subarray([...Array(r).keys()]), fc.boolean(), fc.boolean());

describe.each(DEVICES)('vmap of reductions on %s', (device) => {
  const { randn } = gen(device);
  it('sum / prod / max / min / mean / var over any axis subset, keepdims, negative axes', () => {
    fc.assert(
      fc.property(oneArg(0, 4).chain((c) => fc.tuple(fc.constant(c), axesOf(c.shape.length))), ([{ shape, B, ax, out, seed }, [axes, keep, neg]]) => {
        const x = randn(batchedShape(shape, B, ax), seed, { specials: seed % 3 === 0 });
        const a = neg ? axes.map((i) => i - shape.length) : axes;
        const fs: [string, (t: T) => T][] = [
          ['sum', (t) => t.sum(a, keep)],
          ['prod', (t) => t.prod(a, keep)],
          ['max', (t) => t.max(a, keep)],
          ['min', (t) => t.min(a, keep)],
          ['sum all', (t) => t.sum()],
          ['mean', (t) => t.mean(a, keep)],
          ['var', (t) => t.var(a, keep, 1)],
          ['sum int32', (t) => t.cast('int32').sum(a, keep)],
          ['sum bool', (t) => t.gt(0).sum(a, keep)],
          ['max of product (prologue) + epilogue', (t) => t.mul(t).max(a, keep).sqrt()],
        ];
        for (const [name, f] of fs) expectVmap(f, [x], [ax], out, `${name} axes ${JSON.stringify(a)}`);
      }),
      runs(),
    );
  });

  it('argmax / argmin along one axis or flattened (ties pick the first), keepdims', () => {
    fc.assert(
      fc.property(oneArg(1, 3).chain((c) => fc.tuple(fc.constant(c), fc.integer({ min: -c.shape.length, max: c.shape.length - 1 }), fc.boolean())), ([{ shape, B, ax, out, seed }, axis, keep]) => {
        const x = randn(batchedShape(shape, B, ax), seed, { ints: seed % 2 === 0 });
        expectVmap((t) => t.argmax(axis, keep), [x], [ax], out, `argmax ${axis}`);
        expectVmap((t) => t.argmin(axis, keep), [x], [ax], out, `argmin ${axis}`);
        expectVmap((t) => t.argmax(), [x], [ax], out, 'argmax flat');
        expectVmap((t) => t.argmin(undefined, true), [x], [ax], out, 'argmin flat keepdims');
      }),
      runs(),
    );
  });

  it('logsumexp (composite) over axis subsets, with -inf rows', () => {
    fc.assert(
      fc.property(oneArg(1, 3).chain((c) => fc.tuple(fc.constant(c), axesOf(c.shape.length))), ([{ shape, B, ax, out, seed }, [axes, keep]]) => {
        const x = randn(batchedShape(shape, B, ax), seed, { specials: seed % 2 === 0 });
        expectVmap((t) => t.logsumexp(axes, keep), [x], [ax], out, `logsumexp ${JSON.stringify(axes)}`);
        expectVmap((t) => t.sub(t.logsumexp(-1, true)).exp(), [x], [ax], out, 'softmax');
      }),
      runs(),
    );
  });
});

describe.each(DEVICES)('vmap of movement ops on %s', (device) => {
  const { randn } = gen(device);
  it('reshape: flatten, -1, regrouping, expandDims, squeeze', () => {
    fc.assert(
      fc.property(oneArg(0, 4), ({ shape, B, ax, out, seed }) => {
        const x = randn(batchedShape(shape, B, ax), seed);
        const r = shape.length;
        const fs: [string, (t: T) => T][] = [
          ['flatten', (t) => t.flatten()],
          ['reshape -1,1', (t) => t.reshape(-1, 1)],
          ['expandDims 0', (t) => t.expandDims(0)],
          ['expandDims -1', (t) => t.expandDims(-1).mul(2)],
          ['squeeze', (t) => t.squeeze()],
          ['reshape 1,-1 then sum', (t) => t.reshape(1, -1).sum(1)],
        ];
        if (r >= 2) {
          fs.push(['merge first two', (t) => t.reshape(shape[0]! * shape[1]!, ...shape.slice(2))]);
          fs.push(['merge last two', (t) => t.reshape(...shape.slice(0, -2), -1)]);
          fs.push(['transpose then flatten (copy)', (t) => t.transpose().reshape(-1)]);
        }
        for (const [name, f] of fs) expectVmap(f, [x], [ax], out, name);
      }),
      runs(),
    );
  });

  it('reshape to random regroupings: adjacent dims merged, unit dims inserted anywhere', () => {
    fc.assert(
      fc.property(
        oneArg(0, 4, 0).chain((c) => fc.tuple(fc.constant(c), fc.array(fc.boolean(), { minLength: c.shape.length, maxLength: c.shape.length }), fc.array(fc.nat(5), { maxLength: 3 }))),
        ([{ shape, B, ax, out, seed }, merge, ones]) => {
          const x = randn(batchedShape(shape, B, ax), seed);
          // Merge dim i into the previous group when merge[i].
          const groups: number[] = [];
          shape.forEach((d, i) => (merge[i] && groups.length ? (groups[groups.length - 1]! *= d) : groups.push(d)));
          const target = [...groups];
          for (const p of ones) target.splice(p % (target.length + 1), 0, 1);
          expectVmap((t) => t.reshape(target), [x], [ax], out, `reshape ${JSON.stringify(shape)} -> ${JSON.stringify(target)}`);
          expectVmap((t) => t.reshape(target).mul(2).reshape(shape), [x], [ax], out, 'reshape there and back');
        },
      ),
      runs(80),
    );
  });

  it('permute (random permutations), swapaxes', () => {
    fc.assert(
      fc.property(
        oneArg(1, 4).chain((c) => fc.tuple(fc.constant(c), fc.shuffledSubarray([...Array(c.shape.length).keys()], { minLength: c.shape.length, maxLength: c.shape.length }))),
        ([{ shape, B, ax, out, seed }, perm]) => {
          const x = randn(batchedShape(shape, B, ax), seed);
          expectVmap((t) => t.transpose(perm), [x], [ax], out, `permute ${perm}`);
          expectVmap((t) => t.transpose(perm).exp().transpose(), [x], [ax], out, `permute ${perm} twice`);
          expectVmap((t) => t.swapaxes(0, -1), [x], [ax], out, 'swapaxes');
        },
      ),
      runs(),
    );
  });

  it('expand (broadcastTo) of an operand whose batch axis is anywhere', () => {
    fc.assert(
      fc.property(
        oneArg(0, 3).chain((c) => fc.tuple(fc.constant(c), fc.array(fc.boolean(), { minLength: c.shape.length, maxLength: c.shape.length }), fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }))),
        ([{ shape, B, ax, out, seed }, ones, lead]) => {
          const s1 = shape.map((d, i) => (ones[i] ? 1 : d));
          const x = randn(batchedShape(s1, B, ax), seed);
          const target = [...lead, ...shape];
          expectVmap((t) => t.broadcastTo(target), [x], [ax], out, `broadcastTo ${target}`);
          if (target.length) expectVmap((t) => t.broadcastTo(target).add(1).sum(0), [x], [ax], out, 'broadcastTo then reduce');
        },
      ),
      runs(),
    );
  });

  it('slice (ranges, negative steps, ix), flip, select', () => {
    const spec = fc.oneof(
      fc.constant(rlx.ax()),
      fc.tuple(fc.option(fc.integer({ min: -5, max: 5 })), fc.option(fc.integer({ min: -5, max: 5 })), fc.constantFrom(1, 2, -1, -2)).map(([a, b, s]) => rlx.rg(a, b, s)),
      fc.integer({ min: 0, max: 0 }).map((i) => rlx.ix(i)),
    );
    fc.assert(
      fc.property(oneArg(1, 3).chain((c) => fc.tuple(fc.constant(c), fc.array(spec, { minLength: 1, maxLength: c.shape.length }))), ([{ shape, B, ax, out, seed }, sp]) => {
        const x = randn(batchedShape(shape, B, ax), seed);
        expectVmap((t) => t.slice(rlx.s(...sp)), [x], [ax], out, 'slice');
        expectVmap((t) => t.flip(), [x], [ax], out, 'flip');
        expectVmap((t) => t.flip(0).mul(t), [x], [ax], out, 'flip axis 0');
        expectVmap((t) => t.select(-1, shape[shape.length - 1]! - 1), [x], [ax], out, 'select');
      }),
      runs(),
    );
  });
});

describe.each(DEVICES)('vmap of cumsum, pad and concat on %s', (device) => {
  const { randn } = gen(device);
  it('cumsum along any axis or flattened, float64 / int32 / bool', () => {
    fc.assert(
      fc.property(oneArg(1, 3).chain((c) => fc.tuple(fc.constant(c), fc.integer({ min: -c.shape.length, max: c.shape.length - 1 }))), ([{ shape, B, ax, out, seed }, axis]) => {
        const x = randn(batchedShape(shape, B, ax), seed, { specials: seed % 4 === 0 });
        expectVmap((t) => t.cumsum(axis), [x], [ax], out, `cumsum ${axis}`);
        expectVmap((t) => t.cumsum(), [x], [ax], out, 'cumsum flat');
        expectVmap((t) => t.cast('int32').cumsum(axis), [x], [ax], out, 'cumsum int32');
        expectVmap((t) => t.gt(0).cumsum(axis), [x], [ax], out, 'cumsum bool');
      }),
      runs(),
    );
  });

  it('pad with per-axis widths and a fill value (none on the batch axis)', () => {
    fc.assert(
      fc.property(
        oneArg(1, 3).chain((c) => fc.tuple(fc.constant(c), fc.array(fc.tuple(fc.nat(2), fc.nat(2)), { minLength: c.shape.length, maxLength: c.shape.length }), fc.double({ min: -5, max: 5, noNaN: true }))),
        ([{ shape, B, ax, out, seed }, widths, value]) => {
          const x = randn(batchedShape(shape, B, ax), seed);
          expectVmap((t) => t.pad(widths, value), [x], [ax], out, `pad ${JSON.stringify(widths)}`);
          expectVmap((t) => t.cast('int32').pad(1, 7), [x], [ax], out, 'pad int32');
        },
      ),
      runs(),
    );
  });

  it('cat / stack of three operands, any of them unbatched, any axis', () => {
    fc.assert(
      fc.property(
        shapeArb(1, 3).chain((s) => fc.tuple(fc.constant(s), fc.integer({ min: -s.length, max: s.length - 1 }), fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 3, maxLength: 3 }))),
        bArb,
        fc.tuple(axArb, axArb, axArb),
        outArb,
        seedArb,
        ([shape, axis, widths], B, [a0, a1, a2], out, seed) => {
          const r = shape.length;
          const an = axis < 0 ? axis + r : axis;
          const shapes = widths.map((w) => shape.map((d, i) => (i === an ? w : d)));
          const axes: Ax[] = someBatched([fitAx(a0, r), fitAx(a1, r), fitAx(a2, r)]);
          const xs = shapes.map((s, i) => randn(batchedShape(s, B, axes[i]!), seed + i));
          expectVmap((p, q, u) => rlx.cat([p, q, u], axis), xs, axes, out, `cat axis ${axis}`);
          const ys = [0, 1, 2].map((i) => randn(batchedShape(shape, B, axes[i]!), seed + 10 + i));
          expectVmap((p, q, u) => rlx.stack([p, q.cast('float32'), u], axis), ys, axes, out, `stack axis ${axis}`);
        },
      ),
      runs(),
    );
  });
});
