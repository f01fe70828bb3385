// The quant ops int8Matmul and int4Matmul (src/quant/ops/int-matmul.ts) and
// their js kernels, against references written here from the definitions:
// int8 products summed in BigInt (exact, no int32 anywhere), int4 codes decoded
// from the nibbles by hand (v ≥ 8 ? v − 16 : v) with the group sums in BigInt
// and the contract's float steps (float64 sum over groups in ascending order,
// one float64 product by the row scale, one rounding to float32). Then edge
// shapes, extreme codes, the K bound, typed errors, vmap (the kernels' batch
// path) and the missing derivative rules.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { int4Matmul, int8Matmul, packInt4, unpackInt4, INT8_MATMUL_MAX_K } from '../../src/quant/ops/int-matmul.js';
import { jsQuantKernels as J } from '../../src/quant/kernels/js.js';
import { DTypeError, ShapeError, TransformError, ValueError } from '../../src/tensor/errors.js';
import { mulberry32 } from '../harness/prng.js';
import { DEVICES } from '../harness/devices.js';

/** n integers uniform in [lo, hi]. */
function ints(n: number, lo: number, hi: number, seed: number): number[] {
  const r = mulberry32(seed);
  return Array.from({ length: n }, () => lo + Math.floor(r() * (hi - lo + 1)));
}

/** out[m][n] = Σ_k a[m,k]·b[n,k] in BigInt, as numbers (row-major, M·N). */
function refInt8(M: number, N: number, K: number, a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let m = 0; m < M; m++)
    for (let n = 0; n < N; n++) {
      let s = 0n;
      for (let k = 0; k < K; k++) s += BigInt(a[m * K + k]!) * BigInt(b[n * K + k]!);
      out.push(Number(s));
    }
  return out;
}

/** The nibble of element k of row n of packed [N, K/2] bytes, decoded by hand. */
const nibble = (w: ArrayLike<number>, K: number, n: number, k: number): number => {
  const byte = w[n * (K / 2) + (k >> 1)]!;
  const v = k % 2 === 0 ? byte % 16 : Math.floor(byte / 16);
  return v >= 8 ? v - 16 : v;
};

function refInt4(M: number, N: number, K: number, gs: number, a: ArrayLike<number>, aScale: ArrayLike<number>, w: ArrayLike<number>, wScale: ArrayLike<number>): number[] {
  const G = K / gs;
  const out: number[] = [];
  for (let m = 0; m < M; m++)
    for (let n = 0; n < N; n++) {
      let acc = 0;
      for (let g = 0; g < G; g++) {
        let s = 0n;
        for (let k = g * gs; k < (g + 1) * gs; k++) s += BigInt(a[m * K + k]!) * BigInt(nibble(w, K, n, k));
        acc += wScale[n * G + g]! * Number(s);
      }
      out.push(Math.fround(aScale[m]! * acc));
    }
  return out;
}

const i8 = (v: number[], shape: number[], device = 'js') => rlx.tensor(Int8Array.from(v), { dtype: 'int8', device }).reshape(shape);
const f32 = (v: number[], shape: number[], device = 'js') => rlx.tensor(Float32Array.from(v), { dtype: 'float32', device }).reshape(shape);
const u8 = (v: Uint8Array, shape: number[], device = 'js') => rlx.tensor(v, { dtype: 'uint8', device }).reshape(shape);

/** Random scales that are not round numbers (float32 values). */
const scales = (n: number, seed: number) => ints(n, 1, 1 << 20, seed).map((v) => Math.fround(v / 977 / 4096));

describe('packInt4 / unpackInt4', () => {
  it('packs by the layout (low nibble = even k) and round-trips every code', () => {
    expect([...packInt4([1, 7, -8, -1], 1, 4)]).toEqual([0x71, 0xf8]);
    const codes: number[] = [];
    for (let lo = -8; lo <= 7; lo++) for (let hi = -8; hi <= 7; hi++) codes.push(lo, hi);
    const p = packInt4(codes, 16, 32);
    expect(p.length).toBe(256);
    expect(new Set(p).size).toBe(256); // every byte value once
    for (let k = 0; k < codes.length; k++) expect(nibble(p, 32, Math.floor(k / 32), k % 32)).toBe(codes[k]);
    expect([...unpackInt4(p, 16, 32)]).toEqual(codes);
    expect([...packInt4(Int8Array.from([-8, 7]), 1, 2)]).toEqual([0x78]);
  });
  it('throws typed errors for bad codes and shapes', () => {
    expect(() => packInt4([8, 0], 1, 2)).toThrow(ValueError);
    expect(() => packInt4([-9, 0], 1, 2)).toThrow(/\[-8, 7\], got -9 at index 0/);
    expect(() => packInt4([0.5, 0], 1, 2)).toThrow(ValueError);
    expect(() => packInt4([0, 0, 0], 1, 3)).toThrow(ShapeError);
    expect(() => packInt4([0, 0], 2, 2)).toThrow(/expects N·K = 4 codes/);
    expect(() => unpackInt4(new Uint8Array(3), 1, 4)).toThrow(ShapeError);
    expect(() => unpackInt4(new Uint8Array(1), 1, 3)).toThrow(ShapeError);
  });
});

describe('int8Matmul', () => {
  it.each([
    [1, 1, 1],
    [3, 5, 7],
    [1, 9, 33],
    [17, 1, 64],
    [6, 13, 129],
  ])('M=%i N=%i K=%i matches the BigInt reference (js kernel, and the op on every device)', (M, N, K) => {
    const a = ints(M * K, -128, 127, M * 1000 + K),
      b = ints(N * K, -128, 127, N * 7 + K);
    const want = refInt8(M, N, K, a, b);
    const out = new Int32Array(M * N);
    J.int8Matmul(1, M, N, K, Int8Array.from(a), Int8Array.from(b), out);
    expect([...out]).toEqual(want);
    for (const d of DEVICES) {
      const y = int8Matmul(i8(a, [M, K], d), i8(b, [N, K], d));
      expect(y.dtype).toBe('int32');
      expect(y.shape).toEqual([M, N]);
      expect([...(y.toArray() as Int32Array)]).toEqual(want);
    }
  });

  it('extreme codes: all −128 (the largest sum, 16384·K) and −128 against 127', () => {
    const K = 1000;
    const y = int8Matmul(i8(new Array(2 * K).fill(-128), [2, K]), i8([...new Array(K).fill(-128), ...new Array(K).fill(127)], [2, K]));
    expect(y.tolist()).toEqual([
      [16384 * K, -16256 * K],
      [16384 * K, -16256 * K],
    ]);
  });

  it('leading dims of a fold into rows: [2, 3, M, K] → [2, 3, M, N]', () => {
    const [B1, B2, M, N, K] = [2, 3, 2, 4, 5];
    const a = ints(B1 * B2 * M * K, -128, 127, 11),
      b = ints(N * K, -128, 127, 12);
    const y = int8Matmul(i8(a, [B1, B2, M, K]), i8(b, [N, K]));
    expect(y.shape).toEqual([B1, B2, M, N]);
    expect([...(y.toArray() as Int32Array)]).toEqual(refInt8(B1 * B2 * M, N, K, a, b));
  });

  it('vmap over the weights runs the kernel batched (one problem per entry)', () => {
    const [B, M, N, K] = [3, 2, 3, 6];
    const a = ints(M * K, -128, 127, 21),
      bs = ints(B * N * K, -128, 127, 22);
    const y = rlx.vmap((w: rlx.Tensor) => int8Matmul(i8(a, [M, K]), w))(i8(bs, [B, N, K]));
    expect(y.shape).toEqual([B, M, N]);
    const want = [0, 1, 2].flatMap((p) => refInt8(M, N, K, a, bs.slice(p * N * K, (p + 1) * N * K)));
    expect([...(y.toArray() as Int32Array)]).toEqual(want);
  });

  it('K at the int32 bound is exact; one past it is a ShapeError', () => {
    const K = INT8_MATMUL_MAX_K;
    expect(K).toBe(131071);
    const y = int8Matmul(i8(new Array(K).fill(-128), [1, K]), i8(new Array(K).fill(-128), [1, K]));
    expect(y.item()).toBe(2 ** 31 - 16384); // 128·128·131071 ≤ 2^31 − 1
    expect(() => int8Matmul(rlx.zeros([1, K + 1], { dtype: 'int8' }), rlx.zeros([1, K + 1], { dtype: 'int8' }))).toThrow(ShapeError);
    expect(() => int8Matmul(rlx.zeros([1, K + 1], { dtype: 'int8' }), rlx.zeros([1, K + 1], { dtype: 'int8' }))).toThrow(/quant.int8Matmul: K = 131072 is too large/);
  });

  it('wrong dtypes and shapes are typed errors naming the op', () => {
    const a = i8([1, 2, 3, 4, 5, 6], [2, 3]);
    expect(() => int8Matmul(a.cast('int32'), a)).toThrow(DTypeError);
    expect(() => int8Matmul(a.cast('int32'), a)).toThrow(/quant.int8Matmul: a must be int8 \[\.\.\., M, K\], got int32 \[2, 3\]/);
    expect(() => int8Matmul(a, a.cast('uint8'))).toThrow(/b must be int8 \[N, K\], got uint8/);
    expect(() => int8Matmul(a, i8([1, 2], [1, 2]))).toThrow(ShapeError);
    expect(() => int8Matmul(a, i8([1, 2], [1, 2]))).toThrow(/K = 3.*got b \[1, 2\] for a \[2, 3\]/);
    expect(() => int8Matmul(a, i8([1, 2, 3], [1, 1, 3]))).toThrow(/b must be \[N, K\] \(2 dims/);
    expect(() => int8Matmul(i8([1, 2, 3], [3]), a)).toThrow(/at least 2 dims/);
  });

  it('integer in, integer out: no tangent reaches it (as for any int32 op), so grad through a cast to int8 is 0', () => {
    // The op has no rules at all (quant.int4Matmul's test shows the TransformError a
    // float path into such an op gets); here autodiff never asks: the cast to int8
    // carries no tangent, and the derivative of a cast to an integer is 0 wherever it exists.
    const a = i8([1, 2, 3, 4], [2, 2]);
    const f = (x: rlx.Tensor) => int8Matmul(x.cast('int8'), a).cast('float32').sum();
    const x = f32([1, 2, 3, 4], [2, 2]);
    expect([...((rlx.grad(f)(x) as rlx.Tensor).toArray() as Float32Array)]).toEqual([0, 0, 0, 0]);
  });
});

describe('int4Matmul', () => {
  it.each([
    // M, N, K, groupSize
    [1, 1, 2, 2],
    [3, 5, 8, 4],
    [1, 7, 64, 32],
    [9, 4, 96, 32],
    [5, 3, 24, 6],
    [2, 11, 256, 128],
  ])('M=%i N=%i K=%i group %i matches the reference bit for bit (js kernel, and the op on every device)', (M, N, K, gs) => {
    const a = ints(M * K, -128, 127, M + K),
      codes = ints(N * K, -8, 7, N + gs);
    const w = packInt4(codes, N, K);
    const as = scales(M, 3 + M),
      ws = scales((N * K) / gs, 5 + N).map((v, i) => (i % 3 === 1 ? -v : v));
    const want = refInt4(M, N, K, gs, a, as, w, ws);
    const out = new Float32Array(M * N);
    J.int4Matmul(1, M, N, K, gs, Int8Array.from(a), Float32Array.from(as), w, Float32Array.from(ws), out);
    expect([...out]).toEqual(want);
    for (const d of DEVICES) {
      const y = int4Matmul(i8(a, [M, K], d), f32(as, [M], d), u8(w, [N, K / 2], d), f32(ws, [N, K / gs], d), { groupSize: gs });
      expect(y.dtype).toBe('float32');
      expect([...(y.toArray() as Float32Array)]).toEqual(want);
    }
  });

  it('extreme codes: −128 · −8 over a whole group, unit scales, exactly 1024·K', () => {
    const [M, N, K, gs] = [2, 2, 256, 128];
    const w = packInt4([...new Array(K).fill(-8), ...new Array(K).fill(7)], N, K);
    const y = int4Matmul(i8(new Array(M * K).fill(-128), [M, K]), f32([1, 1], [M]), u8(w, [N, K / 2]), f32([1, 1, 1, 1], [N, 2]), { groupSize: gs });
    expect(y.tolist()).toEqual([
      [1024 * K, -896 * K],
      [1024 * K, -896 * K],
    ]);
  });

  it('the float arithmetic is the contract\'s: groups summed in float64, one rounding', () => {
    // Two groups whose scaled sums cancel to below float32's resolution of either:
    // 2^30·1 + (−2^30 + 1)·1 summed in float64 gives 1 exactly (float32 accumulation would give 0 or 2^30).
    const K = 4,
      gs = 2;
    const a = i8([1, 0, 1, 0], [1, K]);
    const w = u8(packInt4([1, 0, 1, 0], 1, K), [1, 2]);
    const y = int4Matmul(a, f32([1], [1]), w, f32([2 ** 30, -(2 ** 30 - 64)], [1, 2]), { groupSize: gs });
    expect(y.item()).toBe(64);
  });

  it('leading dims fold into rows; aScale follows a\'s leading dims', () => {
    const [B, M, N, K, gs] = [2, 3, 4, 8, 4];
    const a = ints(B * M * K, -128, 127, 31),
      w = packInt4(ints(N * K, -8, 7, 32), N, K),
      as = scales(B * M, 33),
      ws = scales((N * K) / gs, 34);
    const y = int4Matmul(i8(a, [B, M, K]), f32(as, [B, M]), u8(w, [N, K / 2]), f32(ws, [N, K / gs]), { groupSize: gs });
    expect(y.shape).toEqual([B, M, N]);
    expect([...(y.toArray() as Float32Array)]).toEqual(refInt4(B * M, N, K, gs, a, as, w, ws));
  });

  it('vmap over the weights and their scales (the kernels\' batch path)', () => {
    const [B, M, N, K, gs] = [2, 3, 2, 8, 4];
    const a = ints(M * K, -128, 127, 41),
      codes = ints(B * N * K, -8, 7, 42),
      as = scales(M, 43),
      ws = scales((B * N * K) / gs, 44);
    const w = packInt4(codes, B * N, K);
    const y = rlx.vmap((wp: rlx.Tensor, sp: rlx.Tensor) => int4Matmul(i8(a, [M, K]), f32(as, [M]), wp, sp, { groupSize: gs }))(u8(w, [B, N, K / 2]), f32(ws, [B, N, K / gs]));
    const per = (N * K) / 2,
      sper = (N * K) / gs;
    const want = [0, 1].flatMap((p) => refInt4(M, N, K, gs, a, as, w.subarray(p * per, (p + 1) * per), ws.slice(p * sper, (p + 1) * sper)));
    expect([...(y.toArray() as Float32Array)]).toEqual(want);
  });

  it('wrong dtypes, shapes and group sizes are typed errors naming the op', () => {
    const [M, N, K] = [2, 3, 8];
    const a = i8(new Array(M * K).fill(1), [M, K]),
      as = f32([1, 1], [M]),
      w = u8(new Uint8Array((N * K) / 2), [N, K / 2]),
      ws = f32(new Array(N * 2).fill(1), [N, 2]);
    const call = (x = a, s = as, ww = w, wws = ws, gs: unknown = 4) => () => int4Matmul(x, s, ww, wws, { groupSize: gs as number });
    expect(call()).not.toThrow();
    expect(call(a.cast('uint8'))).toThrow(DTypeError);
    expect(call(a.cast('uint8'))).toThrow(/quant.int4Matmul: a must be int8 codes/);
    expect(call(a, as.cast('float64'))).toThrow(/aScale must be float32 \[\.\.\., M\], got float64/);
    expect(call(a, as, w.cast('int8'))).toThrow(/w must be uint8 \[N, K\/2\]/);
    expect(call(a, as, w, ws.cast('float16'))).toThrow(/wScale must be float32/);
    expect(call(a, f32([1, 1, 1], [3]))).toThrow(ShapeError);
    expect(call(a, f32([1, 1, 1], [3]))).toThrow(/aScale must be \[\.\.\., M\] = \[2\].*got \[3\]/);
    expect(call(a, as, u8(new Uint8Array(N * K), [N, K]))).toThrow(/w must be \[N, K\/2\] = \[N, 4\].*got \[3, 8\]/);
    expect(call(a, as, w, f32(new Array(N * 4).fill(1), [N, 4]))).toThrow(/wScale must be \[N, K\/groupSize\] = \[3, 2\].*got \[3, 4\]/);
    expect(call(a, as, w, ws, 3)).toThrow(ValueError);
    expect(call(a, as, w, ws, 0)).toThrow(/groupSize must be an even integer/);
    expect(call(a, as, w, ws, 6)).toThrow(/groupSize 6 must divide K = 8/);
    expect(() => int4Matmul(a, as, w, ws, {} as { groupSize: number })).toThrow(ValueError);
    expect(call(a, as, u8(new Uint8Array((N * K) / 2), [1, N, K / 2]))).toThrow(/w must be \[N, K\/2\] \(2 dims\)/);
  });

  it('has no derivative rules: grad through the float scales is a TransformError naming it', () => {
    const [M, N, K] = [1, 1, 4];
    const a = i8([1, 2, 3, 4], [M, K]),
      w = u8(packInt4([1, -1, 2, -2], N, K), [N, K / 2]);
    const f = (as: rlx.Tensor, ws: rlx.Tensor) => int4Matmul(a, as, w, ws, { groupSize: 2 }).sum();
    const as = f32([0.5], [M]),
      ws = f32([1, 2], [N, 2]);
    expect(() => rlx.grad(f)(as, ws)).toThrow(TransformError);
    expect(() => rlx.grad(f)(as, ws)).toThrow(/vjp: registered op 'quant.int4Matmul' has no VJP rule/);
    expect(() => rlx.grad(f, { argnums: 1 })(as, ws)).toThrow(/quant.int4Matmul/);
    expect(() => rlx.jvp((s: rlx.Tensor) => f(s, ws), [as], [as])).toThrow(/jvp: registered op 'quant.int4Matmul' has no JVP rule/);
  });
});
