// `rlx run notebook.ipynb [-o out.ipynb]`: executes a notebook headless, the
// way CI does (issue 16): `jupyter nbconvert --to notebook --execute`, with
// Jupyter from the system (Debian: jupyter-nbconvert) and rlx's notebooks on
// the tslab TypeScript kernel (`npx tslab install` registers it; the checkout's
// node_modules/.bin is put first on PATH so the kernel's `tslab` command is
// found). Cells run with --allow-errors so the executed notebook is always
// written, then this command reads it back and fails (exit 1) naming the first
// cell that raised, in one line, instead of nbconvert's page of traceback.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, delimiter, dirname, extname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { packageRoot } from '../package-root.js';
import { CliFailure } from './errors.js';
import { firstLine } from './matrix-io.js';
import { numberOption, positionals, type Command } from './command.js';

interface NotebookOutput {
  output_type: string;
  ename?: string;
  evalue?: string;
}
interface Notebook {
  cells?: { cell_type: string; outputs?: NotebookOutput[] }[];
  metadata?: { kernelspec?: { name?: string } };
}

function readNotebook(path: string): Notebook {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Notebook;
  } catch (e) {
    throw new CliFailure(`${path}: not a notebook (${firstLine(e)})`);
  }
}

/** The last line of nbconvert's stderr that says something (the exception line of a Python traceback). */
function lastMeaningfulLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l && !/^(\^+|~+)$/.test(l));
  return lines.at(-1) ?? '';
}

export const run: Command = {
  name: 'run',
  summary: 'execute a notebook headless (jupyter nbconvert --execute; tslab kernel)',
  usage: 'run notebook.ipynb [-o out.ipynb] [--timeout s]',
  options: {
    output: { type: 'string', short: 'o', help: '-o, --output   the executed notebook (default <name>.nbconvert.ipynb beside it)' },
    timeout: { type: 'string', help: '--timeout <s>  seconds a cell may run (default 600)' },
  },
  details: 'Needs Jupyter (Debian: apt-get install jupyter-nbconvert) and, for TypeScript notebooks, the tslab\nkernel registered (npx tslab install). Exit 1 when a cell raised; the executed notebook is still written.',
  run(args) {
    const [nb] = positionals(args, ['notebook.ipynb']) as [string];
    const timeout = numberOption(args, 'timeout', { positive: true }) ?? 600;
    let isFile = false;
    try {
      isFile = statSync(nb).isFile();
    } catch {
      throw new CliFailure(`${nb}: no such file`);
    }
    if (!isFile) throw new CliFailure(`${nb}: not a file`);
    const kernel = readNotebook(nb).metadata?.kernelspec?.name;
    const out = resolve((args.values['output'] as string | undefined) ?? join(dirname(nb), `${basename(nb, extname(nb))}.nbconvert.ipynb`));

    const bin = join(packageRoot(), 'node_modules', '.bin');
    const env = { ...process.env, PATH: existsSync(bin) ? `${bin}${delimiter}${process.env['PATH'] ?? ''}` : (process.env['PATH'] ?? '') };
    const probe = spawnSync('jupyter', ['nbconvert', '--version'], { env, encoding: 'utf8' });
    if (probe.error || probe.status !== 0)
      throw new CliFailure('jupyter nbconvert is not installed (Debian: apt-get install jupyter-nbconvert; elsewhere: pip install nbconvert)');

    const t0 = performance.now();
    const r = spawnSync(
      'jupyter',
      ['nbconvert', '--to', 'notebook', '--execute', '--allow-errors', `--ExecutePreprocessor.timeout=${timeout}`, '--output-dir', dirname(out), '--output', basename(out), nb],
      { env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 },
    );
    if (r.error) throw new CliFailure(`could not run jupyter nbconvert: ${r.error.message}`);
    if (r.status !== 0) {
      const why = lastMeaningfulLine(r.stderr);
      if (/NoSuchKernel/.test(why))
        throw new CliFailure(`the notebook's kernel '${kernel ?? '?'}' is not registered with Jupyter${kernel === 'tslab' || kernel === 'jslab' ? ' (register it: npx tslab install)' : ''}`);
      throw new CliFailure(`jupyter nbconvert failed on ${nb}: ${why || `exit ${r.status}`}`);
    }
    const secs = (performance.now() - t0) / 1000;
    const cells = readNotebook(out).cells ?? [];
    const code = cells.filter((c) => c.cell_type === 'code');
    for (let i = 0; i < code.length; i++) {
      const err = code[i]!.outputs?.find((o) => o.output_type === 'error');
      if (err) throw new CliFailure(`${nb}: code cell ${i + 1} raised ${err.ename ?? 'an error'}: ${(err.evalue ?? '').split('\n')[0]} (executed notebook: ${out})`);
    }
    console.log(`executed ${nb} (${code.length} code cells, ${secs.toFixed(1)} s) -> ${out}`);
    return 0;
  },
};
