// The native quant kernels (src/quant/kernels/native.ts over native/src/quant)
// against the js kernels (src/quant/kernels/js.ts, themselves checked against
// BigInt references in int-matmul.test.ts), bit for bit, on every SIMD path
// this CPU has (AVX-512 VNNI, AVX2, scalar: setNativeQuantIsa), on shapes
// whose M, N and K are not multiples of the tiles (8 × 32 VNNI, 6 × 16 AVX2)
// or of the k steps (4, 2), group sizes that are not multiples of 4, batches,
// extreme codes and the int32 bound; then the Async twins, that the ops run
// them on 'native', and the typed errors of both checks (TS and C++).
//
// describeNative: under RLX_REQUIRE_NATIVE=1 a missing addon fails.

import { afterAll, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { jsQuantKernels as J } from '../../src/quant/kernels/js.js';
import { hasNativeQuant, nativeQuantInfo, nativeQuantKernels, setNativeQuantIsa, type NativeQuantKernels, type QuantIsa } from '../../src/quant/kernels/native.js';
import { int4Matmul, int8Matmul, packInt4 } from '../../src/quant/ops/int-matmul.js';
import { DTypeError, ShapeError, ValueError } from '../../src/tensor/errors.js';
import { mulberry32 } from '../harness/prng.js';
import { describeNative } from '../native/native-harness.js';

function ints<T extends Int8Array | Uint8Array>(C: new (n: number) => T, n: number, lo: number, hi: number, seed: number): T {
  const r = mulberry32(seed);
  const out = new C(n);
  for (let i = 0; i < n; i++) out[i] = lo + Math.floor(r() * (hi - lo + 1));
  return out;
}
function floats(n: number, seed: number): Float32Array {
  const r = mulberry32(seed);
  return Float32Array.from({ length: n }, () => (r() - 0.3) * 0.01);
}

// batch, M, N, K (int8); K ragged against 4, 16, 32 and 64, N against 16 and 32, M against 4, 6 and 8;
// M ≤ 16 takes the few-row kernels (qgemv.cc), M = 16 and 17 either side of that boundary.
const INT8_SHAPES: [number, number, number, number][] = [
  [1, 1, 1, 1],
  [1, 16, 40, 1000],
  [1, 17, 33, 100],
  [1, 24, 65, 1002],
  [1, 5, 64, 33],
  [1, 1, 33, 3],
  [1, 7, 31, 5],
  [1, 9, 17, 130],
  [2, 13, 45, 67],
  [1, 64, 64, 64],
  [1, 70, 100, 257],
  [3, 2, 5, 9],
];
// batch, M, N, K, groupSize (int4): groups of 2 and 6 straddle VNNI's k steps of 4.
const INT4_SHAPES: [number, number, number, number, number][] = [
  [1, 1, 1, 2, 2],
  [1, 16, 20, 1000, 200],
  [1, 5, 9, 34, 34],
  [1, 1, 64, 2048, 128],
  [1, 3, 33, 12, 6],
  [1, 9, 17, 64, 32],
  [2, 7, 40, 30, 10],
  [1, 65, 70, 256, 128],
  [1, 1, 100, 128, 2],
  [2, 13, 5, 96, 32],
];

describeNative('native quant kernels', () => {
  const addon = nativeAddon()!;
  it('the addon exports them and says which SIMD path runs', () => {
    expect(hasNativeQuant(addon)).toBe(true);
    const info = nativeQuantInfo()!;
    expect(['avx512vnni', 'avx2', 'scalar']).toContain(info.best);
    expect(info.isa).toBe(info.best);
  });
  const N: NativeQuantKernels = nativeQuantKernels(addon);
  const best = nativeQuantInfo()!.best;
  const paths = (['avx512vnni', 'avx2', 'scalar'] as QuantIsa[]).slice((['avx512vnni', 'avx2', 'scalar'] as QuantIsa[]).indexOf(best));
  afterAll(() => setNativeQuantIsa(best));

  for (const isa of paths) {
    it(`${isa}: int8Matmul equals the js kernel on ragged shapes, batches and extreme codes`, () => {
      expect(setNativeQuantIsa(isa)).toBe(isa);
      for (const [B, M, Nn, K] of INT8_SHAPES) {
        const a = ints(Int8Array, B * M * K, -128, 127, M * 31 + K),
          b = ints(Int8Array, B * Nn * K, -128, 127, Nn * 17 + K);
        const want = new Int32Array(B * M * Nn),
          got = new Int32Array(B * M * Nn).fill(0x5a5a5a5a);
        J.int8Matmul(B, M, Nn, K, a, b, want);
        N.int8Matmul(B, M, Nn, K, a, b, got);
        expect(got, `B=${B} M=${M} N=${Nn} K=${K}`).toEqual(want);
      }
      // −128·−128 on every k at the int32 bound (the VNNI path's +128 shift wraps in between), and −128 against 127.
      const K = 131071;
      const a = new Int8Array(2 * K).fill(-128),
        b = new Int8Array(2 * K).fill(-128);
      b.fill(127, K);
      const got = new Int32Array(4);
      N.int8Matmul(1, 2, 2, K, a, b, got);
      expect([...got]).toEqual([2 ** 31 - 16384, -128 * 127 * K, 2 ** 31 - 16384, -128 * 127 * K]);
      // K = 0: zeros, written (the op's outputs are not zeroed first).
      const z = new Int32Array(6).fill(7);
      N.int8Matmul(1, 2, 3, 0, new Int8Array(0), new Int8Array(0), z);
      expect([...z]).toEqual([0, 0, 0, 0, 0, 0]);
    });

    it(`${isa}: int4Matmul equals the js kernel bit for bit`, () => {
      expect(setNativeQuantIsa(isa)).toBe(isa);
      for (const [B, M, Nn, K, gs] of INT4_SHAPES) {
        const a = ints(Int8Array, B * M * K, -128, 127, M + 7 * K),
          w = ints(Uint8Array, (B * Nn * K) / 2, 0, 255, Nn + gs),
          as = floats(B * M, M + 1),
          ws = floats((B * Nn * K) / gs, Nn + 2);
        const want = new Float32Array(B * M * Nn),
          got = new Float32Array(B * M * Nn).fill(NaN);
        J.int4Matmul(B, M, Nn, K, gs, a, as, w, ws, want);
        N.int4Matmul(B, M, Nn, K, gs, a, as, w, ws, got);
        expect(got, `B=${B} M=${M} N=${Nn} K=${K} group ${gs}`).toEqual(want);
      }
      // extreme codes: −128 · −8 and −128 · 7 over whole groups
      const [M, Nn, K, gs] = [3, 2, 256, 128];
      const a = new Int8Array(M * K).fill(-128);
      const w = packInt4([...new Array(K).fill(-8), ...new Array(K).fill(7)], Nn, K);
      const got = new Float32Array(M * Nn);
      N.int4Matmul(1, M, Nn, K, gs, a, new Float32Array(M).fill(1), w, new Float32Array(Nn * 2).fill(1), got);
      expect([...got]).toEqual([1024 * K, -896 * K, 1024 * K, -896 * K, 1024 * K, -896 * K]);
    });
  }

  it('the Async twins give the same results', async () => {
    const [M, Nn, K, gs] = [5, 37, 64, 32];
    const a = ints(Int8Array, M * K, -128, 127, 1),
      b = ints(Int8Array, Nn * K, -128, 127, 2),
      w = ints(Uint8Array, (Nn * K) / 2, 0, 255, 3),
      as = floats(M, 4),
      ws = floats((Nn * K) / gs, 5);
    const w8 = new Int32Array(M * Nn),
      g8 = new Int32Array(M * Nn),
      w4 = new Float32Array(M * Nn),
      g4 = new Float32Array(M * Nn);
    J.int8Matmul(1, M, Nn, K, a, b, w8);
    J.int4Matmul(1, M, Nn, K, gs, a, as, w, ws, w4);
    await N.int8MatmulAsync(1, M, Nn, K, a, b, g8);
    await N.int4MatmulAsync(1, M, Nn, K, gs, a, as, w, ws, g4);
    expect(g8).toEqual(w8);
    expect(g4).toEqual(w4);
    await expect(N.int8MatmulAsync(1, M, Nn, K, a, b, new Int32Array(1))).rejects.toThrow(ShapeError);
  });

  it("the ops run them on 'native' (same values as on 'js')", () => {
    const [M, Nn, K, gs] = [4, 40, 96, 32];
    const a = ints(Int8Array, M * K, -128, 127, 6),
      b = ints(Int8Array, Nn * K, -128, 127, 7),
      w = ints(Uint8Array, (Nn * K) / 2, 0, 255, 8),
      as = floats(M, 9),
      ws = floats((Nn * K) / gs, 10);
    const on = (d: string) => {
      const t = <T extends Int8Array | Uint8Array | Float32Array>(x: T, shape: number[]) => rlx.tensor(x, { device: d }).reshape(shape);
      return [
        int8Matmul(t(a, [M, K]), t(b, [Nn, K])).toArray(),
        int4Matmul(t(a, [M, K]), t(as, [M]), t(w, [Nn, K / 2]), t(ws, [Nn, K / gs]), { groupSize: gs }).toArray(),
      ];
    };
    expect(on('native')).toEqual(on('js'));
  });

  it('bad calls are typed errors, from the TS checks and from the addon itself', () => {
    const a = new Int8Array(6),
      b = new Int8Array(6),
      out = new Int32Array(4);
    expect(() => N.int8Matmul(1, 2, 2, 3, a, b, new Int32Array(3))).toThrow(ShapeError);
    expect(() => N.int8Matmul(1, 2, 2, 3, new Uint8Array(6) as unknown as Int8Array, b, out)).toThrow(DTypeError);
    expect(() => N.int8Matmul(1, 2, 2, 131072, a, b, out)).toThrow(/k must be an integer in \[0, 131071\]/);
    expect(() => N.int8Matmul(1, 2, 2, 1.5, a, b, out)).toThrow(ShapeError);
    const shared = new Int32Array(8);
    expect(() => N.int8Matmul(1, 2, 2, 3, new Int8Array(shared.buffer, 0, 6), b, new Int32Array(shared.buffer, 0, 4))).toThrow(ValueError);
    expect(() => N.int4Matmul(1, 1, 1, 4, 3, new Int8Array(4), new Float32Array(1), new Uint8Array(2), new Float32Array(1), new Float32Array(1))).toThrow(ShapeError);
    // The addon's own checks (the raw entry points, bypassing the TS ones).
    const raw = addon as unknown as Record<string, (...x: unknown[]) => unknown>;
    expect(() => raw['quantInt8Matmul']!(1, 2, 2, 3, a, b, new Int32Array(3))).toThrow(/out must have length 4, got 3/);
    expect(() => raw['quantInt8Matmul']!(1, 2, 2, 131072, a, b, out)).toThrow(RangeError);
    expect(() => raw['quantInt8Matmul']!(1, 2, 2, 3, new Float32Array(6), b, out)).toThrow(TypeError);
    expect(() => raw['quantInt4Matmul']!(1, 1, 1, 4, 3, new Int8Array(4), new Float32Array(1), new Uint8Array(2), new Float32Array(1), new Float32Array(1))).toThrow(/group must be even/);
    expect(() => raw['quantInt4Matmul']!(1, 1, 1, 6, 4, new Int8Array(6), new Float32Array(1), new Uint8Array(3), new Float32Array(1), new Float32Array(1))).toThrow(/must divide k = 6/);
    expect(() => raw['quantSetIsa']!('sse')).toThrow(/isa must be/);
  });
});
