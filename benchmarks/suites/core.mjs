// Core suite: what the fusing compiler and the compile cache buy, on the default device
// (native when its addon is built, else js; the native suite pins each side explicitly).
//
// Row shape (see benchmarks/README.md):
//   { id, description, timing?: { warmup, reps, inner, runs, gc },
//     rlx: async (rlx, ctx) => fn | { fn, before?, afterWarmup?, after?, info? },
//     peers: { numpy: { script: 'core.py', case: '<case>', args: {...} } } }
// fn() is the timed call; if it returns a TypedArray, its checksum is compared
// with the peer's result.

import { ramp } from '../lib/inputs.mjs';

const N = 10_000_000;
const SMALL = 100;
const MID = 65536;

/** sqrt(a*a + b*b) * c + 1 on three realized float64 tensors of n elements. */
function chain(rlx, n) {
  const a = rlx.tensor(ramp(n, 1));
  const b = rlx.tensor(ramp(n, 3));
  const c = rlx.tensor(ramp(n, 7));
  // A fresh lazy expression each call, computed with realize() (no copy, like the
  // array NumPy returns). The timed fn hands the harness the realized storage
  // (node.data, internal) so that its checksum is compared with NumPy's.
  const expr = () => a.mul(a).add(b.mul(b)).sqrt().mul(c).add(1);
  return { a, b, c, expr };
}

function kernelsOf(rlx, t) {
  const plan = rlx.explain(t, { print: false });
  return { kernels: plan.kernels.length, peakMB: plan.peakBytes === undefined ? undefined : +(plan.peakBytes / 2 ** 20).toFixed(1) };
}

// gc stays 'run' (one GC before the samples): collecting the 80 MB buffers is part of
// rlx's real cost, so the occasional sample that contains a major GC is kept.
const big = { warmup: 2, reps: 9, inner: 1, runs: 3 };
const mid = { warmup: 500, warmupMs: 1500, reps: 25, inner: 20, runs: 3, gc: 'none' };

export default {
  name: 'core',
  description: 'Fused vs unfused elementwise chains on 10M float64, a chain and a single op on 64k float64, and the per-call cost of a compile-cache hit.',
  rows: [
    {
      id: 'fused-chain-10M',
      description: 'sqrt(a*a+b*b)*c+1, 10M float64, fusion on; fresh expression per call, realize() (no copy)',
      timing: big,
      rlx: (rlx) => {
        const { expr } = chain(rlx, N);
        let plan;
        return {
          fn: () => expr().realize().node.data,
          afterWarmup: () => { plan = kernelsOf(rlx, expr()); },
          info: () => plan,
        };
      },
      peers: { numpy: { script: 'core.py', case: 'chain', args: { n: N } } },
    },
    {
      id: 'unfused-chain-10M',
      description: 'same expression with rlx.config.fusion = false (one kernel per op); NumPy is unfused anyway',
      timing: big,
      rlx: (rlx) => {
        const { expr } = chain(rlx, N);
        const saved = rlx.config.fusion;
        let plan;
        return {
          fn: () => expr().realize().node.data,
          before: () => { rlx.config.fusion = false; },
          afterWarmup: () => { plan = kernelsOf(rlx, expr()); },
          after: () => { rlx.config.fusion = saved; },
          info: () => plan,
        };
      },
      peers: { numpy: { script: 'core.py', case: 'chain', args: { n: N } } },
    },
    // Mid-size arrays (64k float64, 512 KB): each call's output is a fresh ArrayBuffer, written into memory
    // that has left the caches (V8 frees earlier outputs only at a later GC; perf of add-64k: the add loop
    // itself, writing at ~11 GB/s), and V8 counts it as external memory, so its GCs (concurrent marking every
    // ~64 MB of them) also share the 2 cores with the kernels. NumPy frees each array at once and reuses
    // warm memory. gc 'none': the loop's own GCs are in the samples, as they are in a user's loop.
    {
      id: 'fused-chain-64k',
      description: 'sqrt(a*a+b*b)*c+1 on 64k float64 (512 KB), fusion on; fresh expression per call, realize()',
      timing: mid,
      rlx: (rlx) => {
        const { expr } = chain(rlx, MID);
        return () => expr().realize().node.data;
      },
      peers: { numpy: { script: 'core.py', case: 'chain', args: { n: MID } } },
    },
    {
      id: 'add-64k',
      description: 'a + b on 64k float64 (512 KB): one elementwise op, fresh expression per call, realize()',
      timing: mid,
      rlx: (rlx) => {
        const a = rlx.tensor(ramp(MID, 1));
        const b = rlx.tensor(ramp(MID, 3));
        return () => a.add(b).realize().node.data;
      },
      peers: { numpy: { script: 'core.py', case: 'add', args: { n: MID } } },
    },
    {
      id: 'cached-5op-100',
      description: 'abs(exp(x*2+1)-y) on 100 float64, fresh expression per call, realize(); every call after the first is a compile-cache hit',
      // V8 needs ~10k calls to reach steady state; fewer warm-up calls leave tier-up noise in the samples.
      timing: { warmup: 20000, reps: 30, inner: 500, runs: 5 },
      rlx: (rlx, { timing }) => {
        const x = rlx.tensor(ramp(SMALL, 1));
        const y = rlx.tensor(ramp(SMALL, 3));
        rlx.clearCache();
        let s0;
        return {
          fn: () => x.mul(2).add(1).exp().sub(y).abs().realize().node.data,
          afterWarmup: () => { s0 = rlx.cacheStats(); },
          // Counters over the timed calls only: hits should equal timedCalls, misses 0.
          info: () => {
            const s = rlx.cacheStats();
            return { timedCalls: timing.reps * timing.inner, hits: s.hits - s0.hits, misses: s.misses - s0.misses, compiles: s.compiles - s0.compiles, cached: s.size };
          },
        };
      },
      peers: { numpy: { script: 'core.py', case: 'five_op', args: { n: SMALL } } },
    },
    {
      id: 'copy-10M',
      description: 'reference: toArray() (a copy) of an already-realized 10M float64 tensor, vs ndarray.copy()',
      timing: big,
      rlx: (rlx) => {
        const a = rlx.tensor(ramp(N, 1));
        return () => a.toArray();
      },
      peers: { numpy: { script: 'core.py', case: 'copy', args: { n: N } } },
    },
  ],
};
