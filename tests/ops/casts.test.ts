// Casts between every dtype pair, reduced-precision arithmetic (float32 against the
// float64 reference rounded with Math.fround; float16 / bfloat16 against naive
// rounding), and int32 wrap-around.
//
// Tolerances:
// - float32 +, -, *, / and sqrt: an IEEE float32 op is the exact result rounded
//   once to float32, and rounding the exact float64 result of the same operands
//   gives the same value (53 ≥ 2·24 + 2, so double rounding is innocuous):
//   expected = fround(fround(a) ⊙ fround(b)) bit for bit (tolerance 0).
// - float32 transcendental ops: a backend may evaluate them in float32 (native,
//   GPU) with a few ulp of error; 2^-24 ≈ 6e-8 is one ulp, so rtol = 1e-6 (~16
//   ulp) plus a tiny atol for results near 0.
// - float32 sum / matmul: each partial sum may be rounded to float32 and the order
//   is the backend's: |err| ≤ n · 2^-24 · Σ|terms| (the standard bound) plus n · 2^-149
//   for products that underflow float32, used as atol.
// - float16 / bfloat16 add and mul: computed in float32 and rounded once to the
//   storage type (what NumPy's npy_half does): exact against that reference.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { DType } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import * as N from '../harness/naive.js';
import { broadcastShapesArb, expectTensor, FEW, narrOf, runs, shapeArb, toTensor } from '../harness/arbitraries.js';

const EXACT = { rtol: 0, atol: 0 };
const ALL: DType[] = ['bool', 'int8', 'uint8', 'int32', 'float16', 'bfloat16', 'float32', 'float64', 'complex64', 'complex128'];
const isC = (d: DType) => d === 'complex64' || d === 'complex128';

/** Values exactly representable in every float dtype (|v| < 8, at most 5 significant bits). */
const REP = [0, 1, -2, 0.5, -1.5, 3.75, 7, -0.25, 2.5, -2.5, 6.5, -7.75];
const INT_REP = [0, 1, -2, 7, -8, 3, -1];
const UINT_REP = [0, 1, 2, 7, 8, 3, 255];
/** Integer v wrapped to 8 bits by hand (two's complement for int8). */
const wrap8 = (v: number, d: 'int8' | 'uint8') => {
  const u = ((v % 256) + 256) % 256;
  return d === 'uint8' || u < 128 ? u : u - 256;
};

/** What src value v (complex: [re, im]) becomes in dst, flattened the way toArray() returns it. */
function castRef(re: number, im: number, dst: DType): number[] {
  if (dst === 'bool') return [re !== 0 || im !== 0 ? 1 : 0];
  if (dst === 'int32') return [Math.trunc(re)];
  if (dst === 'int8' || dst === 'uint8') return [wrap8(Math.trunc(re), dst)];
  if (isC(dst)) return [re, im];
  return [re];
}

describe.each(DEVICES)('casts on %s', (device) => {
  for (const src of ALL) {
    it(`cast from ${src} to every dtype on representable values`, () => {
      const vals = src === 'bool' ? [0, 1, 1, 0] : src === 'int32' || src === 'int8' ? INT_REP : src === 'uint8' ? UINT_REP : REP;
      const t = isC(src) ? rlx.complex(rlx.tensor(vals), rlx.tensor(vals.map((v) => -v / 2))).cast(src).on(device) : rlx.tensor(vals, { dtype: src }).on(device);
      expect(t.dtype).toBe(src);
      for (const dst of ALL) {
        const r = t.cast(dst);
        expect(r.dtype, `${src} → ${dst}`).toBe(dst);
        const want = vals.flatMap((v) => castRef(v, isC(src) ? -v / 2 : 0, dst));
        expect(r.toArray(), `${src} → ${dst}`).toBeAllclose(want, EXACT);
        expect(t.astype(dst).dtype).toBe(dst);
      }
    });
  }

  it('casting a constant (full / ones / zeros) gives the same values as casting a realized tensor', () => {
    const bad: string[] = [];
    for (const src of ALL) {
      for (const dst of ALL) {
        const v = src === 'bool' ? 1 : src === 'int32' || src === 'int8' ? -3 : src === 'uint8' ? 250 : 1.5;
        const got = [...rlx.full([2], v, { dtype: src }).on(device).cast(dst).toArray()];
        const want = [...rlx.tensor([v, v], { dtype: src }).on(device).cast(dst).toArray()];
        if (JSON.stringify(got) !== JSON.stringify(want)) bad.push(`full(${v}, ${src}).cast(${dst}): got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      }
    }
    expect(bad, `${bad.length} of ${ALL.length ** 2} constant casts wrong`).toEqual([]);
  });

  it('float → int32 truncates toward zero; → bool is != 0 (NaN is true); complex → bool looks at both parts', () => {
    const f = rlx.tensor([2.7, -2.7, 0.999, -0.999, 1e9, -0.0, NaN]).on(device);
    expect([...f.cast('int32').toArray()].slice(0, 6)).toEqual([2, -2, 0, 0, 1e9, 0]);
    expect([...f.cast('bool').toArray()]).toEqual([1, 1, 1, 1, 1, 0, 1]);
    expect([...f.cast('float32').cast('int32').toArray()].slice(0, 4)).toEqual([2, -2, 0, 0]);
    const z = rlx.complex(rlx.tensor([0, 0, 1, 0]), rlx.tensor([1, 0, 0, -2])).on(device);
    expect([...z.cast('bool').toArray()]).toEqual([1, 0, 1, 1]);
    expect([...z.cast('float64').toArray()]).toEqual([0, 0, 1, 0]);
  });

  it('full / ones / zeros store the value converted to the dtype (np.full(2, 2, dtype=bool) is True)', () => {
    const b = rlx.full([2], 2, { dtype: 'bool' }).on(device);
    expect([...b.toArray()]).toEqual([1, 1]);
    expect([...b.cast('float64').toArray()]).toEqual([1, 1]);
    expect(b.sum().item()).toBe(2);
    expect([...rlx.full([2], 0.5, { dtype: 'bool' }).on(device).toArray()]).toEqual([1, 1]);
    expect([...rlx.full([2], -1.5, { dtype: 'int32' }).on(device).toArray()]).toEqual([-1, -1]);
    expect([...rlx.full([1], 0.1, { dtype: 'float32' }).on(device).toArray()]).toEqual([Math.fround(0.1)]);
    expect([...rlx.full([1], 0.1, { dtype: 'float16' }).on(device).toArray()]).toEqual([N.roundF16(0.1)]);
  });

  it('float64 → float32 / float16 / bfloat16 rounds to nearest even (random values, overflow to inf)', () => {
    fc.assert(
      fc.property(shapeArb().chain((s) => narrOf(s, { min: -1e5, max: 1e5, specials: true })), (x) => {
        const t = toTensor(x, device);
        expectTensor(t.cast('float32'), N.unary(x, Math.fround), EXACT, 'f64 → f32');
        expectTensor(t.cast('float16'), N.unary(x, N.roundF16), EXACT, 'f64 → f16');
        // bfloat16 from a float32 value (single rounding on both sides).
        expectTensor(t.cast('float32').cast('bfloat16'), N.unary(x, (v) => N.roundBF16(Math.fround(v))), EXACT, 'f32 → bf16');
      }),
      runs(FEW),
    );
  });

  it('int32 → float32 / float16 round large integers; float16 overflows to inf', () => {
    const i = rlx.tensor(new Int32Array([16777217, -16777219, 2147483647, 70000, 2049])).on(device);
    expect([...i.cast('float32').toArray()]).toEqual([16777216, -16777220, 2147483648, 70000, 2049]);
    expect([...i.cast('float16').toArray()]).toEqual([Infinity, -Infinity, Infinity, Infinity, 2048]);
    expect([...i.cast('float64').toArray()]).toEqual([16777217, -16777219, 2147483647, 70000, 2049]);
  });
});

describe.each(DEVICES)('reduced precision arithmetic on %s', (device) => {
  const f32Pair = broadcastShapesArb(2).chain(([a, b]) => fc.tuple(narrOf(a!).map((x) => ({ ...x, data: x.data.map(Math.fround) })), narrOf(b!).map((x) => ({ ...x, data: x.data.map(Math.fround) }))));

  it('float32 + - * / are float64 results rounded with Math.fround (bit-exact)', () => {
    fc.assert(
      fc.property(f32Pair, ([a, b]) => {
        const ta = toTensor(a, device, 'float32'),
          tb = toTensor(b, device, 'float32');
        const ops = [
          ['add', (x: number, y: number) => x + y],
          ['sub', (x: number, y: number) => x - y],
          ['mul', (x: number, y: number) => x * y],
          ['div', (x: number, y: number) => x / y],
        ] as const;
        for (const [op, f] of ops) {
          const r = ta[op](tb);
          expect(r.dtype).toBe('float32');
          expectTensor(r, N.binary(a, b, (x, y) => Math.fround(f(x, y))), EXACT, `f32 ${op}`);
        }
        // A chain: every intermediate is rounded to float32, (a * b + a) / 3.
        expectTensor(ta.mul(tb).add(ta).div(3), N.binary(a, b, (x, y) => Math.fround(Math.fround(Math.fround(x * y) + x) / 3)), EXACT, 'f32 chain');
        expectTensor(ta.abs().sqrt(), N.unary(a, (x) => Math.fround(Math.sqrt(Math.abs(x)))), EXACT, 'f32 sqrt');
      }),
      runs(),
    );
  });

  it('float32 transcendental ops within a few float32 ulp of fround(Math.f(x))', () => {
    fc.assert(
      fc.property(shapeArb().chain((s) => narrOf(s, { min: -5, max: 5 }).map((x) => ({ ...x, data: x.data.map(Math.fround) }))), (x) => {
        const t = toTensor(x, device, 'float32');
        const tol = { rtol: 1e-6, atol: 1e-7 };
        expectTensor(t.exp(), N.unary(x, (v) => Math.fround(Math.exp(v))), tol, 'f32 exp');
        expectTensor(t.sin(), N.unary(x, (v) => Math.fround(Math.sin(v))), tol, 'f32 sin');
        expectTensor(t.tanh(), N.unary(x, (v) => Math.fround(Math.tanh(v))), tol, 'f32 tanh');
        expectTensor(t.abs().add(1).log(), N.unary(x, (v) => Math.fround(Math.log(Math.fround(Math.abs(v) + 1)))), tol, 'f32 log');
      }),
      runs(FEW),
    );
  });

  it('float32 sum and matmul within n · 2^-24 · Σ|terms|', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 6 }), fc.integer({ min: 1, max: 5 })).chain(([m, k, n]) =>
          fc.tuple(narrOf([m, k]), narrOf([k, n])).map(([a, b]) => [{ ...a, data: a.data.map(Math.fround) }, { ...b, data: b.data.map(Math.fround) }] as const),
        ),
        ([a, b]) => {
          const ta = toTensor(a, device, 'float32'),
            tb = toTensor(b, device, 'float32');
          const k = a.shape[1]!;
          const absA = N.unary(a, Math.abs),
            absB = N.unary(b, Math.abs);
          // Plus up to half a subnormal step per product that underflows in float32.
          const bound = (k + 1) * 2 ** -24 * Math.max(0, ...N.matmul(absA, absB).data) + (k + 1) * 2 ** -149;
          const mm = ta.matmul(tb);
          expect(mm.dtype).toBe('float32');
          expectTensor(mm, N.matmul(a, b), { rtol: 0, atol: bound }, 'f32 matmul');
          const sbound = (k + 1) * 2 ** -24 * Math.max(0, ...N.reduce(absA, 'sum', 1).data);
          expectTensor(ta.sum(1), N.reduce(a, 'sum', 1), { rtol: 0, atol: sbound }, 'f32 sum');
        },
      ),
      runs(FEW),
    );
  });

  for (const [dt, round] of [['float16', N.roundF16], ['bfloat16', N.roundBF16]] as const) {
    it(`${dt} add / mul: computed in float32, rounded once to ${dt}`, () => {
      fc.assert(
        fc.property(
          broadcastShapesArb(2).chain(([sa, sb]) =>
            fc.tuple(narrOf(sa!, { min: -300, max: 300 }), narrOf(sb!, { min: -300, max: 300 })).map(([a, b]) => [N.unary(a, round), N.unary(b, round)] as const),
          ),
          ([a, b]) => {
            const ta = toTensor(a, device, dt),
              tb = toTensor(b, device, dt);
            expectTensor(ta, a, EXACT, `${dt} storage round trip`);
            const s = ta.add(tb);
            expect(s.dtype).toBe(dt);
            expectTensor(s, N.binary(a, b, (x, y) => round(Math.fround(x + y))), EXACT, `${dt} add`);
            expectTensor(ta.mul(tb), N.binary(a, b, (x, y) => round(Math.fround(x * y))), EXACT, `${dt} mul`);
          },
        ),
        runs(FEW),
      );
    });
  }
});

describe.each(DEVICES)('float16 / bfloat16 unary ops on %s', (device) => {
  for (const [dt, round, ulp] of [['float16', N.roundF16, 2 ** -10], ['bfloat16', N.roundBF16, 2 ** -7]] as const) {
    it(`${dt} exp / sqrt / tanh / sin / sigmoid stay ${dt}, within one ${dt} ulp of the rounded float64 result`, () => {
      fc.assert(
        fc.property(shapeArb().chain((sh) => narrOf(sh, { min: -4, max: 4 })), (x0) => {
          const x = N.unary(x0, round);
          const t = toTensor(x, device, dt);
          const tol = { rtol: ulp, atol: 2 ** -24 };
          const ops = [
            ['exp', Math.exp],
            ['tanh', Math.tanh],
            ['sin', Math.sin],
            ['sigmoid', (v: number) => 1 / (1 + Math.exp(-v))],
          ] as const;
          for (const [op, f] of ops) {
            const r = t[op]();
            expect(r.dtype).toBe(dt);
            expectTensor(r, N.unary(x, (v) => round(f(v))), tol, `${dt} ${op}`);
          }
          expectTensor(t.abs().sqrt(), N.unary(x, (v) => round(Math.sqrt(Math.abs(v)))), tol, `${dt} sqrt`);
          // Reductions of half types accumulate at least in float32 and round once at the end.
          const n = N.sizeOf(x.shape);
          expectTensor(t.sum(), N.unary(N.reduce(x, 'sum'), round), { rtol: ulp, atol: n * 4 * 2 ** -11 }, `${dt} sum`);
        }),
        runs(FEW),
      );
    });
  }
});

describe.each(DEVICES)('int32 wrap-around on %s', (device) => {
  const I32_MAX = 2 ** 31 - 1,
    I32_MIN = -(2 ** 31);
  const i32 = (v: number[]) => rlx.tensor(new Int32Array(v)).on(device);

  it('named cases: 2^31-1 + 1 = -2^31, -2^31 - 1 = 2^31-1, 65536² = 0, -(-2^31) = -2^31, |-2^31| = -2^31', () => {
    expect([...i32([I32_MAX]).add(1).toArray()]).toEqual([I32_MIN]);
    expect([...i32([I32_MAX]).add(i32([1])).toArray()]).toEqual([I32_MIN]);
    expect([...i32([I32_MIN]).sub(1).toArray()]).toEqual([I32_MAX]);
    expect([...i32([65536]).mul(i32([65536])).toArray()]).toEqual([0]);
    expect([...i32([I32_MAX]).mul(2).toArray()]).toEqual([-2]);
    expect([...i32([I32_MIN]).neg().toArray()]).toEqual([I32_MIN]);
    expect([...i32([I32_MIN]).abs().toArray()]).toEqual([I32_MIN]);
    expect(i32([I32_MAX]).add(1).dtype).toBe('int32');
  });

  it('random int32 add / sub / mul wrap modulo 2^32 (Math.imul for mul)', () => {
    fc.assert(
      fc.property(
        broadcastShapesArb(2).chain(([sa, sb]) =>
          fc.tuple(
            fc.array(fc.integer(), { minLength: N.sizeOf(sa!), maxLength: N.sizeOf(sa!) }).map((v) => N.make(sa!, v)),
            fc.array(fc.integer(), { minLength: N.sizeOf(sb!), maxLength: N.sizeOf(sb!) }).map((v) => N.make(sb!, v)),
          ),
        ),
        ([a, b]) => {
          const ta = toTensor(a, device, 'int32'),
            tb = toTensor(b, device, 'int32');
          expectTensor(ta.add(tb), N.binary(a, b, (x, y) => (x + y) | 0), EXACT, 'int32 add');
          expectTensor(ta.sub(tb), N.binary(a, b, (x, y) => (x - y) | 0), EXACT, 'int32 sub');
          expectTensor(ta.mul(tb), N.binary(a, b, Math.imul), EXACT, 'int32 mul');
          expectTensor(ta.neg(), N.unary(a, (x) => -x | 0), EXACT, 'int32 neg');
          expectTensor(ta.maximum(tb), N.binary(a, b, Math.max), EXACT, 'int32 maximum');
        },
      ),
      runs(),
    );
  });
});
