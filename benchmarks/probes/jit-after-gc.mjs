// What a full GC does to a jitted training loop: the donated MLP Adam step of
// the nn suite, 1000 steps, a forced gc(), then 250 more in blocks of 10.
// Prints the block times and, from a child run with --trace-deopt /
// --trace-opt, the deoptimizations and TurboFan compiles after the GC.
//
// Why it exists (ARCHITECTURE, "Decisions"): V8 used to discard the optimized
// code of jit's per-call path at a full GC ("reason: weak objects", then
// wrong-map deopts from HOLEY arrays made by unoptimized Array.prototype.map)
// and spent ~200 steps recompiling it on a background thread, which on two
// cores slowed the multithreaded kernels (1.5-2.9 ms steps against 1.0).
// After the fix (pytree.ts, donation.ts, jit.ts), this should print no
// deoptimizations after the GC.
//
//   node --expose-gc benchmarks/probes/jit-after-gc.mjs

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
if (process.argv[2] === '--child') {
  const rlx = await import('../../dist/index.js');
  const suite = (await import('../suites/nn.mjs')).default;
  const spec = suite.rows.find((r) => r.id === (process.env.ROW ?? 'mlp-train-step-b128-donated')).rlx(rlx);
  for (let i = 0; i < 1000; i++) spec.fn();
  console.log('MARK gc');
  globalThis.gc();
  const blocks = [];
  for (let b = 0; b < 25; b++) {
    const t = performance.now();
    for (let k = 0; k < 10; k++) spec.fn();
    blocks.push(((performance.now() - t) / 10).toFixed(2));
  }
  console.log('BLOCKS', blocks.join(' '));
} else {
  const r = spawnSync(process.execPath, ['--expose-gc', '--trace-deopt', '--trace-opt', self, '--child'], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(r.stderr || `child exited with ${r.status}`);
  const after = r.stdout.slice(r.stdout.indexOf('MARK gc'));
  const deopts = after.split('\n').filter((l) => /bailout \(kind|marking dependent code/.test(l));
  const compiles = after.split('\n').filter((l) => l.includes('completed compiling'));
  console.log(`ms a step, blocks of 10 after the GC: ${after.match(/BLOCKS (.*)/)[1]}`);
  console.log(`after the GC: ${deopts.length} deoptimization(s), ${compiles.length} TurboFan compile(s)`);
  for (const l of deopts) console.log('  ' + l.replace(/0x[0-9a-f]+/g, '').slice(0, 160));
}
