#!/usr/bin/env node
// Long Matrix Market fuzzing run (the CI-sized run is in tests/sparse/formats/fuzz.test.ts;
// both use tests/sparse/formats/mm-fuzz-core.ts). Every mutated input must give a valid
// matrix or a MatrixMarketError: an untyped error or a crash is a failure, and so is a
// hang — a watchdog in this thread terminates the worker when one input runs longer
// than --hang-ms, then regenerates that input (the mutator is seeded) to print it.
//
//   node scripts/fuzz-mm.mjs [--seconds 600] [--count N] [--seed 1] [--hang-ms 10000]
//
// The TypeScript sources are loaded through Vite's module runner (plain Node cannot
// import .ts). Exit status 0: no crash, no hang, no untyped error.

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { createServer, createServerModuleRunner } from 'vite';

async function loadCore() {
  const server = await createServer({ root: fileURLToPath(new URL('..', import.meta.url)), configFile: false, logLevel: 'silent', server: { middlewareMode: true, hmr: false, ws: false }, optimizeDeps: { noDiscovery: true, include: [] } });
  const runner = createServerModuleRunner(server.environments.ssr, { hmr: false });
  const core = await runner.import('/tests/sparse/formats/mm-fuzz-core.ts');
  return { core, close: async () => (await runner.close(), await server.close()) };
}

/** The i-th input of a run with this seed (the same sequence the worker reads). */
function* inputs(core, seed) {
  const rnd = core.prng(seed);
  for (let i = 0; ; i++) yield core.mutate(core.MM_SEEDS[i % core.MM_SEEDS.length], rnd, { long: true });
}

if (isMainThread) {
  const arg = (name, dflt) => {
    const k = process.argv.indexOf(`--${name}`);
    return k > 0 ? Number(process.argv[k + 1]) : dflt;
  };
  const seconds = arg('seconds', 600), count = arg('count', Infinity), seed = arg('seed', 1), hangMs = arg('hang-ms', 10000);
  const progress = new Int32Array(new SharedArrayBuffer(8)); // [index being read, done flag]
  progress[0] = -1;
  const worker = new Worker(fileURLToPath(import.meta.url), { workerData: { seed, count, seconds, progress } });
  let last = -1, since = Date.now(), summary, failure;
  const done = new Promise((resolve) => {
    worker.on('message', (m) => (m.failure ? (failure = m.failure) : (summary = m)));
    worker.on('error', (e) => ((failure = `worker crashed: ${e.stack ?? e}`), resolve()));
    worker.on('exit', (code) => ((failure ??= code === 0 || summary ? undefined : `worker exited with ${code}`), resolve()));
  });
  const timer = setInterval(async () => {
    const i = Atomics.load(progress, 0);
    if (i !== last) [last, since] = [i, Date.now()];
    else if (i >= 0 && Date.now() - since > hangMs && !failure) {
      failure = `hang: input #${i} ran longer than ${hangMs} ms`;
      await worker.terminate();
      const { core, close } = await loadCore();
      let k = 0;
      for (const text of inputs(core, seed)) {
        if (k++ === i) {
          failure += `: ${core.show(text)}`;
          break;
        }
      }
      await close();
    }
  }, 250);
  await done;
  clearInterval(timer);
  if (summary) console.log(`fuzz-mm: seed ${seed}: ${summary.n} inputs in ${summary.seconds.toFixed(0)} s: ${summary.ok} matrices, ${summary.error} MatrixMarketErrors, slowest input ${summary.slowest.toFixed(0)} ms`);
  if (failure) {
    console.error(`fuzz-mm: FAILED: ${failure}`);
    process.exit(1);
  }
  console.log('fuzz-mm: 0 crashes, 0 hangs, 0 untyped errors');
} else {
  const { seed, count, seconds, progress } = workerData;
  const { core, close } = await loadCore();
  const t0 = performance.now();
  const s = { n: 0, ok: 0, error: 0, slowest: 0 };
  try {
    for (const text of inputs(core, seed)) {
      if (s.n >= count || performance.now() - t0 > seconds * 1000) break;
      Atomics.store(progress, 0, s.n);
      const t = performance.now();
      s[core.readOutcome(text)]++;
      s.slowest = Math.max(s.slowest, performance.now() - t);
      s.n++;
    }
  } catch (e) {
    parentPort.postMessage({ failure: `input #${s.n}: ${e.message}` });
  }
  parentPort.postMessage({ ...s, seconds: (performance.now() - t0) / 1000 });
  await close();
}
