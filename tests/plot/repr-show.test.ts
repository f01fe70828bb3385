// show() (src/plot/show.ts): in a terminal it writes the figure's HTML to a
// temp file and prints the path; in a real tslab kernel (executed through
// Jupyter's nbconvert, as tests/loading/tslab.test.ts does) it emits one
// display_data message whose MIME bundle holds plotly's JSON, an HTML fallback
// and a text line. Jupyter is a system package (install-system-deps.sh
// --with-jupyter); without it the notebook test skips, except under CI's
// RLX_REQUIRE_NATIVE=1 (as the tslab loading test).

import { afterAll, describe, expect, it, vi } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { mimeBundle, PLOTLY_MIME, show } from '../../src/plot/show.js';

const ROOT = resolve(__dirname, '..', '..');
const PYTHON = '/usr/bin/python3';
const hasJupyter = spawnSync(PYTHON, ['-m', 'jupyter', 'nbconvert', '--version'], { encoding: 'utf8' }).status === 0;
const required = process.env['RLX_REQUIRE_NATIVE'] === '1';
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const FIG = {
  toJSON: () => ({ data: [{ type: 'heatmap', z: [[1, 2], [3, 4]] }, { y: [1, 2] }], layout: { height: 300, title: { text: 'a "quoted" & <b>' } } }),
  toHTML: () => '<!DOCTYPE html><html><body><p title="x">fig & "page"</p></body></html>',
};

describe('show outside a notebook', () => {
  it('writes the HTML page to a temp file, prints its path on one line and returns it', () => {
    const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let path: string | undefined;
    let printed: unknown[];
    try {
      path = show(FIG);
    } finally {
      printed = write.mock.calls.map((c) => c[0]);
      write.mockRestore();
    }
    expect(path).toMatch(/\.html$/);
    dirs.push(dirname(path!));
    expect(path!.startsWith(tmpdir())).toBe(true);
    expect(readFileSync(path!, 'utf8')).toBe(FIG.toHTML());
    expect(printed).toEqual([`${path}\n`]);
  });
});

describe('mimeBundle', () => {
  it('holds the plotly JSON, an iframe whose srcdoc decodes back to the page, and a text line', () => {
    const b = mimeBundle(FIG);
    expect(b[PLOTLY_MIME]).toEqual(FIG.toJSON());
    const html = b['text/html'] as string;
    const srcdoc = /srcdoc="([^"]*)"/.exec(html)![1]!;
    // undo the attribute escaping the way an HTML parser does
    expect(srcdoc.replace(/&quot;/g, '"').replace(/&amp;/g, '&')).toBe(FIG.toHTML());
    expect(html).toMatch(/height: 320px/); // layout.height + 20
    expect(b['text/plain']).toBe('Figure(2 traces: heatmap, scatter)');
  });
});

/** show.ts and what it imports, transpiled to CommonJS in `dir` (what a notebook's require loads). */
function transpileShow(dir: string): string {
  const files = ['src/plot/show.ts'];
  for (const f of files) {
    const out = ts.transpileModule(readFileSync(join(ROOT, f), 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } });
    const dest = join(dir, f.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, out.outputText);
  }
  return join(dir, 'src/plot/show.js');
}

describe('show in a tslab notebook', () => {
  it.runIf(required && !hasJupyter)('Jupyter is installed (scripts/install-system-deps.sh --with-jupyter)', () => {
    expect(hasJupyter).toBe(true);
  });

  it.runIf(hasJupyter)('emits one display_data with plotly JSON, HTML and text, and prints no path', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlx-tslab-show-'));
    dirs.push(dir);
    const showJs = transpileShow(dir);
    const cell = [
      `const { show } = require(${JSON.stringify(showJs)});`,
      `const r = show({ toJSON: () => ({ data: [{ y: [1, 3, 2] }], layout: { title: { text: 'nb' } } }), toHTML: () => '<html><body>page</body></html>' });`,
      `console.log('returned ' + String(r));`,
    ];
    const notebook = {
      cells: [{ cell_type: 'code', id: 'show', execution_count: null, metadata: {}, outputs: [], source: cell.map((l) => l + '\n') }],
      metadata: { kernelspec: { display_name: 'TypeScript', language: 'typescript', name: 'tslab' } },
      nbformat: 4,
      nbformat_minor: 5,
    };
    writeFileSync(join(dir, 'show.ipynb'), JSON.stringify(notebook));
    const env = { ...process.env, JUPYTER_DATA_DIR: join(dir, 'jupyter'), PATH: join(ROOT, 'node_modules', '.bin') + delimiter + process.env['PATH'] };
    const run = (cmd: string, args: string[]): void => {
      const r = spawnSync(cmd, args, { cwd: dir, env, encoding: 'utf8', timeout: 90_000 });
      if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}${r.stderr}`);
    };
    run(join(ROOT, 'node_modules', '.bin', 'tslab'), ['install', `--python=${PYTHON}`, '--user']);
    run(PYTHON, ['-m', 'jupyter', 'nbconvert', '--to', 'notebook', '--execute', '--ExecutePreprocessor.timeout=60', 'show.ipynb', '--output', 'out.ipynb']);
    expect(existsSync(join(dir, 'out.ipynb'))).toBe(true);
    const out = JSON.parse(readFileSync(join(dir, 'out.ipynb'), 'utf8')) as { cells: { outputs: { output_type: string; name?: string; text?: string[]; data?: Record<string, unknown> }[] }[] };
    const outputs = out.cells[0]!.outputs;
    expect(outputs.filter((o) => o.output_type === 'error')).toEqual([]);
    const displays = outputs.filter((o) => o.output_type === 'display_data');
    expect(displays.length).toBe(1);
    const data = displays[0]!.data!;
    expect(data[PLOTLY_MIME]).toEqual({ data: [{ y: [1, 3, 2] }], layout: { title: { text: 'nb' } } });
    const joined = (v: unknown): string => (Array.isArray(v) ? v.join('') : String(v)); // nbformat stores text as a list of lines
    expect(joined(data['text/html'])).toContain('srcdoc="<html><body>page</body></html>"');
    expect(joined(data['text/plain'])).toBe('Figure(1 trace: scatter)');
    const text = outputs.filter((o) => o.name === 'stdout').flatMap((o) => o.text ?? []).join('');
    expect(text).toBe('returned undefined\n');
  }, 120_000);
});
