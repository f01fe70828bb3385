// The notebooks in notebooks/ run top to bottom (issue 16): every
// notebooks/*.ipynb is executed headless through Jupyter and the tslab kernel
// (run-notebook.ts says how and what counts as a failure), against this
// checkout's build (dist/cjs/, so `npm run build` must be current: checked).
//
// Jupyter is a system package (scripts/install-system-deps.sh --with-jupyter,
// which CI passes); without it the execution tests are skipped, except under
// CI's RLX_REQUIRE_NATIVE=1, where a missing install fails. The committed
// files are checked without Jupyter: they carry their outputs (the repository
// shows them) and stay small.
//
// RLX_NOTEBOOKS_UPDATE=1 writes each executed notebook back to notebooks/,
// compacted (figures as plotly JSON + PNG; needs Chromium): how the committed
// outputs are made (`RLX_NOTEBOOKS_UPDATE=1 npx vitest run tests/notebooks`).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  compact,
  executeNotebook,
  expectsOutput,
  hasJupyter,
  notebookFiles,
  plotlyOutputs,
  prepareKernel,
  problems,
  removeKernelDir,
  staleBuild,
  type Notebook,
} from './run-notebook.js';

const jupyter = hasJupyter();
const required = process.env['RLX_REQUIRE_NATIVE'] === '1';
const update = process.env['RLX_NOTEBOOKS_UPDATE'] === '1';
const files = notebookFiles();
const CELL_TIMEOUT_S = 120; // each notebook is meant to run in well under 2 minutes in all
const MAX_BYTES = 2 * 2 ** 20;

let kernel: { dir: string; env: NodeJS.ProcessEnv } | undefined;
beforeAll(() => {
  if (jupyter) kernel = prepareKernel();
}, 120_000);
afterAll(() => removeKernelDir(kernel?.dir));

describe('the committed notebooks', () => {
  it('include the quickstart, linear-algebra and sparse-physics notebooks', () => {
    const names = files.map((f) => basename(f));
    for (const n of ['01-quickstart.ipynb', '02-linear-algebra.ipynb', '03-sparse-physics.ipynb']) expect(names).toContain(n);
  });

  it.each(files.map((f) => [basename(f), f]))('%s is saved executed (outputs present, no errors) and under 2 MB', (_name, file) => {
    expect(statSync(file).size).toBeLessThan(MAX_BYTES);
    const nb = JSON.parse(readFileSync(file, 'utf8')) as Notebook;
    expect((nb.metadata['kernelspec'] as { name?: string } | undefined)?.name).toBe('tslab');
    expect(problems(nb)).toEqual([]);
    expect(nb.cells.filter((c) => c.cell_type === 'code' && expectsOutput(c)).length).toBeGreaterThan(0);
  });
});

describe('executing the notebooks (jupyter nbconvert --execute, tslab kernel)', () => {
  it.runIf(required && !jupyter)('Jupyter is installed (scripts/install-system-deps.sh --with-jupyter)', () => {
    expect(jupyter).toBe(true);
  });

  it.runIf(jupyter)('dist/ is built from the current sources (the notebooks load dist/cjs)', () => {
    expect(staleBuild()).toBeUndefined();
  });

  // tslab reports both an exception and a cell that does not type-check on stderr (not as an
  // 'error' output) and then aborts the cells after it, so each fault gets its own notebook.
  const runCells = (name: string, cells: string[]): string[] => {
    const nb: Notebook = {
      cells: cells.map((source, i) => ({ cell_type: 'code', id: `c${i}`, execution_count: null, metadata: {}, outputs: [], source })),
      metadata: { kernelspec: { display_name: 'TypeScript', language: 'typescript', name: 'tslab' } },
      nbformat: 4,
      nbformat_minor: 5,
    };
    const file = join(kernel!.dir, `${name}.ipynb`);
    writeFileSync(file, JSON.stringify(nb));
    return problems(executeNotebook(file, kernel!, 60).nb);
  };

  it.runIf(jupyter)('a broken notebook is caught: a printing cell that printed nothing, an exception, the cells it aborted', () => {
    const found = runCells('throws', ['if (Math.random() > 2) console.log("never");', "throw new Error('boom');", 'console.log("after");']);
    expect(found, found.join('\n')).toHaveLength(3);
    expect(found[0]).toMatch(/^cell 1 \(c0\) produced no output/);
    expect(found[1]).toMatch(/^cell 2 \(c1\) wrote to stderr: /);
    expect(found[2]).toMatch(/^cell 3 \(c2\) produced no output/);
  }, 120_000);

  it.runIf(jupyter)('a broken notebook is caught: a cell that does not type-check', () => {
    const found = runCells('type-error', ["const n: number = 'not a number';\nconsole.log(n);", 'console.log("after");']);
    expect(found, found.join('\n')).toHaveLength(2);
    expect(found[0]).toMatch(/^cell 1 \(c0\) wrote to stderr: .*not assignable to type 'number'/);
    expect(found[1]).toMatch(/^cell 2 \(c1\) produced no output/);
  }, 120_000);

  it.runIf(jupyter).each(files.map((f) => [basename(f), f]))(
    '%s runs top to bottom without errors, printing where it should',
    async (name, file) => {
      const { nb, seconds } = executeNotebook(file, kernel!, CELL_TIMEOUT_S);
      expect(problems(nb), `${name}: ${seconds.toFixed(1)} s`).toEqual([]);
      console.log(`${name}: executed in ${seconds.toFixed(1)} s, ${plotlyOutputs(nb).length} figure(s)`);
      if (update) {
        const text = JSON.stringify(await compact(nb), null, 1) + '\n';
        writeFileSync(file, text);
        console.log(`${name}: written back (${(text.length / 1024).toFixed(0)} KiB)`);
      }
    },
    600_000,
  );
});
