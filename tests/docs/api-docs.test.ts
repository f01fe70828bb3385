// The API reference (issue 16): every public export has a doc summary, the main
// entry points of each namespace have an @example, and `typedoc` (npm run docs)
// builds the reference with no validation warnings (unexported types a public
// signature mentions, broken {@link}s).

import { describe, expect, test } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { collectExports, isValue, type ExportDoc } from './coverage.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

// Exports whose doc comment lives in a file another change owns at the time of
// writing; the last test fails once they gain a summary, so the list shrinks.
const KNOWN_MISSING_SUMMARY = new Set<string>([]);

// Entry points that need an @example in a file another change owns at the time
// of writing (src/integrate/solve-ivp.ts, odeint.ts); the
// stale-list test fails once they have one, so they move to MUST_HAVE_EXAMPLE.
const KNOWN_MISSING_EXAMPLE = new Set<string>([]);

// The entry points a reader looks up first: each must show an example.
const MUST_HAVE_EXAMPLE = [
  'tensor', 'zeros', 'ones', 'arange', 'linspace', 'eye', 'matmul',
  'grad', 'valueAndGrad', 'jit', 'vmap', 'compile', 'scan',
  'random.key', 'random.normal', 'random.uniform',
  'linalg.solve', 'linalg.eigh', 'linalg.svd', 'linalg.cholesky', 'linalg.lstsq', 'linalg.qr',
  'sparse.csr', 'sparse.poisson2d', 'sparse.spsolve', 'sparse.splu', 'sparse.cg',
  'fft.fft', 'fft.rfft', 'fft.ifft', 'fft.fftfreq',
  'integrate.rk4', 'integrate.solveIvp', 'integrate.odeint',
  'plot.line', 'plot.heatmap',
];

const exportsList: ExportDoc[] = collectExports();
const byName = new Map(exportsList.map((e) => [e.name, e]));

describe('doc coverage (TypeScript compiler API over src/index.ts)', () => {
  test('the walk reaches the namespaces and their members', () => {
    for (const ns of ['linalg', 'sparse', 'sparse.raw', 'fft', 'integrate', 'plot', 'random']) {
      expect(byName.get(ns)?.kind, ns).toBe('namespace');
    }
    for (const fn of ['matmul', 'linalg.solve', 'sparse.cg', 'fft.rfft', 'integrate.rk4', 'plot.line', 'random.normal']) {
      expect(byName.get(fn)?.kind, fn).toBe('function');
    }
  });

  test('every exported function, class, const and namespace has a summary', () => {
    const missing = exportsList
      .filter((e) => (isValue(e) || e.kind === 'namespace') && e.summary === '' && !KNOWN_MISSING_SUMMARY.has(e.name))
      .map((e) => `${e.name} (${e.kind}, ${e.file})`);
    expect(missing, `exports without a doc summary:\n  ${missing.join('\n  ')}`).toEqual([]);
  });

  test('the main entry points have an @example', () => {
    const missing = MUST_HAVE_EXAMPLE.filter((n) => byName.get(n)?.hasExample !== true);
    expect(missing, `entry points without an @example: ${missing.join(', ')}`).toEqual([]);
    const values = exportsList.filter(isValue);
    const withExample = values.filter((e) => e.hasExample).length;
    console.log(`doc coverage: ${values.length} value exports, ${values.filter((e) => e.summary !== '').length} with a summary, ${withExample} with an @example`);
  });

  test('KNOWN_MISSING_SUMMARY and KNOWN_MISSING_EXAMPLE list only exports that still lack one', () => {
    const stale = [...KNOWN_MISSING_SUMMARY].filter((n) => byName.get(n)?.summary !== '');
    expect(stale, `now documented (or gone), drop from KNOWN_MISSING_SUMMARY: ${stale.join(', ')}`).toEqual([]);
    const staleEx = [...KNOWN_MISSING_EXAMPLE].filter((n) => byName.get(n)?.hasExample !== false);
    expect(staleEx, `now have an @example (or gone), move to MUST_HAVE_EXAMPLE: ${staleEx.join(', ')}`).toEqual([]);
  });
});

describe('npm run docs (typedoc)', () => {
  // typedoc takes ~15-30 s here; it is the only way to see its validation warnings.
  test('builds the reference with no validation warnings', async () => {
    const out = mkdtempSync(path.join(tmpdir(), 'rlx-api-'));
    try {
      const bin = path.join(ROOT, 'node_modules/typedoc/bin/typedoc');
      const { code, output } = await new Promise<{ code: number; output: string }>((resolve) => {
        execFile(process.execPath, [bin, '--out', out, '--logLevel', 'Warn'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
          resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: stdout + stderr });
        });
      });
      // eslint-disable-next-line no-control-regex
      const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
      // A checkout without a git remote cannot link sources; that is the checkout, not the docs.
      const problems = lines.filter((l) => /\[(warning|error)\]/.test(l) && !/git remote .* was not valid/.test(l) && !/Found \d+ errors and \d+ warnings/.test(l));
      expect(problems, problems.join('\n')).toEqual([]);
      expect(code, output).toBe(0);
      for (const page of ['index.html', 'functions/matmul.html', 'modules/linalg.html', 'modules/sparse.html', 'modules/fft.html', 'modules/integrate.html', 'modules/plot.html', 'modules/random.html']) {
        expect(existsSync(path.join(out, page)), page).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }, 180_000);
});
