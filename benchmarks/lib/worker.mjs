// Runs ONE run of ONE row's rlx side in a fresh process and prints JSON on the
// last stdout line. Started by run.mjs as:
//   node --expose-gc benchmarks/lib/worker.mjs <suite file> <row id> <timing JSON>
// A fresh process per run keeps rows from sharing JIT state, compile cache or
// heap garbage, and makes "several runs" sample process-to-process variance too.

import { pathToFileURL, fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';
import { checksum } from './inputs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [suiteFile, rowId, timingJson] = process.argv.slice(2);
const timing = JSON.parse(timingJson);

const suite = (await import(pathToFileURL(suiteFile).href)).default;
const row = suite.rows.find((r) => r.id === rowId);
if (!row) throw new Error(`row ${rowId} not in suite ${suite.name}`);
const rlx = await import(pathToFileURL(resolve(here, '../../dist/index.js')).href);

const gc = globalThis.gc ?? (() => {});
const made = await row.rlx(rlx, { timing });
const spec = typeof made === 'function' ? { fn: made } : made;
const { fn } = spec;

let out;
const samples = [];
try {
  spec.before?.();
  // Warm-up: timing.warmup calls, and more until timing.warmupMs have passed
  // (at most 100000): V8 optimizes the per-call JS only after some hundreds
  // of calls of a fast function (with --trace-opt, still unoptimized at calls
  // 41-70 of a 70 µs det), and a row should time the steady state a loop
  // reaches. The Python peers follow the same rule (peers/_bench.py).
  const warmEnd = performance.now() + (timing.warmupMs ?? 0);
  for (let w = 0; w < timing.warmup || (performance.now() < warmEnd && w < 100000); w++) out = fn();
  if (timing.warmupAfterGc) {
    // The forced full GC first, then more warm-up calls, so that whatever V8 recompiles after
    // a full GC is not in the timed samples. Found on the nn training step: the gc() threw
    // away optimized code of jit's per-call path ("reason: weak objects", then wrong-map
    // deopts; --trace-deopt) and V8 recompiled it over ~200 calls on a background thread
    // that took the second core from the multithreaded kernels (steps 1.5-2.9 ms against
    // 1.0). jit, pytree and donation no longer lose that code to a GC
    // (benchmarks/probes/jit-after-gc.mjs shows none), but a few functions are still
    // recompiled after one, and the rows that need the steady state keep this guard.
    gc();
    for (let w = 0; w < timing.warmupAfterGc; w++) out = fn();
    spec.afterWarmup?.();
  } else {
    spec.afterWarmup?.();
    gc();
  }
  for (let i = 0; i < timing.reps; i++) {
    if (timing.gc === 'sample') gc();
    const t0 = process.hrtime.bigint();
    for (let k = 0; k < timing.inner; k++) out = fn();
    const t1 = process.hrtime.bigint();
    samples.push(Number(t1 - t0) / 1e9 / timing.inner);
  }
} finally {
  spec.after?.();
}
const info = spec.info ? spec.info() : undefined;
// Optional spec.result(last output): what is checksummed, computed after timing.
if (spec.result) out = spec.result(out);
const isArr = ArrayBuffer.isView(out) && !(out instanceof DataView);
const mem = process.memoryUsage();
process.stdout.write(
  '\n' +
    JSON.stringify({
      samples,
      checksum: isArr ? checksum(out) : undefined,
      info,
      memory: { rssMB: Math.round(mem.rss / 2 ** 20), arrayBuffersMB: Math.round(mem.arrayBuffers / 2 ** 20) },
    }) +
    '\n',
);
