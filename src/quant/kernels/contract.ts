// The kernel contract of the quant module: what the js kernels (js.ts) and the
// native kernels (native.ts over native/src/quant/) both implement, so the IR
// ops (src/quant/ops/int-matmul.ts) can run either.
//
// Both kernels multiply `batch` independent problems laid out back to back:
// problem i of a holds a[i·m·k ..], of the weights b[i·n·k ..] (or the packed
// w[i·n·k/2 ..]), of the output out[i·m·n ..], every matrix row-major and
// contiguous. The weights are [n, k] (nn.Linear's [out, in]), so out = a·bᵀ.
// Each kernel writes every element of `out` (a fresh array, never an input).
//
//   int8Matmul  out[m, n] = Σ_k a[m, k]·b[n, k]                      int8 × int8 → int32
//     Exact: int32 accumulation, which cannot overflow while
//     128·128·k ≤ 2³¹ − 1, i.e. k ≤ INT8_MATMUL_MAX_K = 131071
//     ((−128)·(−128)·131072 = 2³¹ is one past int32's largest value). The
//     ops refuse a larger k; a kernel may assume it.
//
//   int4Matmul  out[m, n] = fround(aScale[m] · acc[m, n]),
//               acc[m, n] = Σ_{g = 0, 1, …} wScale[n, g] · s_g[m, n]   (float64, g ascending)
//               s_g[m, n] = Σ_{k in group g} a[m, k]·w4[n, k]          (int32, exact)
//     with w4[n, k] the signed 4-bit code of element k (two per byte of w:
//     k even in the low nibble, k odd in the high one, each nibble a
//     two's-complement value in [−8, 7]) and groups of `groupSize`
//     consecutive k. The float arithmetic is fixed so that every kernel gives
//     the same bits: each product wScale·s_g is exact in float64 (24 + 18
//     bits), the sum runs over g in ascending order in float64 (rounding at
//     each add), then one float64 product aScale·acc, then one rounding to
//     float32. No FMA (native/CMakeLists.txt compiles with -ffp-contract=off).
//
// Kernels never throw for numerical content; a bad argument (a length that
// does not match) is a caller bug and an Error.

/** The quant kernel set (one per device). */
export interface QuantKernels {
  /** out (batch·m·n int32) = a (batch·m·k int8) · bᵀ (b: batch·n·k int8), exact (k ≤ 131071). */
  int8Matmul(batch: number, m: number, n: number, k: number, a: Int8Array, b: Int8Array, out: Int32Array): void;
  /**
   * out (batch·m·n float32) from a (batch·m·k int8 codes), aScale (batch·m),
   * w (batch·n·k/2 packed signed 4-bit codes) and wScale (batch·n·(k/groupSize)),
   * as the file header defines it; groupSize is even and divides k.
   */
  int4Matmul(batch: number, m: number, n: number, k: number, groupSize: number, a: Int8Array, aScale: Float32Array, w: Uint8Array, wScale: Float32Array, out: Float32Array): void;
}

/**
 * The largest inner dimension K that int8Matmul accepts: int32 accumulation
 * is exact while 128·128·K ≤ 2³¹ − 1.
 */
export const INT8_MATMUL_MAX_K = 131071;
