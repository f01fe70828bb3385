// linalg.norm's double precision 2-norms (vector 2, Frobenius, the default
// norm of any rank; float64 and complex128) as one nrm2 linalg op
// (src/linalg/ops/nrm2.ts): one kernel pass instead of a max pass and a scaled
// sum. Expected values are exact: Pythagorean triples and quadruples scaled by
// powers of two (whose norms are exact in float64 at every scale), NumPy's
// answers for inf/nan ([inf, nan] is nan), and a compensated (Dot2) sum of
// squares computed here for random data. Derivatives against central finite
// differences (tests/transforms/ad-harness.ts), at ‖x‖ = 0 the derivative is 0
// (PyTorch's subgradient; the two-pass graph gave NaN).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Node } from '../../../src/compiler/ir.js';
import { DEVICES } from '../../harness/devices.js';
import { checkJvpFd, checkVjpDot, directions, prng, sample, type InSpec } from '../../transforms/ad-harness.js';
import { nativeAddon } from '../../../src/backends/native/addon.js';
import { jsLinalgKernels } from '../../../src/linalg/kernels/js/index.js';
import { DTypeError, ShapeError, ValueError } from '../../../src/tensor/errors.js';
import { K, describeNative } from '../kernels-native/helpers.js';

const L = rlx.linalg;
const vals = (t: rlx.Tensor) => Array.from(t.toArray() as ArrayLike<number>);
const MAX = Number.MAX_VALUE;
const SUB = 2 ** -1074; // the smallest subnormal

/** A float64 tensor, or complex128 from interleaved (re, im) storage when `cplx`. */
function tens(v: number[], device: string, shape?: number[], cplx = false): rlx.Tensor {
  const n = cplx ? v.length / 2 : v.length;
  return rlx.fromStorage(Float64Array.from(v), shape ?? [n], cplx ? 'complex128' : 'float64').on(device);
}

// [entries, exact norm]: Pythagorean triples and quadruples, 9 and 25 ones (the 8-lane main
// loop plus a tail), each also scaled by powers of two: 2^±660 (≈ 1e±199: squares overflow /
// underflow), 2^1020 (near MAX), 2^-1074 / 2^-1070 (subnormal).
const BASE: [number[], number][] = [
  [[3, -4], 5],
  [[2, 3, 6], 7],
  [[1, 4, 8], 9],
  [[2, 10, -11], 15],
  [Array(9).fill(1), 3],
  [Array(25).fill(-1), 5],
];
const SCALES = [1, 2 ** 660, 2 ** -660, 2 ** 1000];
const EXACT: [string, number[], number][] = [
  ...BASE.flatMap(([v, r]) => SCALES.map((s): [string, number[], number] => [`${v.length} entries · ${s}`, v.map((x) => x * s), r * s])),
  ['[3, 4]·2^1020 (norm 5·2^1020 < MAX, squares overflow)', [3 * 2 ** 1020, -4 * 2 ** 1020], 5 * 2 ** 1020],
  ['[3, 4]·2^-1074 (subnormal)', [3 * SUB, 4 * SUB], 5 * SUB],
  ['[2, 3, 6]·2^-1070 (subnormal)', [2 * 2 ** -1070, 3 * 2 ** -1070, 6 * 2 ** -1070], 7 * 2 ** -1070],
  ['[2^-1074]', [SUB], SUB],
  ['[MAX]', [MAX], MAX],
  ['[MAX, 1]', [MAX, 1], MAX],
  ['[MAX, MAX] (norm above MAX)', [MAX, MAX], Infinity],
  ['[1e300, 1e-300]', [1e300, 1e-300], 1e300],
  ['[inf, 1]', [Infinity, 1], Infinity],
  ['[1, 2, -inf]', [1, 2, -Infinity], Infinity],
  ['[nan, 1]', [NaN, 1], NaN],
  ['[inf, nan] (NumPy: nan)', [Infinity, NaN], NaN],
  ['[nan, inf]', [NaN, Infinity], NaN],
  ['[nan, 1e300, -inf, 1, ... 16 entries]', [NaN, 1e300, -Infinity, ...Array(13).fill(1)], NaN],
  ['20 entries, inf last', [...Array(19).fill(1e200), Infinity], Infinity],
  ['zeros', [0, -0, 0], 0],
  ['empty', [], 0],
];

describe.each(DEVICES)('nrm2: exact values on %s', (device) => {
  it.each(EXACT)('%s: default norm, ord 2 on axis 0, Frobenius of a row', (_, v, want) => {
    expect(L.norm(tens(v, device)).item()).toBe(want);
    expect(L.norm(tens(v, device), { ord: 2, axis: 0 }).item()).toBe(want);
    expect(L.norm(tens(v, device, [1, v.length]), { ord: 'fro' }).item()).toBe(want);
  });

  it('complex128: |3 + 4i|, the quadruple (1+2i, 2+4i), at 2^±660 and 2^1020; inf + nan i is nan', () => {
    for (const s of [1, 2 ** 660, 2 ** -660, 2 ** 1020]) {
      expect(L.norm(tens([3 * s, -4 * s], device, [1], true)).item()).toBe(5 * s);
      expect(L.norm(tens([s, 2 * s, 2 * s, -4 * s], device, [2], true), { ord: 2, axis: 0 }).item()).toBe(5 * s);
    }
    expect(L.norm(tens([3 * SUB, 4 * SUB], device, [1], true)).item()).toBe(5 * SUB);
    expect(L.norm(tens([Infinity, NaN], device, [1], true)).item()).toBeNaN();
    expect(L.norm(tens([Infinity, 0, 0, 1], device, [2], true)).item()).toBe(Infinity);
  });
});

describe.each(DEVICES)('nrm2: batched axes on %s', (device) => {
  it('vector norms along axis 0 and 1, keepdims; rows at different scales stay independent', () => {
    // [[3, 4, 0], [4, 3, 12]]: columns 5, 5, 12; rows 5, 13.
    const m = tens([3, 4, 0, 4, 3, 12], device, [2, 3]);
    expect(vals(L.norm(m, { axis: 0 }))).toEqual([5, 5, 12]);
    expect(vals(L.norm(m, { axis: 1 }))).toEqual([5, 13]);
    expect(L.norm(m, { axis: 0, keepdims: true }).shape).toEqual([1, 3]);
    expect(L.norm(m, { axis: -1, keepdims: true }).shape).toEqual([2, 1]);
    expect(vals(L.norm(m, { axis: -1, keepdims: true }))).toEqual([5, 13]);
    const s = 2 ** 700;
    const rows = tens([3 * s, 4 * s, NaN, 1, Infinity, 0, 0, 0, 3 / s, -4 / s, 3, 4], device, [6, 2]);
    const got = vals(L.norm(rows, { axis: 1 }));
    expect(got).toEqual([5 * s, NaN, Infinity, 0, 5 / s, 5]);
  });

  it('Frobenius over axes [0, 2] of a [2, 2, 3] tensor (and keepdims), and over [1, 2] of a complex stack', () => {
    // j = 0 holds 3, 4, 12 (norm 13); j = 1 holds 1, 2, 2 (norm 3).
    const x = tens([3, 0, 4, 1, 2, 0, 0, 12, 0, 0, 0, 2], device, [2, 2, 3]);
    expect(vals(L.norm(x, { ord: 'fro', axis: [0, 2] }))).toEqual([13, 3]);
    expect(vals(L.norm(x, { axis: [2, 0] }))).toEqual([13, 3]);
    const k = L.norm(x, { ord: 'fro', axis: [0, 2], keepdims: true });
    expect(k.shape).toEqual([1, 2, 1]);
    expect(vals(k)).toEqual([13, 3]);
    // The default norm of a 3-D tensor: all 12 entries, 13² + 3² = 178.
    expect(L.norm(x).item()).toBe(Math.sqrt(178));
    // Complex [2, 1, 2]: (3+4i, 0) → 5, (1+2i, 2+4i) → 5, scaled apart.
    const c = tens([3 * 2 ** 900, 4 * 2 ** 900, 0, 0, 2 ** -900, 2 * 2 ** -900, 2 * 2 ** -900, 4 * 2 ** -900], device, [2, 1, 2], true);
    expect(vals(L.norm(c, { axis: [1, 2] }))).toEqual([5 * 2 ** 900, 5 * 2 ** -900]);
  });

  it('empty batch and empty rows', () => {
    expect(L.norm(tens([], device, [0, 3]), { axis: 1 }).shape).toEqual([0]);
    expect(vals(L.norm(tens([], device, [2, 0]), { axis: 1 }))).toEqual([0, 0]);
  });
});

// Σ x² to about twice the working precision (Ogita, Rump and Oishi's Dot2: exact
// products by Dekker's splitting, sums by TwoSum), an independent reference.
function dot2(x: ArrayLike<number>): number {
  const split = (a: number) => {
    const c = 134217729 * a; // 2^27 + 1
    const hi = c - (c - a);
    return [hi, a - hi] as const;
  };
  let s = 0,
    err = 0;
  for (let i = 0; i < x.length; i++) {
    const a = x[i]!;
    const p = a * a;
    const [h, l] = split(a);
    const pe = l * l - (((p - h * h) - h * l) - l * h);
    const t = s + p;
    const z = t - s;
    err += (s - (t - z)) + (p - z) + pe;
    s = t;
  }
  return s + err;
}

describe('nrm2: js and native kernels', () => {
  const r = prng(12345);
  const lengths = [1, 2, 7, 8, 9, 15, 16, 17, 1000, 4099];
  const cases = lengths.flatMap((n) => [2 ** 600, 1, 2 ** -600].map((s) => ({ n, s, x: Float64Array.from({ length: 3 * n }, () => (2 * r() - 1) * s) })));

  // The 8-lane sum's error bound: about (n/8 + 4) roundings of the sum, halved by the root, plus the root's.
  it.each(DEVICES)('%s: within the 8-lane summation bound of the compensated sum of squares, and exactly homogeneous under 2^k', (device) => {
    for (const { n, s, x } of cases) {
      const got = vals(L.norm(rlx.fromStorage(x.slice(), [3, n], 'float64').on(device), { axis: 1 }));
      for (let b = 0; b < 3; b++) {
        const want = Math.sqrt(dot2(x.subarray(b * n, (b + 1) * n).map((v) => v / s))) * s;
        expect(Math.abs(got[b]! - want), `n=${n} s=${s} row ${b}`).toBeLessThanOrEqual((n / 8 + 8) * 2 ** -53 * want);
      }
      if (s === 1) {
        for (const k of [600, -600, 1000]) {
          const y = rlx.fromStorage(x.map((v) => v * 2 ** k), [3, n], 'float64').on(device);
          expect(vals(L.norm(y, { axis: 1 }))).toEqual(got.map((g) => g * 2 ** k));
        }
      }
    }
  });

  it.runIf(DEVICES.includes('native'))('js and native give the same bits (float64 and complex128 rows)', () => {
    for (const { n, x } of cases) {
      const on = (d: string, cplx: boolean) => vals(L.norm(rlx.fromStorage(x.slice(), cplx ? [3, n / 2] : [3, n], cplx ? 'complex128' : 'float64').on(d), { axis: 1 }));
      expect(on('native', false)).toEqual(on('js', false));
      if (n % 2 === 0) expect(on('native', true)).toEqual(on('js', true));
    }
  });
});

/** The linalg op names under a tensor's node. */
function linalgOps(t: rlx.Tensor): string[] {
  const seen = new Set<Node>(),
    out: string[] = [];
  const walk = (n: Node) => {
    if (seen.has(n)) return;
    seen.add(n);
    if (n.op === 'registered') out.push(n.attrs['op'] as string);
    n.inputs.forEach(walk);
  };
  walk(t.node);
  return out;
}

describe.each(DEVICES)('nrm2: structure on %s', (device) => {
  it('the 2-norm of a realized float64 or complex128 vector is one nrm2 kernel', () => {
    const n = 4096;
    for (const dtype of ['float64', 'complex128'] as const) {
      const x = rlx.fromStorage(Float64Array.from({ length: n }, (_, i) => Math.sin(i)), [dtype === 'float64' ? n : n / 2], dtype).on(device).realize();
      for (const y of [L.norm(x), L.norm(x, { ord: 2 }), L.norm(x, { axis: 0 })]) {
        const plan = rlx.explain(y, { print: false });
        expect(plan.kernels.map((k) => k.kind)).toEqual(['registered']);
        expect(linalgOps(y)).toEqual(['nrm2']);
      }
    }
  });

  it('the Frobenius / default norm of a realized 2-D or 3-D tensor inside a larger graph: one nrm2 kernel, no copy of the input', () => {
    const x = rlx.fromStorage(Float64Array.from({ length: 24 }, (_, i) => i - 7), [2, 3, 4], 'float64').on(device).realize();
    const m = x.reshape([6, 4]).realize();
    for (const y of [L.norm(x).mul(2), L.norm(m).mul(2), L.norm(m, { ord: 'fro' }).mul(2), L.norm(x, { axis: [1, 2] }).mul(2)]) {
      const plan = rlx.explain(y, { print: false });
      expect(plan.kernels.map((k) => k.kind)).toEqual(['registered', 'elementwise']);
      expect(linalgOps(y).every((o) => o.startsWith('nrm2'))).toBe(true);
    }
    let ss = 0;
    for (let i = 0; i < 24; i++) ss += (i - 7) ** 2;
    expect(L.norm(x).mul(2).item()).toBe(2 * Math.sqrt(ss));
    expect(vals(L.norm(x, { axis: [1, 2] }))).toEqual([0, 1].map((b) => Math.sqrt(Array.from({ length: 12 }, (_, i) => (b * 12 + i - 7) ** 2).reduce((p, q) => p + q, 0))));
  });

  it('float32, complex64 and p ≠ 2 keep their paths (no nrm2)', () => {
    const x = rlx.tensor([3, 4], { dtype: 'float32' }).on(device);
    expect(linalgOps(L.norm(x))).toEqual([]);
    expect(linalgOps(L.norm(rlx.fromStorage(new Float32Array([3, 4]), [1], 'complex64').on(device)))).toEqual([]);
    expect(linalgOps(L.norm(tens([3, 4], device), { ord: 3 }))).toEqual([]);
  });
});

describe.each(DEVICES)('nrm2: derivatives on %s', (device) => {
  const specsOf = (shape: number[], dtype: 'float64' | 'complex128'): InSpec[] => [{ shape, dtype }];
  const cases: [string, InSpec[], (x: rlx.Tensor) => rlx.Tensor][] = [];
  for (const dt of ['float64', 'complex128'] as const) {
    cases.push([`default norm of a vector (${dt})`, specsOf([7], dt), (x) => L.norm(x)]);
    cases.push([`default norm of a [2, 3, 2] tensor (${dt})`, specsOf([2, 3, 2], dt), (x) => L.norm(x)]);
    cases.push([`ord 2 along axis 0 of [3, 4], keepdims (${dt})`, specsOf([3, 4], dt), (x) => L.norm(x, { ord: 2, axis: 0, keepdims: true })]);
    cases.push([`Frobenius over axes [0, 2] of [2, 3, 2] (${dt})`, specsOf([2, 3, 2], dt), (x) => L.norm(x, { ord: 'fro', axis: [0, 2] })]);
  }
  it.each(cases)('%s: JVP vs finite differences, VJP vs JVP', (_, specs, f) => {
    for (let seed = 1; seed <= 4; seed++) {
      const r = prng(seed);
      const s = sample(specs, r);
      const v = directions(specs, r, seed % 2 ? 'mixed' : specs[0]!.dtype === 'complex128' ? 'imag' : 'mixed');
      checkJvpFd(f, s, v, device);
      checkVjpDot(f, s, v, r, device);
    }
  });

  it('gradient at ‖x‖ = 0 is 0 (real and complex, and per row of a batch), JVP there is 0', () => {
    const g = rlx.grad((x: rlx.Tensor) => L.norm(x))(tens([0, 0, 0], device)) as rlx.Tensor;
    expect(vals(g).map(Math.abs)).toEqual([0, 0, 0]);
    const gc = rlx.grad((x: rlx.Tensor) => L.norm(x))(tens([0, 0, 0, 0], device, [2], true)) as rlx.Tensor;
    expect(vals(gc).map(Math.abs)).toEqual([0, 0, 0, 0]);
    const gb = rlx.grad((x: rlx.Tensor) => L.norm(x, { axis: 1 }).sum())(tens([0, 0, 3, -4], device, [2, 2])) as rlx.Tensor;
    expect(vals(gb).map((v) => v + 0)).toEqual([0, 0, 0.6, -0.8]);
    const [y, t] = rlx.jvp((x: rlx.Tensor) => L.norm(x), [tens([0, 0], device)], [tens([1, 2], device)]) as [rlx.Tensor, rlx.Tensor];
    expect(y.item()).toBe(0);
    expect(t.item()).toBe(0);
  });

  it('gradient x/‖x‖ where 1/‖x‖ is subnormal (‖x‖ = 5·2^1020), and conj(z)/‖z‖ for complex z', () => {
    const g = rlx.grad((x: rlx.Tensor) => L.norm(x))(tens([3 * 2 ** 1020, -4 * 2 ** 1020], device)) as rlx.Tensor;
    expect(vals(g)).toEqual([0.6, -0.8]);
    // rlx's complex convention (unchanged): the gradient of a real function of z is conj(∂f/∂z̄)·2 = conj(z)/‖z‖.
    const gc = rlx.grad((x: rlx.Tensor) => L.norm(x))(tens([3, 4, 0, 0], device, [2], true)) as rlx.Tensor;
    const gv = vals(gc);
    [0.6, -0.8, 0, 0].forEach((w, i) => expect(Math.abs(gv[i]! - w)).toBeLessThanOrEqual(2 ** -52));
  });

  it('vmap over rows equals the axis-1 norm; its gradient too', () => {
    const x = tens([3, 4, 0, 1, 2, 2, 5, 12, 0], device, [3, 3]);
    const v = rlx.vmap((row: rlx.Tensor) => L.norm(row))(x) as rlx.Tensor;
    expect(vals(v)).toEqual([5, 3, 13]);
    const g = rlx.vmap(rlx.grad((row: rlx.Tensor) => L.norm(row)))(x) as rlx.Tensor;
    expect(vals(g)).toEqual(vals(rlx.grad((m: rlx.Tensor) => L.norm(m, { axis: 1 }).sum())(x) as rlx.Tensor));
  });
});

describeNative('nrm2: bad kernel calls are typed errors (TS wrapper) and JS errors (addon), the process lives on', () => {
  const x = () => new Float64Array([3, 4, 0, 5]);
  it('valid calls: rows [3, 4] and [0, 5]; complex row (3+4i, 0+5i)', () => {
    const out = new Float64Array(2);
    K().nrm2('float64', 2, 2, x(), out);
    expect(Array.from(out)).toEqual([5, 5]);
    const o1 = new Float64Array(1);
    nativeAddon()!.linalgNrm2('complex128', 1, 2, x(), o1);
    expect(o1[0]).toBe(Math.sqrt(50));
    jsLinalgKernels.nrm2('complex128', 1, 2, x(), o1);
    expect(o1[0]).toBe(Math.sqrt(50));
  });
  it('wrong lengths, array types, dtypes, sizes, overlap and argument count', () => {
    const raw = nativeAddon()!.linalgNrm2 as (...a: unknown[]) => void;
    const k = K().nrm2 as (...a: unknown[]) => void;
    expect(() => k('float64', 2, 2, new Float64Array(3), new Float64Array(2))).toThrow(ShapeError);
    expect(() => raw('float64', 2, 2, new Float64Array(3), new Float64Array(2))).toThrow(/rlx native linalgNrm2: x must have length 4/);
    expect(() => k('float64', 2, 2, x(), new Float64Array(3))).toThrow(ShapeError);
    expect(() => raw('float64', 2, 2, x(), new Float64Array(3))).toThrow(RangeError);
    expect(() => k('float64', 2, 2, new Float32Array(4), new Float64Array(2))).toThrow(DTypeError);
    expect(() => raw('float64', 2, 2, new Float32Array(4), new Float64Array(2))).toThrow(TypeError);
    expect(() => k('float32', 2, 2, x(), new Float64Array(2))).toThrow(DTypeError);
    expect(() => raw('complex64', 2, 2, x(), new Float64Array(2))).toThrow(TypeError);
    expect(() => raw('int32', 2, 2, x(), new Float64Array(2))).toThrow(TypeError);
    for (const v of [-1, 1.5, NaN, 2 ** 60]) {
      expect(() => k('float64', v, 2, x(), new Float64Array(2))).toThrow(ShapeError);
      expect(() => raw('float64', 2, v, x(), new Float64Array(2))).toThrow(v === 1.5 || Number.isNaN(v) ? TypeError : RangeError);
    }
    const buf = new Float64Array(6);
    buf.set(x());
    expect(() => k('float64', 2, 2, buf.subarray(0, 4), buf.subarray(3, 5))).toThrow(ValueError);
    expect(() => raw('float64', 2, 2, buf.subarray(0, 4), buf.subarray(3, 5))).toThrow(/shares memory/);
    k('float64', 2, 2, buf.subarray(0, 4), buf.subarray(4, 6)); // disjoint views of one buffer
    expect(Array.from(buf.subarray(4))).toEqual([5, 5]);
    expect(() => raw('float64', 2, 2, x())).toThrow(TypeError);
  });
});
