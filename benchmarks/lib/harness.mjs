// Pieces of the benchmark harness shared by run.mjs and bundled.mjs: the
// timing parameters a row runs with, child processes that answer with a JSON
// line, and the machine description stored with every result.

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const benchDir = resolve(here, '..');
export const root = resolve(benchDir, '..');
export const PYTHON = process.env.RLX_BENCH_PYTHON || '/usr/bin/python3';
export const DEFAULT_TIMING = { warmup: 3, reps: 10, inner: 1, runs: 3, gc: 'run' };

/**
 * The timing parameters of a row as run.mjs runs it: DEFAULT_TIMING, the
 * row's own `timing`, then `--runs N` (opts.runs) and `--quick` (opts.quick).
 */
export function timingFor(row, opts = {}) {
  const t = { ...DEFAULT_TIMING, ...(row.timing ?? {}) };
  if (opts.runs) t.runs = opts.runs;
  if (opts.quick) {
    t.runs = 1;
    t.reps = Math.min(t.reps, 3);
    t.warmup = Math.min(t.warmup, 10);
    t.warmupMs = 0;
    t.inner = Math.min(t.inner, 20);
  }
  return t;
}

/** The last stdout line that parses as JSON (a child's result line). */
export function lastJsonLine(stdout) {
  const lines = stdout.split('\n').filter((l) => l.trim());
  for (let i = lines.length - 1; i >= 0; i--) {
    try {
      return JSON.parse(lines[i]);
    } catch {
      /* not the result line */
    }
  }
  return undefined;
}

export function tail(s, n = 400) {
  s = (s || '').trim();
  return s.length > n ? '…' + s.slice(-n) : s;
}

/** Runs a child to completion; its last JSON stdout line, or { error }. `spawnOpts` (env...) go to spawnSync. */
export function runChild(cmd, args, spawnOpts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 2 ** 20, ...spawnOpts });
  if (r.error) return { error: r.error.code === 'ENOENT' ? `${cmd} not found` : String(r.error) };
  const res = lastJsonLine(r.stdout);
  if (r.status !== 0 || !res) return { error: `exit ${r.status ?? r.signal}: ${tail(r.stderr || r.stdout)}` };
  return res;
}

export function git(args) {
  const r = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : undefined;
}

/** CPU, cores, memory, load average, OS, node/V8/python/numpy versions, rlx version and commit (src/ dirty or not), date. */
export function machineInfo() {
  const cpus = os.cpus();
  const py = runChild(PYTHON, [join(benchDir, 'peers', '_bench.py'), '--versions']);
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const dirty = git(['status', '--porcelain', '--', 'src']);
  return {
    date: new Date().toISOString(),
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    availableParallelism: os.availableParallelism?.() ?? cpus.length,
    memoryGB: +(os.totalmem() / 2 ** 30).toFixed(1),
    loadavg: os.loadavg().map((x) => +x.toFixed(2)),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version,
    v8: process.versions.v8,
    python: py.python ?? `unavailable (${py.error ?? '?'})`,
    numpy: py.numpy ?? 'unavailable',
    pythonPath: PYTHON,
    rlx: pkg.version,
    commit: git(['rev-parse', '--short', 'HEAD']),
    srcDirty: dirty === undefined ? undefined : dirty.length > 0,
  };
}
