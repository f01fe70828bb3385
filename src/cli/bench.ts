// `rlx bench [suite...] [--quick]`: runs the benchmark harness,
// benchmarks/run.mjs, which lives in the rlx repository and is not part of the
// published package (package.json "files"): from an installed package this
// says so in one line. The harness prints "[suite] row: rrpp" on stderr as each
// row runs (r: an rlx run, p: a peer run); this command passes that through
// with a count added, "[suite 3/12] row: rrpp", so every row is one progress
// line saying how far the suite is, on a terminal and in a log alike.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../package-root.js';
import { CliFailure, UsageError } from './errors.js';
import { numberOption, type Command } from './command.js';

/** Rows per suite (after --filter), read from the suite modules themselves; undefined when one cannot be loaded. */
async function rowCounts(dir: string, suites: string[], filter: string | undefined): Promise<Map<string, number> | undefined> {
  const counts = new Map<string, number>();
  try {
    for (const s of suites) {
      const mod = (await import(pathToFileURL(join(dir, `${s}.mjs`)).href)) as { default?: { rows?: { id: string }[] } };
      const rows = mod.default?.rows ?? [];
      counts.set(s, rows.filter((r) => filter === undefined || r.id.includes(filter)).length);
    }
  } catch {
    return undefined; // the harness will report a broken suite itself; only the counts are lost
  }
  return counts;
}

/**
 * A stream filter that rewrites the "[suite] " at the start of the harness's
 * row lines to "[suite i/N] ". Chunks may split a line anywhere, so a line's
 * start is held back until it is clear whether it is such a prefix.
 */
export function rowCounter(counts: Map<string, number>): (chunk: string, end?: boolean) => string {
  const done = new Map<string, number>();
  let pending = '';
  let lineStart = true;
  return (chunk: string, end = false): string => {
    let s = pending + chunk;
    pending = '';
    if (end) return s; // the stream ended: nothing more can complete a held-back prefix
    let out = '';
    while (s.length > 0) {
      if (lineStart) {
        lineStart = false;
        const m = /^\[([\w.-]+)\] /.exec(s);
        if (m && counts.has(m[1]!)) {
          const suite = m[1]!;
          const i = (done.get(suite) ?? 0) + 1;
          done.set(suite, i);
          out += `[${suite} ${i}/${counts.get(suite)}] `;
          s = s.slice(m[0].length);
          continue;
        }
        if (!m && /^\[[\w.-]*\]?$/.test(s)) {
          pending = s; // "[cor" or "[core]": wait for the rest of the prefix
          lineStart = true;
          break;
        }
      }
      const nl = s.indexOf('\n');
      if (nl < 0) {
        out += s;
        s = '';
      } else {
        out += s.slice(0, nl + 1);
        s = s.slice(nl + 1);
        lineStart = true;
      }
    }
    return out;
  };
}

export const bench: Command = {
  name: 'bench',
  summary: 'run the benchmark suites (benchmarks/run.mjs; in the repository, not the published package)',
  usage: 'bench [suite...] [--quick] [--filter s] [--runs k] [--no-peers] [--no-write]',
  options: {
    quick: { type: 'boolean', help: '--quick        one short run per row (results not written)' },
    filter: { type: 'string', help: '--filter <s>   only the rows whose id contains s' },
    runs: { type: 'string', help: '--runs <k>     fresh-process runs per row' },
    'no-peers': { type: 'boolean', help: '--no-peers     rlx only (no NumPy/SciPy/JS peers)' },
    'no-write': { type: 'boolean', help: '--no-write     do not write benchmarks/results/' },
  },
  details: 'Without a suite every suite runs. Tables go to stdout, one progress line per row to stderr.\nThe harness needs dist/ built (npm run build) and /usr/bin/python3 with NumPy/SciPy for the peers.',
  async run(args) {
    const root = packageRoot();
    const script = join(root, 'benchmarks', 'run.mjs');
    if (!existsSync(script)) throw new CliFailure(`${script} is missing: the benchmarks are in the rlx repository, not in the published package; run rlx bench from a checkout`);
    const suitesDir = join(root, 'benchmarks', 'suites');
    const available = readdirSync(suitesDir).filter((f) => f.endsWith('.mjs')).map((f) => f.slice(0, -4)).sort();
    for (const s of args.positionals) if (!available.includes(s)) throw new UsageError(`unknown suite '${s}'; suites: ${available.join(', ')}`);
    const runs = numberOption(args, 'runs', { positive: true, integer: true });
    const filter = args.values['filter'] as string | undefined;
    const suites = args.positionals.length ? args.positionals : available;

    const childArgs = [script, ...args.positionals];
    if (args.values['quick']) childArgs.push('--quick');
    if (filter !== undefined) childArgs.push('--filter', filter);
    if (runs !== undefined) childArgs.push('--runs', String(runs));
    if (args.values['no-peers']) childArgs.push('--no-peers');
    if (args.values['no-write']) childArgs.push('--no-write');

    const counts = await rowCounts(suitesDir, suites, filter);
    const rewrite = counts ? rowCounter(counts) : (s: string): string => s;
    const child = spawn(process.execPath, childArgs, { cwd: root, stdio: ['ignore', 'inherit', 'pipe'] });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => process.stderr.write(rewrite(chunk)));
    const code = await new Promise<number>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (c, sig) => resolve(c ?? (sig ? 128 : 1)));
    });
    process.stderr.write(rewrite('', true)); // anything held back
    if (code !== 0) throw new CliFailure(`benchmarks/run.mjs failed (exit ${code})`);
    return 0;
  },
};
