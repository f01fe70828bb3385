// The doctest (issue 16): every ```ts block of every @example in the public
// API's doc comments (exports reachable from src/index.ts and the public members
// of exported classes; see coverage.ts) is
//   1. type-checked under --strict, all blocks in ONE compiler program, each
//      block its own module with every root value export of rlx imported
//      ('rlx' mapped to src/index.ts, as tests/types/compile.test.ts does), and
//   2. executed: transpiled to ESM importing the BUILT package (dist/index.js),
//      run one after another in a child process (run-examples.ts), each block's
//      throw, hang or crash recorded without hiding the others; every line
//      `expression;  // literal` also checks that the value is the literal
//      (expected-values.ts: Tensors by tolist(), numbers to the digits written).
// A failure names the export and the source line of the block (or of the
// diagnostic), so it can be fixed where it is written.
// The convention the blocks follow: self-contained, short (every root export
// in scope, namespace members qualified: linalg.solve), expected values as
// true trailing comments.

import { describe, expect, test } from 'vitest';
import ts from 'typescript';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { walkApi, type ExampleBlock } from './coverage.js';
import { distStaleness, runExamples, type BlockFailure } from './run-examples.js';
import { findChromium } from '../../src/plot/browser-launch.js';
import { CHECK_HELPER, withChecks } from './expected-values.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const api = walkApi();
const blocks: ExampleBlock[] = api.examples;
const where = (b: ExampleBlock): string => `${b.name} (${b.file}:${b.line})`;

/** The import every block runs under, on ONE line: a block's line k is the module's line k + 1. */
const prelude = (from: string): string => `import { ${api.rootValues.join(', ')} } from '${from}';\n`;

/** Diagnostics of type-checking every block under --strict, as "export (file:line): message". */
function typeCheck(): string[] {
  // Virtual files beside this one: tests/ is inside the "type": "module" package, so each is an ES module (top-level await allowed).
  const virtual = new Map(blocks.map((b, i) => [path.join(import.meta.dirname, `example-${i}.ts`), { b, text: prelude('rlx') + b.code }]));
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true, // noUnusedLocals stays off: the prelude imports far more than a block uses
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    baseUrl: ROOT,
    paths: { rlx: ['src/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f)?.text ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, ...rest) => {
    const v = virtual.get(f);
    return v !== undefined ? ts.createSourceFile(f, v.text, lang) : getSourceFile.call(host, f, lang, ...rest);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const msg = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return msg;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    const v = virtual.get(d.file.fileName);
    if (v === undefined) return `${path.relative(ROOT, d.file.fileName)}:${line + 1}: ${msg}`;
    if (line === 0) return `${where(v.b)}: (prelude) ${msg}`;
    return `${v.b.name} (${v.b.file}:${v.b.line + line - 1}): ${msg}`;
  });
}

/** ESM JavaScript of a block, with an inline source map naming it example-<index>.ts (run-examples.ts reads lines from it). */
const transpile = (source: string, index: number): string =>
  ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, inlineSourceMap: true },
    fileName: `example-${index}.ts`,
  }).outputText;

describe('@example blocks (doctest)', () => {
  test('are found, each @example with a ```ts block', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(40);
    expect(api.rootValues).toEqual(expect.arrayContaining(['tensor', 'linalg', 'sparse', 'fft', 'integrate', 'plot', 'random', 'grad']));
    // An @example in another form would be skipped by both checks below: it must be fixed, not ignored.
    const bad = api.problems.map((p) => `${p.name} (${p.file}:${p.line}): ${p.problem}`);
    expect(bad, `@example tags the doctest cannot read:\n  ${bad.join('\n  ')}`).toEqual([]);
  });

  test('type-check under --strict (one program, every root export imported)', () => {
    const diags = typeCheck();
    expect(diags, `@example blocks that do not type-check:\n  ${diags.join('\n  ')}`).toEqual([]);
  }, 120_000);

  test('run without throwing against the built package (dist/)', async () => {
    const stale = distStaleness(ROOT);
    expect(stale, `dist/ is older than src/ (${stale.slice(0, 5).join(', ')}${stale.length > 5 ? ', ...' : ''}): run npm run build`).toEqual([]);
    const distUrl = new URL(`file://${path.join(ROOT, 'dist', 'index.js')}`).href;
    // Blocks that launch headless Chromium (plot.renderCheck & co.) need a browser: without one they
    // are left out, except under CI's RLX_REQUIRE_BROWSER=1 (as the tests/plot browser tests do).
    const needsBrowser = (code: string) => /\b(renderCheck|renderCheckFigures|savePng)\b/.test(code);
    let hasBrowser = true;
    try {
      findChromium();
    } catch {
      hasBrowser = process.env['RLX_REQUIRE_BROWSER'] === '1';
    }
    const runnable = blocks.map((b, i) => ({ b, i })).filter(({ b }) => hasBrowser || !needsBrowser(b.code));
    if (runnable.length < blocks.length) console.log(`doctest: no headless browser: ${blocks.length - runnable.length} block(s) that launch one left out`);
    // Each `expression; // literal` line also checks that the value is the literal (expected-values.ts).
    const checkedPrelude = prelude(distUrl).replace(/\n$/, ` ${CHECK_HELPER}\n`);
    let checks = 0;
    const modules = runnable.map(({ b, i }) => {
      const c = withChecks(b.code);
      checks += c.checks;
      return transpile(checkedPrelude + c.code, i);
    });
    const t0 = Date.now();
    const failures: BlockFailure[] = await runExamples(modules, { blockTimeoutMs: 20_000 });
    console.log(`doctest: ran ${runnable.length} @example blocks (${checks} commented values checked) in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${failures.length} failed`);
    // f.line counts the prelude line: block line k (1-based) is module line k + 1.
    const lines = failures.map((f) => {
      const b = runnable[f.index]!.b;
      return `${b.name} (${b.file}:${f.line !== undefined ? b.line + f.line - 2 : b.line}): ${f.message}`;
    });
    expect(lines, `@example blocks that threw:\n  ${lines.join('\n  ')}`).toEqual([]);
  }, 120_000);
});

// The runner must see every kind of failure, or the doctest above could pass on
// examples that never ran: a throw, a rejection nobody awaits, a hang, a crash
// of the process; and the blocks after each must still run.
describe('the doctest runner (run-examples.ts)', () => {
  test('records a throw, an unhandled rejection, a hang and an exit, and runs the blocks after each', async () => {
    // Any build will do here (the blocks use only tensor and linalg.solve): the runner is under test, not rlx.
    expect(existsSync(path.join(ROOT, 'dist', 'index.js')), 'run npm run build').toBe(true);
    const rlx = new URL(`file://${path.join(ROOT, 'dist', 'index.js')}`).href;
    const ok = `import { tensor } from '${rlx}';\nif (tensor([1, 2]).sum().item() !== 3) throw new Error('wrong sum');\n`;
    const sources = [
      ok,
      `import { linalg, tensor } from '${rlx}';\nlinalg.solve(tensor([[0, 0], [0, 0]]), tensor([1, 1])).tolist();\n`, // 1: singular (lazy: throws when read)
      ok,
      `Promise.reject(new RangeError('nobody awaits me'));\n`, // 3
      `await new Promise(() => setInterval(() => {}, 1000));\n`, // 4: never settles
      ok,
      `process.exit(3);\n`, // 6
      ok,
      transpile(`const n: number = 1;\n\ninterface T { a: number }\nif (n > 0) throw new TypeError('at line 4');\n`, 8),
    ];
    const failures = await runExamples(sources, { blockTimeoutMs: 3_000 });
    expect(failures.map((f) => f.index)).toEqual([1, 3, 4, 6, 8]);
    expect(failures[0]!.message).toMatch(/^SingularMatrixError: /);
    expect(failures[1]!.message).toBe('unhandled rejection: RangeError: nobody awaits me');
    expect(failures[2]!.message).toMatch(/did not finish within 3 s/);
    expect(failures[3]!.message).toMatch(/exited \(code 3\)/);
    // The line of the throw in the TypeScript source (type-only lines erased from the JavaScript), through the source map.
    expect(failures[4]).toEqual({ index: 8, message: 'TypeError: at line 4', line: 4 });
    // The blocks after a hang and after an exit ran (a failing one there is reported).
    const after = await runExamples([`process.exit(1);\n`, `throw new Error('second');\n`], { blockTimeoutMs: 3_000 });
    expect(after.map((f) => f.message)).toEqual([expect.stringMatching(/exited \(code 1\)/), 'Error: second']);
  }, 60_000);
});

// The coverage rule (issue 16: "every public function with a one-line summary
// and an example"). Required: every exported function (also
// `export const f = (...) => ...`) and every class that is not an error class.
// Exempt: error classes (RlxError and subclasses), plain constants (DTYPES,
// config, printOptions, plot.DEFAULT_MAX_POINTS), namespaces, types.
const needExample = api.exports.filter((e) => e.callable || (e.kind === 'class' && !e.errorClass));
const withoutExample = needExample.filter((e) => !e.hasExample).map((e) => `${e.name} (${e.file})`);
test('every public function and non-error class has an @example', () => {
  expect(needExample.length).toBeGreaterThan(150); // the walk found the API (a broken walk would pass vacuously)
  expect(withoutExample, `public functions/classes without an @example:\n  ${withoutExample.join('\n  ')}`).toEqual([]);
});
