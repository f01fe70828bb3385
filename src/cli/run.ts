// `rlx run notebook.ipynb [-o out.ipynb]`: executes a notebook headless, the
// way CI does (issue 16), with Jupyter from the system (Debian:
// jupyter-nbconvert, whose nbclient runs the cells) and rlx's notebooks on the
// tslab TypeScript kernel (`npx tslab install` registers it; the checkout's
// node_modules/.bin is put first on PATH so the kernel's `tslab` command is
// found). A small nbclient driver (DRIVER below) runs the code cells one by
// one, stops at the first whose execute reply is an error, and always writes
// the executed notebook; this command then fails (exit 1) naming that cell in
// one line. Why not `nbconvert --execute --allow-errors` and a look for 'error'
// outputs: tslab reports an exception or a type error on stderr, never as an
// 'error' output, so a failing TypeScript notebook would pass as executed.

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

/**
 * Runs the code cells in order with nbclient and prints one JSON line:
 * {"ok": true} or {"failed": k, "message": "..."} (k 1-based among code cells;
 * the message from the cell's error output, else the last line of its stderr,
 * which is where tslab reports) or {"missingKernel": name}. The notebook is
 * written to the output path whatever happens after the kernel started.
 */
const DRIVER = `
import json, os, sys
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from jupyter_client.kernelspec import NoSuchKernel
src, out, timeout = sys.argv[1], sys.argv[2], int(float(sys.argv[3]))
nb = nbformat.read(src, as_version=4)
client = NotebookClient(nb, timeout=timeout, resources={"metadata": {"path": os.path.dirname(os.path.abspath(src))}})
report = {"ok": True}
def message(cell):
    for o in cell.get("outputs", []):
        if o.get("output_type") == "error":
            return (o.get("ename", "") + ": " + o.get("evalue", "")).strip(": ").split("\\n")[0]
    text = "".join("".join(o.get("text", "")) for o in cell.get("outputs", []) if o.get("output_type") == "stream" and o.get("name") == "stderr")
    lines = [l.strip() for l in text.split("\\n") if l.strip() and not l.strip().startswith("at ")]
    errs = [l for l in lines if "Error" in l or "error" in l]
    return (errs or lines or [""])[-1]
try:
    with client.setup_kernel():
        k = 0
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            k += 1
            try:
                client.execute_cell(cell, i)
            except CellExecutionError:
                report = {"failed": k, "message": message(cell)}
                break
except NoSuchKernel as e:
    report = {"missingKernel": str(e.args[0]) if e.args else ""}
else:
    nbformat.write(nb, out)
print(json.dumps(report))
`;

interface DriverReport {
  ok?: boolean;
  failed?: number;
  message?: string;
  missingKernel?: string;
}

/** The last line of stdout that parses as the driver's JSON report. */
function lastJson(stdout: string): DriverReport | undefined {
  const lines = stdout.split('\n').filter((l) => l.trim().startsWith('{'));
  try {
    return lines.length > 0 ? (JSON.parse(lines[lines.length - 1]!) as DriverReport) : undefined;
  } catch {
    return undefined;
  }
}

/** A Python that has nbclient: Debian's first (another python3 may come first on PATH), then python3. */
function driverPython(env: NodeJS.ProcessEnv): string {
  for (const py of ['/usr/bin/python3', 'python3']) {
    const r = spawnSync(py, ['-c', 'import nbclient, nbformat'], { env, encoding: 'utf8' });
    if (!r.error && r.status === 0) return py;
  }
  throw new CliFailure('Jupyter\'s nbclient is not installed for any python3 (Debian: apt-get install jupyter-nbconvert python3-nbclient)');
}

export const run: Command = {
  name: 'run',
  summary: 'execute a notebook headless (jupyter nbconvert --execute; tslab kernel)',
  usage: 'run notebook.ipynb [-o out.ipynb] [--timeout s]',
  options: {
    output: { type: 'string', short: 'o', help: '-o, --output   the executed notebook (default <name>.nbconvert.ipynb beside it)' },
    timeout: { type: 'string', help: '--timeout <s>  seconds a cell may run (default 600)' },
  },
  details: 'Needs Jupyter (Debian: apt-get install jupyter-nbconvert) and, for TypeScript notebooks, the tslab\nkernel registered (npx tslab install). Cells run in order and stop at the first that raises (exit 1,\nnaming it); the executed notebook is still written.',
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

    const python = driverPython(env);
    const t0 = performance.now();
    const r = spawnSync(python, ['-c', DRIVER, nb, out, String(timeout)], { env, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
    if (r.error) throw new CliFailure(`could not run ${python} (Jupyter's nbclient): ${r.error.message}`);
    const report = lastJson(r.stdout);
    if (report === undefined) throw new CliFailure(`executing ${nb} failed: ${lastMeaningfulLine(r.stderr) || `exit ${r.status}`}`);
    if (report.missingKernel !== undefined)
      throw new CliFailure(`the notebook's kernel '${report.missingKernel || kernel || '?'}' is not registered with Jupyter${kernel === 'tslab' || kernel === 'jslab' ? ' (register it: npx tslab install)' : ''}`);
    const secs = (performance.now() - t0) / 1000;
    if (report.failed !== undefined) throw new CliFailure(`${nb}: code cell ${report.failed} raised: ${report.message || 'an error'} (executed notebook: ${out})`);
    const code = (readNotebook(out).cells ?? []).filter((c) => c.cell_type === 'code');
    console.log(`executed ${nb} (${code.length} code cells, ${secs.toFixed(1)} s) -> ${out}`);
    return 0;
  },
};
