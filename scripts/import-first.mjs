#!/usr/bin/env node
// Imports every module of src/ first, each in a fresh module graph, and
// reports the ones that fail: a module in an import cycle whose top-level code
// reads a binding of the cycle that is not initialized yet throws ("Cannot
// access ... before initialization", "Class extends value undefined") when it
// is the first one a process loads. Run by tests/architecture/layers.test.ts;
// from the command line:
//
//   node scripts/import-first.mjs            # prints failures, exit 1 if any
//
// Node's own semantics: src/ is transpiled file by file (TypeScript's
// transpileModule, as tsc emits it) into a temporary directory, and each
// module is imported by a worker thread of its own (a worker has its own
// module map, as a fresh process has) with RLX_NATIVE=0 (loading the addon
// in every worker would only slow this down; the native modules are imported
// all the same). src/cli.ts is left out: it is a program (importing it runs
// the command line).

import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import ts from 'typescript';
import { sourceFiles } from './module-graph.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Writes src/ as ES modules into a new temporary directory; returns it. */
function transpileAll(files) {
  const out = mkdtempSync(join(tmpdir(), 'rlx-import-first-'));
  writeFileSync(join(out, 'package.json'), '{"type": "module"}');
  // The package's dependencies (pngjs, ...) resolve from the copy as from src/.
  symlinkSync(join(root, 'node_modules'), join(out, 'node_modules'), 'dir');
  for (const f of sourceFiles()) {
    const js = ts.transpileModule(readFileSync(join(root, 'src', f), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, isolatedModules: true },
      fileName: f,
    }).outputText;
    const dest = join(out, f.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, js);
  }
  return { out, files };
}

function importInWorker(url) {
  return new Promise((done) => {
    const w = new Worker(`import(${JSON.stringify(url)}).then(() => process.exit(0), (e) => { console.error(String(e && e.message || e).split('\\n')[0]); process.exit(1); });`, {
      eval: true,
      env: { ...process.env, RLX_NATIVE: '0' },
      stderr: true,
      stdout: true,
    });
    let err = '';
    w.stderr.on('data', (d) => (err += d));
    w.stdout.resume();
    w.on('error', (e) => (err += String(e?.message ?? e)));
    w.on('exit', (code) => done(code === 0 ? null : err.trim() || `exit ${code}`));
  });
}

/** [module, error message] for every module of src/ that fails to import first. */
export async function importFirstFailures(files = sourceFiles().filter((f) => f !== 'cli.ts')) {
  const { out } = transpileAll(files);
  const failures = [];
  // One worker per core at a time: each import is a fresh isolate loading modules (single-threaded
  // work), so on 2 cores two at once halve the wall time. Failures are reported in file order.
  const results = new Array(files.length).fill(null);
  let next = 0;
  const lane = async () => {
    while (next < files.length) {
      const i = next++;
      results[i] = await importInWorker(pathToFileURL(join(out, files[i].replace(/\.ts$/, '.js'))).href);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, availableParallelism()) }, lane));
    files.forEach((f, i) => results[i] !== null && failures.push([f, results[i]]));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
  return failures;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const failures = await importFirstFailures();
  for (const [f, m] of failures) console.log(`${f}: ${m}`);
  console.log(`${failures.length} module(s) fail to import first`);
  process.exitCode = failures.length ? 1 : 0;
}
