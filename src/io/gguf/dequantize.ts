// Decoding ggml's block-quantized tensor data to float32, transcribed from
// ggml-quants.c's reference decoders (dequantize_row_q8_0, _q4_0, _q4_K):
//   Q8_0: blocks of 32 = f16 scale d, 32 int8 q;        x = q·d
//   Q4_0: blocks of 32 = f16 scale d, 16 bytes;         x = (nibble − 8)·d, byte j's low nibble is
//         element j, its high nibble element j + 16
//   Q4_K: super-blocks of 256 = f16 d, f16 dmin, 12 bytes of eight 6-bit (scale, min) pairs,
//         128 bytes of nibbles; sub-block s of 32: x = (d·scale_s)·nibble − dmin·min_s, bytes
//         32k..32k+31 holding sub-block 2k in their low nibbles and 2k + 1 in their high ones.
// Each result is computed as ggml computes it in float32 (products of an f16
// and a small integer are exact; the one subtraction is rounded once), so the
// values are bit-for-bit ggml's.

import { ensureF16Table } from '../../tensor/half.js';

/** Q8_0 → float32: n elements (a multiple of 32) from n/32 blocks of 34 bytes. */
export function dequantizeQ8_0(src: Uint8Array, n: number): Float32Array {
  const f16 = ensureF16Table();
  const out = new Float32Array(n);
  for (let b = 0, p = 0, o = 0; o < n; b++, p += 34) {
    const d = f16[src[p]! | (src[p + 1]! << 8)]!;
    for (let j = 0; j < 32; j++) out[o++] = ((src[p + 2 + j]! << 24) >> 24) * d;
  }
  return out;
}

/** Q4_0 → float32: n elements (a multiple of 32) from n/32 blocks of 18 bytes. */
export function dequantizeQ4_0(src: Uint8Array, n: number): Float32Array {
  const f16 = ensureF16Table();
  const out = new Float32Array(n);
  for (let p = 0, o = 0; o < n; p += 18, o += 32) {
    const d = f16[src[p]! | (src[p + 1]! << 8)]!;
    for (let j = 0; j < 16; j++) {
      const q = src[p + 2 + j]!;
      out[o + j] = ((q & 0x0f) - 8) * d;
      out[o + j + 16] = ((q >> 4) - 8) * d;
    }
  }
  return out;
}

/** Sub-block j's 6-bit (scale, min) from a Q4_K block's 12 scale bytes at `s` (ggml's get_scale_min_k4). */
function scaleMinK4(src: Uint8Array, s: number, j: number): [number, number] {
  if (j < 4) return [src[s + j]! & 63, src[s + j + 4]! & 63];
  return [(src[s + j + 4]! & 0x0f) | ((src[s + j - 4]! >> 6) << 4), (src[s + j + 4]! >> 4) | ((src[s + j]! >> 6) << 4)];
}

/** Q4_K → float32: n elements (a multiple of 256) from n/256 super-blocks of 144 bytes. */
export function dequantizeQ4_K(src: Uint8Array, n: number): Float32Array {
  const f16 = ensureF16Table();
  const out = new Float32Array(n);
  const f32 = Math.fround;
  for (let p = 0, o = 0; o < n; p += 144) {
    const d = f16[src[p]! | (src[p + 1]! << 8)]!;
    const dmin = f16[src[p + 2]! | (src[p + 3]! << 8)]!;
    for (let k = 0; k < 4; k++) {
      const [sc1, m1] = scaleMinK4(src, p + 4, 2 * k);
      const [sc2, m2] = scaleMinK4(src, p + 4, 2 * k + 1);
      const d1 = f32(d * sc1), min1 = f32(dmin * m1);
      const d2 = f32(d * sc2), min2 = f32(dmin * m2);
      const q = p + 16 + 32 * k;
      // d1·nibble is exact in float32; the difference, computed in double, rounds to float32 as ggml's float subtraction does
      for (let l = 0; l < 32; l++) out[o++] = d1 * (src[q + l]! & 0x0f) - min1;
      for (let l = 0; l < 32; l++) out[o++] = d2 * (src[q + l]! >> 4) - min2;
    }
  }
  return out;
}

/** The ggml types rlx decodes to float32 by dequantization. */
export const DEQUANTIZERS: ReadonlyMap<string, (src: Uint8Array, n: number) => Float32Array> = new Map([
  ['Q8_0', dequantizeQ8_0],
  ['Q4_0', dequantizeQ4_0],
  ['Q4_K', dequantizeQ4_K],
]);
