// Type tests (issue 14 §5): the compile-only files of tests/types/ and every
// ```ts block of README.md must compile under --strict with the project's
// TypeScript and with TypeScript 5.0 (@tslab/typescript-for-tslab, the
// compiler tslab runs notebooks with). A file's `// @ts-expect-error` lines
// prove wrong uses are rejected: an unused one is itself an error.
//
// README snippets import from 'rlx'; that name is mapped to src/index.ts. Each
// snippet is compiled as its own module (virtual file beside this one).

import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type tsType from 'typescript';

const require = createRequire(import.meta.url);
const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, '..', '..');

/** The ```ts blocks of README.md, with the line each starts on. */
export function readmeSnippets(text: string): { line: number; code: string }[] {
  const out: { line: number; code: string }[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ts\s*$/.test(lines[i]!)) continue;
    const start = i + 1;
    let j = start;
    while (j < lines.length && !/^```\s*$/.test(lines[j]!)) j++;
    out.push({ line: start + 1, code: lines.slice(start, j).join('\n') + '\n' });
    i = j;
  }
  return out;
}

const typeFiles = readdirSync(HERE)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => join(HERE, f));
const snippets = readmeSnippets(readFileSync(join(ROOT, 'README.md'), 'utf8'));

/** Diagnostics of compiling the type files and the README snippets with `ts`, as "file:line: message" lines. */
function compile(ts: typeof tsType): string[] {
  const virtual = new Map(snippets.map((s, i) => [join(HERE, `readme-snippet-${i + 1}-line-${s.line}.ts`), s.code]));
  const options: tsType.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    baseUrl: ROOT,
    paths: { rlx: ['src/index.ts'] },
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, ...rest) => {
    const text = virtual.get(f);
    return text !== undefined ? ts.createSourceFile(f, text, lang) : getSourceFile.call(host, f, lang, ...rest);
  };
  const program = ts.createProgram([...typeFiles, ...virtual.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const msg = ts.flattenDiagnosticMessageText(d.messageText, '\n');
    if (!d.file || d.start === undefined) return msg;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start);
    return `${d.file.fileName.replace(ROOT + '/', '')}:${line + 1}: ${msg}`;
  });
}

describe('type tests and README snippets compile under --strict', () => {
  it('finds the files', () => {
    expect(typeFiles.length).toBeGreaterThanOrEqual(2);
    expect(snippets.length).toBeGreaterThanOrEqual(4);
  });

  it(`the project's TypeScript (${(require('typescript') as typeof tsType).version})`, () => {
    expect(compile(require('typescript') as typeof tsType)).toEqual([]);
  }, 120_000);

  it('TypeScript 5.0 (tslab bundles it)', () => {
    // tslab's own compiler (a TypeScript 5.0.4 build), installed with tslab, a devDependency.
    const ts5 = require('@tslab/typescript-for-tslab') as typeof tsType;
    expect(ts5.version).toMatch(/^5\.0\./);
    expect(compile(ts5)).toEqual([]);
  }, 120_000);
});
