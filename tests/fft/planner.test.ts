// fft.setPlanner / fft.planner / fft.exportWisdom / fft.importWisdom
// (src/fft/planner.ts over native/src/fft/plans.cc): FFTW's planner effort
// and its wisdom. What must hold: a measured plan gives NumPy's values
// (goldens) and leaves the caller's input alone (its trial runs use scratch
// arrays); plans are cached per effort, so going back to 'estimate' reuses
// the earlier plans and gives the same bits; wisdom round-trips and bad
// wisdom or settings are typed errors. The settings checks need no addon.

import { afterEach, describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { clearNativeFftPlans, hasNativeFft, nativeFftInfo, nativeFftKernels } from '../../src/fft/kernels/native.js';
import { DeviceError, ValueError } from '../../src/tensor/errors.js';
import { describeNative } from '../native/native-harness.js';
import { complexInput, expectGolden, golden } from './fft-golden.js';

const { fft } = rlx;
const withFftw = hasNativeFft(nativeAddon());

afterEach(() => {
  fft.setPlanner({ effort: 'estimate', timeLimit: null });
});

describe('fft.setPlanner: settings', () => {
  it('defaults to estimate with no time limit, returns the previous settings, and keeps what it is not given', () => {
    expect(fft.planner()).toEqual({ effort: 'estimate', timeLimit: null });
    expect(fft.setPlanner({ effort: 'measure', timeLimit: 0.5 })).toEqual({ effort: 'estimate', timeLimit: null });
    expect(fft.setPlanner({ timeLimit: 2 })).toEqual({ effort: 'measure', timeLimit: 0.5 });
    expect(fft.planner()).toEqual({ effort: 'measure', timeLimit: 2 });
    fft.setPlanner({ effort: 'patient' });
    expect(fft.planner()).toEqual({ effort: 'patient', timeLimit: 2 });
  });

  it('bad settings are ValueErrors naming what was given, and change nothing', () => {
    expect(() => fft.setPlanner({ effort: 'fast' as never })).toThrow(ValueError);
    expect(() => fft.setPlanner({ effort: 'fast' as never })).toThrow(/effort must be one of 'estimate', 'measure', 'patient', 'exhaustive', got "fast"/);
    for (const t of [0, -1, Number.NaN, Infinity, '1' as never]) expect(() => fft.setPlanner({ timeLimit: t })).toThrow(/timeLimit must be a positive number of seconds or null/);
    expect(() => fft.setPlanner(null as never)).toThrow(ValueError);
    expect(fft.planner()).toEqual({ effort: 'estimate', timeLimit: null });
  });

  it('wisdom without FFTW is a DeviceError; malformed arguments are ValueErrors', () => {
    if (!withFftw) {
      expect(() => fft.exportWisdom()).toThrow(DeviceError);
      expect(() => fft.importWisdom({ float64: '' })).toThrow(DeviceError);
      return;
    }
    expect(() => fft.importWisdom(null as never)).toThrow(ValueError);
    expect(() => fft.importWisdom({ float64: 3 as never })).toThrow(/float64 must be a string, got number/);
  });
});

describeNative('fft.setPlanner: FFTW', () => {
  if (!withFftw) {
    it('the addon was built without FFTW: the setting is recorded and nothing else changes', () => {
      fft.setPlanner({ effort: 'measure' });
      expect(fft.planner().effort).toBe('measure');
    });
    return;
  }
  const K = nativeFftKernels(nativeAddon()!);

  it("the addon's planner follows the setting (fftInfo)", () => {
    fft.setPlanner({ effort: 'measure', timeLimit: 1.5 });
    expect(nativeFftInfo()!.planner).toBe('measure');
    expect(nativeFftInfo()!.plannerTimeLimit).toBe(1.5);
    fft.setPlanner({ effort: 'estimate', timeLimit: null });
    expect(nativeFftInfo()!.planner).toBe('estimate');
    expect(nativeFftInfo()!.plannerTimeLimit).toBe(null);
  });

  it("measured plans give NumPy's values and leave the input alone (their trial runs use scratch arrays)", () => {
    clearNativeFftPlans();
    fft.setPlanner({ effort: 'measure', timeLimit: 0.2 });
    const before = nativeFftInfo()!.created;
    for (const c of golden.cases.filter((g) => [17, 100, 243, 1000, 1009, 1024].includes(g.n))) {
      const x = complexInput(c.n);
      const copy = x.slice();
      const out = new Float64Array(2 * c.n);
      K.c2c('complex128', 1, c.n, x, out, false);
      expect(x, `n = ${c.n}: input untouched`).toEqual(copy);
      expectGolden(`fft ${c.n} (measured plan)`, out, c.fft, true, 1e-13);
      // And through the public API on the native device.
      const t = rlx.complex(rlx.tensor(x.filter((_, i) => i % 2 === 0)), rlx.tensor(x.filter((_, i) => i % 2 === 1))).on('native');
      expectGolden(`fft.fft ${c.n} (measured plan)`, fft.fft(t).realize().node.data as Float64Array, c.fft, true, 1e-13);
    }
    expect(nativeFftInfo()!.created - before).toBeGreaterThanOrEqual(6);
  });

  it("plans are cached per effort: back at 'estimate' the earlier plan runs again, with the same bits", () => {
    clearNativeFftPlans();
    const n = 1000;
    const x = complexInput(n);
    const est = new Float64Array(2 * n),
      meas = new Float64Array(2 * n),
      again = new Float64Array(2 * n);
    K.c2c('complex128', 1, n, x, est, false);
    const i0 = nativeFftInfo()!;
    fft.setPlanner({ effort: 'measure', timeLimit: 0.2 });
    K.c2c('complex128', 1, n, x, meas, false);
    const i1 = nativeFftInfo()!;
    expect(i1.created - i0.created).toBe(1); // a plan of its own
    fft.setPlanner({ effort: 'estimate' });
    K.c2c('complex128', 1, n, x, again, false);
    const i2 = nativeFftInfo()!;
    expect(i2.created - i1.created).toBe(0); // the estimated plan again
    expect(i2.hits - i1.hits).toBe(1);
    expect(again).toEqual(est);
    // The two plans agree to rounding.
    let worst = 0;
    for (let i = 0; i < est.length; i++) worst = Math.max(worst, Math.abs(est[i]! - meas[i]!));
    expect(worst).toBeLessThan(1e-12 * n);
  });

  it("'measure' really searches: planning a new size takes far longer than estimating one (trial transforms)", () => {
    clearNativeFftPlans();
    const plan = (n: number): number => {
      const t0 = performance.now();
      K.c2c('complex128', 1, n, new Float64Array(2 * n), new Float64Array(2 * n), false);
      return performance.now() - t0;
    };
    const estimated = Math.min(plan(1200), plan(1210)); // first calls: each plans its size
    fft.setPlanner({ effort: 'measure' });
    const measured = plan(1220);
    // Measured here: ~0.5 ms estimated, ~90 ms measured for sizes like these.
    expect(measured).toBeGreaterThan(5 * estimated);
  });

  it('wisdom round-trips; text FFTW rejects is a ValueError naming the precision', () => {
    fft.setPlanner({ effort: 'measure', timeLimit: 0.2 });
    K.c2c('complex64', 1, 360, new Float32Array(720), new Float32Array(720), false);
    K.c2c('complex128', 1, 360, new Float64Array(720), new Float64Array(720), false);
    const w = fft.exportWisdom();
    expect(w.float64.startsWith('(fftw-3')).toBe(true);
    expect(w.float32.startsWith('(fftw-3')).toBe(true);
    expect(w.float64).toMatch(/fftw_wisdom/);
    expect(w.float32).toMatch(/fftwf_wisdom/);
    fft.importWisdom(w);
    fft.importWisdom({ float32: w.float32 });
    expect(() => fft.importWisdom({ float64: 'not wisdom' })).toThrow(ValueError);
    expect(() => fft.importWisdom({ float64: 'not wisdom' })).toThrow(/FFTW rejected the float64 wisdom/);
    // Single-precision wisdom is not double-precision wisdom.
    expect(() => fft.importWisdom({ float64: w.float32 })).toThrow(/rejected the float64/);
    expect(() => fft.importWisdom({ float32: 'x\u0000y' })).toThrow(/rejected the float32/);
  });
});
