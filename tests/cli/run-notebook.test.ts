// `rlx run notebook.ipynb` end to end through a real tslab kernel: a notebook
// that runs is exit 0 with its outputs written; one whose cell throws, or does
// not type-check, is exit 1 with one line naming the cell, and the executed
// notebook is still written. tslab reports both failures on stderr, not as
// 'error' outputs, so a check of 'error' outputs alone (the command's first
// version) called the failing notebook executed.
// Jupyter is a system package (scripts/install-system-deps.sh --with-jupyter,
// which CI passes): without it these tests skip, except under CI's
// RLX_REQUIRE_NATIVE=1, where a missing install fails them.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
const PYTHON = '/usr/bin/python3';
const hasJupyter = spawnSync(PYTHON, ['-c', 'import nbclient, nbformat'], { encoding: 'utf8' }).status === 0 && spawnSync('jupyter', ['nbconvert', '--version'], { encoding: 'utf8' }).status === 0;
const required = process.env['RLX_REQUIRE_NATIVE'] === '1';
let dir: string;
let env: NodeJS.ProcessEnv;

const notebook = (cells: string[][]) =>
  JSON.stringify({
    cells: cells.map((source, i) => ({ cell_type: 'code', id: `c${i}`, execution_count: null, metadata: {}, outputs: [], source: source.map((l) => l + '\n') })),
    metadata: { kernelspec: { display_name: 'TypeScript', language: 'typescript', name: 'tslab' } },
    nbformat: 4,
    nbformat_minor: 5,
  });

function rlx(args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env, timeout: 180_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
const lines = (s: string): string[] => s.split('\n').filter((l) => l !== '');
type Out = { output_type: string; name?: string; text?: string[] };
const outputsOf = (path: string): Out[][] => (JSON.parse(readFileSync(path, 'utf8')) as { cells: { outputs: Out[] }[] }).cells.map((c) => c.outputs);

beforeAll(() => {
  if (!hasJupyter) return;
  dir = mkdtempSync(join(tmpdir(), 'rlx-run-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'rlx'), 'dir');
  env = { ...process.env, JUPYTER_DATA_DIR: join(dir, 'jupyter') };
  const r = spawnSync(join(ROOT, 'node_modules', '.bin', 'tslab'), ['install', `--python=${PYTHON}`, '--user'], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tslab install failed: ${r.stdout}${r.stderr}`);
  writeFileSync(join(dir, 'good.ipynb'), notebook([["import * as rlx from 'rlx';", 'console.log(rlx.tensor([1, 2]).sum().item());'], ["console.log('second');"]]));
  writeFileSync(join(dir, 'throws.ipynb'), notebook([["console.log('first');"], ["throw new Error('boom');"], ["console.log('never');"]]));
  writeFileSync(join(dir, 'types.ipynb'), notebook([['const x: number = 1;', 'console.log(x);'], ["const y: number = 'a string';"]]));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('rlx run (a real tslab kernel)', () => {
  it.runIf(required && !hasJupyter)('Jupyter and nbclient are installed (scripts/install-system-deps.sh --with-jupyter)', () => {
    expect(hasJupyter).toBe(true);
  });

  it.runIf(hasJupyter)('a notebook that runs: exit 0, one line, the outputs written to -o', () => {
    const r = rlx(['run', 'good.ipynb', '-o', 'good-out.ipynb']);
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toHaveLength(1);
    expect(r.stdout).toMatch(/^executed good\.ipynb \(2 code cells, [0-9.]+ s\) -> .*good-out\.ipynb$/m);
    const outs = outputsOf(join(dir, 'good-out.ipynb'));
    expect(outs.map((o) => o.map((x) => (x.text ?? []).join('')).join(''))).toEqual(['3\n', 'second\n']);
  }, 180_000);

  it.runIf(hasJupyter)('a cell that throws: exit 1, one line naming the cell and the error; the executed notebook is written', () => {
    const r = rlx(['run', 'throws.ipynb', '-o', 'throws-out.ipynb']);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^rlx run: throws\.ipynb: code cell 2 raised: Error: boom \(executed notebook: .*throws-out\.ipynb\)$/)]);
    const outs = outputsOf(join(dir, 'throws-out.ipynb'));
    expect(outs[0]!.map((x) => (x.text ?? []).join(''))).toEqual(['first\n']);
    expect(outs[2]).toEqual([]); // not run after the failure
  }, 180_000);

  it.runIf(hasJupyter)('a cell that does not type-check: exit 1 naming the cell and the diagnostic', () => {
    const r = rlx(['run', 'types.ipynb']);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual([expect.stringMatching(/^rlx run: types\.ipynb: code cell 2 raised: .*Type 'string' is not assignable to type 'number'/)]);
    expect(existsSync(join(dir, 'types.nbconvert.ipynb'))).toBe(true);
  }, 180_000);
});
