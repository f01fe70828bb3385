// The quant kernels in plain TypeScript: the reference the native kernels are
// checked against (tests/quant/int-matmul*.test.ts), and what runs on 'js'.
// The arithmetic is the contract's (contract.ts) step by step: integer sums in
// int32 (|0 wraps as C's int32 does; within the contract's bounds nothing
// wraps), the int4 group sums scaled and added in float64 in ascending group
// order, one product by the row scale, one rounding to float32.

import type { QuantKernels } from './contract.js';

/** Unpacks batch·n·k/2 bytes of signed 4-bit pairs (low nibble first) into batch·n·k int8 codes. */
function unpackNibbles(w: Uint8Array, count: number): Int8Array {
  const out = new Int8Array(count * 2);
  for (let i = 0; i < count; i++) {
    const v = w[i]!;
    out[2 * i] = ((v & 15) << 28) >> 28;
    out[2 * i + 1] = (v << 24) >> 28;
  }
  return out;
}

export const jsQuantKernels: QuantKernels = {
  int8Matmul(batch, m, n, k, a, b, out) {
    for (let p = 0; p < batch; p++) {
      const a0 = p * m * k,
        b0 = p * n * k,
        o0 = p * m * n;
      for (let i = 0; i < m; i++) {
        const ai = a0 + i * k;
        for (let j = 0; j < n; j++) {
          const bj = b0 + j * k;
          let s = 0;
          for (let t = 0; t < k; t++) s = (s + a[ai + t]! * b[bj + t]!) | 0;
          out[o0 + i * n + j] = s;
        }
      }
    }
  },

  int4Matmul(batch, m, n, k, groupSize, a, aScale, w, wScale, out) {
    const groups = k / groupSize;
    const codes = unpackNibbles(w, (batch * n * k) / 2);
    for (let p = 0; p < batch; p++) {
      const a0 = p * m * k,
        w0 = p * n * k,
        s0 = p * n * groups,
        o0 = p * m * n;
      for (let i = 0; i < m; i++) {
        const ai = a0 + i * k;
        const rowScale = aScale[p * m + i]!;
        for (let j = 0; j < n; j++) {
          const wj = w0 + j * k;
          let acc = 0; // float64
          for (let g = 0; g < groups; g++) {
            let s = 0;
            const lo = g * groupSize;
            for (let t = lo; t < lo + groupSize; t++) s = (s + a[ai + t]! * codes[wj + t]!) | 0;
            acc += wScale[s0 + j * groups + g]! * s;
          }
          out[o0 + i * n + j] = rowScale * acc; // Float32Array: one rounding of the float64 product
        }
      }
    }
  },
};
