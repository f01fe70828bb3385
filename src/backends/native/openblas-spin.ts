// How long OpenBLAS's worker threads spin after a BLAS call before they sleep.
//
// An OpenBLAS worker that finishes its share of a GEMM busy-waits for the
// next one, calling sched_yield in a loop, for 2^THREAD_TIMEOUT CPU cycles
// before it blocks; Debian's 0.3.21 spins 2^28 cycles, ~0.1 s. rlx runs its
// own work between BLAS calls: fused elementwise kernels and reductions on its
// thread pool, splatting, FFTs. For the next ~0.1 s after every GEMM, a
// yielding OpenBLAS worker then competes with rlx's threads for the cores
// (on this 2-core machine, perf showed ~13% of a MiniLM forward's samples in
// the kernel's sched_yield/__schedule path). Measured here, each setting in
// alternating runs (MiniLM-shaped encoder forward, nn suite, float32):
// batch 32 968-1147 ms with OpenBLAS's default vs 821-892 ms with 2^18;
// batch 8 243-286 vs 192-242 ms; batch 1 35-45 vs 30-38 ms. Sleeping at once
// (2^4) is wrong the other way: the next call must wake the worker, and a
// 1000×1000 float64 matrix-vector product in a loop went from 64 to 77 µs
// a call; with 2^16-2^20 it stayed at 64-66 µs, as did RK45 on that system
// (solveIvp, integrate suite). 2^18 cycles (~0.1 ms at 2.5 GHz) keeps the
// worker awake across the few microseconds to tens of microseconds between
// the BLAS calls of a loop, and asleep through rlx's own kernels.
//
// OpenBLAS reads OPENBLAS_THREAD_TIMEOUT (log2 of the cycles, 4..30) once,
// when the library initialises, so rlx sets it only while the addon loads
// (load-env.ts). Order: RLX_OPENBLAS_THREAD_TIMEOUT=off (or 0) keeps
// OpenBLAS's own; RLX_OPENBLAS_THREAD_TIMEOUT=<4..30> sets that; otherwise
// OPENBLAS_THREAD_TIMEOUT (or its older name GOTO_THREAD_TIMEOUT) in the
// environment is left to OpenBLAS; otherwise 18. nativeStatus().blasThreadTimeout
// says which and why.

import { withEnvVar } from './load-env.js';

/** log2 of the cycles an idle OpenBLAS worker spins for, unless the user says otherwise. */
export const DEFAULT_THREAD_TIMEOUT = 18;

export interface ThreadTimeoutChoice {
  /** The value rlx sets for OPENBLAS_THREAD_TIMEOUT while the addon loads; undefined: it sets nothing. */
  timeout?: string;
  /** Why (for status output). */
  reason: string;
}

/** The thread timeout to give OpenBLAS, from the environment. Pure, so every branch is testable. */
export function chooseThreadTimeout(env: Readonly<Record<string, string | undefined>>): ThreadTimeoutChoice {
  const mode = env['RLX_OPENBLAS_THREAD_TIMEOUT'];
  if (mode === 'off' || mode === '0') return { reason: `RLX_OPENBLAS_THREAD_TIMEOUT=${mode}: OpenBLAS's own` };
  if (mode !== undefined && mode !== '') {
    const v = Number(mode);
    if (!Number.isInteger(v) || v < 4 || v > 30) return { timeout: String(DEFAULT_THREAD_TIMEOUT), reason: `RLX_OPENBLAS_THREAD_TIMEOUT=${mode} is not an integer in [4, 30] (or off): 2^${DEFAULT_THREAD_TIMEOUT} cycles` };
    return { timeout: String(v), reason: `RLX_OPENBLAS_THREAD_TIMEOUT=${mode}: 2^${v} cycles` };
  }
  for (const name of ['OPENBLAS_THREAD_TIMEOUT', 'GOTO_THREAD_TIMEOUT']) {
    const user = env[name];
    if (user !== undefined && user !== '') return { reason: `${name}=${user} set in the environment` };
  }
  return { timeout: String(DEFAULT_THREAD_TIMEOUT), reason: `2^${DEFAULT_THREAD_TIMEOUT} cycles (rlx's default; RLX_OPENBLAS_THREAD_TIMEOUT=off keeps OpenBLAS's)` };
}

/**
 * Runs `load` (which loads libopenblas) with OPENBLAS_THREAD_TIMEOUT set as
 * chosen, then restores the environment. If OpenBLAS was already loaded in
 * this process, nothing changes.
 */
export function withThreadTimeout<T>(choice: ThreadTimeoutChoice, load: () => T): T {
  return withEnvVar('OPENBLAS_THREAD_TIMEOUT', choice.timeout, load);
}
