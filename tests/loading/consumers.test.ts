// rlx loads as a dependency from both module systems (issue 14 §5): a CommonJS
// consumer (require('rlx'), the dist/cjs/ build) and an ES-module consumer
// (import, dist/) get the same, right numbers on the js and native backends;
// require('rlx/package.json') works; and one process may load both builds
// (the dual-package hazard: two copies of the JS state, one native addon).
//
// Each case runs a fresh node in a temp project whose node_modules/rlx links to
// this checkout, i.e. resolution goes through package.json "exports" exactly
// as for an installed package. Needs the built package (npm run build).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const COMPUTE = join(__dirname, 'compute.cjs');
let project: string;

function node(args: string[], env: Record<string, string> = {}): string {
  return execFileSync(process.execPath, args, { cwd: project, encoding: 'utf8', env: { ...process.env, ...env } });
}

beforeAll(() => {
  expect(existsSync(join(ROOT, 'dist', 'cjs', 'index.js')), 'run npm run build (it builds dist/ and dist/cjs/)').toBe(true);
  project = mkdtempSync(join(tmpdir(), 'rlx-consumer-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(ROOT, join(project, 'node_modules', 'rlx'), 'dir');
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  writeFileSync(join(project, 'cjs.cjs'), `const rlx = require('rlx');\nconsole.log(JSON.stringify(require(${JSON.stringify(COMPUTE)})(rlx, process.argv[2])));\n`);
  writeFileSync(join(project, 'esm.mjs'), `import * as rlx from 'rlx';\nimport { createRequire } from 'node:module';\nconst compute = createRequire(import.meta.url)(${JSON.stringify(COMPUTE)});\nconsole.log(JSON.stringify(compute(rlx, process.argv[2])));\n`);
});
afterAll(() => rmSync(project, { recursive: true, force: true }));

// Exact where the arithmetic is exact; the solves against the closed form
// x = [1, 7] / 11 of [[4, 1], [1, 3]] x = [1, 2].
function expectRight(r: { add: number[][]; matmul: number[][]; solve: number[]; spsolve: number[] }): void {
  expect(r.add).toEqual([[5, 2], [2, 4]]);
  expect(r.matmul).toEqual([[17, 7], [7, 10]]);
  for (const x of [r.solve, r.spsolve]) {
    expect(x[0]).toBeCloseTo(1 / 11, 14);
    expect(x[1]).toBeCloseTo(7 / 11, 14);
  }
}

const nativeBuilt = existsSync(join(ROOT, 'native', 'build', 'Release', 'rlx_native.node'));
const DEVICES: { device: string; env: Record<string, string> }[] = [
  { device: 'js', env: { RLX_NATIVE: '0' } },
  ...(nativeBuilt || process.env['RLX_REQUIRE_NATIVE'] === '1' ? [{ device: 'native', env: {} }] : []),
];

describe('loading rlx from CommonJS and ESM consumers', () => {
  for (const { device, env } of DEVICES) {
    it(`require('rlx') and import 'rlx' compute the same right numbers on ${device}`, () => {
      const cjs = JSON.parse(node(['cjs.cjs', device], env));
      const esm = JSON.parse(node(['esm.mjs', device], env));
      if (device === 'native') expect(cjs.nativeAvailable).toBe(true);
      expectRight(cjs);
      expect(esm).toEqual(cjs);
    });
  }

  it("require('rlx') resolves to the CommonJS build, import to the ESM build", () => {
    const out = node(['-e', "console.log(require.resolve('rlx'))"]);
    expect(out.trim()).toBe(join(ROOT, 'dist', 'cjs', 'index.js')); // node resolves the link to its real path
    const esm = node(['--input-type=module', '-e', "console.log(import.meta.resolve('rlx'))"]);
    expect(esm.trim()).toBe(`file://${join(ROOT, 'dist', 'index.js')}`);
  });

  it("require('rlx/package.json') gives the package's version", () => {
    const want = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(node(['-e', "console.log(require('rlx/package.json').version)"]).trim()).toBe(want);
  });

  it('the CLI of each build finds package.json (rlx version)', () => {
    const want = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(node([join(ROOT, 'dist', 'cli.js'), 'version']).trim()).toBe(want);
    expect(node([join(ROOT, 'dist', 'cjs', 'cli.js'), 'version']).trim()).toBe(want);
  });

  it.runIf(nativeBuilt)('one process loading both builds: two module states, one native addon, both compute', () => {
    const src = [
      "import * as esm from 'rlx';",
      "import { createRequire } from 'node:module';",
      'const req = createRequire(import.meta.url);',
      "const cjs = req('rlx');",
      `const compute = req(${JSON.stringify(COMPUTE)});`,
      'const a = compute(esm, "native"), b = compute(cjs, "native");',
      // the hazard the README documents: distinct classes, so instanceof fails across builds
      'const x = esm.tensor([1]);',
      'console.log(JSON.stringify({ a, b, sameClass: esm.Tensor === cjs.Tensor, crossInstanceof: x instanceof cjs.Tensor, paths: [esm.nativeStatus().path, cjs.nativeStatus().path] }));',
    ].join('\n');
    const r = JSON.parse(node(['--input-type=module', '-e', src]));
    expectRight(r.a);
    expect(r.b).toEqual(r.a);
    expect(r.a.nativeAvailable && r.b.nativeAvailable).toBe(true);
    expect(r.paths[0]).toBe(r.paths[1]);
    expect(r.sameClass).toBe(false);
    expect(r.crossInstanceof).toBe(false);
  });
});
