// Native suite: the C++ backend (cblas GEMM + fused-kernel interpreter), every rlx
// input pinned with .on('native'), side by side in one run with NumPy (Debian,
// same OpenBLAS), rlx on its pure-TS js backend (peer `rlx-js`), and JS peers from
// npm (benchmarks/js-peers/, own package.json, installed on first use): ml-matrix,
// @tensorflow/tfjs-backend-cpu / -wasm (float32 only), @jax-js/jax (wasm device).
// Ratios are peer ÷ rlx-native: > 1 means native rlx is faster.

import { rlxCase } from '../lib/native-cases.mjs';

const N = 10_000_000;
const S = 3; // triad scalar
// JS peers are far from the goal (NumPy) and slow at n >= 512: two runs each.
const js = (c, args) => ({ script: 'peer.mjs', case: c, args, runs: 2 });
const np = (c, args) => ({ script: 'native.py', case: c, args });

function row(id, description, kind, args, timing, peers, extra = {}) {
  return {
    id,
    description,
    timing,
    ...extra,
    rlx: (rlx) => {
      const c = rlxCase(rlx, 'native', kind, args);
      let plan;
      return {
        fn: c.fn,
        afterWarmup: () => {
          const e = c.expr?.();
          if (!e) return;
          const p = rlx.explain(e, { print: false });
          plan = { kernels: p.kernels.length, device: e.device };
        },
        info: () => plan,
      };
    },
    peers,
  };
}

// Warm-up (same rule on every side): V8's tiering of the per-call path (some
// hundreds of calls: at least 300 ms at n <= 512) and the allocator's first
// reuse of freed memory. Runs: rlx and NumPy call the same OpenBLAS GEMM, so the
// true ratio is ~1 and the goal (>= 0.95) sits inside this machine's
// minute-to-minute drift (+-3-8% between two runs of one side); five
// alternating runs (four at 1024, three at 2048) make the median of run
// medians robust to one or two drifted runs.
const mmTiming = (n) =>
  n <= 256 ? { warmup: 30, warmupMs: 300, reps: 15, inner: 2, runs: 3 }
  : n <= 512 ? { warmup: 20, warmupMs: 300, reps: 15, inner: 1, runs: 5 }
  : n <= 1024 ? { warmup: 2, reps: 5, inner: 1, runs: 4 }
  : { warmup: 1, reps: 3, inner: 1, runs: 3 };

const matmulRows = [];
for (const dtype of ['float64', 'float32', 'complex128']) {
  for (const n of [256, 512, 1024, 2048]) {
    const args = { n, dtype };
    const peers = { numpy: np('matmul', args) };
    if (n <= 512) peers['rlx-js'] = js('rlx-js:matmul', args);
    if (dtype === 'float64' && n <= 1024) peers['ml-matrix'] = js('ml-matrix:matmul', args);
    if (dtype === 'float32' && n <= 1024) peers['tfjs-cpu'] = js('tfjs-cpu:matmul', args);
    if (dtype === 'float32') peers['tfjs-wasm'] = js('tfjs-wasm:matmul', args);
    if (dtype !== 'complex128' && n <= 1024) peers['jax-js'] = js('jax-js:matmul', args);
    matmulRows.push(row(`matmul-${dtype}-${n}`, `a.matmul(b).realize(), ${n}×${n} ${dtype}, realized inputs`, 'matmul', args, mmTiming(n), peers));
  }
}

const big = { warmup: 2, reps: 7, inner: 1, runs: 2 };

export default {
  name: 'native',
  description:
    'Native backend (.on("native")): GEMM vs NumPy on the same OpenBLAS, fused elementwise and reductions on 10M float64, broadcast chain, per-call cost of a small cached expression; rlx-js = rlx on its js backend; JS peers from npm.',
  rows: [
    ...matmulRows,
    row('fused-chain-10M', 'sqrt(a*a+b*b)*c+1, 10M float64, fresh expression, realize(); GB/s counts 4 arrays × 80 MB (tfjs: float32, 4 × 40 MB)', 'chain', { n: N }, big,
      { numpy: np('chain', { n: N }), 'rlx-js': js('rlx-js:chain', { n: N }), 'tfjs-cpu': js('tfjs-cpu:chain', { n: N }), 'tfjs-wasm': js('tfjs-wasm:chain', { n: N }), 'jax-js': js('jax-js:chain', { n: N }) },
      { bytes: 4 * 8 * N }),
    row('triad-10M', `STREAM-like triad a + ${S}*b, 10M float64: rlx b.mul(${S}).add(a) (fresh output), NumPy multiply+add into an out= buffer; GB/s counts 3 arrays × 80 MB`, 'triad', { n: N, s: S }, big,
      { numpy: np('triad', { n: N, s: S }), 'rlx-js': js('rlx-js:triad', { n: N, s: S }) },
      { bytes: 3 * 8 * N }),
    row('sum-10M', 'a.sum() over 10M float64', 'sum', { n: N }, { warmup: 3, reps: 15, inner: 1, runs: 2 },
      { numpy: np('sum', { n: N }), 'rlx-js': js('rlx-js:sum', { n: N }) }, { bytes: 8 * N }),
    row('max-10M', 'a.max() over 10M float64', 'max', { n: N }, { warmup: 3, reps: 15, inner: 1, runs: 2 },
      { numpy: np('max', { n: N }), 'rlx-js': js('rlx-js:max', { n: N }) }, { bytes: 8 * N }),
    row('bcast-chain-1000x1000', 'sqrt(abs((m - v) * m + 1)), m 1000×1000, v 1000 (broadcast), float64', 'bcast', { rows: 1000, cols: 1000 }, { warmup: 3, reps: 15, inner: 1, runs: 2 },
      { numpy: np('bcast', { rows: 1000, cols: 1000 }), 'rlx-js': js('rlx-js:bcast', { rows: 1000, cols: 1000 }) }),
    row('cached-5op-100', 'abs(exp(x*2+1)-y) on 100 float64, built and realized afresh each call (compile-cache hit); tfjs float32', 'five_op', { n: 100 },
      { warmup: 20000, reps: 20, inner: 500, runs: 3 },
      { numpy: np('five_op', { n: 100 }), 'rlx-js': js('rlx-js:five_op', { n: 100 }), 'tfjs-cpu': js('tfjs-cpu:five_op', { n: 100 }), 'tfjs-wasm': js('tfjs-wasm:five_op', { n: 100 }), 'jax-js': js('jax-js:five_op', { n: 100 }) }),
  ],
  derived: [
    { id: 'chain vs triad time', num: 'fused-chain-10M', den: 'triad-10M', goal: '≈ 4/3 at equal bandwidth' },
  ],
};
