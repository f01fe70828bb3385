// Tests for src/tensor/random-bits.ts: the JAX-style counter-based generator has to give the
// same bits as its references (Random123 known answers, values asserted by JAX's own tests and
// docs), stay deterministic and splittable, and produce statistically sound samples.

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bernoulliBits,
  erfinv,
  foldIn,
  keyData,
  normalFloat32,
  normalFloat64,
  randint,
  randomBits32,
  randomBits64,
  reduce64Unbiased,
  splitKeyData,
  threefry2x32,
  threefry2x32Into,
  threefry2x32Jax,
  uniformFloat32,
  uniformFloat64,
  type ThreefryLayout,
} from '../src/tensor/random-bits.js';

const LEGACY = { layout: 'legacy' as ThreefryLayout };
const N = 1_000_000;

/** zlib.adler32, which JAX's RandomValuesCase._seed uses to derive seeds from case names. */
function adler32(s: string): number {
  let a = 1;
  let b = 0;
  for (const ch of Buffer.from(s, 'utf8')) {
    a = (a + ch) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const u64 = (hi: number, lo: number): bigint => (BigInt(hi) << 32n) | BigInt(lo);

function meanVar(xs: ArrayLike<number>): { mean: number; variance: number } {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i]!;
  const mean = s / xs.length;
  let ss = 0;
  for (let i = 0; i < xs.length; i++) ss += (xs[i]! - mean) ** 2;
  return { mean, variance: ss / (xs.length - 1) };
}

/** Kolmogorov-Smirnov statistic of a sample against a continuous CDF. */
function ksStatistic(xs: ArrayLike<number>, cdf: (x: number) => number): number {
  const s = Float64Array.from(xs).sort();
  const n = s.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(s[i]!);
    d = Math.max(d, (i + 1) / n - f, f - i / n);
  }
  return d;
}

/** KS critical value at significance 1e-3 (asymptotic): sqrt(-ln(alpha/2)/2)/sqrt(n). */
const ksCritical = (n: number): number => Math.sqrt(-Math.log(1e-3 / 2) / 2) / Math.sqrt(n);

/** Standard normal CDF via Abramowitz & Stegun 7.1.26 erf (|error| < 1.5e-7, ample for KS at 1e6). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** A float32 value against its repr as printed by JAX/NumPy (at most 8 decimals). */
function expectPrinted(got: number, printed: number): void {
  expect(Math.abs(got - printed)).toBeLessThanOrEqual(5e-9);
}

function chiSquare(counts: number[], expected: number): number {
  return counts.reduce((acc, c) => acc + (c - expected) ** 2 / expected, 0);
}

describe('threefry2x32', () => {
  // Random123 known answers (Random123-Boost libs/random/test/test_threefry.cpp, as quoted by
  // JAX's tests/random_test.py testThreefry2x32).
  it('matches the Random123 Threefry-2x32-20 known-answer tests', () => {
    expect(threefry2x32(0, 0, 0, 0)).toEqual([0x6b200159, 0x99ba4efe]);
    expect(threefry2x32(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff)).toEqual([0x1cb996fc, 0xbb002be7]);
    expect(threefry2x32(0x13198a2e, 0x03707344, 0x243f6a88, 0x85a308d3)).toEqual([0xc4923a9c, 0x483df7a0]);
  });

  it('bulk form agrees with the scalar form and may work in place', () => {
    const ctr = new Uint32Array([0, 0, 0xffffffff, 0xffffffff, 0x243f6a88, 0x85a308d3, 7, 9]);
    const out = new Uint32Array(ctr.length);
    threefry2x32Into(0x13198a2e, 0x03707344, ctr, out);
    for (let i = 0; i < ctr.length; i += 2) {
      expect([out[i], out[i + 1]]).toEqual(threefry2x32(0x13198a2e, 0x03707344, ctr[i]!, ctr[i + 1]!));
    }
    threefry2x32Into(0x13198a2e, 0x03707344, ctr, ctr);
    expect(Array.from(ctr)).toEqual(Array.from(out));
  });

  it("JAX's threefry_2x32 form hashes the two halves of count (testThreefry2x32Large, scaled down)", () => {
    const n = 1000;
    const count = new Uint32Array(2 * n);
    count.fill(0x243f6a88, 0, n);
    count.fill(0x85a308d3, n);
    const out = threefry2x32Jax(new Uint32Array([0x13198a2e, 0x03707344]), count);
    expect(out.subarray(0, n).every((v) => v === 0xc4923a9c)).toBe(true);
    expect(out.subarray(n).every((v) => v === 0x483df7a0)).toBe(true);
  });

  it('rejects non-uint32 arguments and odd counter arrays', () => {
    expect(() => threefry2x32(-1, 0, 0, 0)).toThrow(RangeError);
    expect(() => threefry2x32(0, 2 ** 32, 0, 0)).toThrow(/key1/);
    expect(() => threefry2x32Into(0, 0, new Uint32Array(3), new Uint32Array(3))).toThrow(/even length/);
    expect(() => threefry2x32Into(0, 0, new Uint32Array(4), new Uint32Array(2))).toThrow(RangeError);
  });
});

describe('keyData', () => {
  // Expected keys from JAX tests/random_test.py test_prng_seeds_and_keys (jax_enable_x64 values).
  it("matches JAX's PRNGKey seeds, including negative and wide ones", () => {
    const cases: [number | bigint, [number, number]][] = [
      [0, [0, 0]],
      [1, [0, 1]],
      [2, [0, 2]],
      [-1, [4294967295, 4294967295]],
      [-2, [4294967295, 4294967294]],
      [-3, [4294967295, 4294967293]],
      [2147483647 + 100, [0, 2147483747]],
      [-2147483648 - 100, [4294967295, 2147483548]],
      [-2147483648 - 101, [4294967295, 2147483547]],
      [2 ** 32, [1, 0]],
      [2 ** 32 + 5, [1, 5]],
      [2n ** 64n - 1n, [4294967295, 4294967295]],
      [-(2n ** 63n), [2147483648, 0]],
    ];
    for (const [seed, want] of cases) expect(Array.from(keyData(seed))).toEqual(want);
  });

  it('rejects non-integers with a RangeError naming the value', () => {
    expect(() => keyData(1.5)).toThrow(RangeError);
    expect(() => keyData(1.5)).toThrow(/1\.5/);
    expect(() => keyData(Number.NaN)).toThrow(/NaN/);
    expect(() => keyData(Infinity)).toThrow(/Infinity/);
    expect(() => keyData(2 ** 64)).toThrow(RangeError);
    expect(() => keyData(-(2n ** 63n) - 1n)).toThrow(RangeError);
  });
});

describe('legacy layout (jax_threefry_partitionable=False): values asserted by JAX', () => {
  // JAX tests/random_test.py, PrngTest.testPRNGValues.
  it('split, fold_in and randint of PRNGKey(0)', () => {
    const k = keyData(0);
    expect(Array.from(splitKeyData(k, 4, LEGACY))).toEqual([
      2285895361, 1501764800, 1518642379, 4090693311, 433833334, 4221794875, 839183663, 3740430601,
    ]);
    expect(Array.from(foldIn(k, 4))).toEqual([2285895361, 433833334]);
    expect(Array.from(randint(k, 9, 0, 8, LEGACY))).toEqual([2, 1, 3, 6, 1, 5, 6, 3, 4]);
  });

  // JAX tests/random_test.py, PrngTest.testRngRandomBits (bits64 under jax_enable_x64).
  it('random bits of PRNGKey(1701)', () => {
    const k = keyData(1701);
    expect(Array.from(randomBits32(k, 3, LEGACY))).toEqual([56197195, 4200222568, 961309823]);
    const { hi, lo } = randomBits64(k, 3, LEGACY);
    expect(Array.from(hi, (h, i) => u64(h, lo[i]!))).toEqual([
      3982329540505020460n, 16822122385914693683n, 7882654074788531506n,
    ]);
  });

  // JAX tests/random_test.py, _RANDOM_VALUES_CASES (seed = adler32(name + 'threefry2x32')).
  it('RandomValuesCase: bits, uniform, normal, randint, bernoulli', () => {
    const key = (name: string): Uint32Array => keyData(adler32(`${name}threefry2x32`));
    expect(Array.from(randomBits32(key('bits'), 5, LEGACY))).toEqual([
      1978747883, 4134381225, 3628107870, 689687174, 2788938207,
    ]);
    const b = randomBits64(key('bits'), 5, LEGACY);
    expect(Array.from(b.hi, (h, i) => u64(h, b.lo[i]!))).toEqual([
      17649965731882839947n, 1415307058040849897n, 8282622628079774249n, 14024425113645909402n, 2012979996110532418n,
    ]);
    const close = (got: ArrayLike<number>, want: number[]): void => {
      want.forEach((w, i) => expect(Math.abs(got[i]! - w)).toBeLessThanOrEqual(1e-6 + 1e-6 * Math.abs(w)));
    };
    close(uniformFloat32(key('uniform'), 5, 0, 1, LEGACY), [0.298671, 0.073213, 0.873356, 0.260549, 0.412797]);
    close(normalFloat32(key('normal'), 5, LEGACY), [-1.173234, -1.511662, 0.070593, -0.099764, 1.052845]);
    expect(Array.from(randint(key('randint'), 5, 0, 10, LEGACY))).toEqual([0, 5, 7, 7, 5]);
    expect(Array.from(bernoulliBits(key('bernoulli'), 5, 0.5, { ...LEGACY, dtype: 'float32' }))).toEqual([
      0, 1, 1, 1, 0,
    ]);
  });

  // Doctest in the jax.random module docstring of JAX versions before the partitionable default.
  it('module docstring: uniform(key(0)) and uniform(split(key(0))[1])', () => {
    const k = keyData(0);
    expectPrinted(uniformFloat32(k, 1, 0, 1, LEGACY)[0]!, 0.41845703);
    expectPrinted(uniformFloat32(splitKeyData(k, 2, LEGACY).subarray(2, 4), 1, 0, 1, LEGACY)[0]!, 0.10536897);
  });

  it('random bits equal JAX threefry_2x32 over iota(n), odd n padded', () => {
    const k = keyData(99);
    for (const n of [1, 2, 7, 100]) {
      const iota = Uint32Array.from({ length: n }, (_, i) => i);
      expect(Array.from(randomBits32(k, n, LEGACY))).toEqual(Array.from(threefry2x32Jax(k, iota)));
    }
  });
});

describe('partitionable layout (JAX default): values and invariants', () => {
  // Doctest in the current jax.random module docstring (docs.jax.dev/en/latest/jax.random.html):
  //   random.uniform(key(0)) -> 0.947667; key, subkey = split(key); uniform(subkey) -> 0.00729382.
  it('module docstring: uniform(key(0)) and uniform(split(key(0))[1])', () => {
    const k = keyData(0);
    expectPrinted(uniformFloat32(k, 1)[0]!, 0.947667);
    expectPrinted(uniformFloat32(splitKeyData(k, 2).subarray(2, 4), 1)[0]!, 0.00729382);
    // The same value derived by hand: (0x6b200159 ^ 0x99ba4efe) >>> 9 mantissa bits (Random123 KAT).
    expect(uniformFloat32(k, 1)[0]).toBe(((0x6b200159 ^ 0x99ba4efe) >>> 9) / 2 ** 23);
  });

  // Corroboration only: float32 reprs of jax.random.uniform(key(0), (3, 3)) and split(key(0), 3)
  // as embedded in two independent third-party test suites (not JAX's own).
  it('agrees with JAX outputs quoted by third-party ports', () => {
    const k = keyData(0);
    expect(Array.from(uniformFloat32(k, 9))).toEqual(
      [0.947667, 0.9785799, 0.33229148, 0.46866846, 0.5698887, 0.16550303, 0.3101946, 0.68948054, 0.74676657].map(
        Math.fround,
      ),
    );
    expect(Array.from(splitKeyData(k, 3))).toEqual([
      1797259609, 2579123966, 928981903, 3453687069, 4146024105, 2718843009,
    ]);
  });

  // JAX tests/random_test.py test_threefry_split_fold_in_symmetry (key 72, i < 3), widened.
  it('split(key, n)[i] == fold_in(key, i)', () => {
    for (const seed of [72, 0, 1701, -5]) {
      const k = keyData(seed);
      const s = splitKeyData(k, 50);
      for (let i = 0; i < 50; i++) expect(Array.from(s.subarray(2 * i, 2 * i + 2))).toEqual(Array.from(foldIn(k, i)));
    }
  });

  it('element i depends only on (key, i): prefixes are stable', () => {
    const k = keyData(123);
    expect(Array.from(randomBits32(k, 10))).toEqual(Array.from(randomBits32(k, 1000).subarray(0, 10)));
    expect(Array.from(uniformFloat64(k, 7))).toEqual(Array.from(uniformFloat64(k, 777).subarray(0, 7)));
    expect(Array.from(normalFloat64(k, 5))).toEqual(Array.from(normalFloat64(k, 501).subarray(0, 5)));
  });

  it('32-bit draws are hi ^ lo of the 64-bit draws', () => {
    const k = keyData(5);
    const b32 = randomBits32(k, 100);
    const { hi, lo } = randomBits64(k, 100);
    for (let i = 0; i < 100; i++) expect(b32[i]).toBe((hi[i]! ^ lo[i]!) >>> 0);
  });
});

describe('float construction', () => {
  it('uniformFloat64 is the top 52 bits of the 64-bit draw over 2^52', () => {
    for (const layout of ['partitionable', 'legacy'] as const) {
      const k = keyData(2024);
      const { hi, lo } = randomBits64(k, 200, { layout });
      const u = uniformFloat64(k, 200, 0, 1, { layout });
      for (let i = 0; i < 200; i++) expect(u[i]).toBe(Number(u64(hi[i]!, lo[i]!) >> 12n) / 2 ** 52);
    }
  });

  it('uniformFloat32 is the top 23 bits of the 32-bit draw over 2^23', () => {
    const k = keyData(2024);
    const b = randomBits32(k, 200);
    const u = uniformFloat32(k, 200);
    for (let i = 0; i < 200; i++) expect(u[i]).toBe((b[i]! >>> 9) / 2 ** 23);
  });

  it('scales and shifts as JAX: max(lo, f * (hi - lo) + lo)', () => {
    const k = keyData(8);
    const f = uniformFloat64(k, 50);
    const g = uniformFloat64(k, 50, -3, 5);
    for (let i = 0; i < 50; i++) expect(g[i]).toBe(Math.max(-3, f[i]! * 8 + -3));
  });
});

describe('determinism and independence', () => {
  it('same key, same output; different keys, different output', () => {
    const a = keyData(31337);
    expect(Array.from(normalFloat64(a, 1000))).toEqual(Array.from(normalFloat64(keyData(31337), 1000)));
    expect(Array.from(randint(a, 1000, -7, 11))).toEqual(Array.from(randint(a, 1000, -7, 11)));
    expect(Array.from(uniformFloat64(a, 10))).not.toEqual(Array.from(uniformFloat64(keyData(31338), 10)));
  });

  it('split keys are distinct and their 64-bit streams never collide over 2^20 draws', () => {
    const root = keyData(42);
    const nkeys = 16;
    const per = 1 << 16;
    const keys = splitKeyData(root, nkeys);
    const seenKeys = new Set<bigint>([u64(root[0]!, root[1]!)]);
    const seen = new Set<bigint>();
    for (let j = 0; j < nkeys; j++) {
      const kj = keys.subarray(2 * j, 2 * j + 2);
      seenKeys.add(u64(kj[0]!, kj[1]!));
      const { hi, lo } = randomBits64(kj, per);
      for (let i = 0; i < per; i++) seen.add(u64(hi[i]!, lo[i]!));
    }
    expect(seenKeys.size).toBe(nkeys + 1);
    expect(seen.size).toBe(nkeys * per); // expected collisions ~ 3e-8
  });

  it('streams of sibling keys are uncorrelated', () => {
    const keys = splitKeyData(keyData(7), 2);
    const n = 200_000;
    const x = normalFloat64(keys.subarray(0, 2), n);
    const y = normalFloat64(keys.subarray(2, 4), n);
    let sxy = 0;
    for (let i = 0; i < n; i++) sxy += x[i]! * y[i]!;
    expect(Math.abs(sxy / n)).toBeLessThan(5 / Math.sqrt(n));
  });
});

describe('statistics with fixed keys (1e6 draws, 5 standard errors, KS at alpha = 1e-3)', () => {
  it('uniformFloat64', () => {
    const u = uniformFloat64(keyData(11), N);
    const { mean, variance } = meanVar(u);
    expect(Math.abs(mean - 0.5)).toBeLessThan(5 * Math.sqrt(1 / 12 / N));
    // Var(s^2) ~ (mu4 - sigma^4)/n with mu4 = 1/80 for U(0,1).
    expect(Math.abs(variance - 1 / 12)).toBeLessThan(5 * Math.sqrt((1 / 80 - 1 / 144) / N));
    expect(ksStatistic(u, (x) => Math.min(1, Math.max(0, x)))).toBeLessThan(ksCritical(N));
  });

  it('uniformFloat32 on [-2, 3)', () => {
    const u = uniformFloat32(keyData(12), N, -2, 3);
    const { mean, variance } = meanVar(u);
    expect(Math.abs(mean - 0.5)).toBeLessThan(5 * Math.sqrt(25 / 12 / N));
    expect(Math.abs(variance - 25 / 12)).toBeLessThan(5 * Math.sqrt(625 * (1 / 80 - 1 / 144) / N));
    expect(ksStatistic(u, (x) => Math.min(1, Math.max(0, (x + 2) / 5)))).toBeLessThan(ksCritical(N));
  });

  for (const layout of ['partitionable', 'legacy'] as const) {
    it(`normalFloat64 (${layout})`, () => {
      const z = normalFloat64(keyData(13), N, { layout });
      const { mean, variance } = meanVar(z);
      expect(Math.abs(mean)).toBeLessThan(5 / Math.sqrt(N));
      expect(Math.abs(variance - 1)).toBeLessThan(5 * Math.sqrt(2 / N));
      expect(ksStatistic(z, normalCdf)).toBeLessThan(ksCritical(N));
    });
  }

  it('normalFloat32', () => {
    const z = normalFloat32(keyData(14), N);
    const { mean, variance } = meanVar(z);
    expect(Math.abs(mean)).toBeLessThan(5 / Math.sqrt(N));
    expect(Math.abs(variance - 1)).toBeLessThan(5 * Math.sqrt(2 / N));
    expect(ksStatistic(z, normalCdf)).toBeLessThan(ksCritical(N));
  });

  it('bernoulliBits', () => {
    for (const [p, dtype] of [[0.3, 'float64'], [0.9, 'float32']] as const) {
      const b = bernoulliBits(keyData(15), N, p, { dtype });
      let c = 0;
      for (let i = 0; i < N; i++) c += b[i]!;
      expect(Math.abs(c / N - p)).toBeLessThan(5 * Math.sqrt((p * (1 - p)) / N));
    }
    expect(bernoulliBits(keyData(1), 100, 0).every((v) => v === 0)).toBe(true);
    expect(bernoulliBits(keyData(1), 100, 1).every((v) => v === 1)).toBe(true);
  });

  it('randint: in range and chi-square uniform (small span)', () => {
    const r = randint(keyData(16), N, -3, 7);
    const counts = new Array<number>(10).fill(0);
    let outside = 0;
    for (let i = 0; i < N; i++) {
      if (r[i]! < -3 || r[i]! >= 7) outside++;
      else counts[r[i]! + 3]!++;
    }
    expect(outside).toBe(0);
    expect(chiSquare(counts, N / 10)).toBeLessThan(27.877); // chi2(9) at 1e-3
  });

  it('randint: full 32-bit span and a span that is not a power of two', () => {
    const lo = -(2 ** 31);
    const r = randint(keyData(17), N, lo, 2 ** 31);
    const counts = new Array<number>(16).fill(0);
    for (let i = 0; i < N; i++) counts[Math.floor((r[i]! - lo) / 2 ** 28)]!++;
    expect(chiSquare(counts, N / 16)).toBeLessThan(37.697); // chi2(15) at 1e-3
    // span = 3 * 2^29: the three thirds must be equally likely.
    const s = randint(keyData(18), N, 0, 3 * 2 ** 29);
    const thirds = [0, 0, 0];
    for (let i = 0; i < N; i++) thirds[Math.floor(s[i]! / 2 ** 29)]!++;
    expect(chiSquare(thirds, N / 3)).toBeLessThan(13.816); // chi2(2) at 1e-3
  });
});

describe('property tests', () => {
  const seedArb = fc.oneof(
    fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }),
    fc.bigInt({ min: -(2n ** 63n), max: 2n ** 64n - 1n }),
  );

  it('uniformFloat64: any seed and bounds give values in [lo, hi)', () => {
    const bound = fc.double({ min: -1e300, max: 1e300, noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(seedArb, bound, bound, (seed, a, b) => {
        const lo = Math.min(a, b);
        const hi = Math.max(a, b);
        fc.pre(lo < hi && Number.isFinite(hi - lo));
        const u = uniformFloat64(keyData(seed), 64, lo, hi);
        return u.every((v) => v >= lo && v < hi);
      }),
      { numRuns: 300 },
    );
  });

  it('uniformFloat64: narrow ranges where rounding would reach hi stay below it', () => {
    for (const [lo, hi] of [[1, 1 + 2 ** -52], [1e16, 1e16 + 2], [0, 5e-324], [-1e-300, 0], [0.1, 0.10000000000000002]]) {
      if (!(lo! < hi!)) continue;
      const u = uniformFloat64(keyData(3), 4096, lo, hi);
      expect(u.every((v) => v >= lo! && v < hi!)).toBe(true);
    }
  });

  it('uniformFloat32: any seed and float32 bounds give values in [lo, hi)', () => {
    const bound = fc.float({ min: Math.fround(-1e30), max: Math.fround(1e30), noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(seedArb, bound, bound, (seed, a, b) => {
        const lo = Math.min(a, b);
        const hi = Math.max(a, b);
        fc.pre(lo < hi);
        const u = uniformFloat32(keyData(seed), 64, lo, hi);
        return u.every((v) => v >= lo && v < hi);
      }),
      { numRuns: 300 },
    );
  });

  it('randint: any seed and int32 bounds give integers in [lo, hi)', () => {
    fc.assert(
      fc.property(
        seedArb,
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 2 ** 32 }),
        (seed, lo, width) => {
          const hi = Math.min(lo + width, 2 ** 31);
          const r = randint(keyData(seed), 64, lo, hi);
          return r.every((v) => Number.isInteger(v) && v >= lo && v < hi);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('normals are finite for any seed', () => {
    fc.assert(
      fc.property(seedArb, (seed) => normalFloat64(keyData(seed), 64).every(Number.isFinite)),
      { numRuns: 100 },
    );
  });

  it('reduce64Unbiased equals word mod span and rejects exactly the incomplete final block', () => {
    const word = fc.integer({ min: 0, max: 2 ** 32 - 1 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 1, max: 2 ** 32 }), (h, l, span) => {
        const w = u64(h, l);
        const s = BigInt(span);
        const limit = 2n ** 64n - ((2n ** 64n) % s);
        const r = reduce64Unbiased(h, l, span);
        return w >= limit ? r === -1 : r === Number(w % s);
      }),
      { numRuns: 2000 },
    );
    // Words at the very top, where rejection happens: 2^64 mod 3 = 1, so only 2^64 - 1 is rejected.
    expect(reduce64Unbiased(0xffffffff, 0xffffffff, 3)).toBe(-1);
    expect(reduce64Unbiased(0xffffffff, 0xfffffffe, 3)).toBe(Number((2n ** 64n - 2n) % 3n));
    const s = 2 ** 31 + 1; // 2^64 mod s = 4: the top four words are rejected
    for (let d = 1; d <= 5; d++) {
      expect(reduce64Unbiased(0xffffffff, 2 ** 32 - d, s)).toBe(d <= 4 ? -1 : Number((2n ** 64n - BigInt(d)) % BigInt(s)));
    }
  });
});

describe('erfinv (double precision)', () => {
  // Reference values: mpmath.erfinv at 200-bit precision, rounded to binary64.
  const REF: [number, number][] = [
    [1e-300, 8.86226925452758e-301],
    [1e-10, 8.862269254527581e-11],
    [1e-5, 8.862269254759594e-6],
    [0.001, 0.0008862271574665521],
    [0.1, 0.08885599049425769],
    [0.25, 0.2253120550121781],
    [0.5, 0.4769362762044699],
    [0.75, 0.8134198475976185],
    [0.8, 0.9061938024368233],
    [0.85, 1.0179024648320276],
    [0.8999999999999999, 1.1630871536766738],
    [0.9, 1.1630871536766743],
    [0.9000000000000001, 1.1630871536766745],
    [0.95, 1.3859038243496777],
    [0.99, 1.8213863677184494],
    [0.999, 2.3267537655135246],
    [0.999999, 3.458910737275499],
    [0.9999990463256836, 3.465505025803331],
    [0.9999999403953552, 3.832506856900711],
    [0.9999999701976776, 3.919205843636722],
    [0.9999999990686774, 4.328028275800946],
    [0.9999999999990905, 5.05125408524939],
    [0.9999999999999991, 5.686128441310391],
    [0.9999999999999998, 5.805018683193453],
    [0.9999999999999999, 5.8635847487551676],
    [-0.3, -0.2724627147267543],
    [-0.9999, -2.75106390571208],
  ];

  it('is within 2 ulps of mpmath (relative error < 1e-15)', () => {
    for (const [x, want] of REF) {
      const got = erfinv(x);
      const ulp = 2 ** (Math.floor(Math.log2(Math.abs(want))) - 52);
      expect(Math.abs(got - want) / ulp, `erfinv(${x})`).toBeLessThanOrEqual(2);
      expect(Math.abs(got - want) / Math.abs(want)).toBeLessThan(1e-15);
    }
  });

  it('is odd, monotone, and handles the edges', () => {
    expect(erfinv(0)).toBe(0);
    expect(Object.is(erfinv(-0), -0)).toBe(true);
    expect(erfinv(1)).toBe(Infinity);
    expect(erfinv(-1)).toBe(-Infinity);
    expect(erfinv(1.5)).toBeNaN();
    expect(erfinv(Number.NaN)).toBeNaN();
    expect(erfinv(5e-324)).toBe(5e-324);
    let prev = -Infinity;
    for (let i = -1000; i <= 1000; i++) {
      const x = Math.tanh(i / 100); // dense near +-1
      const y = erfinv(x);
      expect(erfinv(-x)).toBe(-y);
      expect(y).toBeGreaterThanOrEqual(prev);
      prev = y;
    }
  });
});

describe('argument checking', () => {
  const k = keyData(0);
  it('rejects bad keys, counts, layouts and parameters with RangeErrors naming them', () => {
    expect(() => randomBits32(new Uint32Array(3), 1)).toThrow(/length 3/);
    expect(() => randomBits32(k, -1)).toThrow(/-1/);
    expect(() => randomBits32(k, 1.5)).toThrow(/1\.5/);
    expect(() => randomBits32(k, 1, { layout: 'bogus' as ThreefryLayout })).toThrow(/bogus/);
    expect(() => splitKeyData(k, 2.5)).toThrow(RangeError);
    expect(() => foldIn(k, 0.5)).toThrow(/0\.5/);
    expect(() => foldIn(k, 2 ** 32)).toThrow(RangeError);
    expect(Array.from(foldIn(k, -1))).toEqual(Array.from(foldIn(k, 0xffffffff)));
    expect(() => uniformFloat64(k, 4, 1, 1)).toThrow(/lo=1, hi=1/);
    expect(() => uniformFloat64(k, 4, -Infinity, 0)).toThrow(RangeError);
    expect(() => uniformFloat64(k, 4, -1e308, 1e308)).toThrow(RangeError);
    expect(() => uniformFloat32(k, 4, 1e-50, 2e-50)).toThrow(/float32/);
    expect(() => bernoulliBits(k, 4, 1.2)).toThrow(/1\.2/);
    expect(() => randint(k, 4, 5, 5)).toThrow(/lo=5, hi=5/);
    expect(() => randint(k, 4, 0, 2 ** 31 + 1)).toThrow(RangeError);
    expect(() => randint(k, 4, 0.5, 3)).toThrow(RangeError);
  });

  it('handles n = 0', () => {
    expect(randomBits32(k, 0).length).toBe(0);
    expect(uniformFloat64(k, 0).length).toBe(0);
    expect(splitKeyData(k, 0).length).toBe(0);
    expect(randint(k, 0, 0, 3).length).toBe(0);
  });
});
