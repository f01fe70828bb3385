// Tensor printing must look exactly like NumPy's (see src/tensor/format.ts).
// The goldens in tests/golden/format.json were printed by NumPy 1.24
// (tests/golden/gen_format.py); bfloat16, which NumPy lacks, is checked by hand
// and by properties; fast-check properties cover the round-trip guarantees.

import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DType } from '../src/tensor/dtype.js';
import { ShapeError, ValueError } from '../src/tensor/errors.js';
import {
  formatTensor,
  printOptions,
  reprTensor,
  resetPrintOptions,
  setPrintOptions,
  type PrintOptions,
} from '../src/tensor/format.js';

interface GoldenCase {
  name: string;
  dtype: DType;
  shape: number[];
  values: (number | string)[];
  str: string;
  repr: string;
  options?: Partial<PrintOptions>;
}

const golden: GoldenCase[] = JSON.parse(readFileSync(new URL('./golden/format.json', import.meta.url), 'utf8'));

function decode(v: number | string): number {
  if (typeof v === 'number') return v;
  switch (v) {
    case 'nan':
      return NaN;
    case 'inf':
      return Infinity;
    case '-inf':
      return -Infinity;
    case '-0':
      return -0;
    default:
      throw new Error(`bad golden value ${v}`);
  }
}

afterEach(() => resetPrintOptions());

describe('NumPy goldens', () => {
  it('has the cases the generator writes', () => {
    expect(golden.length).toBeGreaterThan(150);
  });
  it.each(golden.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const values = c.values.map(decode);
    expect(formatTensor(values, c.shape, c.dtype, c.options)).toBe(c.str);
    expect(reprTensor(values, c.shape, c.dtype, c.options)).toBe(c.repr);
  });
  it('global printOptions act like np.set_printoptions', () => {
    const c = golden.find((g) => g.name === 'precision 3')!;
    const values = c.values.map(decode);
    expect(formatTensor(values, c.shape, c.dtype)).not.toBe(c.str);
    printOptions.precision = 3;
    expect(formatTensor(values, c.shape, c.dtype)).toBe(c.str);
    expect(reprTensor(values, c.shape, c.dtype)).toBe(c.repr);
    resetPrintOptions();
    const prev = setPrintOptions({ precision: 3 });
    expect(prev.precision).toBe(8);
    expect(formatTensor(values, c.shape, c.dtype)).toBe(c.str);
  });
});

// ---------------------------------------------------------------------------
// bfloat16: NumPy has none; these were worked out by hand (8-bit significand).

describe('bfloat16', () => {
  it('prints the shortest digits of the stored bfloat16 value', () => {
    // stored: 0.10009765625, 0.2001953125, 0.30078125
    expect(formatTensor([0.1, 0.2, 0.3], [3], 'bfloat16')).toBe('[0.1 0.2 0.3]');
    expect(reprTensor([0.1, 0.2, 0.3], [3], 'bfloat16')).toBe('tensor([0.1, 0.2, 0.3], dtype=bfloat16)');
    // pi -> 3.140625, neighbours 3.125 and 3.15625: "3.14" is the shortest that round-trips
    expect(formatTensor([Math.PI], [], 'bfloat16')).toBe('3.14');
    expect(reprTensor([Math.PI], [], 'bfloat16')).toBe('tensor(3.14, dtype=bfloat16)');
    // 1/3 -> 0.333984375 (spacing 2^-9): "0.334"
    expect(formatTensor([1 / 3, 1], [2], 'bfloat16')).toBe('[0.334 1.   ]');
  });
  it('rounds raw doubles to bfloat16 (ties to even) before printing', () => {
    // 257 is halfway between 256 and 258: ties to even -> 256; 259 -> 260
    expect(formatTensor([257, 259], [2], 'bfloat16')).toBe('[256. 260.]');
    // 1e30 in bfloat16 is 1.0000000150474662e30: shortest "1e+30"
    expect(formatTensor([1e30], [], 'bfloat16')).toBe('1e+30');
    expect(formatTensor([1e30, 1], [2], 'bfloat16')).toBe('[1.e+30 1.e+00]');
    // the largest bfloat16 is 255 * 2^120 = 3.3895e38 (spacing 2^120): "3.39e+38";
    // from (255.5 * 2^120 = 3.396e38) up it is inf
    expect(formatTensor([255 * 2 ** 120, 3.4e38, -1e39, NaN], [4], 'bfloat16')).toBe('[3.39e+38      inf     -inf      nan]');
  });
  it('unique mode: every token round-trips to the same bfloat16 and is shortest', () => {
    fc.assert(
      fc.property(fc.array(bf16Arb(), { minLength: 1, maxLength: 12 }), (xs) => {
        const s = formatTensor(xs, [xs.length], 'bfloat16', { floatmode: 'unique' });
        checkUnique(floatTokens(s), xs, bf16);
      }),
      { numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------
// Properties.

/** Floats of a printed tensor in order (complex: re, im, re, im...). */
function floatTokens(s: string): string[] {
  return s.match(/[-+]?(?:nan|inf|\d+\.\d*(?:e[-+]\d+)?)/g) ?? [];
}

/** NumPy float text to a number ('nan', 'inf', '-inf', '1.e+05', '-0.'). */
function parseTok(t: string): number {
  const u = t.replace(/^\+/, '');
  if (u === 'nan') return NaN;
  if (u === 'inf') return Infinity;
  if (u === '-inf') return -Infinity;
  return Number(u);
}

/** Whitespace-separated tokens of a printed tensor (brackets, commas and '...' dropped). */
function tokens(s: string): string[] {
  return s
    .replace(/[[\],]/g, ' ')
    .split(/\s+/)
    .filter((t) => t !== '' && t !== '...');
}

function sameValue(a: number, b: number): boolean {
  return Object.is(a, b) || (a === 0 && b === 0 && Object.is(a, -0) === Object.is(b, -0));
}

/** Significant digits written in a token like '-1.2500e-03', '0.00123' or '120.'. */
function sigDigits(t: string): number {
  const mant = t.replace(/^[-+]/, '').split('e')[0]!.replace('.', '');
  return mant.replace(/^0+/, '').replace(/0+$/, '').length || 1;
}

/** Fewest significant digits of a decimal that rounds to |x| in the format of `round`. */
function shortestDigits(x: number, round: (y: number) => number): number {
  const a = Math.abs(x);
  for (let d = 1; d <= 17; d++) {
    const [mant, ex] = a.toExponential(d - 1).split('e');
    const m = BigInt(mant!.replace('.', ''));
    // the nearest d-digit decimal and its neighbours (margins are unequal at powers of two)
    for (const k of [m - 1n, m, m + 1n]) {
      if (k > 0n && round(Number(`${k}e${Number(ex) - (d - 1)}`)) === a) return d;
    }
  }
  return 17;
}

/** Rounds a double to a binary format with p stored mantissa bits and smallest normal exponent emin (ties to even). */
function roundBits(y: number, p: number, emin: number): number {
  if (y === 0 || !Number.isFinite(y)) return y;
  const a = Math.abs(y);
  let e = Math.floor(Math.log2(a));
  if (2 ** e > a) e -= 1;
  if (2 ** (e + 1) <= a) e += 1;
  const q = Math.max(e, emin) - p;
  const s = a / 2 ** q;
  const f = Math.floor(s);
  const r = s - f > 0.5 || (s - f === 0.5 && f % 2 === 1) ? f + 1 : f;
  const emax = emin === -14 ? 15 : 127;
  const out = r * 2 ** q > (2 ** (p + 1) - 1) * 2 ** (emax - p) ? Infinity : r * 2 ** q;
  return y < 0 ? -out : out;
}

const f16 = (y: number) => roundBits(y, 10, -14);
const bf16 = (y: number) => roundBits(y, 7, -126);
const f32 = Math.fround;

/**
 * Unique floatmode: each token reads back as its value in the dtype. In
 * positional notation a value below 1 uses the fewest digits (NumPy forces the
 * integer digits out of bigger ones); in scientific notation every token has
 * as many mantissa digits as the value that needs the most.
 */
function checkUnique(toks: string[], xs: number[], round: (y: number) => number): void {
  expect(toks.length).toBe(xs.length);
  toks.forEach((t, i) => expect(sameValue(round(parseTok(t)), xs[i]!)).toBe(true));
  const finite = toks.map((t, i) => [t, xs[i]!] as const).filter(([, x]) => Number.isFinite(x));
  if (finite.some(([t]) => t.includes('e'))) {
    const need = Math.max(...finite.map(([, x]) => (x === 0 ? 1 : shortestDigits(x, round))));
    for (const [t] of finite) expect(t.replace(/^[-+]/, '').split('e')[0]!.replace('.', '').length).toBe(need);
  } else {
    for (const [t, x] of finite) if (x !== 0 && Math.abs(x) < 1) expect(sigDigits(t)).toBe(shortestDigits(x, round));
  }
}

function bf16Arb(): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: 0xffff }).map((b) => {
    const u = new Uint32Array([b << 16]);
    return new Float32Array(u.buffer)[0]!;
  });
}

function f16Arb(): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: 0xffff }).map((b) => {
    const s = b & 0x8000 ? -1 : 1;
    const e = (b >> 10) & 0x1f;
    const m = b & 0x3ff;
    if (e === 31) return m ? NaN : s * Infinity;
    return s * (e === 0 ? m * 2 ** -24 : (1024 + m) * 2 ** (e - 25));
  });
}

describe('properties', () => {
  it('float64, unique mode: every printed number parses back to its value', () => {
    fc.assert(
      fc.property(fc.array(fc.double(), { minLength: 1, maxLength: 20 }), (xs) => {
        checkUnique(floatTokens(formatTensor(xs, [xs.length], 'float64', { floatmode: 'unique' })), xs, (y) => y);
      }),
      { numRuns: 500 },
    );
  });

  it('float64, default options: values with few decimals in [1, 1000] print exactly', () => {
    const arb = fc.tuple(fc.integer({ min: 1000, max: 1_000_000 }), fc.constantFrom(1, 10, 100, 1000)).map(([m, d]) => m / d);
    fc.assert(
      fc.property(fc.array(arb, { minLength: 1, maxLength: 30 }), (xs) => {
        const toks = floatTokens(formatTensor(xs, [xs.length], 'float64'));
        expect(toks.map(parseTok)).toEqual(xs);
      }),
    );
  });

  it('float32 and float16, unique mode: tokens round-trip in their dtype with the fewest digits', () => {
    const cases: [DType, fc.Arbitrary<number>, (y: number) => number][] = [
      ['float32', fc.float({ noDefaultInfinity: false }), f32],
      ['float16', f16Arb(), f16],
      ['complex64', fc.float(), f32],
    ];
    for (const [dtype, arb, round] of cases) {
      fc.assert(
        fc.property(fc.array(arb, { minLength: 2, maxLength: 12 }), (xs) => {
          const n = dtype === 'complex64' ? xs.length >> 1 : xs.length;
          const vals = xs.slice(0, dtype === 'complex64' ? 2 * n : n);
          const toks = floatTokens(formatTensor(vals, [n], dtype, { floatmode: 'unique' }));
          if (dtype !== 'complex64') checkUnique(toks, vals, round);
          else {
            // real and imaginary parts are laid out independently
            const part = <T,>(a: T[], r: number) => a.filter((_, i) => i % 2 === r);
            checkUnique(part(toks, 0), part(vals, 0), round);
            checkUnique(part(toks, 1), part(vals, 1), round);
          }
        }),
        { numRuns: 300 },
      );
    }
  });

  it('a float32 value prints its float32 digits, not the double ones', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-3, max: 1e3, noNaN: true }), (x) => {
        const v = Math.fround(x);
        expect(formatTensor([v], [], 'float32')).toBe(formatTensor([x], [], 'float32'));
        const t = formatTensor([v], [], 'float32');
        expect(Math.fround(Number(t))).toBe(v);
        expect(sigDigits(t)).toBe(shortestDigits(v, f32));
      }),
    );
  });

  it('int32 and bool tensors read back in order; lines respect linewidth', () => {
    const shapeArb = fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(shapeArb, fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.integer({ min: 40, max: 120 }), (shape, seed, lw) => {
        const n = shape.reduce((a, b) => a * b, 1);
        const xs = Array.from({ length: n }, (_, i) => (Math.imul(seed ^ i, 2654435761) >> (i % 17)) | 0);
        const s = formatTensor(xs, shape, 'int32', { linewidth: lw });
        expect(tokens(s).map(Number)).toEqual(xs);
        for (const line of s.split('\n')) expect(line.length).toBeLessThanOrEqual(lw);
        const r = reprTensor(xs, shape, 'int32', { linewidth: lw });
        for (const line of r.split('\n')) expect(line.length).toBeLessThanOrEqual(lw);
        const bools = xs.map((x) => x & 1);
        const b = formatTensor(bools, shape, 'bool', { linewidth: lw });
        expect(tokens(b)).toEqual(bools.map((x) => (x ? 'True' : 'False')));
      }),
    );
  });

  it('summarizes exactly when size > threshold, keeping edgeitems per axis', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 0, max: 70 }), fc.integer({ min: 1, max: 5 }), (n, threshold, edgeitems) => {
        const xs = Array.from({ length: n }, (_, i) => i);
        const s = formatTensor(xs, [n], 'int32', { threshold, edgeitems, linewidth: 1000 });
        const summarized = n > threshold && n > 2 * edgeitems;
        expect(s.includes('...')).toBe(summarized);
        const want = summarized ? [...xs.slice(0, edgeitems), ...xs.slice(n - edgeitems)] : xs;
        expect(tokens(s).map(Number)).toEqual(want);
      }),
    );
  });
});

describe('errors', () => {
  it('rejects values that do not fit the shape', () => {
    expect(() => formatTensor([1, 2, 3], [2, 2], 'float64')).toThrow(ShapeError);
    expect(() => formatTensor([1, 2, 3], [2], 'complex128')).toThrow(/re, im interleaved/);
    expect(() => formatTensor([], [-1], 'float64')).toThrow(ShapeError);
  });
  it('rejects bad print options', () => {
    expect(() => formatTensor([1], [1], 'float64', { precision: -1 })).toThrow(ValueError);
    expect(() => setPrintOptions({ floatmode: 'short' as never })).toThrow(ValueError);
    expect(printOptions.floatmode).toBe('maxprec');
  });
});
