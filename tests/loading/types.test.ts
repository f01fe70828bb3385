// rlx's declarations work for TypeScript consumers of both builds (issue 14 §5):
// a consumer compiled with `tsc --strict` under module commonjs (classic node10
// resolution: package.json "types", the dist/cjs/ declarations) and under module
// nodenext from a .cts (the "require" condition) and a .mts (the "import"
// condition); plus tslab's bundled TypeScript 5.0, which is what notebooks
// compile with (the .d.ts must parse there, not only under our TypeScript 5.9).
// Each consumer also holds a @ts-expect-error that only holds if the types were
// really found (with `any`, the unused directive is itself an error).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
// tslab 1.0.22's compiler (a TypeScript 5.0.4 fork); a devDependency so CI has it.
const TSLAB_TSC = join(ROOT, 'node_modules', '@tslab', 'typescript-for-tslab', 'bin', 'tsc');
let project: string;

const CONSUMER = (importLine: string): string => `${importLine}
const a = rlx.tensor([[4, 1], [1, 3]], { dtype: 'float64' });
const x: rlx.Tensor = rlx.linalg.solve(a, rlx.tensor([1, 2], { dtype: 'float64' }));
const shape: readonly number[] = x.shape;
const values = rlx.matmul(a, a).add(1).tolist();
const A = rlx.sparse.fromDense(a);
const y: rlx.Tensor = rlx.sparse.spsolve(A, x);
// @ts-expect-error a Tensor is not a string (fails as "unused" if rlx's types were not found)
const wrong: string = y;
export { shape, values, wrong };
`;

function tsc(bin: string, args: string[]): string {
  try {
    return execFileSync(process.execPath, [bin, '--strict', '--noEmit', '--types', 'node', ...args], { cwd: project, encoding: 'utf8' });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string };
    throw new Error(`tsc ${args.join(' ')} failed:\n${err.stdout ?? ''}${err.stderr ?? ''}`);
  }
}

beforeAll(() => {
  expect(existsSync(join(ROOT, 'dist', 'cjs', 'index.d.ts')), 'run npm run build (it builds dist/ and dist/cjs/)').toBe(true);
  project = mkdtempSync(join(tmpdir(), 'rlx-types-'));
  mkdirSync(join(project, 'node_modules', '@types'), { recursive: true });
  symlinkSync(ROOT, join(project, 'node_modules', 'rlx'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', '@types', 'node'), join(project, 'node_modules', '@types', 'node'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  writeFileSync(join(project, 'consumer.ts'), CONSUMER("import * as rlx from 'rlx';"));
  writeFileSync(join(project, 'consumer.cts'), CONSUMER("import rlx = require('rlx');"));
  writeFileSync(join(project, 'consumer.mts'), CONSUMER("import * as rlx from 'rlx';"));
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

describe('TypeScript consumers of rlx', () => {
  it('tsc --strict, module commonjs (node10 resolution)', () => {
    tsc(TSC, ['--module', 'commonjs', '--moduleResolution', 'node10', '--target', 'es2022', 'consumer.ts']);
  });

  it('tsc --strict, module nodenext: require (.cts) and import (.mts)', () => {
    tsc(TSC, ['--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', 'consumer.cts', 'consumer.mts']);
  });

  it("tslab's TypeScript 5.0 compiles an `import * as rlx from 'rlx'` consumer (module commonjs, as tslab does)", () => {
    expect(existsSync(TSLAB_TSC), 'npm install (tslab is a devDependency)').toBe(true);
    expect(tsc(TSLAB_TSC, ['--version'])).toMatch(/^Version 5\.0\./);
    tsc(TSLAB_TSC, ['--module', 'commonjs', '--moduleResolution', 'node', '--target', 'es2022', 'consumer.ts']);
  });
});
