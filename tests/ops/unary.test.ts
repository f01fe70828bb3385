// Every unary op of the Tensor class on float64 inputs (against Math.* or a naive
// formula, on a domain where the op is defined and well conditioned), the dtype
// rules for integer and bool inputs, and the complex-valued ops through algebraic
// identities on complex128 inputs.
//
// Tolerances: neg/abs/sign/floor/ceil/round/sqrt are exact in IEEE float64, so
// rtol = 0. Transcendental ops call the backend's libm, which may differ from V8's
// Math.* by a few ulp: rtol = 1e-13. The naive erf (a positive-term series, no
// cancellation) is good to ~1e-15 relative; gelu's naive form 1 + erf(x/√2)
// cancels for x < 0 (down to ~0.003 at x = -3, losing ~3 digits): rtol = 1e-11.
// Complex identities compound a handful of roundings on |z| up to ~e^5: rtol 1e-11
// with an atol scaled to the magnitudes involved.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import * as N from '../harness/naive.js';
import { naiveErf, roundHalfEven } from '../harness/naive.js';
import { cnarrOf, expectTensor, FEW, narrOf, runs, shapeArb, toTensor, type ValueOpts } from '../harness/arbitraries.js';

type UnaryName =
  | 'neg' | 'abs' | 'sign' | 'exp' | 'log' | 'log1p' | 'expm1' | 'sqrt' | 'rsqrt' | 'sin' | 'cos' | 'tan' | 'tanh' | 'sinh' | 'cosh'
  | 'asin' | 'acos' | 'atan' | 'floor' | 'ceil' | 'round' | 'erf' | 'sigmoid' | 'softplus' | 'gelu' | 'real' | 'imag' | 'conj' | 'angle';

const EXACT = { rtol: 0, atol: 0 };
const LIBM = { rtol: 1e-13, atol: 0 };

const UNARY: { op: UnaryName; f: (x: number) => number; dom: ValueOpts; tol: { rtol: number; atol: number } }[] = [
  { op: 'neg', f: (x) => -x, dom: { specials: true }, tol: EXACT },
  { op: 'abs', f: Math.abs, dom: { specials: true }, tol: EXACT },
  { op: 'sign', f: Math.sign, dom: { specials: true, integers: true, min: -2, max: 2 }, tol: EXACT },
  { op: 'floor', f: Math.floor, dom: { specials: true }, tol: EXACT },
  { op: 'ceil', f: Math.ceil, dom: { specials: true }, tol: EXACT },
  { op: 'round', f: roundHalfEven, dom: { specials: true }, tol: EXACT },
  { op: 'sqrt', f: Math.sqrt, dom: { min: 0, max: 1e6 }, tol: EXACT },
  { op: 'rsqrt', f: (x) => 1 / Math.sqrt(x), dom: { min: 1e-10, max: 1e6 }, tol: { rtol: 1e-15, atol: 0 } },
  { op: 'exp', f: Math.exp, dom: { min: -50, max: 50 }, tol: LIBM },
  { op: 'log', f: Math.log, dom: { min: 1e-10, max: 1e6 }, tol: LIBM },
  { op: 'log1p', f: Math.log1p, dom: { min: -0.999, max: 100 }, tol: LIBM },
  { op: 'expm1', f: Math.expm1, dom: { min: -50, max: 50 }, tol: LIBM },
  { op: 'sin', f: Math.sin, dom: { min: -100, max: 100 }, tol: { rtol: 1e-13, atol: 1e-15 } },
  { op: 'cos', f: Math.cos, dom: { min: -100, max: 100 }, tol: { rtol: 1e-13, atol: 1e-15 } },
  { op: 'tan', f: Math.tan, dom: { min: -1.5, max: 1.5 }, tol: LIBM },
  { op: 'tanh', f: Math.tanh, dom: { min: -20, max: 20 }, tol: LIBM },
  { op: 'sinh', f: Math.sinh, dom: { min: -20, max: 20 }, tol: LIBM },
  { op: 'cosh', f: Math.cosh, dom: { min: -20, max: 20 }, tol: LIBM },
  { op: 'asin', f: Math.asin, dom: { min: -1, max: 1 }, tol: LIBM },
  { op: 'acos', f: Math.acos, dom: { min: -1, max: 1 }, tol: LIBM },
  { op: 'atan', f: Math.atan, dom: { min: -1e3, max: 1e3 }, tol: LIBM },
  { op: 'erf', f: naiveErf, dom: { min: -5, max: 5 }, tol: { rtol: 1e-13, atol: 1e-16 } },
  { op: 'sigmoid', f: (x) => 1 / (1 + Math.exp(-x)), dom: { min: -50, max: 50 }, tol: LIBM },
  { op: 'softplus', f: (x) => Math.log1p(Math.exp(x)), dom: { min: -30, max: 30 }, tol: { rtol: 1e-13, atol: 1e-300 } },
  { op: 'gelu', f: (x) => 0.5 * x * (1 + naiveErf(x / Math.SQRT2)), dom: { min: -3, max: 5 }, tol: { rtol: 1e-11, atol: 1e-15 } },
  { op: 'real', f: (x) => x, dom: { specials: true }, tol: EXACT },
  { op: 'imag', f: () => 0, dom: { specials: true }, tol: EXACT },
  { op: 'conj', f: (x) => x, dom: { specials: true }, tol: EXACT },
  // np.angle(x) = atan2(0, x): 0 for x >= +0, π for x < 0 (and for -0).
  { op: 'angle', f: (x) => Math.atan2(0, x), dom: {}, tol: EXACT },
];

const realArb = (dom: ValueOpts) => shapeArb().chain((s) => narrOf(s, dom));

describe.each(DEVICES)('unary ops on %s', (device) => {
  for (const { op, f, dom, tol } of UNARY) {
    it(`${op} on float64 matches the reference`, () => {
      fc.assert(
        fc.property(realArb(dom), (x) => {
          const r = toTensor(x, device)[op]();
          expect(r.dtype).toBe('float64');
          expectTensor(r, N.unary(x, f), tol, `${op} [${x.shape}]`);
        }),
        runs(FEW),
      );
    });
  }

  it('round is half-to-even on exact halves (NumPy), floor/ceil on halves', () => {
    const v = [-3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 4.5, -4.5, 0.49999999999999994, 1e300, -0];
    const t = rlx.tensor(v).on(device);
    expect([...t.round().toArray()]).toEqual(v.map(roundHalfEven));
    expect([...t.round().toArray()].slice(0, 9)).toEqual([-4, -2, -2, -0, 0, 2, 2, 4, 4]);
    expect([...t.floor().toArray()]).toEqual(v.map(Math.floor));
    expect([...t.ceil().toArray()]).toEqual(v.map(Math.ceil));
  });

  it('edge values: log(0) = -inf, log(-1) = NaN, sqrt(-1) = NaN, rsqrt(0) = inf, exp(±inf), sigmoid/tanh saturate', () => {
    const t = rlx.tensor([0, -1, Infinity, -Infinity, NaN]).on(device);
    expect(t.log().toArray()).toBeAllclose([-Infinity, NaN, Infinity, NaN, NaN]);
    expect(t.sqrt().toArray()).toBeAllclose([0, NaN, Infinity, NaN, NaN]);
    expect(t.rsqrt().toArray()).toBeAllclose([Infinity, NaN, 0, NaN, NaN]);
    expect(t.exp().toArray()).toBeAllclose([1, Math.exp(-1), Infinity, 0, NaN]);
    expect(t.sigmoid().toArray()).toBeAllclose([0.5, 1 / (1 + Math.E), 1, 0, NaN]);
    expect(t.tanh().toArray()).toBeAllclose([0, Math.tanh(-1), 1, -1, NaN]);
    expect(t.softplus().toArray()).toBeAllclose([Math.LN2, Math.log1p(Math.exp(-1)), Infinity, 0, NaN]);
    expect(t.erf().toArray()).toBeAllclose([0, -0.8427007929497149, 1, -1, NaN], { rtol: 1e-15 });
    // softplus(x) = x to double precision for large x; no overflow in exp.
    expect(rlx.tensor([800, -800]).on(device).softplus().toArray()).toBeAllclose([800, 0]);
  });

  it('integer and bool inputs: float ops give float64 (int32) / float16 (bool), others keep the dtype', () => {
    const i = rlx.tensor(new Int32Array([-3, 0, 4])).on(device);
    expect(i.exp().dtype).toBe('float64');
    expect(i.exp().toArray()).toBeAllclose([Math.exp(-3), 1, Math.exp(4)], LIBM);
    expect(i.sqrt().dtype).toBe('float64');
    expect(i.sin().dtype).toBe('float64');
    expect(i.abs().dtype).toBe('int32');
    expect([...i.abs().toArray()]).toEqual([3, 0, 4]);
    expect([...i.neg().toArray()]).toEqual([3, 0, -4]);
    expect([...i.sign().toArray()]).toEqual([-1, 0, 1]);
    expect(i.floor().dtype).toBe('int32');
    expect([...i.round().toArray()]).toEqual([-3, 0, 4]);
    const b = rlx.tensor([true, false]).on(device);
    expect(b.exp().dtype).toBe('float16');
    // float16(e) = 2.71875 (nearest half to e).
    expect([...b.exp().toArray()]).toEqual([2.71875, 1]);
    expect(b.logicalNot().dtype).toBe('bool');
  });

  it('gelu at its limits: gelu(−∞) = −0 (not −∞·0 = NaN), gelu(∞) = ∞, NaN propagates, float64 and float32', () => {
    for (const dtype of ['float64', 'float32'] as const) {
      const g = [...rlx.tensor([-Infinity, Infinity, NaN, -40], { dtype }).on(device).gelu().toArray()];
      expect(Object.is(g[0], -0), `${dtype} gelu(-inf) = ${g[0]}`).toBe(true);
      expect(g[1]).toBe(Infinity);
      expect(g[2]).toBeNaN();
      // 0.5·x·erfc(40/√2) ≈ −7.3e-350 underflows to −0 in both dtypes.
      expect(Object.is(g[3], -0), `${dtype} gelu(-40) = ${g[3]}`).toBe(true);
      // gelu' = Φ(x) + x φ(x): 0 at −∞, 1 at +∞ (x φ(x) → 0), NaN at NaN.
      const d = [...rlx.grad((x: rlx.Tensor) => x.gelu().sum())(rlx.tensor([-Infinity, Infinity, NaN, 0], { dtype }).on(device)).toArray()];
      expect(d.slice(0, 2)).toEqual([0, 1]);
      expect(d[2]).toBeNaN();
      expect(d[3]).toBe(0.5);
    }
  });

  it('float32 unary ops stay float32', () => {
    const t = rlx.tensor([0.5, 2], { dtype: 'float32' }).on(device);
    for (const op of ['exp', 'log', 'sqrt', 'sin', 'tanh', 'erf', 'sigmoid', 'gelu', 'abs', 'neg', 'floor', 'angle'] as const) {
      expect(t[op]().dtype, op).toBe('float32');
    }
  });
});

// ---- complex ----------------------------------------------------------------------

const cpx = (o: ValueOpts = { min: -5, max: 5 }) => shapeArb().chain((s) => cnarrOf(s, o));
const cpxPair = (o: ValueOpts = { min: -3, max: 3 }) => shapeArb().chain((s) => fc.tuple(cnarrOf(s, o), cnarrOf(s, o)));
const CTOL = { rtol: 1e-11, atol: 1e-11 };

describe.each(DEVICES)('complex unary ops on %s (identities)', (device) => {
  it('real / imag / conj / abs / angle / neg match the components', () => {
    fc.assert(
      fc.property(cpx({ min: -100, max: 100 }), (z) => {
        const t = toTensor(z, device);
        const { re, im } = N.splitComplex(z);
        expect(t.real().dtype).toBe('float64');
        expect(t.abs().dtype).toBe('float64');
        expect(t.angle().dtype).toBe('float64');
        expectTensor(t.real(), re, { rtol: 0, atol: 0 }, 'real');
        expectTensor(t.imag(), im, { rtol: 0, atol: 0 }, 'imag');
        expectTensor(t.conj(), N.cunary(z, N.cmath.conj), { rtol: 0, atol: 0 }, 'conj');
        expectTensor(t.neg(), N.cunary(z, N.cmath.neg), { rtol: 0, atol: 0 }, 'neg');
        expectTensor(t.abs(), N.binary(re, im, Math.hypot), { rtol: 1e-15, atol: 0 }, 'abs');
        expectTensor(t.angle(), N.binary(im, re, Math.atan2), LIBM, 'angle');
      }),
      runs(FEW),
    );
  });

  it('complex add/sub/mul/div match textbook formulas', () => {
    fc.assert(
      fc.property(cpxPair({ min: -10, max: 10 }), ([a, b]) => {
        const ta = toTensor(a, device),
          tb = toTensor(b, device);
        expectTensor(ta.add(tb), N.cbinary(a, b, N.cmath.add), { rtol: 0, atol: 0 }, 'add');
        expectTensor(ta.sub(tb), N.cbinary(a, b, N.cmath.sub), { rtol: 0, atol: 0 }, 'sub');
        expectTensor(ta.mul(tb), N.cbinary(a, b, N.cmath.mul), { rtol: 1e-13, atol: 1e-12 }, 'mul');
        // Division: rlx may use Smith's algorithm; away from b = 0 both agree closely.
        fc.pre(N.splitComplex(b).re.data.every((r, i) => Math.hypot(r, N.splitComplex(b).im.data[i]!) > 1e-3));
        expectTensor(ta.div(tb), N.cbinary(a, b, N.cmath.div), { rtol: 1e-11, atol: 1e-9 }, 'div');
      }),
      runs(FEW),
    );
  });

  it('exp(a + b) = exp(a) · exp(b)', () => {
    fc.assert(
      fc.property(cpxPair({ min: -2.5, max: 2.5 }), ([a, b]) => {
        const ta = toTensor(a, device),
          tb = toTensor(b, device);
        const lhs = ta.add(tb).exp().toArray();
        const rhs = ta.exp().mul(tb.exp()).toArray();
        expect(lhs).toBeAllclose(rhs, { rtol: 1e-12, atol: 1e-12 });
        expectTensor(ta.exp(), N.cunary(a, N.cmath.exp), CTOL, 'exp');
      }),
      runs(FEW),
    );
  });

  it('|z|² = z · conj(z) (real part; imaginary part 0)', () => {
    fc.assert(
      fc.property(cpx({ min: -100, max: 100 }), (z) => {
        const t = toTensor(z, device);
        const zz = t.mul(t.conj());
        const a2 = t.abs().mul(t.abs()).toArray();
        expect(zz.real().toArray()).toBeAllclose(a2, { rtol: 1e-13, atol: 1e-300 }); // atol: subnormal results
        expect(zz.imag().toArray()).toBeAllclose(new Float64Array(a2.length), { rtol: 0, atol: 0 });
      }),
      runs(FEW),
    );
  });

  it('sqrt(z)² = z, with sqrt on the principal branch (re ≥ 0)', () => {
    fc.assert(
      fc.property(cpx({ min: -100, max: 100 }), (z) => {
        const t = toTensor(z, device);
        const r = t.sqrt();
        expect(r.dtype).toBe('complex128');
        expect(r.mul(r).toArray()).toBeAllclose(z.data, { rtol: 1e-12, atol: 1e-12 });
        const re = r.real().toArray();
        for (let i = 0; i < re.length; i++) expect(re[i]).toBeGreaterThanOrEqual(0);
      }),
      runs(FEW),
    );
  });

  it('log(exp(z)) = z for |Im z| < π;  sin² + cos² = 1;  rsqrt(z)·sqrt(z) = 1', () => {
    fc.assert(
      fc.property(cpx({ min: -3, max: 3 }), (z) => {
        const t = toTensor(z, device);
        expect(t.exp().log().toArray()).toBeAllclose(z.data, { rtol: 1e-12, atol: 1e-12 });
        const s = t.sin(),
          c = t.cos();
        const one = s.mul(s).add(c.mul(c));
        const n = z.data.length / 2;
        const ones = new Float64Array(2 * n).map((_, i) => (i % 2 === 0 ? 1 : 0));
        expect(one.toArray()).toBeAllclose(ones, { rtol: 0, atol: 1e-10 });
        fc.pre(N.splitComplex(z).re.data.every((r, i) => Math.hypot(r, N.splitComplex(z).im.data[i]!) > 1e-3));
        expect(t.rsqrt().mul(t.sqrt()).toArray()).toBeAllclose(ones, { rtol: 0, atol: 1e-12 });
      }),
      runs(FEW),
    );
  });

  it('tanh(z) = sinh(z)/cosh(z) and sinh(z) = (exp(z) - exp(-z))/2', () => {
    fc.assert(
      fc.property(cpx({ min: -2, max: 2 }), (z) => {
        const t = toTensor(z, device);
        expect(t.sinh().toArray()).toBeAllclose(t.exp().sub(t.neg().exp()).div(2).toArray(), { rtol: 1e-12, atol: 1e-12 });
        expect(t.cosh().toArray()).toBeAllclose(t.exp().add(t.neg().exp()).div(2).toArray(), { rtol: 1e-12, atol: 1e-12 });
        expect(t.tanh().toArray()).toBeAllclose(t.sinh().div(t.cosh()).toArray(), { rtol: 1e-10, atol: 1e-10 });
      }),
      runs(FEW),
    );
  });

  it('complex64 keeps complex64 and matches complex128 rounded to float32', () => {
    fc.assert(
      fc.property(cpx({ min: -2, max: 2 }), (z) => {
        const z32 = { ...z, data: z.data.map(Math.fround) };
        const t = toTensor(z32, device, 'complex64');
        expect(t.exp().dtype).toBe('complex64');
        expect(t.abs().dtype).toBe('float32');
        // float32 precision: a few float32 ulp (2^-24 ≈ 6e-8) of the magnitude e^2.
        expect(t.exp().toArray()).toBeAllclose(toTensor(z32, device).exp().toArray(), { rtol: 1e-6, atol: 1e-6 });
        expect(t.mul(t).toArray()).toBeAllclose(toTensor(z32, device).mul(toTensor(z32, device)).toArray(), { rtol: 1e-6, atol: 1e-6 });
      }),
      runs(FEW),
    );
  });
});
