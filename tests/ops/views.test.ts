// Views: slicing with s(ax(), rg(a, b, step), ix(i), tail(k)) against Python slice
// semantics, transpose / swapaxes / .T, reshape with -1, squeeze / expandDims,
// flip, broadcastTo, select, and random chains of views with an elementwise op on
// top. Every op here only moves values, so results must be exact (rtol = atol = 0).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { ax, ix, rg, s, tail } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import * as N from '../harness/naive.js';
import { broadcastShapesArb, expectTensor, FEW, narrOf, RUNS, runs, shapeArb, toTensor } from '../harness/arbitraries.js';

const EXACT = { rtol: 0, atol: 0 };

/** Distinct values so that any misplaced element shows. */
const iota = (shape: readonly number[], offset = 0): N.NArr => N.make(shape, Array.from({ length: N.sizeOf(shape) }, (_, i) => i + offset + 0.25));

// ---- slice specs --------------------------------------------------------------------

type RawSpec =
  | { k: 'ax' }
  | { k: 'rg'; start: number | undefined; end: number | undefined; step: number }
  | { k: 'ix'; r: number }
  | { k: 'tail'; start: number };

const boundArb = fc.option(fc.integer({ min: -8, max: 8 }), { nil: undefined, freq: 4 });
const rawSpecArb: fc.Arbitrary<RawSpec> = fc.oneof(
  fc.constant<RawSpec>({ k: 'ax' }),
  fc.record({ k: fc.constant('rg' as const), start: boundArb, end: boundArb, step: fc.constantFrom(-3, -2, -1, -1, 1, 1, 2, 3) }),
  fc.record({ k: fc.constant('ix' as const), r: fc.nat(1000) }),
  fc.record({ k: fc.constant('tail' as const), start: fc.integer({ min: -7, max: 7 }) }),
);

/** The rlx spec and the naive spec for one axis of size n (ix picks a valid index, negative half the time). */
function specFor(raw: RawSpec, n: number): { r: rlx.AxisSpec; naive: N.NaiveAxisSlice } {
  switch (raw.k) {
    case 'ax':
      return { r: ax(), naive: {} };
    case 'rg':
      return { r: rg(raw.start, raw.end, raw.step), naive: { start: raw.start, stop: raw.end, step: raw.step } };
    case 'tail':
      return { r: tail(raw.start), naive: { start: raw.start } };
    case 'ix': {
      if (n === 0) return { r: ax(), naive: {} };
      const i = (raw.r % (2 * n)) - n; // in [-n, n-1]
      return { r: ix(i), naive: { index: i } };
    }
  }
}

function applySlice(t: rlx.Tensor, a: N.NArr, raws: readonly RawSpec[]): [rlx.Tensor, N.NArr] {
  const k = Math.min(raws.length, a.shape.length);
  const specs = raws.slice(0, k).map((raw, i) => specFor(raw, a.shape[i]!));
  return [t.slice(s(...specs.map((p) => p.r))), N.slice(a, specs.map((p) => p.naive))];
}

// ---- random view chains -------------------------------------------------------------

type Step = { k: 'slice'; raws: RawSpec[] } | { k: 'perm'; r: number[] } | { k: 'reshape'; mode: number; r: number } | { k: 'flip'; mask: boolean[] } | { k: 'expand'; r: number } | { k: 'squeeze' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ k: fc.constant('slice' as const), raws: fc.array(rawSpecArb, { maxLength: 4 }) }),
  fc.record({ k: fc.constant('perm' as const), r: fc.array(fc.nat(1000), { minLength: 4, maxLength: 4 }) }),
  fc.record({ k: fc.constant('reshape' as const), mode: fc.nat(3), r: fc.nat(1000) }),
  fc.record({ k: fc.constant('flip' as const), mask: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }) }),
  fc.record({ k: fc.constant('expand' as const), r: fc.nat(1000) }),
  fc.constant<Step>({ k: 'squeeze' }),
);

/** A permutation of 0..n-1 from random numbers (Fisher-Yates). */
function permOf(n: number, r: readonly number[]): number[] {
  const p = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = r[i % r.length]! % (i + 1);
    [p[i], p[j]] = [p[j]!, p[i]!];
  }
  return p;
}

/** A reshape target of the same size: merge two adjacent dims, insert a 1, reverse the dims, or flatten; one dim may become -1. */
function reshapeTarget(shape: readonly number[], mode: number, r: number): { target: number[]; resolved: number[] } {
  let out = [...shape];
  if (mode === 0 && shape.length >= 2) {
    const i = r % (shape.length - 1);
    out = [...shape.slice(0, i), shape[i]! * shape[i + 1]!, ...shape.slice(i + 2)];
  } else if (mode === 1 && shape.length < 6) {
    const i = r % (shape.length + 1);
    out = [...shape.slice(0, i), 1, ...shape.slice(i)];
  } else if (mode === 2) out = [...shape].reverse();
  else out = [N.sizeOf(shape)];
  const target = [...out];
  // -1 is only inferable when the other dims have a non-zero product.
  const j = r % Math.max(1, out.length);
  if (out.length > 0 && N.sizeOf(out.filter((_, i) => i !== j)) > 0) target[j] = -1;
  return { target, resolved: out };
}

function applyStep(t: rlx.Tensor, a: N.NArr, st: Step): [rlx.Tensor, N.NArr] {
  const rank = a.shape.length;
  switch (st.k) {
    case 'slice':
      return applySlice(t, a, st.raws);
    case 'perm': {
      const p = permOf(rank, st.r);
      return [t.transpose(p), N.transpose(a, p)];
    }
    case 'reshape': {
      const { target, resolved } = reshapeTarget(a.shape, st.mode, st.r);
      return [t.reshape(target), N.reshape(a, resolved)];
    }
    case 'flip': {
      const axes = a.shape.map((_, i) => i).filter((i) => st.mask[i]);
      return [t.flip(axes), N.flip(a, axes)];
    }
    case 'expand': {
      if (rank >= 6) return [t, a];
      const i = st.r % (rank + 1);
      return [t.expandDims(i), N.expandDims(a, i)];
    }
    case 'squeeze':
      return [t.squeeze(), N.reshape(a, a.shape.filter((d) => d !== 1))];
  }
}

describe.each(DEVICES)('views on %s', (device) => {
  it('slicing with ax / rg (negative bounds and steps) / ix / tail matches Python slices', () => {
    fc.assert(
      fc.property(shapeArb({ minRank: 1 }), fc.array(rawSpecArb, { maxLength: 4 }), (shape, raws) => {
        const a = iota(shape);
        const [t, ref] = applySlice(toTensor(a, device), a, raws);
        expectTensor(t, ref, EXACT, `slice of [${shape}] by ${JSON.stringify(raws)}`);
      }),
      runs(RUNS * 2),
    );
  });

  it('slicing with something that is not a slice spec, or a fractional bound, is a ValueError naming slice', () => {
    const t = toTensor(iota([5, 4]), device);
    for (const bad of [[[2, 4]], [2], null, { axes: [] }, 'rg(1,2)']) expect(() => t.slice(bad as never), JSON.stringify(bad)).toThrow(rlx.ValueError);
    expect(() => t.slice([[2, 4]] as never)).toThrow(/slice: expects a slice spec made by s\(\.\.\.\)/);
    expect(() => t.slice(s(rg(0.5, 3)))).toThrow(/slice: start must be an integer/);
    expect(() => t.slice(s(ax(), rg(0, 2.5)))).toThrow(/slice: end must be an integer/);
    expect(() => t.slice({ kind: 'slice', axes: [7] } as never)).toThrow(/axis 0 spec must be ax\(\), rg\(\.\.\.\) or ix\(\.\.\.\)/);
  });

  it('slicing: named edge cases (empty results, steps past the end, a[::-1] of size 0 and 1)', () => {
    const a = iota([5]);
    const t = toTensor(a, device);
    const cases: [rlx.AxisSpec, N.NaiveAxisSlice][] = [
      [rg(null, null, -1), { step: -1 }],
      [rg(-1, -6, -1), { start: -1, stop: -6, step: -1 }],
      [rg(10, -10, -3), { start: 10, stop: -10, step: -3 }],
      [rg(-10, 10, 2), { start: -10, stop: 10, step: 2 }],
      [rg(3, 1), { start: 3, stop: 1 }],
      [rg(2, -1, -1), { start: 2, stop: -1, step: -1 }],
      [rg(0, 5, 7), { start: 0, stop: 5, step: 7 }],
      [tail(-2), { start: -2 }],
      [tail(9), { start: 9 }],
      [ix(-5), { index: -5 }],
    ];
    for (const [r, n] of cases) expectTensor(t.slice(s(r)), N.slice(a, [n]), EXACT, JSON.stringify(r));
    for (const sh of [[0], [1]]) {
      const b = iota(sh);
      expectTensor(toTensor(b, device).slice(s(rg(null, null, -1))), N.slice(b, [{ step: -1 }]), EXACT, `[${sh}][::-1]`);
    }
    // A number n in s(...) means ix(n).
    expectTensor(toTensor(iota([3, 4]), device).slice(s(1, rg(null, null, -2))), N.slice(iota([3, 4]), [{ index: 1 }, { step: -2 }]), EXACT, 's(1, ::-2)');
  });

  it('random chains of views (slice / transpose / reshape -1 / flip / expandDims / squeeze) with elementwise ops on top', () => {
    fc.assert(
      fc.property(shapeArb(), fc.array(stepArb, { minLength: 1, maxLength: 5 }), fc.boolean(), (shape, steps, realizeBase) => {
        const a0 = iota(shape);
        let t = toTensor(a0, device);
        if (realizeBase) t.toArray();
        let a = a0;
        for (const st of steps) [t, a] = applyStep(t, a, st);
        const other = iota(a.shape, 1000);
        // Elementwise on top of the view: exact in float64 (2x is exact; one rounded add).
        const r = t.mul(2).add(toTensor(other, device));
        const ref = N.binary(N.unary(a, (v) => 2 * v), other, (x, y) => x + y);
        expectTensor(r, ref, EXACT, `chain ${JSON.stringify(steps)} from [${shape}]`);
        // And a view of the result of an elementwise op, fed back into another op.
        if (a.shape.length > 0) {
          const v = r.flip(0).sub(t);
          expectTensor(v, N.binary(N.flip(ref, 0), a, (x, y) => x - y), EXACT, 'flip after elementwise');
        }
      }),
      runs(RUNS * 2),
    );
  });

  it('transpose(perm) with negative axes, default reverse, .T, swapaxes', () => {
    fc.assert(
      fc.property(shapeArb(), fc.array(fc.nat(1000), { minLength: 4, maxLength: 4 }), fc.boolean(), (shape, r, neg) => {
        const a = iota(shape);
        const t = toTensor(a, device);
        const p = permOf(shape.length, r);
        const pn = neg ? p.map((v) => v - shape.length) : p;
        expectTensor(t.transpose(pn), N.transpose(a, p), EXACT, `transpose ${pn}`);
        expectTensor(t.transpose(), N.transpose(a), EXACT, 'transpose()');
        expectTensor(t.T, N.transpose(a), EXACT, '.T');
        if (shape.length >= 2) {
          const q = shape.map((_, i) => i);
          [q[0], q[shape.length - 1]] = [q[shape.length - 1]!, q[0]!];
          expectTensor(t.swapaxes(0, -1), N.transpose(a, q), EXACT, 'swapaxes(0, -1)');
        }
      }),
      runs(FEW),
    );
  });

  it('reshape with -1 (and ShapeError exactly when NumPy cannot infer it)', () => {
    fc.assert(
      fc.property(shapeArb(), shapeArb({ maxRank: 3 }), fc.nat(3), (shape, target, j) => {
        const a = iota(shape);
        const t = toTensor(a, device);
        const want = [...target];
        if (want.length > 0) want[j % want.length] = -1;
        let ref: N.NArr | undefined;
        try {
          ref = N.reshape(a, want);
        } catch {
          ref = undefined;
        }
        if (ref) expectTensor(t.reshape(want), ref, EXACT, `reshape [${shape}] -> [${want}]`);
        else expect(() => t.reshape(want).toArray(), `reshape [${shape}] -> [${want}]`).toThrow(rlx.ShapeError);
        expectTensor(t.reshape(-1), N.reshape(a, [-1]), EXACT, 'reshape(-1)');
        expectTensor(t.flatten(), N.reshape(a, [-1]), EXACT, 'flatten');
        expectTensor(t.reshape(...shape), a, EXACT, 'reshape(...dims)');
      }),
      runs(RUNS),
    );
  });

  it('squeeze() / squeeze(axes) / expandDims(axes)', () => {
    fc.assert(
      fc.property(shapeArb({ maxRank: 3 }), fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }), fc.uniqueArray(fc.nat(4), { maxLength: 2 }), (shape, pick, ins) => {
        const a = iota(shape);
        const t = toTensor(a, device);
        expectTensor(t.squeeze(), N.reshape(a, shape.filter((d) => d !== 1)), EXACT, 'squeeze()');
        const axes = shape.map((d, i) => i).filter((i) => shape[i] === 1 && pick[i]);
        expectTensor(t.squeeze(axes), N.reshape(a, shape.filter((_, i) => !axes.includes(i))), EXACT, `squeeze(${axes})`);
        const r = shape.length + ins.length;
        const pos = ins.map((i) => i % r);
        fc.pre(new Set(pos).size === pos.length);
        const out: number[] = [];
        let k = 0;
        for (let i = 0; i < r; i++) out.push(pos.includes(i) ? 1 : shape[k++]!);
        expectTensor(t.expandDims(pos), N.reshape(a, out), EXACT, `expandDims(${pos})`);
        expectTensor(t.expandDims(-1), N.reshape(a, [...shape, 1]), EXACT, 'expandDims(-1)');
      }),
      runs(FEW),
    );
  });

  it('flip over every axis subset, flip() reverses all axes', () => {
    fc.assert(
      fc.property(shapeArb({ minRank: 1 }), fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }), (shape, mask) => {
        const a = iota(shape);
        const t = toTensor(a, device);
        const axes = shape.map((_, i) => i).filter((i) => mask[i]);
        expectTensor(t.flip(axes), N.flip(a, axes), EXACT, `flip(${axes})`);
        expectTensor(t.flip(), N.flip(a), EXACT, 'flip()');
        expectTensor(t.flip(-1), N.flip(a, -1), EXACT, 'flip(-1)');
        expectTensor(t.flip(axes).flip(axes), a, EXACT, 'flip twice');
      }),
      runs(FEW),
    );
  });

  it('broadcastTo and select', () => {
    fc.assert(
      fc.property(broadcastShapesArb(1).chain(([sa]) => shapeArb().map((sb) => [sa!, sb] as const)), ([sa, sb]) => {
        const a = iota(sa);
        const t = toTensor(a, device);
        const target = [...sb.slice(0, Math.max(0, sb.length - sa.length)), ...sa.map((d, i) => (d === 1 ? (sb[i] ?? 1) : d))];
        expectTensor(t.broadcastTo(target), N.broadcastTo(a, target), EXACT, `broadcastTo [${sa}] -> [${target}]`);
        if (sa.length > 0 && sa[0]! > 0) {
          const k = sa[0]! - 1;
          expectTensor(t.select(0, -1), N.reshape(N.slice(a, [{ index: k }]), sa.slice(1)), EXACT, 'select(0, -1)');
        }
      }),
      runs(FEW),
    );
  });

  it('views of a realized tensor stay correct after the base is realized and reused', () => {
    const base = toTensor(iota([3, 4]), device);
    const v1 = base.slice(s(rg(null, null, -1), rg(1, 3)));
    const v2 = base.T.add(1);
    expectTensor(v1, N.slice(iota([3, 4]), [{ step: -1 }, { start: 1, stop: 3 }]), EXACT, 'v1');
    expectTensor(v2, N.unary(N.transpose(iota([3, 4])), (x) => x + 1), EXACT, 'v2');
    expectTensor(v1.add(v1), N.unary(N.slice(iota([3, 4]), [{ step: -1 }, { start: 1, stop: 3 }]), (x) => 2 * x), EXACT, 'v1 + v1 after realize');
  });
});

describe.each(DEVICES)('views of non-float64 data on %s', (device) => {
  const DTS = ['int8', 'uint8', 'int32', 'float32', 'float16', 'bfloat16', 'bool', 'complex64', 'complex128'] as const;
  type DT = (typeof DTS)[number] | 'float64';
  /** A chain on dtype dt: [tensor, naive] (small integers, exact in every dtype (uint8: non-negative); bool 0/1; complex (k, -k/2)). */
  const chainOf = (shape: number[], steps: Step[], dt: DT): [rlx.Tensor, N.NArr] => {
    const cplx = dt.startsWith('complex');
    const n = N.sizeOf(shape);
    const vals = Array.from({ length: n }, (_, i) => (dt === 'bool' ? (i % 3 === 0 ? 1 : 0) : dt === 'uint8' ? i % 50 : (i % 50) - 20));
    const a0: N.NArr = cplx ? N.make(shape, vals.flatMap((v) => [v, -v / 2]), true) : N.make(shape, vals);
    let t = rlx.tensor(Float64Array.from(a0.data), { shape, dtype: dt }).on(device);
    let a = a0;
    for (const st of steps) [t, a] = applyStep(t, a, st);
    return [t, a];
  };

  it('random view chains on int8 / uint8 / int32 / float32 / float16 / bfloat16 / bool / complex data, then x + x', () => {
    fc.assert(
      fc.property(shapeArb(), fc.array(stepArb, { minLength: 1, maxLength: 4 }), fc.constantFrom(...DTS), (shape, steps, dt) => {
        const [t, a] = chainOf(shape, steps, dt);
        expect(t.dtype).toBe(dt);
        const twice = dt === 'bool' ? a : { ...a, data: a.data.map((v) => 2 * v) };
        expectTensor(t.add(t), twice, EXACT, `${dt} x + x after the chain ${JSON.stringify(steps)} from [${shape}]`);
      }),
      runs(),
    );
  });

  it('a bare view chain (no op on top) realizes to the viewed values, every dtype', () => {
    fc.assert(
      fc.property(shapeArb(), fc.array(stepArb, { minLength: 1, maxLength: 4 }), fc.constantFrom('float64', ...DTS), (shape, steps, dt) => {
        const [t, a] = chainOf(shape, steps, dt);
        expectTensor(t, a, EXACT, `${dt} bare chain ${JSON.stringify(steps)} from [${shape}]`);
      }),
      runs(),
    );
    // The smallest case: a transposed matrix flattened.
    expect([...rlx.tensor([[0, 1], [2, 3]]).on(device).T.reshape(-1).toArray()]).toEqual([0, 2, 1, 3]);
  });
});

describe.each(DEVICES)('views with random float data on %s', (device) => {
  it('slice then unary op', () => {
    fc.assert(
      fc.property(
        shapeArb({ minRank: 1 }).chain((sh) => narrOf(sh)),
        fc.array(rawSpecArb, { maxLength: 4 }),
        (a, raws) => {
          const [t, ref] = applySlice(toTensor(a, device), a, raws);
          expectTensor(t.abs().neg(), N.unary(ref, (x) => -Math.abs(x)), EXACT, 'slice → abs → neg');
        },
      ),
      runs(FEW),
    );
  });
});
