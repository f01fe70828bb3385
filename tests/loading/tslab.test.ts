// A tslab notebook can load rlx (issue 14 §5): tslab (1.0.22, a devDependency)
// compiles notebook cells with its TypeScript 5.0 to CommonJS, so
// `import * as rlx from 'rlx'` becomes require('rlx') and needs the dist/cjs/
// build. This executes a real notebook through Jupyter (nbconvert --execute,
// the tslab kernel registered in a temp Jupyter data dir) and reads the cell's
// output. Jupyter is a system package (scripts/install-system-deps.sh
// --with-jupyter, which CI passes); without it the test is skipped, except
// under CI's RLX_REQUIRE_NATIVE=1, where a missing install fails it.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const PYTHON = '/usr/bin/python3'; // Debian's, where apt puts Jupyter (not a pyenv shim's)
const hasJupyter = spawnSync(PYTHON, ['-m', 'jupyter', 'nbconvert', '--version'], { encoding: 'utf8' }).status === 0;
const required = process.env['RLX_REQUIRE_NATIVE'] === '1';
let dir: string;

const CELL = [
  "import * as rlx from 'rlx';",
  "const a = rlx.tensor([[4, 1], [1, 3]], { dtype: 'float64' });",
  "const x: rlx.Tensor = rlx.linalg.solve(a, rlx.tensor([1, 2], { dtype: 'float64' }));",
  'console.log(JSON.stringify(x.tolist()));',
];

beforeAll(() => {
  if (!hasJupyter) return;
  dir = mkdtempSync(join(tmpdir(), 'rlx-tslab-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'rlx'), 'dir');
  const notebook = {
    cells: [{ cell_type: 'code', id: 'solve', execution_count: null, metadata: {}, outputs: [], source: CELL.map((l) => l + '\n') }],
    metadata: { kernelspec: { display_name: 'TypeScript', language: 'typescript', name: 'tslab' } },
    nbformat: 4,
    nbformat_minor: 5,
  };
  writeFileSync(join(dir, 'rlx.ipynb'), JSON.stringify(notebook));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tslab notebook', () => {
  it.runIf(required && !hasJupyter)('Jupyter is installed (scripts/install-system-deps.sh --with-jupyter)', () => {
    expect(hasJupyter).toBe(true);
  });

  it.runIf(hasJupyter)("a notebook cell `import * as rlx from 'rlx'` runs a solve", () => {
    const env = { ...process.env, JUPYTER_DATA_DIR: join(dir, 'jupyter'), PATH: join(ROOT, 'node_modules', '.bin') + delimiter + process.env['PATH'] };
    const run = (cmd: string, args: string[]): void => {
      const r = spawnSync(cmd, args, { cwd: dir, env, encoding: 'utf8', timeout: 90_000 });
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
    };
    run(join(ROOT, 'node_modules', '.bin', 'tslab'), ['install', `--python=${PYTHON}`, '--user']);
    run(PYTHON, ['-m', 'jupyter', 'nbconvert', '--to', 'notebook', '--execute', '--ExecutePreprocessor.timeout=60', 'rlx.ipynb', '--output', 'out.ipynb']);
    const out = JSON.parse(readFileSync(join(dir, 'out.ipynb'), 'utf8')) as { cells: { outputs: { output_type: string; name?: string; text?: string[] }[] }[] };
    const outputs = out.cells[0]!.outputs;
    expect(outputs.filter((o) => o.output_type === 'error')).toEqual([]);
    const text = outputs.filter((o) => o.name === 'stdout').flatMap((o) => o.text ?? []).join('');
    const x = JSON.parse(text) as number[];
    // closed form: [[4, 1], [1, 3]] x = [1, 2] has x = [1, 7] / 11
    expect(x[0]).toBeCloseTo(1 / 11, 14);
    expect(x[1]).toBeCloseTo(7 / 11, 14);
  }, 120_000);
});
