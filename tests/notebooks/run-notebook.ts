// Executing the repository's tslab notebooks headless, for notebooks.test.ts
// (issue 16): what a notebook run needs (Jupyter, the tslab kernel, `rlx`
// resolving to this checkout), the rules an executed notebook must pass, and
// how an executed notebook is made small enough to commit.
//
// - Kernel: `tslab install --python=/usr/bin/python3 --user` into a temp
//   JUPYTER_DATA_DIR (nothing is written to the user's Jupyter), once per run.
// - rlx: each notebook is copied into that temp dir beside node_modules/rlx, a
//   symlink to the checkout, so a cell's `import * as rlx from 'rlx'` finds the
//   built package (dist/cjs/, tslab compiles cells to CommonJS) and its types
//   (tslab's TypeScript 5.0 resolves modules the Node10 way, which does not
//   see package.json "exports" self-references, so the symlink is needed).
// - Rules (problems()): no 'error' output, no stderr output (tslab reports an
//   exception, and a cell that does not type-check, on stderr rather than as
//   an 'error' output, and then aborts the cells after it), and output from
//   every code cell that is expected to print (expectsOutput()).
// - Committing (compact()): fig.show() sends plotly JSON plus an HTML fallback
//   that inlines plotly.js (~5 MB per figure); the committed copy keeps the
//   plotly JSON (drawn live by JupyterLab/VS Code), replaces the fallback by a
//   PNG of the same figure (what GitHub and plain viewers show) and drops
//   per-run timestamps, so a notebook stays well under a megabyte.

import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Figure } from '../../src/plot/index.js';
import { PLOTLY_MIME } from '../../src/plot/show.js';

export const ROOT = resolve(__dirname, '..', '..');
export const NOTEBOOKS = join(ROOT, 'notebooks');
/** Debian's python3, where apt puts Jupyter (not a pyenv shim's). */
export const PYTHON = '/usr/bin/python3';

export interface Output {
  output_type: string;
  name?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
}
export interface Cell {
  cell_type: string;
  id?: string;
  source: string | string[];
  metadata?: { rlx?: { expect_output?: boolean }; execution?: unknown; [k: string]: unknown };
  outputs?: Output[];
  execution_count?: number | null;
}
export interface Notebook {
  cells: Cell[];
  metadata: Record<string, unknown>;
  nbformat: number;
  nbformat_minor: number;
}

const joined = (s: string | string[] | undefined): string => (Array.isArray(s) ? s.join('') : (s ?? ''));

export function hasJupyter(): boolean {
  return spawnSync(PYTHON, ['-m', 'jupyter', 'nbconvert', '--version'], { encoding: 'utf8' }).status === 0;
}

/** Every notebook in notebooks/ (not nbconvert's `NAME.nbconvert.ipynb` outputs that `rlx run` leaves beside them). */
export function notebookFiles(): string[] {
  return readdirSync(NOTEBOOKS)
    .filter((f) => f.endsWith('.ipynb') && !f.endsWith('.nbconvert.ipynb'))
    .sort()
    .map((f) => join(NOTEBOOKS, f));
}

/** The newest mtime under a directory (files whose name passes `keep`). */
function newest(dir: string, keep: (f: string) => boolean): { path: string; mtime: number } {
  let best = { path: '', mtime: -Infinity };
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    const cand = e.isDirectory() ? newest(p, keep) : keep(e.name) ? { path: p, mtime: statSync(p).mtimeMs } : best;
    if (cand.mtime > best.mtime) best = cand;
  }
  return best;
}

/** Why dist/cjs/ (what notebooks load) is stale or missing, or undefined when it is newer than every source file. */
export function staleBuild(): string | undefined {
  const built = join(ROOT, 'dist', 'cjs', 'index.js');
  let builtAt: number;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    return 'dist/cjs/index.js is missing: run `npm run build`';
  }
  const src = newest(join(ROOT, 'src'), (f) => f.endsWith('.ts'));
  return src.mtime > builtAt ? `${relative(ROOT, src.path)} is newer than dist/cjs/index.js: run \`npm run build\`` : undefined;
}

/** A temp dir with the tslab kernel registered and node_modules/rlx pointing at the checkout; returns its path and the env to run Jupyter in. */
export function prepareKernel(): { dir: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'rlx-notebooks-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'rlx'), 'dir');
  const env = { ...process.env, JUPYTER_DATA_DIR: join(dir, 'jupyter'), PATH: join(ROOT, 'node_modules', '.bin') + delimiter + process.env['PATH'] };
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'tslab'), ['install', `--python=${PYTHON}`, '--user'], { cwd: dir, env, encoding: 'utf8', timeout: 90_000 });
  if (r.status !== 0) throw new Error(`tslab install failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
  return { dir, env };
}

export function removeKernelDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/**
 * Executes a copy of `notebook` in `dir` (nbconvert --execute --allow-errors,
 * so every cell runs and the executed notebook is always written) and returns
 * it with the wall time. `cellTimeoutS` bounds each cell.
 */
export function executeNotebook(notebook: string, kernel: { dir: string; env: NodeJS.ProcessEnv }, cellTimeoutS: number): { nb: Notebook; seconds: number } {
  const name = basename(notebook);
  const copy = join(kernel.dir, name);
  copyFileSync(notebook, copy);
  const out = `${basename(name, '.ipynb')}.executed.ipynb`;
  const t0 = performance.now();
  const r = spawnSync(
    PYTHON,
    ['-m', 'jupyter', 'nbconvert', '--to', 'notebook', '--execute', '--allow-errors', `--ExecutePreprocessor.timeout=${cellTimeoutS}`, '--output', out, name],
    { cwd: kernel.dir, env: kernel.env, encoding: 'utf8', maxBuffer: 256 * 2 ** 20 },
  );
  const seconds = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`jupyter nbconvert --execute ${name} failed (${r.status ?? r.signal}):\n${r.stderr.slice(-4000)}`);
  return { nb: JSON.parse(readFileSync(join(kernel.dir, out), 'utf8')) as Notebook, seconds };
}

const PRINTS = /console\.(log|info|table|dir)\s*\(|\.show\s*\(\s*\)|\bdisplay(\.\w+)?\s*\(/;

/**
 * Whether a code cell must produce output: `metadata.rlx.expect_output` when
 * set (true or false), else whether its source calls console.log/info/table/dir,
 * a figure's show(), or a display function (plot.display, tslab's display.*).
 * Source lines that are comments do not count.
 */
export function expectsOutput(cell: Cell): boolean {
  const flag = cell.metadata?.rlx?.expect_output;
  if (typeof flag === 'boolean') return flag;
  const code = joined(cell.source).split('\n').filter((l) => !/^\s*\/\//.test(l)).join('\n');
  return PRINTS.test(code);
}

/** Everything wrong with an executed notebook, one line each (empty: it passed). */
export function problems(nb: Notebook): string[] {
  const found: string[] = [];
  nb.cells.forEach((cell, i) => {
    if (cell.cell_type !== 'code') return;
    const where = `cell ${i + 1}${cell.id ? ` (${cell.id})` : ''}`;
    const outputs = cell.outputs ?? [];
    for (const o of outputs) {
      if (o.output_type === 'error') found.push(`${where} raised ${o.ename ?? '?'}: ${(o.evalue ?? '').split('\n')[0]}`);
      if (o.output_type === 'stream' && o.name === 'stderr') found.push(`${where} wrote to stderr: ${joined(o.text).trim().split('\n')[0]}`);
    }
    if (outputs.length === 0 && expectsOutput(cell)) found.push(`${where} produced no output (its source prints or shows something)`);
  });
  return found;
}

/** The figures fig.show() displayed in a notebook: display_data outputs carrying plotly JSON. */
export function plotlyOutputs(nb: Notebook): Output[] {
  return nb.cells.flatMap((c) => c.outputs ?? []).filter((o) => o.output_type === 'display_data' && o.data?.[PLOTLY_MIME] !== undefined);
}

/**
 * The executed notebook as it is committed: each figure's HTML fallback (which
 * inlines plotly.js) becomes a PNG of the same plotly JSON, rendered by
 * headless Chromium at the figure's layout size (default 700×450), and cells
 * lose nbclient's per-run timestamps (metadata.execution).
 */
export async function compact(nb: Notebook): Promise<Notebook> {
  const dir = mkdtempSync(join(tmpdir(), 'rlx-notebook-png-'));
  try {
    let k = 0;
    for (const o of plotlyOutputs(nb)) {
      const spec = o.data![PLOTLY_MIME] as { data: unknown[]; layout: Record<string, unknown>; frames?: unknown[] };
      const png = join(dir, `${k++}.png`);
      const width = typeof spec.layout['width'] === 'number' ? spec.layout['width'] : 700;
      const height = typeof spec.layout['height'] === 'number' ? spec.layout['height'] : 450;
      await new Figure(spec as ConstructorParameters<typeof Figure>[0]).savePng(png, { width, height });
      delete o.data!['text/html'];
      o.data!['image/png'] = readFileSync(png).toString('base64');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  for (const c of nb.cells) if (c.metadata) delete c.metadata.execution;
  return nb;
}
