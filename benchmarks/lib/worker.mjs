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
  spec.afterWarmup?.();
  // timing.gc 'none': no forced GC at all. A forced full GC changes how V8 sizes its heap afterwards:
  // after one, the undonated training loop (2.4 MB of new buffers a step) ran a mark-compact every
  // ~15 steps and took 2-3 ms a step, where the same loop without it runs thousands of steps with
  // none at 1.2-1.4 ms (measured with --trace-gc). A loop never calls gc(), so rows that time a
  // loop's steady state say 'none'.
  if (timing.gc !== 'none') gc();
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
