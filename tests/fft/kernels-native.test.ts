// The FFTW kernels (src/fft/kernels/native.ts over native/src/fft) against two
// independent references: the js kernels (src/fft/kernels/js/, themselves
// checked against a direct DFT and NumPy in kernels-js.test.ts) on many
// lengths, both precisions, batch > 1; and NumPy 1.24's numpy.fft goldens
// (tests/golden/fft/fft.json, gen.py). Then what the binding adds: the Async
// twins, c2r leaving its input alone and ignoring Im X[0] / Im X[n/2], typed
// errors (TS checks and the addon's own), the plan cache, alignment, and
// several awaited transforms in flight at once.
//
// describeNative: under RLX_REQUIRE_NATIVE=1 a missing addon fails. An addon
// built without FFTW (RLX_NO_FFTW=1) has nothing to test here: the block
// checks that the js kernels serve 'native' instead (kernels-register.test.ts).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import type { FloatArray } from '../../src/fft/kernels/contract.js';
import { jsFftKernels as J } from '../../src/fft/kernels/js/index.js';
import { clearNativeFftPlans, hasNativeFft, nativeFftInfo, nativeFftKernels, type NativeFftKernels } from '../../src/fft/kernels/native.js';
import { DTypeError, ShapeError, ValueError } from '../../src/tensor/errors.js';
import { describeNative, REQUIRE_NATIVE, rng } from '../native/native-harness.js';
import { complexInput, expectGolden, f32, golden, halfSpectrum, maxAbs, realInput } from './fft-golden.js';

const addon = nativeAddon();
const withFftw = hasNativeFft(addon);

type Prec = '64' | '32';
const RTOL: Record<Prec, number> = { '64': 1e-12, '32': 1e-5 };
const Ctor = (p: Prec) => (p === '64' ? Float64Array : Float32Array);
const cdt = (p: Prec) => (p === '64' ? 'complex128' : 'complex64');
const rdt = (p: Prec) => (p === '64' ? 'float64' : 'float32');

/** `len` uniform values in [-1, 1) of precision p. */
function random(p: Prec, len: number, seed: number): FloatArray {
  const r = rng(seed);
  const a = new (Ctor(p))(len);
  for (let i = 0; i < len; i++) a[i] = r();
  return a;
}

/** max |got − want| ≤ rtol · max |want| (the scale of a transform's error). */
function expectClose(label: string, got: ArrayLike<number>, want: ArrayLike<number>, rtol: number): void {
  expect(got.length, `${label}: length`).toBe(want.length);
  const scale = Math.max(maxAbs(want), 1e-300);
  let worst = 0,
    at = -1;
  for (let i = 0; i < want.length; i++) {
    const d = Math.abs(got[i]! - want[i]!);
    if (!(d <= worst)) (worst = d), (at = i);
  }
  if (!(worst <= rtol * scale)) throw new Error(`${label}: |Δ| = ${worst} at ${at} (got ${got[at]}, want ${want[at]}) > ${rtol} · ${scale}`);
}

// 1, 2, primes (small, 97 and Bluestein-sized for the js side), powers of two
// (2^16 uses FFTW's threads: ≥ 2^15 points), 1000 = 2³5³, 3·5·7·11, odd and even.
const LENGTHS = [1, 2, 3, 4, 5, 6, 7, 12, 13, 17, 97, 100, 1000, 1009, 1024, 1155, 2049, 4096, 65536];

describeNative('FFTW kernels', () => {
  if (!withFftw) {
    it('the addon was built without FFTW: nothing to compare (the js kernels serve native)', () => {
      expect(addon!.blasInfo().fftw3).toBe(false);
    });
    return;
  }
  const K: NativeFftKernels = nativeFftKernels(addon!);

  describe('agree with the js kernels', () => {
    for (const p of ['64', '32'] as const) {
      for (const n of LENGTHS) {
        const batches = n >= 4096 ? [1, 2] : [1, 3];
        it(`n = ${n}, ${cdt(p)} / ${rdt(p)}, batch ${batches.join(' and ')}: c2c both ways, r2c, c2r`, () => {
          const C = Ctor(p);
          const half = Math.floor(n / 2) + 1;
          for (const batch of batches) {
            const label = `n ${n} batch ${batch} ${p}`;
            const x = random(p, 2 * n * batch, n + 7 * batch);
            for (const inverse of [false, true]) {
              const got = new C(2 * n * batch),
                want = new C(2 * n * batch);
              K.c2c(cdt(p), batch, n, x, got, inverse);
              J.c2c(cdt(p), batch, n, x, want, inverse);
              expectClose(`${label} c2c ${inverse ? 'inverse' : 'forward'}`, got, want, RTOL[p]);
            }
            const r = random(p, n * batch, 3 * n + batch);
            const gotS = new C(2 * half * batch),
              wantS = new C(2 * half * batch);
            K.r2c(rdt(p), batch, n, r, gotS);
            J.r2c(rdt(p), batch, n, r, wantS);
            expectClose(`${label} r2c`, gotS, wantS, RTOL[p]);
            // A random half spectrum: Im X[0] and Im X[n/2] are not 0 (c2r must ignore them, as js does).
            const h = random(p, 2 * half * batch, 5 * n + batch);
            const gotR = new C(n * batch),
              wantR = new C(n * batch);
            K.c2r(rdt(p), batch, n, h, gotR);
            J.c2r(rdt(p), batch, n, h, wantR);
            expectClose(`${label} c2r`, gotR, wantR, RTOL[p]);
          }
        });
      }
    }
  });

  describe('agree with NumPy 1.24 (tests/golden/fft/fft.json)', () => {
    for (const c of golden.cases) {
      const { n } = c;
      const half = Math.floor(n / 2) + 1;
      it(`n = ${n}: fft, ifft, rfft, irfft in float64 and float32`, () => {
        for (const [p, rtol] of [
          ['64', 1e-13],
          ['32', 1e-5],
        ] as const) {
          const conv = p === '64' ? (a: Float64Array) => a : f32;
          const C = Ctor(p);
          const x = conv(complexInput(n));
          const fwd = new C(2 * n),
            inv = new C(2 * n);
          K.c2c(cdt(p), 1, n, x, fwd, false);
          K.c2c(cdt(p), 1, n, x, inv, true);
          expectGolden(`fft ${n} ${cdt(p)}`, fwd, c.fft, true, rtol);
          expectGolden(`ifft ${n} ${cdt(p)}`, inv, c.ifft, true, rtol);
          const spec = new C(2 * half);
          K.r2c(rdt(p), 1, n, conv(realInput(n)), spec);
          expectGolden(`rfft ${n} ${rdt(p)}`, spec, c.rfft, true, rtol);
          const back = new C(n);
          K.c2r(rdt(p), 1, n, conv(halfSpectrum(n)), back);
          expectGolden(`irfft ${n} ${rdt(p)}`, back, c.irfft, false, rtol);
        }
      });
    }
  });

  describe('c2r', () => {
    it('ignores Im X[0] and, for even n, Im X[n/2]: the same bits as with them zeroed', () => {
      for (const p of ['64', '32'] as const)
        for (const n of [1, 2, 7, 8, 1000, 1001]) {
          const half = Math.floor(n / 2) + 1,
            batch = 2;
          const h = random(p, 2 * half * batch, n);
          const zeroed = h.slice();
          for (let b = 0; b < batch; b++) {
            expect(h[2 * half * b + 1]).not.toBe(0);
            zeroed[2 * half * b + 1] = 0;
            if (n % 2 === 0) zeroed[2 * half * b + 2 * (half - 1) + 1] = 0;
          }
          const a = new (Ctor(p))(n * batch),
            z = new (Ctor(p))(n * batch);
          K.c2r(rdt(p), batch, n, h, a);
          K.c2r(rdt(p), batch, n, zeroed, z);
          expect(Array.from(a), `n ${n} ${p}`).toEqual(Array.from(z));
        }
    });

    it('does not modify its input (sync and async)', async () => {
      for (const n of [8, 9, 4096, 65536]) {
        const h = random('64', 2 * (Math.floor(n / 2) + 1), n) as Float64Array;
        const before = h.slice();
        K.c2r('float64', 1, n, h, new Float64Array(n));
        expect(h).toEqual(before);
        await K.c2rAsync('float64', 1, n, h, new Float64Array(n));
        expect(h).toEqual(before);
      }
    });
  });

  describe('Async twins', () => {
    it('c2cAsync, r2cAsync and c2rAsync give the sync results', async () => {
      for (const p of ['64', '32'] as const)
        for (const [n, batch] of [
          [1, 1],
          [97, 3],
          [1024, 4],
          [65536, 1],
        ] as const) {
          const C = Ctor(p),
            half = Math.floor(n / 2) + 1;
          const x = random(p, 2 * n * batch, n),
            r = random(p, n * batch, n + 1),
            h = random(p, 2 * half * batch, n + 2);
          for (const inverse of [false, true]) {
            const s = new C(2 * n * batch),
              a = new C(2 * n * batch);
            K.c2c(cdt(p), batch, n, x, s, inverse);
            await K.c2cAsync(cdt(p), batch, n, x, a, inverse);
            expect(Array.from(a), `c2c ${n} ${p}`).toEqual(Array.from(s));
          }
          const s2 = new C(2 * half * batch),
            a2 = new C(2 * half * batch);
          K.r2c(rdt(p), batch, n, r, s2);
          await K.r2cAsync(rdt(p), batch, n, r, a2);
          expect(Array.from(a2), `r2c ${n} ${p}`).toEqual(Array.from(s2));
          const s3 = new C(n * batch),
            a3 = new C(n * batch);
          K.c2r(rdt(p), batch, n, h, s3);
          await K.c2rAsync(rdt(p), batch, n, h, a3);
          expect(Array.from(a3), `c2r ${n} ${p}`).toEqual(Array.from(s3));
        }
    });

    it('several awaited transforms in flight at once each give their own right result', async () => {
      const jobs = Array.from({ length: 12 }, (_, i) => {
        const n = [4096, 1000, 65536, 1155][i % 4]!,
          batch = 1 + (i % 3);
        const x = random('64', 2 * n * batch, 100 + i) as Float64Array;
        const want = new Float64Array(2 * n * batch);
        J.c2c('complex128', batch, n, x, want, i % 2 === 1);
        return { n, batch, x, want, out: new Float64Array(2 * n * batch), inverse: i % 2 === 1 };
      });
      await Promise.all(jobs.map((j) => K.c2cAsync('complex128', j.batch, j.n, j.x, j.out, j.inverse)));
      jobs.forEach((j, i) => expectClose(`job ${i} (n ${j.n}, batch ${j.batch})`, j.out, j.want, RTOL['64']));
    });

    it('through the public API: awaited fft and rfft of tensors on native, in flight together', async () => {
      const xs = [0, 1, 2, 3].map((i) => random('64', 1 << 15, 200 + i) as Float64Array);
      const pending = xs.map((x, i) => (i % 2 ? rlx.fft.rfft(rlx.tensor(x, { device: 'native' })) : rlx.fft.fft(rlx.tensor(x, { device: 'native' }))).data());
      const got = await Promise.all(pending);
      xs.forEach((x, i) => {
        const n = x.length,
          want = new Float64Array(i % 2 ? 2 * (n / 2 + 1) : 2 * n);
        if (i % 2) J.r2c('float64', 1, n, x, want);
        else {
          const c = new Float64Array(2 * n);
          for (let j = 0; j < n; j++) c[2 * j] = x[j]!;
          J.c2c('complex128', 1, n, c, want, false);
        }
        expectClose(`tensor ${i}`, got[i] as Float64Array, want, RTOL['64']);
      });
    });
  });

  describe('errors', () => {
    const x8 = new Float64Array(16),
      o8 = new Float64Array(16);
    const bad: [string, new (m: string) => Error, (k: NativeFftKernels, async: boolean) => unknown][] = [
      ['dtype not complex for c2c', DTypeError, (k, a) => (a ? k.c2cAsync : k.c2c)('float64' as never, 1, 8, x8, o8, false)],
      ['dtype not real for r2c', DTypeError, (k, a) => (a ? k.r2cAsync : k.r2c)('complex128' as never, 1, 8, x8.subarray(0, 8), o8.subarray(0, 10))],
      ['n = 0', ShapeError, (k, a) => (a ? k.c2cAsync : k.c2c)('complex128', 1, 0, x8, o8, false)],
      ['n not an integer', ShapeError, (k, a) => (a ? k.c2cAsync : k.c2c)('complex128', 1, 7.5, x8, o8, false)],
      ['batch negative', ShapeError, (k, a) => (a ? k.c2cAsync : k.c2c)('complex128', -1, 8, x8, o8, false)],
      ['x too short', ShapeError, (k, a) => (a ? k.c2cAsync : k.c2c)('complex128', 2, 8, x8, new Float64Array(32), false)],
      ['out of the wrong length for c2r', ShapeError, (k, a) => (a ? k.c2rAsync : k.c2r)('float64', 1, 8, new Float64Array(10), new Float64Array(9))],
      ['Float32Array for complex128', DTypeError, (k, a) => (a ? k.c2cAsync : k.c2c)('complex128', 1, 8, new Float32Array(16), o8, false)],
      ['a plain Array', DTypeError, (k, a) => (a ? k.r2cAsync : k.r2c)('float64', 1, 8, [1, 2, 3, 4, 5, 6, 7, 8] as never, new Float64Array(10))],
      ['out overlapping x', ValueError, (k, a) => (a ? k.c2cAsync : k.c2c)('complex128', 1, 4, x8.subarray(0, 8), x8.subarray(4, 12), false)],
      ['inverse not a boolean', ValueError, (k, a) => (a ? k.c2cAsync : k.c2c)('complex128', 1, 8, x8, o8, 1 as never)],
    ];
    for (const [what, Cls, call] of bad) {
      it(`${what}: ${Cls.name}, thrown by the sync kernel and a rejection of the Async one`, async () => {
        expect(() => call(K, false)).toThrow(Cls);
        let p: unknown;
        expect(() => (p = call(K, true))).not.toThrow();
        await expect(p as Promise<void>).rejects.toThrow(Cls);
      });
    }

    it("the addon's own checks (behind the TS ones) carry rlxKind, and the raw async entry point rejects with it", async () => {
      const raw = addon as unknown as Record<string, (...a: unknown[]) => unknown>;
      const cases: [unknown[], string][] = [
        [['float64', 1, 8, x8, o8, false], 'DTypeError'],
        [['complex128', 1, 0, x8, o8, false], 'ShapeError'],
        [['complex128', 1, 8, x8, new Float64Array(15), false], 'ShapeError'],
        [['complex128', 1, 8, new Float32Array(16), o8, false], 'DTypeError'],
        [['complex128', 1, 4, x8.subarray(0, 8), x8.subarray(4, 12), false], 'ValueError'],
        [['complex128', 1, 8, x8, o8], 'ValueError'],
      ];
      for (const [args, kind] of cases) {
        let err: unknown;
        try {
          raw['fftC2c']!(...args);
        } catch (e) {
          err = e;
        }
        expect((err as { rlxKind?: string })?.rlxKind, JSON.stringify(args.map(String))).toBe(kind);
        await expect(raw['fftC2cAsync']!(...args) as Promise<void>).rejects.toMatchObject({ rlxKind: kind });
      }
    });
  });

  describe('plans', () => {
    it('are cached per problem: the same shape reuses its plan, a new batch, length, kind, precision or alignment plans again', () => {
      clearNativeFftPlans();
      const i0 = nativeFftInfo()!;
      expect(i0.plans).toBe(0);
      expect(i0.planner).toBe('estimate');
      const x = new Float64Array(2 * 64 * 2),
        o = new Float64Array(2 * 64 * 2);
      K.c2c('complex128', 2, 64, x, o, false);
      K.c2c('complex128', 2, 64, x, o, false);
      const i1 = nativeFftInfo()!;
      expect(i1.created - i0.created).toBe(1);
      expect(i1.hits - i0.hits).toBe(1);
      K.c2c('complex128', 1, 64, x.subarray(0, 128), o.subarray(0, 128), false); // batch
      K.c2c('complex128', 2, 32, x.subarray(0, 128), o.subarray(0, 128), false); // n
      K.c2c('complex128', 2, 64, x, o, true); // direction
      K.c2c('complex64', 2, 64, new Float32Array(256), new Float32Array(256), false); // precision
      K.r2c('float64', 2, 64, x.subarray(0, 128), o.subarray(0, 132)); // kind
      expect(nativeFftInfo()!.created - i1.created).toBe(5);
      expect(nativeFftInfo()!.plans).toBe(6);
      // An input 8 bytes past FFTW's 16-byte alignment: its own plan, the same values (to rounding).
      const big = new Float64Array(2 * 64 * 2 + 1);
      const r = rng(5);
      for (let i = 0; i < big.length; i++) big[i] = r();
      const shifted = big.subarray(1),
        aligned = shifted.slice();
      const a = new Float64Array(256),
        b = new Float64Array(256);
      const before = nativeFftInfo()!.created;
      K.c2c('complex128', 2, 64, aligned, a, false);
      K.c2c('complex128', 2, 64, shifted, b, false);
      // The aligned call reuses the plan of x, o above (fresh arrays: 16-byte aligned); the shifted one plans.
      expect(nativeFftInfo()!.created - before).toBe(1);
      expectClose('misaligned input', b, a, 1e-15);
    });

    it('fftClearPlans drops them; the cache stays bounded (LRU)', () => {
      clearNativeFftPlans();
      expect(nativeFftInfo()!.plans).toBe(0);
      const info = nativeFftInfo()!;
      for (let n = 1; n <= info.maxPlans + 10; n++) K.c2c('complex128', 1, n, new Float64Array(2 * n), new Float64Array(2 * n), false);
      const after = nativeFftInfo()!;
      expect(after.plans).toBe(info.maxPlans);
      expect(after.evicted - info.evicted).toBe(10);
    });

    it('large transforms are planned with the threads of the addon pool', () => {
      const info = nativeFftInfo()!;
      expect(info.threadMin).toBe(2 ** 15);
      expect(info.threads).toBeGreaterThanOrEqual(1);
      if (REQUIRE_NATIVE) expect(info.threadsOk).toBe(true);
    });
  });
});
