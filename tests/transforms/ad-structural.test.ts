// JVP and VJP rules of the reductions, movement ops, opaque ops and logsumexp,
// on random shapes, axes, slices and indices (float64 and complex128):
// JVP vs central finite differences, VJP vs JVP by the dot-product identity
// (tolerances in ad-harness.ts).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import { AD_RUNS, checkCase, rint, rperm, rshape, rsubset, vals, type AdCase, type DT, type InSpec } from './ad-harness.js';

const spec = (shape: number[], dtype: DT = 'float64', lo = -2, hi = 2): InSpec => ({ shape, dtype, lo, hi });
const bothDTypes = (name: string, mk: (d: DT) => AdCase['specs']): AdCase[] => [
  { name: `${name} (float64)`, specs: mk('float64') },
  { name: `${name} (complex128)`, specs: mk('complex128') },
];

/** Random slice spec for a shape: per axis a whole axis, an index, or a range with step in ±1..3. */
function randomSlice(r: () => number, shape: number[]) {
  return rlx.s(
    ...shape.map((n) => {
      const k = r();
      if (k < 0.2) return rlx.ax();
      if (k < 0.35) return rlx.ix(rint(r, -n, n - 1));
      const step = (r() < 0.5 ? -1 : 1) * rint(r, 1, 3);
      const a = r() < 0.2 ? undefined : rint(r, -n, n);
      const b = r() < 0.2 ? undefined : rint(r, -n - 1, n + 1);
      return rlx.rg(a, b, step);
    }),
  );
}

const REDUCTIONS: AdCase[] = [
  ...bothDTypes('sum over random axes', (d) => (r) => {
    const shape = rshape(r, 0, 3);
    const axes = rsubset(r, shape.length);
    const keep = r() < 0.5;
    return { specs: [spec(shape, d)], f: (x) => x.sum(axes, keep).mul(x.sum()) };
  }),
  ...bothDTypes('prod over random axes (with exact zeros)', (d) => (r) => {
    const shape = rshape(r, 1, 3);
    const axes = rsubset(r, shape.length);
    const zero = r() < 0.7;
    // Magnitudes near 1, so that a product of up to 64 factors stays O(1): then a central difference's
    // h² error (it is all the FD sees where three or more factors are exactly 0 and the true derivative
    // is exactly 0) stays far under the tolerance. Lanes drawn from ±(0.5, 1.5) give complex factors of
    // mean log-magnitude ~0.4, products ~1e10 and FD errors ~1e-7 (seed 181165047): hence the 1/√2.
    const lane = d === 'complex128' ? Math.SQRT1_2 : 1;
    const s: InSpec = { shape, dtype: d, sample: (q) => (zero && q() < 0.25 ? 0 : (q() < 0.5 ? -1 : 1) * (0.5 + q()) * lane) };
    return { specs: [s], f: (x) => x.prod(axes) };
  }),
  ...(['max', 'min'] as const).map((op): AdCase => ({
    name: `${op} over random axes`,
    specs: (r) => {
      const shape = rshape(r, 1, 3);
      const axes = rsubset(r, shape.length);
      return { specs: [spec(shape)], f: (x) => x[op](axes).mul(x[op](axes)) };
    },
  })),
  ...(['argmax', 'argmin'] as const).map((op): AdCase => ({
    name: `${op} (no tangent) feeding a product`,
    specs: (r) => {
      const shape = rshape(r, 1, 3);
      const a = rint(r, 0, shape.length - 1);
      return { specs: [spec(shape)], f: (x) => x.mul(x[op](a, true).cast('float64')).add(x.flatten().gather(x[op]().reshape([1]), 0).sum()) };
    },
  })),
  { name: 'logsumexp over random axes', specs: (r) => {
      const shape = rshape(r, 1, 3);
      const axes = rsubset(r, shape.length);
      return { specs: [spec(shape, 'float64', -3, 3)], f: (x) => x.logsumexp(axes) };
    } },
  ...bothDTypes('mean / var (composites of sum)', (d) => (r) => {
    const shape = rshape(r, 1, 3, 2);
    const axes = rsubset(r, shape.length);
    return { specs: [spec(shape, d)], f: (x) => x.var(axes).add(x.mean(axes).abs()) };
  }),
];

const MOVEMENT: AdCase[] = [
  ...bothDTypes('reshape', (d) => (r) => {
    const shape = rshape(r, 0, 3);
    const n = shape.reduce((a, b) => a * b, 1);
    const to = r() < 0.5 ? [n] : [1, n, 1];
    return { specs: [spec(shape, d)], f: (x) => x.reshape(to).mul(x.reshape(to)) };
  }),
  ...bothDTypes('permute', (d) => (r) => {
    const shape = rshape(r, 1, 4);
    const p = rperm(r, shape.length);
    return { specs: [spec(shape, d)], f: (x) => x.transpose(p).mul(x.transpose(p).sin()) };
  }),
  ...bothDTypes('expand (broadcastTo, with new leading axes)', (d) => (r) => {
    const out = rshape(r, 1, 3, 2);
    const drop = rint(r, 0, out.length);
    const shape = out.slice(drop).map((n) => (r() < 0.5 ? 1 : n));
    return { specs: [spec(shape, d)], f: (x) => x.broadcastTo(out).mul(rlx.arange(out[out.length - 1]!).add(1)) };
  }),
  ...bothDTypes('slice with random starts, ends and ±steps', (d) => (r) => {
    const shape = rshape(r, 1, 3, 1, 6);
    const sl = randomSlice(r, shape);
    return { specs: [spec(shape, d)], f: (x) => x.slice(sl).mul(x.slice(sl)) };
  }),
  ...bothDTypes('flip, select and chained views', (d) => (r) => {
    const shape = rshape(r, 2, 3, 2, 5);
    const a = rint(r, 0, shape.length - 1);
    return {
      specs: [spec(shape, d)],
      f: (x) => x.flip().transpose().slice(rlx.s(rlx.rg(null, null, -2))).sum().add(x.select(a, -1).exp().sum()),
    };
  }),
];

const OPAQUE: AdCase[] = [
  ...bothDTypes('matmul (batched, broadcast batch dims, 1-D operands)', (d) => (r) => {
    const [m, k, n] = [rint(r, 1, 4), rint(r, 1, 4), rint(r, 1, 4)];
    const kind = rint(r, 0, 3);
    const b = rshape(r, 0, 2, 1, 3);
    const shapes: number[][] =
      kind === 0 ? [[m, k], [k, n]] : kind === 1 ? [[...b, m, k], [k, n]] : kind === 2 ? [[k], [...b, k, n]] : [[...b, m, k], [k]];
    return { specs: shapes.map((s) => spec(s, d)), f: (x, y) => x.matmul(y) };
  }),
  ...bothDTypes('matmul with a shared operand', (d) => [spec([3, 3], d)]).map((c) => ({ ...c, f: (x: Tensor) => x.matmul(x).matmul(x.T) })),
  ...bothDTypes('cumsum along a random axis', (d) => (r) => {
    const shape = rshape(r, 1, 3, 1, 5);
    const a = r() < 0.2 ? undefined : rint(r, 0, shape.length - 1);
    return { specs: [spec(shape, d)], f: (x) => x.cumsum(a).mul(x.cumsum(a).cos()) };
  }),
  ...bothDTypes('gather with repeated and negative indices', (d) => (r) => {
    const shape = rshape(r, 1, 3, 1, 4);
    const a = rint(r, 0, shape.length - 1);
    const n = shape[a]!;
    const idx = Array.from({ length: rint(r, 1, 5) }, () => rint(r, -n, n - 1));
    return { specs: [spec(shape, d)], f: (x) => x.gather(idx, a).mul(x.gather(idx, a)) };
  }),
  ...bothDTypes('gather with 2-D indices', (d) => (r) => {
    const shape = rshape(r, 2, 2, 2, 4);
    const idx = rlx.tensor([[0, shape[1]! - 1], [1 % shape[1]!, 0]], { dtype: 'int32' });
    return { specs: [spec(shape, d)], f: (x) => x.gather(idx, 1).sin() };
  }),
  ...bothDTypes('scatterAdd into x with updates (repeated indices)', (d) => (r) => {
    const shape = rshape(r, 1, 3, 1, 4);
    const a = rint(r, 0, shape.length - 1);
    const n = shape[a]!;
    const idx = Array.from({ length: rint(r, 1, 5) }, () => rint(r, -n, n - 1));
    const ushape = [...shape.slice(0, a), idx.length, ...shape.slice(a + 1)];
    return { specs: [spec(shape, d), spec(ushape, d)], f: (x, u) => x.scatterAdd(idx, u.mul(u), a).mul(x) };
  }),
  ...bothDTypes('concat (cat / stack)', (d) => (r) => {
    const shape = rshape(r, 1, 3, 1, 3);
    const a = rint(r, 0, shape.length - 1);
    const s2 = shape.map((n, i) => (i === a ? rint(r, 1, 3) : n));
    return { specs: [spec(shape, d), spec(s2, d)], f: (x, y) => rlx.cat([x, y.exp(), x.mul(x)], a).add(rlx.stack([x, x.sin()], 0).sum()) };
  }),
  ...bothDTypes('pad', (d) => (r) => {
    const shape = rshape(r, 1, 3, 1, 3);
    const w = shape.map(() => [rint(r, 0, 2), rint(r, 0, 2)] as [number, number]);
    const value = r() < 0.5 ? 0 : 1.5;
    return { specs: [spec(shape, d)], f: (x) => x.pad(w, value).mul(x.pad(w, value)) };
  }),
  ...bothDTypes('symbolic zeros: constant operands of scatterAdd, concat, matmul', (d) => (r) => {
    const n = rint(r, 1, 4);
    const k = rlx.arange(n * 2).reshape([n, 2]).mul(0.25).cast(d);
    const idx = Array.from({ length: rint(r, 1, 4) }, () => rint(r, 0, n - 1));
    return {
      specs: [spec([idx.length, 2], d)],
      f: (u) => k.scatterAdd(idx, u, 0).add(rlx.cat([k, u], 0).sum(0)).matmul(k.T).add(k.matmul(k.T).sum()),
    };
  }),
];

describe.each(DEVICES)('reductions on %s', (device) => {
  for (const c of REDUCTIONS) it(c.name, () => checkCase(c, device, Math.round(AD_RUNS * 1.5)));
});
describe.each(DEVICES)('movement on %s', (device) => {
  for (const c of MOVEMENT) it(c.name, () => checkCase(c, device, AD_RUNS * 2));
});
describe.each(DEVICES)('opaque ops on %s', (device) => {
  for (const c of OPAQUE) it(c.name, () => checkCase(c, device, Math.round(AD_RUNS * 1.5)));
});

describe.each(DEVICES)('structural edge cases on %s', (device) => {
  const T = (v: rlx.NestedData, opts: rlx.TensorOptions = {}) => rlx.tensor(v, opts).on(device);
  it('an empty slice has a zero cotangent of the input shape', () => {
    const x = T([1, 2, 3]);
    const g = rlx.grad((t: Tensor) => t.slice(rlx.s(rlx.rg(2, 1))).sum().add(t.sum()))(x) as Tensor;
    expect(vals(g)).toEqual(Float64Array.from([1, 1, 1]));
  });
  it('slice VJP is a scatter into zeros: x[4:0:-3] of length 6', () => {
    const x = T([0, 1, 2, 3, 4, 5]);
    const [, back] = rlx.vjp((t: Tensor) => t.slice(rlx.s(rlx.rg(4, 0, -3))), x);
    const [g] = back(T([10, 20])) as Tensor[];
    expect(vals(g!)).toEqual(Float64Array.from([0, 20, 0, 0, 10, 0]));
  });
  it('cumsum VJP is the reverse cumulative sum', () => {
    const [, back] = rlx.vjp((t: Tensor) => t.cumsum(0), T([1, 2, 3, 4]));
    const [g] = back(T([1, 10, 100, 1000])) as Tensor[];
    expect(vals(g!)).toEqual(Float64Array.from([1111, 1110, 1100, 1000]));
  });
  it('gather VJP accumulates repeated indices', () => {
    const g = rlx.grad((t: Tensor) => t.gather([0, 2, 2, -1]).sum())(T([1, 2, 3, 4])) as Tensor;
    expect(vals(g)).toEqual(Float64Array.from([1, 0, 2, 1]));
  });
  it('expand VJP sums over the broadcast axes', () => {
    const g = rlx.grad((t: Tensor) => t.broadcastTo([4, 2, 3]).sum())(rlx.ones([2, 1]).on(device)) as Tensor;
    expect(g.shape).toEqual([2, 1]);
    expect(vals(g)).toEqual(Float64Array.from([12, 12]));
  });
  it('prod gradient with one and with two zeros', () => {
    const g1 = rlx.grad((t: Tensor) => t.prod())(T([2, 0, 3])) as Tensor;
    expect(vals(g1)).toEqual(Float64Array.from([0, 6, 0]));
    const g2 = rlx.grad((t: Tensor) => t.prod())(T([2, 0, 0])) as Tensor;
    expect(vals(g2)).toEqual(Float64Array.from([0, 0, 0]));
  });
  it('complex matmul VJP uses plain transposes (no conjugation)', () => {
    const a = T([[{ re: 1, im: 2 }]]),
      b = T([[{ re: 3, im: -1 }]]);
    const [, back] = rlx.vjp((x: Tensor, y: Tensor) => x.matmul(y), a, b);
    const [ga, gb] = back(T([[{ re: 1, im: 0 }]], { dtype: 'complex128' })) as Tensor[];
    expect(vals(ga!)).toEqual(Float64Array.from([3, -1]));
    expect(vals(gb!)).toEqual(Float64Array.from([1, 2]));
  });
});
