// The elementwise rules webgpu gained so that it serves every op js serves on
// float32, int32 and bool (src/backends/webgpu/wgsl-special.ts, wgsl-expr.ts):
// float32 log1p, expm1, erf, softplus, gelu, pow, angle, imag; int32 pow,
// imag; bool abs, floor, ceil, round, real, conj, imag and the ordered
// comparisons. Each runs on 'webgpu' through the public API and is compared
// with an independent reference: float64 Math (log1p, expm1, exp, pow, atan2)
// rounded to float32; exact BigInt powers wrapped to int32; for erf and gelu,
// mpmath values cross-checked against SciPy and glibc (golden/gen_erf_gelu.py).
//
// Tolerances, in float32 ulps from the float32 rounding of the reference:
// the WGSL functions use only operations WGSL rounds correctly (+, −, ×,
// ldexp, round, bit casts) plus division (2.5 ulp) where its weight in the
// result is small, so their accuracy does not depend on the adapter's exp,
// log or pow. Analysis: under 1.5 ulp for log1p, expm1, erf and pow; softplus
// and gelu compose two such steps. Measured on llvmpipe over ~10^5 points:
// at most 1 ulp (log1p, expm1, erf, pow), 2 ulp (softplus, gelu). Allowed: 2
// and 3 ulp. (For scale: WGSL's own exp is 46 ulp off at x = 49.8 on
// llvmpipe, and log(1 + x) returns 0 for |x| < 2^-25.)
// Subnormal results: WGSL lets an adapter flush them to zero (llvmpipe does),
// so where the reference is below 2^-126 any result below 2^-126 passes.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { bind } from '../../src/compiler/primitives.js';
import type { Instr } from '../../src/compiler/kernel.js';
import { JS_RULES } from '../../src/backends/js/scalar-rules.js';
import { webgpuDevice, webgpuStatus } from '../../src/backends/webgpu/device.js';
import { hasWgslRule, preludeFor } from '../../src/backends/webgpu/wgsl-expr.js';
import { F_SPECIAL, I_SPECIAL } from '../../src/backends/webgpu/wgsl-special.js';
import * as S from '../../src/backends/js/special.js';

const status = webgpuStatus();
const RUNS = { numRuns: 25 };
const FLT_MIN = 2 ** -126;
const FLT_MAX = 3.4028234663852886e38;
const TOL: Record<string, number> = { log1p: 2, expm1: 2, erf: 2, pow: 2, softplus: 3, gelu: 3 };

const F = new Float32Array(1);
const I = new Int32Array(F.buffer);
/** Position of a float32 on the number line (adjacent floats differ by 1; ±0 both 0). */
const ord = (v: number): number => {
  F[0] = v;
  const i = I[0]!;
  return i < 0 ? -(i & 0x7fffffff) : i;
};

/** Every gpu value within `tol` ulp of fround(ref); NaN, ±inf exact; sub-2^-126 references accept sub-2^-126 results. */
function expectUlps(what: string, xs: readonly (number | string)[], gpu: ArrayLike<number>, ref: readonly number[], tol: number): void {
  expect(gpu.length, what).toBe(ref.length);
  for (let i = 0; i < ref.length; i++) {
    const r = Math.fround(ref[i]!),
      g = gpu[i]!;
    const at = `${what}(${xs[i]}): gpu ${g}, reference ${r}`;
    if (Number.isNaN(r) || !Number.isFinite(r)) expect(Object.is(g, r) || (Number.isNaN(r) && Number.isNaN(g)), at).toBe(true);
    else if (Math.abs(r) < FLT_MIN) expect(Math.abs(g), at).toBeLessThan(FLT_MIN);
    else expect(Math.abs(ord(g) - ord(r)), at).toBeLessThanOrEqual(tol);
  }
}

const f32 = (xs: readonly number[]): Tensor => rlx.tensor(Float32Array.from(xs), { dtype: 'float32' }).on('webgpu');
const i32 = (xs: readonly number[]): Tensor => rlx.tensor(Int32Array.from(xs), { dtype: 'int32' }).on('webgpu');
const read = (t: Tensor): Float32Array => t.toArray() as Float32Array;

type Op = 'log1p' | 'expm1' | 'softplus' | 'erf' | 'gelu';
const apply = (op: Op, t: Tensor): Tensor => t[op]();

// float64 references (the inputs are float32 values, exact in float64).
const softplus64 = (x: number): number => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));
/** C99/NumPy pow: Math.pow except 1^y = 1 and (−1)^±inf = 1 (x^±0 = 1 is Math.pow's already). */
const pow64 = (a: number, b: number): number => (a === 1 || b === 0 ? 1 : a === -1 && !Number.isFinite(b) && !Number.isNaN(b) ? 1 : Math.pow(a, b));
/** a^b wrapped to int32 (exact modular power); b < 0 as C and js: 1 → 1, −1 → ±1, else 0. */
function ipow(a: number, b: number): number {
  if (b < 0) return a === 1 ? 1 : a === -1 ? (b % 2 === 0 ? 1 : -1) : 0;
  let r = 1n,
    x = BigInt.asUintN(32, BigInt(a)),
    e = BigInt(b);
  for (; e > 0n; e >>= 1n, x = (x * x) % 2n ** 32n) if (e & 1n) r = (r * x) % 2n ** 32n;
  return Number(BigInt.asIntN(32, r));
}

const golden = JSON.parse(readFileSync(new URL('./golden/erf_gelu.json', import.meta.url), 'utf8')) as { x: number[]; erf: number[]; gelu: number[] };

/** Points over every branch: both signs of a log grid 1e-38 .. 3e38, and a fine grid on [−20, 20]. */
const SWEEP: number[] = (() => {
  const out: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const m = Math.fround(1e-38 * (3e38 / 1e-38) ** (i / 1999));
    out.push(m, -m);
  }
  for (let i = 0; i <= 8000; i++) out.push(Math.fround(-20 + i * 0.005));
  return out;
})();

const SPECIAL = [0, -0, 1e-30, -1e-30, 1e-8, -1e-8, 2 ** -24, -(2 ** -25), 0.5, -0.5, 1, -1, 2, -2, 100, -100, 3.4e38, -3.4e38, Infinity, -Infinity, NaN];

describe.runIf(status.available)('webgpu rules for the special functions (vs float64 / mpmath references)', () => {
  const REF: Record<'log1p' | 'expm1' | 'softplus', (x: number) => number> = { log1p: Math.log1p, expm1: Math.expm1, softplus: softplus64 };

  for (const op of ['log1p', 'expm1', 'softplus'] as const) {
    it(`${op}: edge values and a sweep over every range, within ${TOL[op]} ulp of float64 Math`, () => {
      const xs = [...SPECIAL, ...SWEEP];
      expectUlps(op, xs, read(apply(op, f32(xs))), xs.map((x) => REF[op](Math.fround(x))), TOL[op]!);
    });
  }

  it('log1p and expm1 keep tiny arguments exactly and the sign of zero (log(1 + x) would give 0)', () => {
    const xs = [0, -0, 1e-30, -1e-30, 1e-8, -1e-8, 3e-8, -3e-8];
    for (const op of ['log1p', 'expm1'] as const) {
      const g = read(apply(op, f32(xs)));
      xs.forEach((x, i) => expect(Object.is(g[i], Math.fround(x)), `${op}(${x}) = ${g[i]}`).toBe(true));
    }
  });

  it('log1p, expm1, softplus at their limits', () => {
    const at = (op: Op, xs: number[]) => [...read(apply(op, f32(xs)))];
    expect(at('log1p', [-1, -1.5, Infinity, -Infinity, NaN])).toEqual([-Infinity, NaN, Infinity, NaN, NaN]);
    // 88.7228317 is the largest float32 whose exp stays finite.
    expect(at('expm1', [88.72283172607422, 88.72283935546875, 1e30, Infinity, -17.4, -1e30, -Infinity, NaN])).toEqual([Math.fround(Math.expm1(88.72283172607422)), Infinity, Infinity, Infinity, -1, -1, -1, NaN]);
    expect(at('softplus', [Infinity, -Infinity, NaN, 1e30, -1e30])).toEqual([Infinity, 0, NaN, 1e30, 0].map(Math.fround));
  });

  it('erf and gelu on the golden points within 2 and 3 ulp of mpmath (every branch, the gelu tail to underflow)', () => {
    const x = f32(golden.x);
    expectUlps('erf', golden.x, read(x.erf()), golden.erf, TOL['erf']!);
    expectUlps('gelu', golden.x, read(x.gelu()), golden.gelu, TOL['gelu']!);
    // erf ≈ 1e-6 relative everywhere, as asked of it: a few float32 ulps is well inside.
    const g = read(x.erf());
    golden.erf.forEach((r, i) => expect(Math.abs(g[i]! - r), `erf(${golden.x[i]})`).toBeLessThanOrEqual(1e-6 * Math.abs(r) + 1e-45));
  });

  it('erf and gelu at zeros, tiny values, infinities and NaN (gelu(−inf) is its limit −0, as js)', () => {
    const xs = [0, -0, 1e-30, -1e-30, Infinity, -Infinity, NaN];
    const e = read(f32(xs).erf()),
      g = read(f32(xs).gelu());
    const erfWant = [0, -0, Math.fround(1e-30 * 2 / Math.sqrt(Math.PI)), -Math.fround(1e-30 * 2 / Math.sqrt(Math.PI)), 1, -1, NaN];
    const geluWant = [0, -0, Math.fround(0.5 * Math.fround(1e-30)), -Math.fround(0.5 * Math.fround(1e-30)), Infinity, -0, NaN];
    xs.forEach((x, i) => {
      expect(Object.is(e[i], erfWant[i]) || Math.abs(ord(e[i]!) - ord(erfWant[i]!)) <= 1, `erf(${x}) = ${e[i]}`).toBe(true);
      expect(Object.is(g[i], geluWant[i]) || Math.abs(ord(g[i]!) - ord(geluWant[i]!)) <= 1, `gelu(${x}) = ${g[i]}`).toBe(true);
    });
    expect(Object.is(e[1], -0) && Object.is(g[1], -0) && Object.is(g[5], -0)).toBe(true);
  });

  it('fast-check: log1p, expm1, softplus on any float32 (NaN, ±inf, ±0, subnormals) vs float64 Math', () => {
    fc.assert(
      fc.property(fc.constantFrom('log1p', 'expm1', 'softplus' as const), fc.array(fc.float(), { minLength: 1, maxLength: 64 }), (op, xs) => {
        expectUlps(op, xs, read(apply(op, f32(xs))), xs.map((x) => REF[op](x)), TOL[op]!);
      }),
      RUNS,
    );
  });

  it('fast-check: erf and gelu on any float32 vs the js backend (fdlibm in float64)', () => {
    fc.assert(
      fc.property(fc.constantFrom('erf', 'gelu' as const), fc.array(fc.float(), { minLength: 1, maxLength: 64 }), (op, xs) => {
        expectUlps(op, xs, read(apply(op, f32(xs))), xs.map((x) => (op === 'erf' ? S.erf(x) : S.gelu(x))), TOL[op]!);
      }),
      RUNS,
    );
  });
});

describe.runIf(status.available)('webgpu pow (C99/NumPy corner cases, float64 Math.pow reference)', () => {
  const bases = [0, -0, 1, -1, 2, -2, 0.5, -0.5, 3.7, -3.7, 1e-20, -1e-20, 1e20, Infinity, -Infinity, NaN];
  const exps = [0, -0, 1, -1, 2, -2, 3, -3, 0.5, -0.5, 2.5, 33, -149.5, 127.9, 1e10, 2 ** 24 + 2, Infinity, -Infinity, NaN];

  it('every pair of special bases and exponents: signed zeros, infinities and NaN exactly, the rest within 2 ulp', () => {
    const a: number[] = [],
      b: number[] = [];
    for (const x of bases) for (const y of exps) a.push(Math.fround(x)), b.push(Math.fround(y));
    const g = read(f32(a).pow(f32(b)));
    const want = a.map((x, i) => Math.fround(pow64(x, b[i]!)));
    const pairs = a.map((x, i) => `${x}, ${b[i]}`);
    expectUlps('pow', pairs, g, want, TOL['pow']!);
    want.forEach((w, i) => {
      if (w === 0) expect(Object.is(g[i], w), `pow(${pairs[i]}) = ${g[i]}, want ${Object.is(w, -0) ? '-0' : '0'}`).toBe(true);
    });
  });

  it('named cases: x^0 = 1 and 1^y = 1 even for NaN, (−1)^±inf = 1, 0^−y = inf, (−0)^odd keeps the sign, (−8)^(1/3) is NaN', () => {
    const cases: [number, number, number][] = [
      [NaN, 0, 1],
      [1, NaN, 1],
      [-1, Infinity, 1],
      [-1, -Infinity, 1],
      [0, -1, Infinity],
      [-0, -1, -Infinity],
      [-0, -2, Infinity],
      [-0, 3, -0],
      [-0, 2, 0],
      [-0, 0.5, 0],
      [-Infinity, 3, -Infinity],
      [-Infinity, -3, -0],
      [-Infinity, 2, Infinity],
      [-8, 1 / 3, NaN],
      [-2, 3, -8],
      [-2, -3, -0.125],
      [-3, 2 ** 24 + 2, Infinity],
      [2, 128, Infinity],
      [2, -150, 0],
      [0.5, Infinity, 0],
      [NaN, 1, NaN],
    ];
    const g = read(f32(cases.map((c) => c[0])).pow(f32(cases.map((c) => c[1]))));
    cases.forEach(([x, y, w], i) => expect(Object.is(g[i], Math.fround(w)), `pow(${x}, ${y}) = ${g[i]}, want ${w}`).toBe(true));
  });

  it('y·log2 x just below 128 stays finite (it rounds up to 128 in float32: fast-check found 3.4028147e38^1 = ∞)', () => {
    const cases: [number, number][] = [
      [FLT_MAX, 1],
      [-FLT_MAX, 1],
      [3.402814744949159e38, 1], // fast-check's counterexample (43 ulps below FLT_MAX)
      [FLT_MAX, 0.9999999],
      [Math.fround(2 ** 127.75), 1],
      [Math.fround(2 ** 127.99), 1],
      [Math.fround(2 ** 63.9), 2],
      [Math.fround(2 ** 42.6), 3],
      [Math.fround(2 ** 127.6), 1.0000001],
    ];
    const a = cases.map((c) => c[0]),
      b = cases.map((c) => Math.fround(c[1]));
    expectUlps('pow', cases.map((c) => `${c[0]}, ${c[1]}`), read(f32(a).pow(f32(b))), a.map((x, i) => pow64(x, b[i]!)), TOL['pow']!);
  });

  it('sweeps: x^y over bases 1e-38 .. 3e38 for fixed exponents, and near overflow/underflow (|y·log2 x| up to 148)', () => {
    const xs = SWEEP.filter((x) => x > 0);
    for (const y of [0.5, -0.5, 2.5, 3, -3, 7.3, -20.5, 100.25, 1e-3]) {
      expectUlps(`pow(·, ${y})`, xs, read(f32(xs).pow(f32(xs.map(() => y)))), xs.map((x) => pow64(x, Math.fround(y))), TOL['pow']!);
    }
    const a: number[] = [],
      b: number[] = [];
    for (let i = 0; i < 20000; i++) {
      const x = Math.fround(2 ** (60 * ((i * 0.6180339887) % 1) - 30));
      a.push(x);
      b.push(Math.fround(((i % 2 ? 1 : -1) * 148 * ((i * 0.41421356) % 1)) / Math.log2(x)));
    }
    expectUlps('pow', a.map((x, i) => `${x}, ${b[i]}`), read(f32(a).pow(f32(b))), a.map((x, i) => pow64(x, b[i]!)), TOL['pow']!);
  });

  it('fast-check: any float32 base (subnormals aside) with float or integer exponents', () => {
    // WGSL may flush a subnormal base to ±0 (llvmpipe does), which changes x^y for y < 0 entirely.
    const base = fc.float().filter((v) => !(v !== 0 && Math.abs(v) < FLT_MIN));
    const expo = fc.oneof(fc.float(), fc.integer({ min: -40, max: 40 }), fc.float({ min: -8, max: 8, noNaN: true }));
    fc.assert(
      fc.property(fc.array(fc.tuple(base, expo), { minLength: 1, maxLength: 64 }), (pairs) => {
        const a = pairs.map((p) => p[0]),
          b = pairs.map((p) => Math.fround(p[1]));
        expectUlps('pow', pairs.map((p) => `${p[0]}, ${p[1]}`), read(f32(a).pow(f32(b))), a.map((x, i) => pow64(x, b[i]!)), TOL['pow']!);
      }),
      RUNS,
    );
  });

  it('int32 pow wraps like int32 (exact BigInt reference); negative exponents as js: 1, ±1 for −1, else 0', () => {
    const cases: [number, number][] = [
      [0, 0], [0, 5], [0, -1], [2, 30], [2, 31], [2, 32], [-2, 31], [3, 40], [-3, 41], [7, 2 ** 31 - 1], [-1, -3], [-1, -4], [1, -7], [2, -1], [-2, -1],
      [-(2 ** 31), 2], [-(2 ** 31), 1], [65536, 2], [46341, 2], [5, 0], [-7, 1],
    ];
    expect([...(i32(cases.map((c) => c[0])).pow(i32(cases.map((c) => c[1]))).toArray() as Int32Array)]).toEqual(cases.map(([a, b]) => ipow(a, b)));
    // A scalar exponent (a run-time literal of the kernel).
    expect([...(i32([3, -3, 5]).pow(3).toArray() as Int32Array)]).toEqual([27, -27, 125]);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.oneof(fc.integer({ min: -3, max: 40 }), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }))), { minLength: 1, maxLength: 64 }), (pairs) => {
        const g = i32(pairs.map((p) => p[0])).pow(i32(pairs.map((p) => p[1]))).toArray() as Int32Array;
        expect([...g]).toEqual(pairs.map(([a, b]) => ipow(a, b)));
      }),
      RUNS,
    );
  });

  it('bool pow (promoted to int32) and an async read', async () => {
    const x = f32([-1, 0, 2, 3]);
    // [F, F, T, T] ** [T, T, T, F] as 0/1: 0^1, 0^1, 1^1, 1^0.
    expect([...((await x.gt(0).pow(x.lt(3)).data()) as Int32Array)]).toEqual([0, 0, 1, 1]);
  });
});

describe.runIf(status.available)('webgpu angle, imag and the bool rules', () => {
  it('angle(x) = atan2(0, x): +0 for x ≥ +0, π for x ≤ −0 (float32 π), NaN for NaN', () => {
    const xs = [0, -0, 1e-30, -1e-30, 1, -1, 3.4e38, -3.4e38, Infinity, -Infinity, NaN];
    const g = read(f32(xs).angle());
    xs.forEach((x, i) => {
      const w = Math.fround(Math.atan2(0, x));
      expect(Object.is(g[i], w), `angle(${x}) = ${g[i]}, want ${w}`).toBe(true);
    });
  });

  it('imag of float32 and int32 is +0 (the rule: the frontend returns zeros before binding it)', () => {
    const f = new rlx.Tensor(bind('imag', [f32([-2, -0, NaN, Infinity]).node]));
    expect(f.device).toBe('webgpu');
    expect([...read(f)].map((v) => Object.is(v, 0))).toEqual([true, true, true, true]);
    expect([...(new rlx.Tensor(bind('imag', [i32([-5, 0, 7]).node])).toArray() as Int32Array)]).toEqual([0, 0, 0]);
  });

  it('bool abs, floor, ceil, round, real, conj are the identity and imag is false (js: bool as 0/1)', () => {
    const x = () => f32([-2, -0, 0, 3, NaN, 0.5]).gt(0);
    const want = [0, 0, 0, 1, 0, 1];
    expect([...read(x().abs().cast('float32'))]).toEqual(want);
    for (const op of ['floor', 'ceil', 'round', 'real', 'conj'] as const) {
      expect([...(new rlx.Tensor(bind(op, [x().node])).cast('int32').toArray() as Int32Array)], op).toEqual(want);
    }
    expect([...(new rlx.Tensor(bind('imag', [x().node])).cast('int32').toArray() as Int32Array)]).toEqual([0, 0, 0, 0, 0, 0]);
  });

  it('bool comparisons order false < true (WGSL has no < on bool)', () => {
    const v = [-1, 1, -1, 1];
    const w = [-1, -1, 1, 1];
    const a = v.map((t) => t > 0),
      b = w.map((t) => t > 0);
    const js: Record<string, (p: boolean, q: boolean) => boolean> = { lt: (p, q) => +p < +q, le: (p, q) => +p <= +q, gt: (p, q) => +p > +q, ge: (p, q) => +p >= +q, eq: (p, q) => p === q, ne: (p, q) => p !== q };
    for (const op of ['lt', 'le', 'gt', 'ge', 'eq', 'ne'] as const) {
      const g = f32(v).gt(0)[op](f32(w).gt(0)).cast('int32').toArray() as Int32Array;
      expect([...g], op).toEqual(a.map((p, i) => +js[op]!(p, b[i]!)));
    }
  });
});

describe('webgpu serves every elementwise op js serves on float32, int32 and bool', () => {
  it('hasWgslRule answers yes wherever JS_RULES has a float, int or bool rule (complex output aside)', () => {
    const missing: string[] = [];
    for (const [op, r] of Object.entries(JS_RULES)) {
      if (op === 'complex') continue; // a complex64 result: WGSL has no complex type
      if (r.f && !hasWgslRule(op, 'float32')) missing.push(`${op}/float32`);
      if (r.i && !hasWgslRule(op, 'int32')) missing.push(`${op}/int32`);
      if (r.b && !hasWgslRule(op, 'bool')) missing.push(`${op}/bool`);
    }
    expect(missing).toEqual([]);
  });

  it.runIf(status.available)('preludeFor declares just the special functions a kernel calls, and the result compiles', () => {
    const load: Instr = { op: 'load', dtype: 'float32', load: 0 } as Instr;
    const un = (op: string, dtype = 'float32'): Instr[] => [{ ...load, dtype } as Instr, { op, dtype, args: [0] } as unknown as Instr];
    const bin = (op: string, dtype = 'float32'): Instr[] => [{ ...load, dtype } as Instr, { op, dtype, args: [0, 0] } as unknown as Instr];
    // Only the three small float16/bfloat16 conversions every module has (loads and stores of half data need them).
    expect(preludeFor(bin('add')).match(/fn rlx_\w+/g)).toEqual(['fn rlx_to_f16', 'fn rlx_from_f16', 'fn rlx_to_bf16']);
    expect(preludeFor(un('gelu'))).not.toContain('fn rlx_pow');
    const d = webgpuDevice();
    const cases: [Instr[], string, string][] = [
      ...Object.entries(F_SPECIAL).map(([op, rule]): [Instr[], string, string] => [rule.length === 2 ? bin(op) : un(op), rule('v', 'v'), 'f32']),
      ...Object.entries(I_SPECIAL).map(([op, rule]): [Instr[], string, string] => [rule.length === 2 ? bin(op, 'int32') : un(op, 'int32'), rule('v', 'v'), 'i32']),
    ];
    for (const [instrs, call, t] of cases) {
      const code = `${preludeFor(instrs)}\n@group(0) @binding(0) var<storage, read_write> OUT: array<${t}>;\n@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3u) { let v = OUT[g.x]; OUT[g.x] = ${call}; }`;
      expect(() => d.pipeline(code), call).not.toThrow();
    }
  });
});
