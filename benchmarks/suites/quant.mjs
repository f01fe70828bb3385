// quant suite (issue 18): the integer GEMMs of quantized inference
// (src/quant/ops/int-matmul.ts) on the native device, next to rlx's own
// float32 matmul at the same size (the goal: int8Matmul at 1024³ at
// least 2× faster than the float32 GEMM) and, as a peer, PyTorch 1.13's
// fbgemm dynamic-quantized Linear (torch.ao.nn.quantized.dynamic.Linear: it
// also quantizes the float activations per call and dequantizes the output, so
// it does a little more than int8Matmul; its result is a float matrix, not
// comparable with the int32 one: no checksum check on those rows).
//
// Rows: int8Matmul and int4Matmul (groups of 128) at M = N = K = 1024; float32
// matmul 1024; the inference shapes M = 1, 8, 128 with K = N = 1024 for both.
// Inputs: fixed integer patterns (codes spread over the whole int8 / int4 range),
// realized before timing; each call realizes its output.

const K = 1024,
  N = 1024,
  GROUP = 128;

/** n int8 codes over [-128, 127] in a fixed pattern. */
const codes8 = (n, k) => Int8Array.from({ length: n }, (_, i) => (((i * 37 + k * 101) % 256) + 256) % 256 - 128);
/** n int4 codes over [-8, 7]. */
const codes4 = (n, k) => Array.from({ length: n }, (_, i) => ((i * 5 + k * 3) % 16) - 8);
const scalesOf = (n, k) => Float32Array.from({ length: n }, (_, i) => 0.001 + ((i * 7 + k) % 13) * 1e-4);

/** The quant namespace (the public API users call). */
const quantOf = async (rlx) => rlx.quant;

const timingOf = (m) => (m <= 8 ? { warmup: 30, reps: 15, inner: 10, runs: 3 } : m <= 128 ? { warmup: 10, reps: 11, inner: 3, runs: 3 } : { warmup: 3, reps: 9, inner: 1, runs: 3 });

function int8Row(M) {
  return {
    id: `int8-matmul-m${M}`,
    description: `int8Matmul: int8 [${M}, ${K}] · int8 [${N}, ${K}]ᵀ → int32 (exact); torch: dynamic-quantized Linear(${K}, ${N}) on float [${M}, ${K}] (fbgemm, or onednn where torch lacks fbgemm as Debian's 1.13 does; quantizes the input per call; check n/a)`,
    timing: timingOf(M),
    rlx: async (rlx) => {
      const q = await quantOf(rlx);
      const a = rlx.tensor(codes8(M * K, 1), { dtype: 'int8', shape: [M, K] }).realize();
      const b = rlx.tensor(codes8(N * K, 2), { dtype: 'int8', shape: [N, K] }).realize();
      return () => q.int8Matmul(a, b).realize().node.data;
    },
    peers: { torch: { script: 'quant.py', case: 'dynamic_linear', args: { M, K, N } } },
  };
}

function int4Row(M) {
  return {
    id: `int4-matmul-m${M}-g${GROUP}`,
    description: `int4Matmul: int8 codes [${M}, ${K}] (row scales) · packed int4 [${N}, ${K}/2]ᵀ with float32 scales per ${GROUP} k → float32`,
    timing: timingOf(M),
    rlx: async (rlx) => {
      const q = await quantOf(rlx);
      const a = rlx.tensor(codes8(M * K, 3), { dtype: 'int8', shape: [M, K] }).realize();
      const as = rlx.tensor(scalesOf(M, 1), { dtype: 'float32', shape: [M] }).realize();
      const w = rlx.tensor(q.packInt4(codes4(N * K, 4), N, K), { dtype: 'uint8', shape: [N, K / 2] }).realize();
      const ws = rlx.tensor(scalesOf((N * K) / GROUP, 2), { dtype: 'float32', shape: [N, K / GROUP] }).realize();
      return () => q.int4Matmul(a, as, w, ws, { groupSize: GROUP }).realize().node.data;
    },
  };
}

export default {
  name: 'quant',
  description: "Integer GEMMs for quantized inference on the native device: int8Matmul (exact int32) and int4Matmul (group 128) at 1024³ and at the inference shapes M = 1, 8, 128 (K = N = 1024), rlx's float32 matmul 1024³ for the issue's goal (int8 ≥ 2× float32), PyTorch's fbgemm dynamic-quantized Linear as the int8 peer.",
  rows: [
    int8Row(1024),
    {
      id: 'f32-matmul-1024',
      description: `rlx float32 matmul [1024, 1024] · [1024, 1024] (OpenBLAS sgemm): the baseline of the goal int8-matmul-m1024 ≤ ½ of this; torch: torch.mm`,
      timing: timingOf(1024),
      checkRtol: 1e-4,
      rlx: (rlx) => {
        const v = (n, k) => Float32Array.from({ length: n }, (_, i) => (((i * 37 + k * 101) % 256) - 128) / 128);
        const a = rlx.tensor(v(1024 * 1024, 1), { shape: [1024, 1024], dtype: 'float32' }).realize();
        const b = rlx.tensor(v(1024 * 1024, 2), { shape: [1024, 1024], dtype: 'float32' }).realize();
        return () => rlx.matmul(a, b).realize().node.data;
      },
      peers: { torch: { script: 'quant.py', case: 'mm_f32', args: { n: 1024 } } },
    },
    int4Row(1024),
    int8Row(1),
    int8Row(8),
    int8Row(128),
    int4Row(1),
    int4Row(8),
    int4Row(128),
  ],
};
