#!/usr/bin/env node
// The bundled native addon against the system-linked one (issue 20), on every
// benchmark row that runs on the native backend. Usage (from the repo root,
// after `npm run build` and `node scripts/prebuild.mjs --no-build`):
//
//   node benchmarks/bundled.mjs [suite ...] [--filter <substr>[|<substr>...]] [--runs N] [--retries N] [--quick] [--no-write] [--in-place] [--out DIR] [--resume FILE]
//       [--system FILE.node] [--bundle DIR]      (other files than the two below)
//
//   system  = the local build native/build/Release/rlx_native.node, linked
//             against the Debian (apt) libraries: RLX_NATIVE_PATH unset;
//   bundled = prebuilds/native-linux-x64/rlx_native.node (RUNPATH $ORIGIN/lib:
//             the copies of those libraries in the prebuild): RLX_NATIVE_PATH set.
//
// Both are first copied into a private temporary directory (the local build
// as <tmp>/system/Release/rlx_native.node, loaded through
// RLX_NATIVE_BUILD_DIR, still the 'local build' source; the prebuild
// directory as <tmp>/native-linux-x64), so that a rebuild of native/build or
// prebuilds/ by someone else during the run cannot swap files under it;
// --in-place uses the originals. The copies are the same bytes.
//
// Each run of each row is one fresh `node --expose-gc benchmarks/lib/worker.mjs
// <suite> <row> <timing>` (as run.mjs runs the rlx side), with the row's own
// timing (run.mjs's timingFor: warmup, warmupMs, reps, inner, gc); runs
// alternate system, bundled, bundled, system, ... (ABBA, so drift hits both),
// 3 per variant by default (--runs N; the rows' own `runs` count is for their
// peers and is not used). Every worker is started with --import
// lib/addon-probe.mjs, which fails the run (exit 3) unless that process loaded
// the intended .node file from the intended source, the native device is the
// default, and /proc/self/maps shows every bundled library mapped from the
// bundle (bundled) or nothing from the bundle (system): a silent fallback to
// the other build, or to the js backend, cannot pass. The probes' library
// lists are compared between the variants: each bundled file must be a copy
// (per the bundle's manifest.json) of the file the system variant maps.
//
// Per row: both medians (median of per-run medians), system ÷ bundled, each
// side's run spread, and whether the checksums of the results (length, NaNs,
// compensated sum and sum of |x|) are identical across all runs of both
// variants (same library code: they must be; a row whose checksum varies
// between runs of one variant is reported as nondeterministic). Rows whose
// ratio is outside ±10 % are measured again (--retries passes, default 2, the
// same number of ABBA runs each, pooled with the earlier ones) before the
// ratio is reported. Writes benchmarks/results/bundled.{json,md} (not with
// --filter, --quick, --no-write or a subset of suites; --out DIR writes there in any case).
// Progress is checkpointed after every pass of a row to $TMPDIR/rlx-bundled-checkpoint.json;
// --resume FILE takes the rows measured there (runs, passes) and goes on from
// where that run stopped (the rows it had not measured, then the re-measures).
//
// Rows that count: every row of every suite except those pinned to the js
// device. native, linalg, sparse, quant and splat's native-* rows pin their
// inputs to 'native'; core, transforms, fft, integrate, nn and physics run on
// the default device, which is native whenever the addon loads (the probe
// checks that it is). Left out: splat's js-* rows (inputs .on('js'): the
// TypeScript kernels, no native code), and every peer (NumPy, SciPy, PyTorch,
// rlx-js...): they do not load the addon.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import os from 'node:os';
import { summarize, fmtTime, fmtPct } from './lib/stats.mjs';
import { root, timingFor, lastJsonLine, tail, machineInfo } from './lib/harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ORIG = {
  system: join(root, 'native', 'build', 'Release', 'rlx_native.node'),
  bundle: join(root, 'prebuilds', 'native-linux-x64'),
};
let BUNDLE = ORIG.bundle;
let SYSTEM_BUILD_DIR; // RLX_NATIVE_BUILD_DIR for the system variant (a snapshot), or undefined: native/build
const VARIANTS = {
  system: { addon: ORIG.system, source: 'local build' },
  bundled: { addon: join(BUNDLE, 'rlx_native.node'), source: 'RLX_NATIVE_PATH' },
};
const TOL = 0.1; // "within ±10 %": |system ÷ bundled − 1| ≤ TOL

// ---- command line ------------------------------------------------------------
function parseArgs(argv) {
  const o = { suites: [], filter: undefined, runs: 3, retries: 2, quick: false, write: true, snapshot: true, out: undefined, resume: undefined, system: undefined, bundle: undefined, note: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--filter') o.filter = argv[++i];
    else if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--retries') o.retries = Number(argv[++i]);
    else if (a === '--quick') o.quick = true;
    else if (a === '--no-write') o.write = false;
    else if (a === '--in-place') o.snapshot = false;
    else if (a === '--out') o.out = argv[++i];
    else if (a === '--resume') o.resume = argv[++i];
    else if (a === '--system') o.system = resolve(argv[++i]);
    else if (a === '--bundle') o.bundle = resolve(argv[++i]);
    else if (a === '--note') o.note = argv[++i]; // a sentence for the report (where the files came from...)
    else if (a === '-h' || a === '--help') {
      console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 6).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else o.suites.push(a);
  }
  if (!(Number.isInteger(o.runs) && o.runs >= 1)) throw new Error('--runs takes a positive integer');
  if (!(Number.isInteger(o.retries) && o.retries >= 0)) throw new Error('--retries takes an integer ≥ 0');
  if (o.filter !== undefined || o.quick || o.suites.length) o.write = false;
  if (o.out) o.write = true; // an explicit --out DIR writes whatever ran (smoke tests)
  return o;
}

/** Whether a row's rlx side runs on the native backend (see the header). */
export const runsOnNative = (suiteName, row) => !row.id.startsWith('js-');

// ---- one worker run ----------------------------------------------------------------
function env(variant) {
  const e = { ...process.env };
  for (const k of ['RLX_NATIVE_PATH', 'RLX_NATIVE', 'RLX_NATIVE_BUILD_DIR']) delete e[k];
  if (variant === 'bundled') e.RLX_NATIVE_PATH = VARIANTS.bundled.addon;
  if (variant === 'system' && SYSTEM_BUILD_DIR) e.RLX_NATIVE_BUILD_DIR = SYSTEM_BUILD_DIR;
  e.RLX_ADDON_PROBE = JSON.stringify({ variant, addon: VARIANTS[variant].addon, source: VARIANTS[variant].source, bundleDir: BUNDLE, otherDirs: [ORIG.bundle] });
  return e;
}

const probeUrl = pathToFileURL(join(here, 'lib', 'addon-probe.mjs')).href;

/** One run of one row's rlx side under `variant`: the worker's JSON plus the probe's report, or { error }. */
function runWorker(variant, suiteFile, rowId, timing) {
  const args = ['--expose-gc', '--import', probeUrl, join(here, 'lib', 'worker.mjs'), suiteFile, rowId, JSON.stringify(timing)];
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 2 ** 20, env: env(variant) });
  if (r.error) return { error: String(r.error) };
  const probeLine = (r.stderr || '').split('\n').find((l) => l.startsWith('RLX_ADDON_PROBE '));
  const probe = probeLine ? JSON.parse(probeLine.slice('RLX_ADDON_PROBE '.length)) : undefined;
  const res = lastJsonLine(r.stdout || '');
  if (r.status !== 0 || !res || !probe) return { error: `exit ${r.status ?? r.signal}${probe ? '' : ' (no probe report)'}: ${tail(r.stderr || r.stdout)}` };
  // The snapshot directory differs between a run and its --resume: stored as '<tmp>'.
  return { ...res, probe: snapshotDir ? JSON.parse(JSON.stringify(probe).split(snapshotDir).join('<tmp>')) : probe };
}

/**
 * sha256 (16 hex digits) of a shared object's .text section (objcopy), or undefined
 * without objcopy: the bundle's copies are stripped and patchelf'd, so whole-file
 * hashes differ, but the code they run must be byte for byte the system file's.
 */
function textHash(path) {
  const tmp = join(os.tmpdir(), `rlx-bundled-text-${process.pid}.bin`);
  const r = spawnSync('objcopy', ['-O', 'binary', '--only-section=.text', path, tmp]);
  if (r.status !== 0) return undefined;
  const h = createHash('sha256').update(readFileSync(tmp)).digest('hex').slice(0, 16);
  rmSync(tmp, { force: true });
  return h;
}
const addonHashes = () => Object.fromEntries(Object.entries(VARIANTS).map(([v, { addon }]) => [v, textHash(addon)]));

// ---- checks across runs ------------------------------------------------------------
const key = (c) => (c ? JSON.stringify([c.length, c.nan, c.sum, c.sumAbs]) : 'none');

/** 'identical', or how the checksums of the runs differ. */
function checksumVerdict(rec) {
  const sets = Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, new Set(rec[v].runs.map((x) => key(x.checksum)))]));
  const all = new Set([...sets.system, ...sets.bundled]);
  if (!rec.system.runs.length || !rec.bundled.runs.length) return 'n/a (a variant has no run)';
  if (all.size === 1) return [...all][0] === 'none' ? 'n/a (no array result)' : 'identical';
  const varies = Object.entries(sets).filter(([, s]) => s.size > 1).map(([v]) => v);
  const overlap = [...sets.system].some((k) => sets.bundled.has(k));
  if (varies.length) return `varies between runs of ${varies.join(' and ')} (nondeterministic row)${overlap ? '; the variants share a value' : '; NO value in common'}`;
  return 'DIFFERS';
}

/** Every probe of a variant must report the same addon and libraries; returns the first one. */
function probeOf(rows, variant, problems) {
  let first;
  for (const rec of rows) {
    for (const run of rec[variant].runs) {
      const p = JSON.stringify({ ...run.probe, variant: undefined });
      if (first === undefined) first = p;
      else if (p !== first) problems.push(`${rec.suite}/${rec.id}: a ${variant} run reported different libraries or BLAS than the first`);
    }
  }
  return first && JSON.parse(snapshotDir ? first.split('<tmp>').join(snapshotDir) : first);
}

/** The libraries each variant mapped, side by side, and whether each bundled file is a copy of the one the system variant maps. */
function libraryTable(sys, bun, problems) {
  const manifest = JSON.parse(readFileSync(join(BUNDLE, 'manifest.json'), 'utf8'));
  const origin = new Map(manifest.files.map((f) => [join(BUNDLE, f.file), f.source]));
  const real = (p) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const stems = [...new Set([...Object.keys(sys?.libs ?? {}), ...Object.keys(bun?.libs ?? {})])].sort();
  return stems.map((stem) => {
    const s = sys?.libs[stem],
      b = bun?.libs[stem];
    const from = typeof b === 'string' ? origin.get(b) : undefined;
    let same;
    if (typeof b === 'string' && b.startsWith(BUNDLE + '/')) {
      same = from !== undefined && typeof s === 'string' && real(from) === s;
      if (!same) problems.push(`lib${stem}: the bundled copy ${b} was made from ${from ?? '?'}, but the system variant maps ${s ?? 'nothing'}`);
    } else if (s !== b) problems.push(`lib${stem}: system maps ${s}, bundled maps ${b}`);
    let sameText;
    if (typeof b === 'string' && typeof s === 'string' && b !== s) {
      const hs = textHash(s),
        hb = textHash(b);
      sameText = hs && hb ? hs === hb : undefined;
      if (sameText === false) problems.push(`lib${stem}: .text of ${b} differs from ${s}`);
    }
    return { lib: stem, system: s, bundled: b, bundledFrom: from, sameFile: b?.startsWith?.(BUNDLE + '/') ? same : s === b ? 'same path (not bundled)' : false, sameText };
  });
}

// ---- main ----------------------------------------------------------------------------
const opts = parseArgs(process.argv.slice(2));
if (opts.system) ORIG.system = VARIANTS.system.addon = opts.system;
if (opts.bundle) {
  ORIG.bundle = BUNDLE = opts.bundle;
  VARIANTS.bundled.addon = join(BUNDLE, 'rlx_native.node');
}
if (opts.system && !opts.snapshot) SYSTEM_BUILD_DIR = dirname(dirname(opts.system)); // <dir>/Release/rlx_native.node
for (const [v, addon] of [['system', ORIG.system], ['bundled', join(ORIG.bundle, 'rlx_native.node')]]) {
  if (!existsSync(addon)) {
    console.error(`${v} addon ${relative(root, addon)} is missing: ${v === 'bundled' ? 'node scripts/prebuild.mjs --no-build' : 'npm run build:native'}`);
    process.exit(1);
  }
}
const snapshotDir = opts.snapshot ? mkdtempSync(join(os.tmpdir(), 'rlx-bundled-')) : undefined;
if (snapshotDir) {
  SYSTEM_BUILD_DIR = join(snapshotDir, 'system');
  mkdirSync(join(SYSTEM_BUILD_DIR, 'Release'), { recursive: true });
  copyFileSync(ORIG.system, join(SYSTEM_BUILD_DIR, 'Release', 'rlx_native.node'));
  BUNDLE = join(snapshotDir, 'native-linux-x64');
  cpSync(ORIG.bundle, BUNDLE, { recursive: true });
  VARIANTS.system.addon = join(SYSTEM_BUILD_DIR, 'Release', 'rlx_native.node');
  VARIANTS.bundled.addon = join(BUNDLE, 'rlx_native.node');
  process.on('exit', () => rmSync(snapshotDir, { recursive: true, force: true }));
}
const fileHash = (p) => createHash('sha256').update(readFileSync(p)).digest('hex').slice(0, 16);
const snapshot = {
  copied: !!snapshotDir,
  system: { from: ORIG.system, sha256: fileHash(VARIANTS.system.addon), mtime: statSync(ORIG.system).mtime.toISOString() },
  bundled: { from: join(ORIG.bundle, 'rlx_native.node'), sha256: fileHash(VARIANTS.bundled.addon), mtime: statSync(join(ORIG.bundle, 'rlx_native.node')).mtime.toISOString() },
};
if (!existsSync(join(root, 'dist', 'index.js'))) {
  console.error('dist/index.js is missing: run `npm run build` first.');
  process.exit(1);
}
const suitesDir = join(here, 'suites');
const available = readdirSync(suitesDir).filter((f) => f.endsWith('.mjs')).map((f) => f.slice(0, -4)).sort();
for (const n of opts.suites) if (!available.includes(n)) throw new Error(`unknown suite '${n}'; available: ${available.join(', ')}`);

const t0 = Date.now();
const machine = machineInfo();
const textStart = addonHashes();
if (textStart.system && textStart.system !== textStart.bundled) console.warn(`warning: the addons' .text differ (system ${textStart.system}, bundled ${textStart.bundled}): the prebuild is not of the current local build`);
console.log(`machine: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}, load ${machine.loadavg.join('/')}`);

const rows = [];
const excluded = [];
for (const name of opts.suites.length ? opts.suites : available) {
  const file = join(suitesDir, `${name}.mjs`);
  const suite = (await import(pathToFileURL(file).href)).default;
  for (const row of suite.rows) {
    if (!runsOnNative(name, row)) {
      excluded.push(`${name}/${row.id}`);
      continue;
    }
    // --filter: substrings of suite/row, '|' between alternatives.
    if (opts.filter !== undefined && !opts.filter.split('|').some((f) => `${name}/${row.id}`.includes(f))) continue;
    const { runs: _, ...timing } = timingFor(row, { quick: opts.quick });
    rows.push({ suite: name, id: row.id, file, timing, runsPerPass: opts.quick ? 1 : opts.runs, system: { runs: [] }, bundled: { runs: [] }, passes: [] });
  }
}
console.log(`${rows.length} rows, ${opts.quick ? 1 : opts.runs} runs per variant and pass (excluded, pinned to js: ${excluded.join(', ') || 'none'})`);

const checkpoint = join(os.tmpdir(), 'rlx-bundled-checkpoint.json');
const saveCheckpoint = () => writeFileSync(checkpoint, JSON.stringify({ machine, textStart, resumed, rows: rows.map(({ file, ...r }) => r) }));

// --resume: the rows a stopped run measured (its checkpoint; an older checkpoint is the bare rows array).
let resumed;
if (opts.resume) {
  const cp = JSON.parse(readFileSync(opts.resume, 'utf8'));
  const old = Array.isArray(cp) ? { rows: cp } : cp;
  if (old.textStart && (old.textStart.system !== textStart.system || old.textStart.bundled !== textStart.bundled)) {
    throw new Error(`--resume: the addons changed since that run (.text then ${JSON.stringify(old.textStart)}, now ${JSON.stringify(textStart)})`);
  }
  const byKey = new Map(old.rows.map((r) => [`${r.suite}/${r.id}`, r]));
  let n = 0;
  for (const rec of rows) {
    const o = byKey.get(`${rec.suite}/${rec.id}`);
    if (!o?.passes?.length) continue;
    if (JSON.stringify(o.timing) !== JSON.stringify(rec.timing) || o.runsPerPass !== rec.runsPerPass) throw new Error(`--resume: ${rec.suite}/${rec.id} was measured with other timing or runs`);
    for (const v of Object.keys(VARIANTS)) {
      rec[v].runs = o[v].runs;
      if (o[v].errors) rec[v].errors = o[v].errors;
    }
    rec.passes = o.passes;
    summarizeRow(rec);
    n++;
  }
  resumed = { from: opts.resume, rows: n, machineThen: old.machine, textStartThen: old.textStart, at: machine.date, loadavg: machine.loadavg };
  console.log(`resumed ${n} measured rows from ${opts.resume}`);
}

/** One pass over a row: runsPerPass runs per variant, ABBA order; then the pooled summary. */
function measure(rec) {
  const pass = { start: new Date().toISOString(), loadavg: +os.loadavg()[0].toFixed(2), system: [], bundled: [] };
  const ts = Date.now();
  process.stderr.write(`[${rec.suite}] ${rec.id} (load ${pass.loadavg}): `);
  for (let r = 0; r < rec.runsPerPass; r++) {
    for (const v of r % 2 === 0 ? ['system', 'bundled'] : ['bundled', 'system']) {
      const x = runWorker(v, rec.file, rec.id, rec.timing);
      if (x.error) (rec[v].errors ??= []).push(x.error);
      else {
        rec[v].runs.push(x);
        pass[v].push(summarize([x]).median);
      }
      process.stderr.write(x.error ? 'E' : v[0]);
    }
  }
  pass.seconds = +((Date.now() - ts) / 1000).toFixed(1);
  rec.passes.push(pass);
  summarizeRow(rec);
  if (pass.system.length && pass.bundled.length) {
    const m = (xs) => summarize(xs.map((s) => ({ samples: [s] }))).median;
    pass.ratio = m(pass.system) / m(pass.bundled);
  }
  process.stderr.write(` ${Number.isFinite(rec.ratio) ? rec.ratio.toFixed(3) : 'n/a'} (${pass.seconds} s)\n`);
  for (const v of Object.keys(VARIANTS)) for (const e of rec[v].errors ?? []) console.error(`  ${v} error: ${e}`);
}

function summarizeRow(rec) {
  for (const v of Object.keys(VARIANTS)) {
    if (rec[v].runs.length) Object.assign(rec[v], summarize(rec[v].runs));
  }
  rec.ratio = rec.system.runs.length && rec.bundled.runs.length ? rec.system.median / rec.bundled.median : NaN;
  rec.within = Number.isFinite(rec.ratio) && Math.abs(rec.ratio - 1) <= TOL;
  rec.checksums = checksumVerdict(rec);
}

for (const rec of rows) {
  if (rec.passes.length) continue; // --resume: measured before
  measure(rec);
  saveCheckpoint();
}
for (let k = 0; k < opts.retries; k++) {
  const again = rows.filter((r) => !r.within && Number.isFinite(r.ratio));
  if (!again.length) break;
  console.log(`\nre-measuring ${again.length} row(s) outside ±${TOL * 100} % (pass ${k + 2}): ${again.map((r) => r.id).join(', ')}`);
  for (const rec of again) {
    measure(rec);
    saveCheckpoint();
  }
}
// Wall time from the first pass measured (a resumed run: in the stopped run) to now, and the time spent measuring.
const firstStart = Math.min(t0, ...rows.flatMap((r) => r.passes.map((p) => Date.parse(p.start))));
const seconds = Math.round((Date.now() - firstStart) / 1000);
const measureSeconds = Math.round(rows.reduce((s, r) => s + r.passes.reduce((a, p) => a + p.seconds, 0), 0));
const loadEnd = os.loadavg().map((x) => +x.toFixed(2));

// ---- checks and summary --------------------------------------------------------------
const problems = [];
const textEnd = addonHashes();
if (textStart.system !== textStart.bundled) problems.push(`the addons' .text sections differ (system ${textStart.system}, bundled ${textStart.bundled}): rebuild the prebuild from this local build`);
for (const v of Object.keys(VARIANTS)) if (textStart[v] !== textEnd[v]) problems.push(`the ${v} addon changed during the run (.text ${textStart[v]} → ${textEnd[v]})`);
const sysProbe = probeOf(rows, 'system', problems);
const bunProbe = probeOf(rows, 'bundled', problems);
if (sysProbe && bunProbe) {
  for (const k of ['config', 'corename', 'threads', 'parallel', 'fftw3']) {
    if (sysProbe.blas[k] !== bunProbe.blas[k]) problems.push(`blasInfo().${k}: system ${sysProbe.blas[k]}, bundled ${bunProbe.blas[k]}`);
  }
}
const libs = libraryTable(sysProbe, bunProbe, problems);
for (const r of rows) {
  if (!/^identical|^n\/a \(no array/.test(r.checksums)) problems.push(`${r.suite}/${r.id}: checksums ${r.checksums}`);
  for (const v of Object.keys(VARIANTS)) for (const e of r[v].errors ?? []) problems.push(`${r.suite}/${r.id} ${v}: ${e}`);
}

const ok = rows.filter((r) => Number.isFinite(r.ratio));
const geomean = Math.exp(ok.reduce((s, r) => s + Math.log(r.ratio), 0) / ok.length);
const minR = ok.reduce((a, r) => (r.ratio < a.ratio ? r : a), ok[0]);
const maxR = ok.reduce((a, r) => (r.ratio > a.ratio ? r : a), ok[0]);
const outside = ok.filter((r) => !r.within);
const spreadOf = (r) => `system runs ±${fmtPct((r.system.runSpread ?? 0) / 2)}, bundled runs ±${fmtPct((r.bundled.runSpread ?? 0) / 2)}`;
const summary = {
  rows: rows.length,
  measured: ok.length,
  geomeanRatio: geomean,
  minRatio: minR && { row: `${minR.suite}/${minR.id}`, ratio: minR.ratio },
  maxRatio: maxR && { row: `${maxR.suite}/${maxR.id}`, ratio: maxR.ratio },
  withinTol: ok.length - outside.length,
  outside: outside.map((r) => ({ row: `${r.suite}/${r.id}`, ratio: r.ratio, passes: r.passes.length, systemRunSpread: r.system.runSpread, bundledRunSpread: r.bundled.runSpread, passRatios: r.passes.map((p) => p.ratio) })),
  checksumsIdentical: rows.filter((r) => r.checksums === 'identical').length,
  problems: problems.length,
  seconds,
  measureSeconds,
  firstPassStart: new Date(firstStart).toISOString(),
};
const fmtR = (x) => (Number.isFinite(x) ? x.toFixed(3) : '–');
const summaryLine =
  `${ok.length} rows: system ÷ bundled geometric mean ${fmtR(geomean)}, range ${fmtR(minR?.ratio)} (${minR?.suite}/${minR?.id}) – ${fmtR(maxR?.ratio)} (${maxR?.suite}/${maxR?.id}); ` +
  `${summary.withinTol}/${ok.length} within ±${TOL * 100} %` +
  (outside.length ? ` (outside: ${outside.map((r) => `${r.suite}/${r.id} ${fmtR(r.ratio)}, ${spreadOf(r)}`).join('; ')})` : '') +
  `; checksums identical on ${summary.checksumsIdentical}/${rows.length}; ${problems.length ? `${problems.length} problem(s)` : 'no problems'}; ${Math.round(measureSeconds / 60)} min of measuring`;

// ---- report ------------------------------------------------------------------------------
function table() {
  const head = ['row', 'system median', 'bundled median', 'system ÷ bundled', 'system runs', 'bundled runs', 'checksums', 'load', 'passes (ratio each)'];
  const body = rows.map((r) => [
    `${r.suite}/${r.id}`,
    fmtTime(r.system.median),
    fmtTime(r.bundled.median),
    `${fmtR(r.ratio)}${r.within ? '' : ' ⚠'}`,
    r.system.runs.length ? `±${fmtPct((r.system.runSpread ?? 0) / 2)} (${r.system.runs.length})` : 'error',
    r.bundled.runs.length ? `±${fmtPct((r.bundled.runSpread ?? 0) / 2)} (${r.bundled.runs.length})` : 'error',
    r.checksums,
    r.passes.map((p) => p.loadavg).join(', '),
    r.passes.length > 1 ? r.passes.map((p) => fmtR(p.ratio)).join(', ') : '1',
  ].map((c) => String(c).replace(/\|/g, '\\|')));
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  return [line(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...body.map(line)].join('\n');
}

function markdown() {
  const m = machine;
  // Paths as the originals (the snapshot copies live in a temporary directory).
  const disp = (p) => (p && snapshotDir ? p.replace(BUNDLE, relative(root, ORIG.bundle)).replace(VARIANTS.system.addon, relative(root, ORIG.system)) : p && relative(root, p).startsWith('..') ? p : p && relative(root, p));
  const yn = (x) => (x === true ? 'yes' : x === undefined ? '–' : x || 'NO');
  const libLines = libs.map((l) => `| lib${l.lib} | ${l.system ?? '–'} | ${l.bundled ? disp(l.bundled) : '–'} | ${l.bundledFrom ?? '–'} | ${yn(l.sameFile)} | ${yn(l.sameText)} |`);
  return [
    '# rlx: bundled native addon vs the system-linked build',
    '',
    `**${summaryLine}.**`,
    '',
    ...(opts.note ? [`Note: ${opts.note}`, ''] : []),
    'system = `native/build/Release/rlx_native.node` (local build, Debian libraries from /usr/lib); bundled = `prebuilds/native-linux-x64/rlx_native.node` loaded through `RLX_NATIVE_PATH` (RUNPATH $ORIGIN/lib: the copies in the prebuild).' +
      (snapshotDir ? ' Both were copied into a private temporary directory before the run (the local build loaded from there through RLX_NATIVE_BUILD_DIR, still the "local build" source), so that rebuilds of native/build or prebuilds/ during the run could not swap files; the paths below are shown as the originals.' : ''),
    `Each row's rlx side as run.mjs runs it (benchmarks/lib/worker.mjs, the row's warm-up / reps / inner), one fresh process per run, ${rows[0]?.runsPerPass ?? opts.runs} runs per variant and pass in ABBA order; every process first proves which addon and which library files it mapped (benchmarks/lib/addon-probe.mjs).`,
    `Medians are medians of per-run medians; "system ÷ bundled" > 1 means the bundled build was faster; "runs ±x%" is half the spread of the per-run medians. Rows outside ±${TOL * 100} % (⚠) were measured again (up to ${opts.retries} more passes, runs pooled); "passes" gives each pass's own ratio.`,
    `"checksums": the checksum (length, NaNs, compensated sum and sum of |x|) of the last result of every run of both variants. "load": the 1-minute load average when each pass of the row started (this is a shared 2-core VM; other work ran alongside).`,
    '',
    table(),
    '',
    '## Addon and libraries',
    '',
    `- system: ${disp(sysProbe?.path)} (${sysProbe?.source}); ${sysProbe?.blas.config}, core ${sysProbe?.blas.corename}, ${sysProbe?.blas.threads} threads; .text sha256 ${textStart.system ?? '?'}`,
    `- bundled: ${disp(bunProbe?.path)} (${bunProbe?.source}); ${bunProbe?.blas.config}, core ${bunProbe?.blas.corename}, ${bunProbe?.blas.threads} threads; .text sha256 ${textStart.bundled ?? '?'}`,
    '',
    'Every shared object each variant mapped (/proc/self/maps in every worker, identical in every run of a variant); "copy of it" = the bundled file was made (manifest.json) from the file the system variant maps; "same .text" = their code sections are byte-identical (objcopy; the copies are stripped and patchelf\'d, so whole files differ).',
    '',
    '| library | system variant maps | bundled variant maps | bundled copy made from (manifest.json) | copy of it | same .text |',
    '|---|---|---|---|---|---|',
    ...libLines,
    '',
    ...(problems.length ? ['## Problems', '', ...problems.map((p) => `- ${p}`), ''] : []),
    '## Rows',
    '',
    `Every row of every suite whose rlx side runs on the native backend: native, linalg, sparse, quant and splat native-* pin their inputs to 'native'; core, transforms, fft, integrate, nn and physics run on the default device, native when the addon loads (checked in every process). Not counted (pinned to the js device, no native code): ${excluded.join(', ') || 'none'}.`,
    '',
    '## Machine',
    '',
    `- date: ${summary.firstPassStart} to ${new Date().toISOString()} (${Math.round(seconds / 60)} min wall, ${Math.round(measureSeconds / 60)} min of it measuring)` +
      (resumed ? `; the run was stopped after its first pass and resumed at ${resumed.at} (node benchmarks/bundled.mjs --resume: the re-measures), the same addon files (.text hashes below)` : ''),
    `- cpu: ${m.cpu}, ${m.cores} logical cores, ${m.memoryGB} GiB RAM, load average ${resumed ? `at the resume ${m.loadavg.join(' / ')}` : `at start ${m.loadavg.join(' / ')}`}, at the end ${loadEnd.join(' / ')}; per row and pass in the table ("load")`,
    `- ${m.platform}`,
    `- node ${m.node} (V8 ${m.v8})`,
    `- rlx ${m.rlx} at commit ${m.commit ?? '?'}${m.srcDirty ? ' (src/ had uncommitted changes)' : ''}`,
    '',
    'Reproduce: `npm run build && node scripts/prebuild.mjs --no-build && node benchmarks/bundled.mjs`. Raw samples: `benchmarks/results/bundled.json`.',
    '',
  ].join('\n');
}

console.log('\n' + table() + '\n');
if (problems.length) console.log('problems:\n' + problems.map((p) => `  - ${p}`).join('\n') + '\n');
console.log(summaryLine);
if (opts.write) {
  const dir = opts.out ? resolve(opts.out) : join(here, 'results');
  mkdirSync(dir, { recursive: true });
  const json = {
    suite: 'bundled',
    description: 'rlx side of every native benchmark row, system-linked local build vs the bundled prebuild (RLX_NATIVE_PATH)',
    command: `node benchmarks/bundled.mjs ${process.argv.slice(2).join(' ')}`.trim(),
    unit: 'seconds per call',
    ratioDefinition: 'system median / bundled median (> 1: bundled faster)',
    tolerance: TOL,
    machine: { ...machine, loadavgEnd: loadEnd },
    summary,
    probes: { system: sysProbe, bundled: bunProbe },
    addonText: { start: textStart, end: textEnd },
    addonFiles: snapshot,
    resumed,
    note: opts.note,
    libraries: libs,
    problems,
    excluded,
    // Each run's probe report is the same for all runs of a variant (checked: Problems): kept once under `probes`.
    rows: rows.map(({ file, ...r }) => ({
      ...r,
      ...Object.fromEntries(Object.keys(VARIANTS).map((v) => [v, { ...r[v], runs: r[v].runs.map(({ probe, ...x }) => x) }])),
    })),
  };
  writeFileSync(join(dir, 'bundled.json'), JSON.stringify(json, null, 1) + '\n');
  writeFileSync(join(dir, 'bundled.md'), markdown());
  console.log(`wrote ${relative(root, join(dir, 'bundled.json'))} and ${relative(root, join(dir, 'bundled.md'))}`);
} else console.log('(results not written: --filter, --quick, a subset of suites or --no-write)');
process.exitCode = problems.length ? 1 : 0;
