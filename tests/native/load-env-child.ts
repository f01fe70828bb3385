// Runs a script in a fresh Node process against src/backends/native modules
// that choose OpenBLAS's load-time settings (openblas-core.ts,
// openblas-spin.ts, load-env.ts): they are transpiled to a scratch dir
// (the child runs plain Node), so the child loads the addon under them the
// way addon.ts does. Used by openblas-core.test.ts and openblas-spin.test.ts.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect } from 'vitest';

/**
 * Transpiles `modules` (names under src/backends/native, without .ts) into a
 * scratch dir, runs `script(path of the first module's .js)` as an ES module
 * with the environment `env` over this one's (undefined: removed), and
 * returns the JSON its last stdout line prints.
 */
export function runWithLoadEnv<T>(modules: readonly string[], env: Record<string, string | undefined>, script: (modulePath: string) => string): T {
  const dir = mkdtempSync(join(tmpdir(), 'rlx-load-env-'));
  try {
    writeFileSync(join(dir, 'package.json'), '{"type": "module"}');
    for (const f of modules) {
      const src = readFileSync(fileURLToPath(new URL(`../../src/backends/native/${f}.ts`, import.meta.url)), 'utf8');
      writeFileSync(join(dir, `${f}.js`), ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
    }
    const childEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) childEnv[k] = v;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script(join(dir, `${modules[0]}.js`))], { encoding: 'utf8', env: childEnv, timeout: 60_000 });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim().split('\n').pop()!) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
