// An awaited cumsum off the main thread, in pieces (issue 14 §4): the native
// backend's compiled cumsum has a runAsync (src/backends/native/opaque.ts)
// that calls opaqueCumsumAsync on 4 MiB pieces, whole outer rows or runs of
// the scanned axis continued by `carry` (the running sum before the piece),
// so each piece's private copies (binding/pins.h) are short. Checked here: the
// carry argument continues the scan bit for bit (sync and async, and its
// errors are the same typed errors both ways), and `await t.data()` of large
// cumsums gives the bits of toArray() while it really went in pieces.
// (The event-loop gap itself: async-event-loop.test.ts.)

import { afterEach, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { requireNativeAddon } from '../../src/backends/native/addon.js';
import { CUMSUM_PIECE_BYTES } from '../../src/backends/native/opaque.js';
import { describeNative, rng } from './native-harness.js';

type Raw = Record<string, (...a: unknown[]) => unknown>;
const raw = () => requireNativeAddon() as unknown as Raw;

function sameBits(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
async function errorOf(f: () => unknown): Promise<unknown> {
  try {
    await f();
  } catch (e) {
    return e;
  }
  return undefined;
}

describeNative('awaited cumsum in pieces', () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  for (const [name, C, scale] of [
    ['float64', Float64Array, 1],
    ['float32', Float32Array, 1],
    ['int32', Int32Array, 1000],
  ] as const) {
    it(`carry continues the scan bit for bit, sync and async (${name})`, async () => {
      const n = 1000,
        inner = 3,
        m = 377;
      const r = rng(1);
      const x = new C(n * inner);
      for (let i = 0; i < x.length; i++) x[i] = Math.round((r() - 0.5) * scale * 1e6) / 1e6;
      const whole = new C(n * inner);
      raw()['opaqueCumsum']!(x, whole, 1, n, inner);
      const tail = whole.subarray(m * inner);
      const carry = whole.slice((m - 1) * inner, m * inner);
      const s = new C((n - m) * inner);
      raw()['opaqueCumsum']!(x.subarray(m * inner), s, 1, n - m, inner, carry);
      expect(sameBits(s, tail)).toBe(true);
      const a = new C((n - m) * inner);
      await raw()['opaqueCumsumAsync']!(x.subarray(m * inner), a, 1, n - m, inner, carry);
      expect(sameBits(a, tail)).toBe(true);
      // In place (out is x) with a carry.
      const y = x.slice(m * inner);
      await raw()['opaqueCumsumAsync']!(y, y, 1, n - m, inner, carry);
      expect(sameBits(y, tail)).toBe(true);
    });
  }

  it('a bad carry: the same typed error from the sync call and the async one', async () => {
    const x = new Float64Array(6),
      out = new Float64Array(6);
    const cases: [unknown[], RegExp, string][] = [
      [[x, out, 2, 3, 1, new Float64Array(1)], /carry needs outer = 1/, 'ShapeError'],
      [[x, out, 1, 6, 1, new Float64Array(2)], /carry has 2 scalars, expected 1/, 'ShapeError'],
      [[x, out, 1, 6, 1, new Float32Array(1)], /carry must be a Float64Array/, 'DTypeError'],
      [[x, out, 1, 3, 2, out.subarray(0, 2)], /out shares memory with carry/, 'ValueError'],
    ];
    for (const [args, msg, kind] of cases) {
      const es = await errorOf(() => raw()['opaqueCumsum']!(...args));
      const ea = await errorOf(() => raw()['opaqueCumsumAsync']!(...args));
      expect((es as Error).message).toMatch(msg);
      expect((ea as Error).message).toBe((es as Error).message);
      expect(ea).toBeInstanceOf((es as object).constructor);
      expect((ea as { rlxKind: string }).rlxKind).toBe(kind);
    }
  });

  it('await data() of large cumsums (rows, runs with carry, float32, int32): the bits of toArray(), computed in pieces', async () => {
    const addon = raw();
    const original = addon['opaqueCumsumAsync']!;
    let calls = 0;
    addon['opaqueCumsumAsync'] = (...a: unknown[]) => {
      calls++;
      return original.apply(addon, a);
    };
    restore = () => {
      addon['opaqueCumsumAsync'] = original;
    };
    const r = rng(2);
    const cases: [string, rlx.Tensor, number][] = [];
    const f64 = (len: number) => Float64Array.from({ length: len }, () => r() - 0.5);
    cases.push(['float64 [1.5e6] (runs of the axis, carried)', rlx.tensor(f64(1.5e6)).on('native').realize(), 0]);
    cases.push(['float64 [2000, 1000] axis 0 (runs of 1000-wide rows, carried)', rlx.tensor(f64(2e6)).reshape([2000, 1000]).on('native').realize(), 0]);
    cases.push(['float32 [6000, 300] axis 1 (whole rows per piece)', rlx.tensor(Float32Array.from({ length: 1.8e6 }, () => r() - 0.5)).reshape([6000, 300]).on('native').realize(), 1]);
    cases.push(['int32 [2.5e6] (wrap-around, carried)', rlx.tensor(Int32Array.from({ length: 2.5e6 }, () => Math.floor((r() - 0.5) * 2 ** 31))).on('native').realize(), 0]);
    for (const [name, x, ax] of cases) {
      expect(x.size * (x.dtype === 'float64' ? 8 : 4), name).toBeGreaterThan(CUMSUM_PIECE_BYTES);
      const want = x.cumsum(ax).toArray() as ArrayLike<number>;
      calls = 0;
      const got = (await x.cumsum(ax).data()) as ArrayLike<number>;
      expect(calls, `${name}: pieces`).toBeGreaterThan(1);
      expect(sameBits(got, want), name).toBe(true);
    }
  }, 60_000);
});
