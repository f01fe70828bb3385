#!/usr/bin/env node
// The fuzz suites of issue 13, run longer than `npm test` does: 0 crashes, 0 hangs,
// 0 untyped errors. Needs the native addon built and dist/ (npm run build).
//
//   node scripts/fuzz.mjs [--seconds 600]
//
// 1. Matrix Market: scripts/fuzz-mm.mjs (mutated files, hang watchdog) for a third of the time.
// 2. The native boundary: the fixture of tests/native/boundary-fuzz.test.ts (shared,
//    detached, short, mistyped and overlapping arguments to every addon export) in a
//    child process per seed, 20,000 calls each, for a third of the time.
// 3. Sparse constructors and Matrix Market strings (tests/sparse/formats/fuzz.test.ts),
//    Harwell–Boeing files (tests/sparse/formats/hb-fuzz.test.ts)
//    and the shape/index/operand property tests (tests/ops) at RLX_FUZZ_SCALE = 20,
//    RLX_FC_RUNS = 2000.

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const seconds = arg('seconds', 600);
const third = Math.max(10, Math.round(seconds / 3));
let failed = false;
const run = (what, cmd, args, env = {}) => {
  console.log(`== ${what}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) {
    failed = true;
    console.log(`!! ${what}: exit ${r.status ?? r.signal}`);
  }
  return r;
};

run('Matrix Market', process.execPath, ['scripts/fuzz-mm.mjs', '--seconds', String(third)]);

const { nativeStatus } = await import(new URL('../dist/backends/native/addon.js', import.meta.url).href);
const status = nativeStatus();
if (!status.available || !status.path) {
  console.log(`!! native boundary: the addon is not built (${status.reason ?? 'unknown'}); skipped`);
  failed = true;
} else {
  const t0 = Date.now();
  for (let seed = 1; Date.now() - t0 < third * 1000; seed++) {
    const r = spawnSync(process.execPath, ['tests/native/fixtures/boundary-fuzz.mjs', status.path, '20000', String(seed)], { cwd: root, encoding: 'utf8' });
    const last = (r.stdout ?? '').trim().split('\n').pop() ?? '';
    let s;
    try {
      s = JSON.parse(last);
    } catch {
      s = undefined;
    }
    if (r.status !== 0 || !s || s.untyped.length) {
      failed = true;
      console.log(`!! native boundary seed ${seed}: exit ${r.status ?? r.signal}, ${s ? `${s.untyped.length} untyped errors: ${s.untyped.slice(0, 5).join(' | ')}` : 'no summary'}\n${(r.stderr ?? '').slice(-2000)}`);
    } else console.log(`   native boundary seed ${seed}: ${s.calls} calls, ${s.typed} typed errors, 0 untyped`);
  }
}

run('sparse constructors, Harwell–Boeing files, shapes, indices, operands', 'npx', ['vitest', 'run', 'tests/sparse/formats/fuzz.test.ts', 'tests/sparse/formats/hb-fuzz.test.ts', 'tests/ops/index-bounds.test.ts', 'tests/ops/shape-args.test.ts', 'tests/ops/array-operands.test.ts'], { RLX_FUZZ_SCALE: '20', RLX_FC_RUNS: '2000' });

console.log(failed ? 'FAILED' : 'ok: no crash, no hang, no untyped error');
process.exit(failed ? 1 : 0);
