// Where a solve of the integrate suite's rk45-linear-1000 row spends its time
// inside rlx's process: the native calls (the 1124 matrix-vector products of
// gemmFlat and the interpreter's fused stage kernels) timed one by one, and the rest (the
// step's JS). rk45-inside.py measures the same split inside SciPy's process
// (the dgemv of `A @ y` inside solve_ivp). Run them alternately: this 2-core VM
// drifts by ±10 % within minutes.
//
// Why it exists (issue 15, README "integrate"): both sides spend ~85 % of a
// solve in the same OpenBLAS dgemv. In the runs of 2026-12-04 it took 59-81
// µs a call inside rlx's solve and 57-68 µs inside SciPy's, drifting with the
// machine's load; in a quiet stretch 62-65 against 57-59, while a bare loop
// of gemmFlat in Node and of cblas_dgemv in C took 56-63 µs. The rest of a
// solve costs about the same on both sides (11-18 ms of an 80-100 ms solve).
// What, if anything, slows the dgemv inside rlx's solve was not found:
// OPENBLAS_THREAD_TIMEOUT 18 against 28, V8's background threads and huge
// pages all stayed within the noise.
// Since 2026-12-05 the products run on rlx's own kernel (native/src/gemv.cc):
// 52-54 µs a call inside rlx's solve (median), 56.6 inside SciPy's, the same
// hour; rlx's stage kernels ~4.7 µs a call (median), the step's JS ~4 ms a solve.
// rlx's mean stays 3-5 µs above its median: ~1 call a solve waits a
// millisecond or more (a pool thread preempted, by V8's background compiler
// or GC helpers on this 2-core VM), against ~0.1 in SciPy's.
//
//   node benchmarks/probes/rk45-inside.mjs        (after npm run build and npm run build:native)
//   /usr/bin/python3 benchmarks/probes/rk45-inside.py

import * as rlx from '../../dist/index.js';
import { requireNativeAddon } from '../../dist/backends/native/addon.js';
import { linearMatrix, LINEAR } from '../suites/integrate.mjs';
import { ramp } from '../lib/inputs.mjs';

const addon = requireNativeAddon();
const stats = new Map();
let timing = false;
for (const name of ['gemmFlat', 'interpRun']) {
  const orig = addon[name];
  addon[name] = function (...args) {
    if (!timing) return orig.apply(this, args);
    const t0 = process.hrtime.bigint();
    const r = orig.apply(this, args);
    const us = Number(process.hrtime.bigint() - t0) / 1e3;
    const s = stats.get(name) ?? { calls: 0, us: 0, min: Infinity };
    s.calls++;
    s.us += us;
    s.min = Math.min(s.min, us);
    stats.set(name, s);
    return r;
  };
}

const { n, t1 } = LINEAR;
const A = rlx.tensor(linearMatrix(LINEAR)).reshape([n, n]).realize();
const y0 = rlx.tensor(ramp(n, 1)).realize();
const f = (_t, y) => A.matmul(y);
const solve = () => rlx.integrate.solveIvp(f, [0, t1], y0, { method: 'RK45' });

// The row's steady state: ~15 solves in a fresh process (benchmarks/suites/integrate.mjs).
for (let i = 0; i < 18; i++) solve();
const R = 12;
timing = true;
const t0 = performance.now();
for (let i = 0; i < R; i++) solve();
const perSolve = (performance.now() - t0) / R;
timing = false;
let native = 0;
console.log(`rlx: ${perSolve.toFixed(1)} ms a solve (mean of ${R}, after 18 warm-up solves)`);
for (const [name, s] of stats) {
  native += s.us / R / 1e3;
  console.log(`  ${name}: ${(s.calls / R).toFixed(0)} calls a solve, mean ${(s.us / s.calls).toFixed(1)} µs, min ${s.min.toFixed(1)} µs, ${(s.us / R / 1e3).toFixed(2)} ms a solve`);
}
console.log(`  the rest (the step's JS, the timers): ${(perSolve - native).toFixed(1)} ms a solve`);
