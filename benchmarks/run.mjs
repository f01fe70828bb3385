#!/usr/bin/env node
// rlx benchmark harness. Usage (from the repo root):
//
//   npm run bench                      # build, then every suite in benchmarks/suites
//   npm run bench -- core              # build, then one suite (several names allowed)
//   node benchmarks/run.mjs core [--filter <substr>] [--runs N] [--quick] [--no-peers] [--no-write]
//
// Every run of every row happens in a fresh process: the rlx side in
// `node --expose-gc benchmarks/lib/worker.mjs`, each peer in
// `$RLX_BENCH_PYTHON benchmarks/peers/<script>.py` (default /usr/bin/python3).
// Runs alternate rlx / peers so slow drift on a shared machine hits both sides.
// Results: a table on stdout and benchmarks/results/<suite>.{json,md}
// (not written with --filter, --quick or --no-write).

import { readdirSync, readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { summarize, fmtTime, fmtRatio, fmtPct } from './lib/stats.mjs';
import { compareChecksums } from './lib/inputs.mjs';
import { root, PYTHON, timingFor as timingOf, runChild, machineInfo } from './lib/harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));

// ---- command line ------------------------------------------------------------
function parseArgs(argv) {
  const o = { suites: [], filter: undefined, runs: undefined, quick: false, peers: true, write: true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--filter') o.filter = argv[++i];
    else if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--quick') o.quick = true;
    else if (a === '--no-peers') o.peers = false;
    else if (a === '--no-write') o.write = false;
    else if (a === '-h' || a === '--help') {
      console.log(readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').slice(1, 13).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else if (a.startsWith('-')) throw new Error(`unknown option ${a}`);
    else o.suites.push(a);
  }
  if (o.filter !== undefined || o.quick) o.write = false;
  return o;
}

const opts = parseArgs(process.argv.slice(2));
const suitesDir = join(here, 'suites');
const available = readdirSync(suitesDir).filter((f) => f.endsWith('.mjs')).map((f) => f.slice(0, -4)).sort();
const names = opts.suites.length ? opts.suites : available;
for (const n of names) {
  if (!available.includes(n)) {
    console.error(`unknown suite '${n}'; available: ${available.join(', ')}`);
    process.exit(2);
  }
}

// ---- child processes -----------------------------------------------------------
function runRlx(suiteFile, row, timing) {
  return runChild(process.execPath, ['--expose-gc', join(here, 'lib', 'worker.mjs'), suiteFile, row.id, JSON.stringify(timing)]);
}

function runPeer(name, spec, timing) {
  const req = JSON.stringify({ case: spec.case, args: spec.args ?? {}, timing });
  // A `.mjs` peer script is a JS peer (benchmarks/js-peers/, its own package.json):
  // same request/response protocol, run by this Node.
  if (spec.script.endsWith('.mjs')) return runChild(process.execPath, ['--expose-gc', join(here, 'js-peers', spec.script), req]);
  const script = join(here, 'peers', spec.script);
  const res = runChild(PYTHON, [script, req]);
  if (res.error && /not found/.test(res.error)) return { unavailable: `${name} unavailable (${PYTHON} not found)` };
  return res;
}

// ---- one suite -----------------------------------------------------------------
// DEFAULT_TIMING, then the row's timing, then --runs / --quick (lib/harness.mjs, shared with bundled.mjs).
const timingFor = (row) => timingOf(row, opts);

function fmtInfo(info) {
  if (!info || typeof info !== 'object') return '';
  return Object.entries(info)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

async function runSuite(name, machine) {
  const suiteFile = join(suitesDir, `${name}.mjs`);
  const suite = (await import(pathToFileURL(suiteFile).href)).default;
  const rows = suite.rows.filter((r) => opts.filter === undefined || r.id.includes(opts.filter));
  const results = [];
  for (const row of rows) {
    const timing = timingFor(row);
    const { runs, ...perRun } = timing;
    const peers = opts.peers ? Object.entries(row.peers ?? {}) : [];
    const rec = { id: row.id, description: row.description, timing, rlx: { runs: [] }, peers: {}, ratios: {}, check: {} };
    if (row.bytes) rec.bytes = row.bytes;
    if (row.checkRtol) rec.checkRtol = row.checkRtol;
    for (const [p] of peers) rec.peers[p] = { runs: [] };
    process.stderr.write(`[${name}] ${row.id}: `);
    for (let r = 0; r < runs; r++) {
      const x = runRlx(suiteFile, row, perRun);
      if (x.error) rec.rlx.error ??= x.error;
      else rec.rlx.runs.push(x);
      process.stderr.write(x.error ? 'E' : 'r');
      for (const [p, spec] of peers) {
        const pr = rec.peers[p];
        if (pr.unavailable) continue;
        if (spec.runs !== undefined && r >= spec.runs) continue; // a slow reference peer measured in fewer runs than the row's goal peer
        const y = runPeer(p, spec, perRun);
        if (y.unavailable) pr.unavailable = y.unavailable;
        else if (y.error) pr.error ??= y.error;
        else pr.runs.push(y);
        process.stderr.write(y.unavailable ? '-' : y.error ? 'E' : 'p');
      }
    }
    process.stderr.write('\n');
    if (rec.rlx.runs.length) Object.assign(rec.rlx, summarize(rec.rlx.runs), { info: rec.rlx.runs.at(-1).info });
    for (const [p, pr] of Object.entries(rec.peers)) {
      if (!pr.runs.length) continue;
      Object.assign(pr, summarize(pr.runs), { versions: pr.runs.at(-1).versions, info: pr.runs.at(-1).info });
      if (rec.rlx.runs.length) {
        rec.ratios[p] = pr.median / rec.rlx.median;
        // row.checkRtol: a looser tolerance for rows whose two sides legitimately differ by more than rounding (stated in the row's description).
        rec.check[p] = compareChecksums(rec.rlx.runs.at(-1).checksum, pr.runs.at(-1).checksum, row.checkRtol);
      }
    }
    if (rec.rlx.error) console.error(`  rlx error: ${rec.rlx.error}`);
    for (const [p, pr] of Object.entries(rec.peers)) if (pr.error) console.error(`  ${p} error: ${pr.error}`);
    results.push(rec);
  }
  return { suite, results };
}

// ---- reporting -----------------------------------------------------------------
function table(results, peerNames) {
  const head = ['row', 'rlx median', 'rlx min / p90'];
  for (const p of peerNames) head.push(`${p} median`, `${p} min / p90`, `${p} ÷ rlx`, `check vs ${p}`);
  head.push('notes');
  const body = results.map((r) => {
    const cells = [r.id];
    if (r.rlx.runs.length) cells.push(fmtTime(r.rlx.median), `${fmtTime(r.rlx.min)} / ${fmtTime(r.rlx.p90)}`);
    else cells.push('rlx error', '–');
    const notes = [];
    if (r.rlx.runs.length > 1) notes.push(`rlx runs ±${fmtPct(r.rlx.runSpread / 2)}`);
    for (const p of peerNames) {
      const pr = r.peers[p];
      if (!pr) cells.push('–', '–', '–', '–');
      else if (pr.unavailable) cells.push(`${p} unavailable`, '–', '–', '–');
      else if (!pr.runs.length) cells.push(`${p} error`, '–', '–', '–');
      else {
        cells.push(fmtTime(pr.median), `${fmtTime(pr.min)} / ${fmtTime(pr.p90)}`, fmtRatio(r.ratios[p]), r.check[p] ?? 'n/a');
        if (pr.runs.length > 1) notes.push(`${p} runs ±${fmtPct(pr.runSpread / 2)}`);
        // What a peer reported about its run (e.g. an iteration count), like rlx's info().
        const pinfo = fmtInfo(pr.info);
        if (pinfo) notes.push(`${p}: ${pinfo}`);
      }
    }
    const info = fmtInfo(r.rlx.info);
    if (info) notes.unshift(info);
    // Rows that declare `bytes` (memory traffic per call) also report GB/s per side.
    if (r.bytes) {
      const gbps = [['rlx', r.rlx.median], ...peerNames.map((p) => [p, r.peers[p]?.median])].filter(([, t]) => t);
      notes.unshift('GB/s ' + gbps.map(([p, t]) => `${p} ${(r.bytes / t / 1e9).toFixed(1)}`).join(', '));
    }
    cells.push(notes.join('; '));
    return cells.map((c) => String(c).replace(/\|/g, '\\|'));
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells) => '| ' + cells.map((c, i) => c.padEnd(widths[i])).join(' | ') + ' |';
  return [line(head), '|' + widths.map((w) => '-'.repeat(w + 2)).join('|') + '|', ...body.map(line)].join('\n');
}

/**
 * Ratios between rows of the same side that a suite asks for (e.g. backward /
 * forward): suite.derived = [{ id, num: rowId, den: rowId, goal? }].
 */
function derived(suite, results) {
  const byId = new Map(results.map((r) => [r.id, r]));
  const sides = [...new Set(['rlx', ...results.flatMap((r) => Object.keys(r.peers))])];
  // Only ratios whose two rows ran (a --filter run leaves the others out).
  return (suite.derived ?? []).filter((d) => byId.has(d.num) && byId.has(d.den)).map((d) => {
    const a = byId.get(d.num),
      b = byId.get(d.den);
    const med = (r, side) => (side === 'rlx' ? r?.rlx.median : r?.peers[side]?.median);
    const ratios = Object.fromEntries(sides.map((s) => [s, med(a, s) && med(b, s) ? med(a, s) / med(b, s) : undefined]));
    return { ...d, ratios };
  });
}

function derivedTable(rows) {
  if (!rows.length) return '';
  const sides = Object.keys(rows[0].ratios);
  const head = ['ratio', ...sides, 'goal (rlx)'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${r.id} (${r.num} ÷ ${r.den}) | ${sides.map((s) => (r.ratios[s] === undefined ? 'n/a' : r.ratios[s].toFixed(2))).join(' | ')} | ${r.goal ?? ''} |`);
  return lines.join('\n');
}

function markdown(name, suite, results, peerNames, machine) {
  const m = machine;
  const lines = [
    `# rlx benchmarks: ${name}`,
    '',
    suite.description ?? '',
    '',
    `Times are per call. **Ratios are peer time ÷ rlx time: > 1 means rlx is faster**, < 1 means the peer is faster.`,
    `Median = median of the per-run medians; min and p90 pool every sample of every run; "runs ±x%" is half the spread of the per-run medians relative to the median.`,
    `"check" compares a checksum of the last result of each side (same deterministic inputs).`,
    '',
    table(results, peerNames),
    '',
    ...(suite.derived?.length ? ['## Derived ratios (same side, median ÷ median)', '', derivedTable(derived(suite, results)), ''] : []),
    '## Rows',
    '',
    '| row | what is timed | warmup (calls, then until ms) | samples × calls | runs |',
    '|---|---|---|---|---|',
    ...results.map((r) => `| ${r.id} | ${r.description ?? ''} | ${r.timing.warmup}${r.timing.warmupMs ? ` + ${r.timing.warmupMs} ms` : ''}${r.timing.gc === 'none' ? ', no gc()' : ''} | ${r.timing.reps} × ${r.timing.inner} | ${r.timing.runs} |`),
    '',
  ];
  const unavailable = results.flatMap((r) => Object.entries(r.peers).filter(([, p]) => p.unavailable).map(([k, p]) => `- ${r.id}: ${p.unavailable}`));
  const errors = results.flatMap((r) => [
    ...(r.rlx.error ? [`- ${r.id} rlx: ${r.rlx.error}`] : []),
    ...Object.entries(r.peers).filter(([, p]) => p.error).map(([k, p]) => `- ${r.id} ${k}: ${p.error}`),
  ]);
  if (unavailable.length || errors.length) lines.push('## Problems', '', ...unavailable, ...errors, '');
  lines.push(
    '## Machine',
    '',
    `- date: ${m.date}`,
    `- cpu: ${m.cpu}, ${m.cores} logical cores, ${m.memoryGB} GiB RAM, load average at start ${m.loadavg.join(' / ')}`,
    `- ${m.platform}`,
    `- node ${m.node} (V8 ${m.v8}); python ${m.python} (${m.pythonPath}); numpy ${m.numpy}`,
    `- rlx ${m.rlx} at commit ${m.commit ?? '?'}${m.srcDirty ? ' (src/ had uncommitted changes)' : ''}`,
    '',
    `Reproduce: \`npm run bench -- ${name}\`. Raw samples: \`benchmarks/results/${name}.json\`.`,
    '',
  );
  return lines.join('\n');
}

// ---- main ----------------------------------------------------------------------
if (!existsSync(join(root, 'dist', 'index.js'))) {
  console.error('dist/index.js is missing: run `npm run build` first (npm run bench does).');
  process.exit(1);
}
const machine = machineInfo();
console.log(`machine: ${machine.cpu}, ${machine.cores} cores, node ${machine.node}, numpy ${machine.numpy}, load ${machine.loadavg.join('/')}`);
for (const name of names) {
  const { suite, results } = await runSuite(name, machine);
  const peerNames = [...new Set(results.flatMap((r) => Object.keys(r.peers)))];
  console.log(`\n## ${name}: per-call times; "<peer> ÷ rlx" > 1 means rlx is faster\n`);
  console.log(table(results, peerNames));
  const der = derived(suite, results);
  if (der.length) console.log(`\n${derivedTable(der)}`);
  if (opts.write) {
    const dir = join(here, 'results');
    mkdirSync(dir, { recursive: true });
    const json = {
      suite: name,
      description: suite.description,
      command: `node benchmarks/run.mjs ${process.argv.slice(2).join(' ')}`.trim(),
      unit: 'seconds per call',
      ratioDefinition: 'peer median / rlx median (> 1: rlx faster)',
      machine,
      rows: results,
      derived: der,
    };
    writeFileSync(join(dir, `${name}.json`), JSON.stringify(json, null, 1) + '\n');
    writeFileSync(join(dir, `${name}.md`), markdown(name, suite, results, peerNames, machine));
    console.log(`\nwrote ${relative(root, join(dir, name + '.json'))} and ${relative(root, join(dir, name + '.md'))}`);
  } else console.log('\n(results not written: --filter, --quick or --no-write)');
}
