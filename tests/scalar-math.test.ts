// Scalar math of the pure-JS backend against NumPy golden values
// (tests/golden/scalar_math.json, written by tests/golden/gen_scalar_math.py),
// plus algebraic properties checked with fast-check and exhaustive float16 /
// bfloat16 round trips.

import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as cm from '../src/backends/js/complex-math.js';
import * as sp from '../src/backends/js/special.js';
import {
  bf16BitsToF32,
  ensureF16Table,
  f16BitsToF32,
  f32ToBf16Bits,
  f32ToF16Bits,
  F16_TO_F32,
} from '../src/tensor/half.js';

type S = string;
interface Golden {
  complex_inputs: [S, S][];
  complex_unary: Record<string, [S, S][]>;
  complex_real: Record<string, S[]>;
  cpow: [S, S, S, S, S, S][];
  cdiv: [S, S, S, S, S, S, number][];
  real_inputs: S[];
  real: Record<string, S[]>;
  f16_from_f64: [S, number][];
  f16_to_f64: [number, S][];
  bf16_from_f32: [S, number | null][];
}

const golden = JSON.parse(
  readFileSync(new URL('./golden/scalar_math.json', import.meta.url), 'utf8'),
) as Golden;

/** Decodes the golden file's repr()-style float strings ('nan', 'inf', '-0.0', ...). */
function dec(s: S): number {
  if (s === 'nan') return NaN;
  if (s === 'inf') return Infinity;
  if (s === '-inf') return -Infinity;
  const v = Number(s);
  if (Number.isNaN(v)) throw new Error(`bad golden float ${s}`);
  return v;
}

const isNegZero = (v: number): boolean => v === 0 && 1 / v < 0;
const fmt = (v: number): string => (isNegZero(v) ? '-0' : String(v));

/** Absolute slack below which two results count as equal (deep in the subnormals). */
const ATOL = 1e-320;

interface Tol {
  rtol: number;
  /** Compare signs of zeros. */
  zeroSigns: boolean;
  /** Relative to this magnitude instead of the component's own (normwise error). */
  scale?: number;
}

/** null when `got` matches `want`, else a reason. */
function mismatch(got: number, want: number, tol: Tol): string | null {
  if (Number.isNaN(want)) return Number.isNaN(got) ? null : 'expected NaN';
  if (Number.isNaN(got)) return 'got NaN';
  if (!Number.isFinite(want) || !Number.isFinite(got)) return got === want ? null : 'infinity mismatch';
  const err = Math.abs(got - want);
  const allowed = tol.rtol * (tol.scale ?? Math.abs(want)) + ATOL;
  if (err > allowed) return `rel err ${(err / Math.abs(want || 1)).toExponential(2)}`;
  if (tol.zeroSigns && want === 0 && got === 0 && isNegZero(want) !== isNegZero(got)) return 'zero sign';
  return null;
}

type Unary = (x: number, y: number) => void;
const UNARY: Record<string, Unary> = {
  cexp: cm.cexp,
  clog: cm.clog,
  csqrt: cm.csqrt,
  csin: cm.csin,
  ccos: cm.ccos,
  ctan: cm.ctan,
  csinh: cm.csinh,
  ccosh: cm.ccosh,
  ctanh: cm.ctanh,
  casin: cm.casin,
  cacos: cm.cacos,
  catan: cm.catan,
  casinh: cm.casinh,
  cacosh: cm.cacosh,
  catanh: cm.catanh,
  crsqrt: cm.crsqrt,
  clog1p: cm.clog1p,
  cexpm1: cm.cexpm1,
  csigmoid: cm.csigmoid,
  csign: cm.csign,
};

// sigmoid is a composition (exp, add, divide) that NumPy does not define, so
// the sign of an underflowed zero part depends on the division formula.
const NO_ZERO_SIGNS = new Set(['csigmoid']);

const RTOL = 1e-13;

/** Checks one complex result; `normwise` measures both parts relative to |w| instead of to themselves. */
function checkComplex(
  failures: string[],
  label: string,
  got0: number,
  got1: number,
  want0: number,
  want1: number,
  zeroSigns: boolean,
  normwise = false,
): void {
  const scale = normwise ? Math.hypot(want0, want1) : undefined;
  const tol: Tol = { rtol: RTOL, zeroSigns, ...(scale !== undefined && Number.isFinite(scale) ? { scale } : {}) };
  const m0 = mismatch(got0, want0, tol);
  const m1 = mismatch(got1, want1, tol);
  if (m0 || m1) {
    failures.push(
      `${label}: got (${fmt(got0)}, ${fmt(got1)}) want (${fmt(want0)}, ${fmt(want1)}) [${m0 ?? 'ok'}; ${m1 ?? 'ok'}]`,
    );
  }
}

describe('complex functions vs NumPy golden values', () => {
  const inputs = golden.complex_inputs.map(([a, b]) => [dec(a), dec(b)] as const);

  for (const name of Object.keys(UNARY)) {
    it(name, () => {
      const fn = UNARY[name]!;
      const outs = golden.complex_unary[name];
      expect(outs?.length, `golden has one ${name} value per input`).toBe(inputs.length);
      const failures: string[] = [];
      inputs.forEach(([x, y], i) => {
        const [w0, w1] = outs![i]!;
        fn(x, y);
        checkComplex(failures, `${name}(${fmt(x)}, ${fmt(y)})`, cm.CX[0]!, cm.CX[1]!, dec(w0), dec(w1), !NO_ZERO_SIGNS.has(name));
      });
      expect(failures.slice(0, 25)).toEqual([]);
    });
  }

  it('cabs and cangle', () => {
    const failures: string[] = [];
    inputs.forEach(([x, y], i) => {
      const a = cm.cabs(x, y);
      const wa = dec(golden.complex_real.cabs![i]!);
      const ma = mismatch(a, wa, { rtol: RTOL, zeroSigns: true });
      if (ma) failures.push(`cabs(${fmt(x)}, ${fmt(y)}) = ${fmt(a)}, want ${fmt(wa)}: ${ma}`);
      const g = cm.cangle(x, y);
      const wg = dec(golden.complex_real.cangle![i]!);
      const mg = mismatch(g, wg, { rtol: RTOL, zeroSigns: true });
      if (mg) failures.push(`cangle(${fmt(x)}, ${fmt(y)}) = ${fmt(g)}, want ${fmt(wg)}: ${mg}`);
    });
    expect(failures.slice(0, 25)).toEqual([]);
  });

  it('cpow (NumPy semantics: 0**0 = 1, integer exponents by squaring)', () => {
    const failures: string[] = [];
    for (const row of golden.cpow) {
      const [ar, ai, br, bi, wr, wi] = row.map(dec) as [number, number, number, number, number, number];
      cm.cpow(ar, ai, br, bi);
      // exp(b log a) amplifies the rounding of b*log(a): compare normwise. With
      // non-finite operands NumPy's zero signs can come from the sign bit of an
      // x86 default NaN (inf*0 inside glibc's cpow), which is not portable.
      const finite = [ar, ai, br, bi].every(Number.isFinite);
      checkComplex(failures, `cpow(${fmt(ar)}, ${fmt(ai)}; ${fmt(br)}, ${fmt(bi)})`, cm.CX[0]!, cm.CX[1]!, wr, wi, finite, true);
    }
    expect(failures.slice(0, 25)).toEqual([]);
  });

  it('cdiv (exact reference for finite operands, NumPy for special values)', () => {
    const failures: string[] = [];
    for (const row of golden.cdiv) {
      const [ar, ai, br, bi, wr, wi] = row.slice(0, 6).map((s) => dec(s as S)) as number[] as [
        number, number, number, number, number, number,
      ];
      const exact = row[6] === 1;
      cm.cdiv(ar, ai, br, bi);
      // Finite division is backward stable, so the error is bounded relative to |w|.
      checkComplex(failures, `cdiv(${fmt(ar)}, ${fmt(ai)}; ${fmt(br)}, ${fmt(bi)})`, cm.CX[0]!, cm.CX[1]!, wr, wi, !exact, exact);
    }
    expect(failures.slice(0, 25)).toEqual([]);
  });

  it('signed zeros on the branch cuts', () => {
    const cases: [Unary, number, number, number, number][] = [
      [cm.csqrt, -4, -0, 0, -2],
      [cm.csqrt, -4, 0, 0, 2],
      [cm.clog, -1, 0, 0, Math.PI],
      [cm.clog, -1, -0, 0, -Math.PI],
      [cm.casin, 2, 0, Math.PI / 2, 1.3169578969248166],
      [cm.casin, 2, -0, Math.PI / 2, -1.3169578969248166],
      [cm.cacos, 2, 0, 0, -1.3169578969248166],
      [cm.cacos, 2, -0, 0, 1.3169578969248166],
      [cm.catan, 0, 2, Math.PI / 2, 0.5493061443340549],
      [cm.catan, -0, 2, -Math.PI / 2, 0.5493061443340549],
      [cm.catanh, 2, 0, 0.5493061443340549, Math.PI / 2],
      [cm.catanh, 2, -0, 0.5493061443340549, -Math.PI / 2],
    ];
    for (const [fn, x, y, w0, w1] of cases) {
      fn(x, y);
      expect(cm.CX[0]).toBeCloseTo(w0, 14);
      expect(cm.CX[1]).toBeCloseTo(w1, 14);
      expect(isNegZero(cm.CX[0]!)).toBe(isNegZero(w0));
      expect(isNegZero(cm.CX[1]!)).toBe(isNegZero(w1));
    }
  });
});

describe('complex identities (fast-check)', () => {
  const moderate = fc.double({ min: -1e6, max: 1e6, noNaN: true });
  const nonZero = fc.tuple(moderate, moderate).filter(([x, y]) => Math.hypot(x, y) > 1e-200);

  it('exp(log z) = z', () => {
    fc.assert(
      fc.property(nonZero, ([x, y]) => {
        cm.clog(x, y);
        cm.cexp(cm.CX[0]!, cm.CX[1]!);
        const r = Math.hypot(x, y);
        const tol = 1e-14 * r * (4 + Math.abs(Math.log(r)));
        return Math.abs(cm.CX[0]! - x) <= tol && Math.abs(cm.CX[1]! - y) <= tol;
      }),
      { numRuns: 2000 },
    );
  });

  it('sqrt(z)^2 = z and Re sqrt(z) >= 0', () => {
    const wide = fc.double({ min: -1e150, max: 1e150, noNaN: true });
    fc.assert(
      fc.property(wide, wide, (x, y) => {
        cm.csqrt(x, y);
        const a = cm.CX[0]!;
        const b = cm.CX[1]!;
        if (!(a >= 0)) return false;
        const tol = 1e-15 * 4 * Math.hypot(x, y) + ATOL; // a*a, b*b may be subnormal
        return Math.abs(a * a - b * b - x) <= tol && Math.abs(2 * a * b - y) <= tol;
      }),
      { numRuns: 2000 },
    );
  });

  it('sin^2 z + cos^2 z = 1', () => {
    const re = fc.double({ min: -100, max: 100, noNaN: true });
    const im = fc.double({ min: -3, max: 3, noNaN: true });
    fc.assert(
      fc.property(re, im, (x, y) => {
        cm.csin(x, y);
        const s0 = cm.CX[0]!;
        const s1 = cm.CX[1]!;
        cm.ccos(x, y);
        const c0 = cm.CX[0]!;
        const c1 = cm.CX[1]!;
        const re2 = s0 * s0 - s1 * s1 + c0 * c0 - c1 * c1;
        const im2 = 2 * s0 * s1 + 2 * c0 * c1;
        const tol = 1e-14 * 4 * (1 + s0 * s0 + s1 * s1 + c0 * c0 + c1 * c1);
        return Math.abs(re2 - 1) <= tol && Math.abs(im2) <= tol;
      }),
      { numRuns: 2000 },
    );
  });

  it('asin(sin z) = z, atanh(tanh z) = z in the principal strips', () => {
    const im = fc.double({ min: -5, max: 5, noNaN: true });
    fc.assert(
      fc.property(fc.double({ min: -1.5, max: 1.5, noNaN: true }), im, (x, y) => {
        cm.csin(x, y);
        cm.casin(cm.CX[0]!, cm.CX[1]!);
        const e1 = Math.hypot(cm.CX[0]! - x, cm.CX[1]! - y);
        cm.ctanh(y, x); // Im in (-pi/2, pi/2)
        cm.catanh(cm.CX[0]!, cm.CX[1]!);
        const e2 = Math.hypot(cm.CX[0]! - y, cm.CX[1]! - x);
        // sin and tanh flatten out for large |y|, which the inverse cannot undo exactly
        const cond = Math.cosh(2 * Math.abs(y));
        return e1 <= 1e-14 * 8 * cond * (1 + Math.hypot(x, y)) && e2 <= 1e-14 * 8 * cond * (1 + Math.hypot(x, y));
      }),
      { numRuns: 2000 },
    );
  });

  it('(a / b) * b = a and sqrt(z) * rsqrt(z) = 1', () => {
    const comp = fc.double({ min: -1e250, max: 1e250, noNaN: true }).filter((v) => Math.abs(v) > 1e-250 || v === 0);
    fc.assert(
      fc.property(comp, comp, moderate, moderate, (ar, ai, br, bi) => {
        if (Math.hypot(br, bi) < 1e-40) return true; // keep a/b and its products finite and normal
        cm.cdiv(ar, ai, br, bi);
        const q0 = cm.CX[0]!;
        const q1 = cm.CX[1]!;
        const p0 = q0 * br - q1 * bi;
        const p1 = q0 * bi + q1 * br;
        const tol = 1e-14 * 8 * Math.hypot(ar, ai);
        if (!(Math.abs(p0 - ar) <= tol && Math.abs(p1 - ai) <= tol)) return false;
        if (Math.hypot(br, bi) < 1e-100) return true;
        cm.csqrt(br, bi);
        const s0 = cm.CX[0]!;
        const s1 = cm.CX[1]!;
        cm.crsqrt(br, bi);
        const r0 = s0 * cm.CX[0]! - s1 * cm.CX[1]!;
        const r1 = s0 * cm.CX[1]! + s1 * cm.CX[0]!;
        return Math.abs(r0 - 1) <= 1e-14 * 8 && Math.abs(r1) <= 1e-14 * 8;
      }),
      { numRuns: 2000 },
    );
  });
});

describe('real special functions vs NumPy/SciPy', () => {
  const xs = golden.real_inputs.map(dec);
  const FUNCS: Record<string, [(x: number) => number, number]> = {
    // [function, relative tolerance]
    erf: [sp.erf, 2e-15],
    erfc: [sp.erfc, 2e-15],
    gelu: [sp.gelu, RTOL],
    sigmoid: [sp.sigmoid, RTOL],
    softplus: [sp.softplus, RTOL],
    roundHalfEven: [sp.roundHalfEven, 0],
    sign: [sp.sign, 0],
    log1p: [sp.log1p, RTOL],
    expm1: [sp.expm1, RTOL],
  };
  for (const [name, [fn, rtol]] of Object.entries(FUNCS)) {
    it(name, () => {
      const want = golden.real[name]!.map(dec);
      const failures: string[] = [];
      xs.forEach((x, i) => {
        const got = fn(x);
        const m = mismatch(got, want[i]!, { rtol, zeroSigns: true });
        if (m) failures.push(`${name}(${fmt(x)}) = ${fmt(got)}, want ${fmt(want[i]!)}: ${m}`);
      });
      expect(failures.slice(0, 25)).toEqual([]);
    });
  }

  it('erf(x) + erfc(x) = 1 and erf is odd', () => {
    fc.assert(
      fc.property(fc.double({ min: -30, max: 30, noNaN: true }), (x) => {
        return Math.abs(sp.erf(x) + sp.erfc(x) - 1) <= 4e-16 * 2 && sp.erf(-x) === -sp.erf(x);
      }),
      { numRuns: 5000 },
    );
  });
});

describe('float16 and bfloat16', () => {
  const isNaN16 = (h: number): boolean => (h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0;

  it('f16BitsToF32 is exact for every pattern, and f32ToF16Bits inverts it', () => {
    const table = ensureF16Table();
    expect(table).toBe(F16_TO_F32);
    for (let h = 0; h < 65536; h++) {
      const v = f16BitsToF32(h);
      const e = (h >> 10) & 31;
      const m = h & 1023;
      const mag = e === 31 ? (m ? NaN : Infinity) : e === 0 ? m * 2 ** -24 : (1 + m / 1024) * 2 ** (e - 15);
      const want = h & 0x8000 ? -mag : mag;
      if (isNaN16(h)) {
        expect(Number.isNaN(v)).toBe(true);
        expect(isNaN16(f32ToF16Bits(v))).toBe(true);
        continue;
      }
      if (!Object.is(v, want)) expect.fail(`f16BitsToF32(0x${h.toString(16)}) = ${v}, want ${want}`);
      const back = f32ToF16Bits(v);
      if (back !== h) expect.fail(`f32ToF16Bits(${fmt(v)}) = 0x${back.toString(16)}, want 0x${h.toString(16)}`);
    }
  });

  it('f16BitsToF32 matches NumPy', () => {
    for (const [bits, s] of golden.f16_to_f64) {
      const want = dec(s);
      const got = f16BitsToF32(bits);
      if (Number.isNaN(want)) expect(Number.isNaN(got)).toBe(true);
      else expect(Object.is(got, want), `0x${bits.toString(16)}`).toBe(true);
    }
  });

  it("f32ToF16Bits matches NumPy's float64 -> float16 cast (ties, subnormals, overflow, no double rounding)", () => {
    const failures: string[] = [];
    for (const [s, want] of golden.f16_from_f64) {
      const x = dec(s);
      const got = f32ToF16Bits(x);
      const ok = Number.isNaN(x) ? isNaN16(got) : got === want;
      if (!ok) failures.push(`f32ToF16Bits(${s}) = 0x${got.toString(16)}, want 0x${want.toString(16)}`);
    }
    expect(failures.slice(0, 25)).toEqual([]);
  });

  it('f32ToF16Bits rounds to nearest, ties to even (fast-check)', () => {
    const table = ensureF16Table();
    fc.assert(
      fc.property(fc.double({ min: -70000, max: 70000, noNaN: true }), (x) => {
        const h = f32ToF16Bits(x);
        const mag = h & 0x7fff;
        const ax = Math.abs(x);
        if (ax >= 65520) return mag === 0x7c00;
        const v = Math.abs(table[mag]!);
        const below = mag > 0 ? Math.abs(table[mag - 1]!) : -Infinity;
        const above = mag < 0x7bff ? table[mag + 1]! : 65536; // 2^16 stands in for overflow
        const d = Math.abs(ax - v);
        if (d > Math.abs(ax - below) || d > Math.abs(ax - above)) return false;
        if (d === Math.abs(ax - below) || d === Math.abs(ax - above)) return (mag & 1) === 0;
        return (h & 0x8000) === 0 ? !(x < 0) || x === 0 : x < 0 || Object.is(x, -0);
      }),
      { numRuns: 20000 },
    );
  });

  it('f32ToBf16Bits matches an exact round-to-nearest-even reference (NumPy has no bfloat16)', () => {
    const failures: string[] = [];
    for (const [s, want] of golden.bf16_from_f32) {
      const x = dec(s);
      const got = f32ToBf16Bits(x);
      const ok = want === null ? (got & 0x7f80) === 0x7f80 && (got & 0x7f) !== 0 && (got & 0x40) !== 0 : got === want;
      if (!ok) failures.push(`f32ToBf16Bits(${s}) = 0x${got.toString(16)}, want ${want === null ? 'quiet NaN' : '0x' + want.toString(16)}`);
    }
    expect(failures.slice(0, 25)).toEqual([]);
  });

  it('bfloat16 round trip is exact for every pattern', () => {
    for (let h = 0; h < 65536; h++) {
      const v = bf16BitsToF32(h);
      const isNan = (h & 0x7f80) === 0x7f80 && (h & 0x7f) !== 0;
      if (isNan) {
        expect(Number.isNaN(v)).toBe(true);
        continue;
      }
      const back = f32ToBf16Bits(v);
      if (back !== h) expect.fail(`bf16 0x${h.toString(16)} -> ${fmt(v)} -> 0x${back.toString(16)}`);
    }
  });

  it('f32ToBf16Bits: NaN stays a quiet NaN, overflow rounds to inf', () => {
    expect(f32ToBf16Bits(NaN) & 0x7fc0).toBe(0x7fc0);
    expect(f32ToBf16Bits(3.4028234663852886e38)).toBe(0x7f80); // FLT_MAX rounds up
    expect(f32ToBf16Bits(-Infinity)).toBe(0xff80);
    expect(f32ToBf16Bits(-0)).toBe(0x8000);
  });
});
