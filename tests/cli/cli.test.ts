// The `rlx` command line end to end: the built bin (dist/cli.js) run as a
// user runs it, in a child process. Exit codes (0 / 1 failure / 2 usage),
// --json output that parses, one stderr line per error, and solve's answers
// checked here from the files it reads and writes (A x = b recomputed with
// a hand-written Matrix Market parser, not with rlx).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rowCounter } from '../../src/cli/bench.js';

const ROOT = resolve(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
let dir: string;

function rlx(args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: opts.env ?? process.env, timeout: 120_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
const lines = (s: string): string[] => s.split('\n').filter((l) => l !== '');

// 1-D Poisson, tridiag(-1, 2, -1), n = 40, written by hand (lower triangle, symmetric).
const N = 40;
function poissonText(): string {
  const out = ['%%MatrixMarket matrix coordinate real symmetric', `${N} ${N} ${2 * N - 1}`];
  for (let i = 1; i <= N; i++) {
    out.push(`${i} ${i} 2`);
    if (i < N) out.push(`${i + 1} ${i} -1`);
  }
  return out.join('\n') + '\n';
}
/** A x for the Poisson matrix, by its stencil. */
const poissonApply = (x: number[]): number[] => x.map((xi, i) => 2 * xi - (i > 0 ? x[i - 1]! : 0) - (i < N - 1 ? x[i + 1]! : 0));
/** The values of a real Matrix Market array file (column-major; here n×1). */
function readArray(path: string): number[] {
  const body = readFileSync(path, 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('%'));
  const [m, n] = body[0]!.trim().split(/\s+/).map(Number);
  expect(n).toBe(1);
  const v = body.slice(1).map(Number);
  expect(v.length).toBe(m);
  return v;
}
const norm = (v: number[]): number => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const B = Array.from({ length: N }, (_, i) => Math.sin(i + 1) + 0.5); // a b that is not ones

beforeAll(() => {
  expect(existsSync(CLI), 'dist/ is built by npm install (prepare) / npm run build').toBe(true);
  // A stale build would test old code: dist/cli.js must be newer than the CLI sources.
  const newest = Math.max(...[join(ROOT, 'src', 'cli.ts'), join(ROOT, 'src', 'progress.ts'), ...readdirSync(join(ROOT, 'src', 'cli')).map((f) => join(ROOT, 'src', 'cli', f))].map((p) => statSync(p).mtimeMs));
  const built = Math.min(...[CLI, ...readdirSync(join(ROOT, 'dist', 'cli')).filter((f) => f.endsWith('.js')).map((f) => join(ROOT, 'dist', 'cli', f))].map((p) => statSync(p).mtimeMs));
  expect(built, 'dist/cli is older than src/cli: run npm run build').toBeGreaterThanOrEqual(newest);
  dir = mkdtempSync(join(tmpdir(), 'rlx-cli-'));
  writeFileSync(join(dir, 'A.mtx'), poissonText());
  writeFileSync(join(dir, 'b.mtx'), ['%%MatrixMarket matrix array real general', `${N} 1`, ...B.map((x) => x.toPrecision(17))].join('\n') + '\n');
  writeFileSync(join(dir, 'bad.mtx'), '%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n2 x 1.0\n');
  writeFileSync(join(dir, 'rect.mtx'), '%%MatrixMarket matrix coordinate real general\n2 3 1\n1 1 1.0\n');
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('rlx version / info / help', () => {
  it('version prints package.json version', () => {
    const r = rlx(['version']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    expect(rlx(['--version']).stdout).toBe(r.stdout);
  });

  it('info --json is one JSON object with the documented keys', () => {
    const r = rlx(['info', '--json']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout).length).toBe(1);
    const o = JSON.parse(r.stdout);
    for (const k of ['rlx', 'node', 'platform', 'backends', 'threads', 'native', 'blas', 'lapack', 'suitesparse', 'fftw', 'webgpu']) expect(o, k).toHaveProperty(k);
    expect(typeof o.webgpu.available).toBe('boolean');
    if (o.webgpu.available) expect(o.webgpu.adapter.length).toBeGreaterThan(0);
    else expect(typeof o.webgpu.reason).toBe('string');
    if (process.env['RLX_REQUIRE_WEBGPU'] === '1') expect(o.webgpu.available, o.webgpu.reason).toBe(true);
    expect(o.node).toBe(process.version);
    expect(o.backends).toContainEqual({ name: 'js', available: true });
    for (const b of o.backends) if (!b.available) expect(typeof b.reason).toBe('string');
    expect(Number.isInteger(o.threads) && o.threads >= 1).toBe(true);
    for (const k of ['blas', 'lapack', 'suitesparse', 'fftw']) {
      expect(typeof o[k].available, k).toBe('boolean');
      if (!o[k].available) expect(typeof o[k].reason, k).toBe('string');
    }
    if (o.blas.available) for (const k of ['vendor', 'corename', 'threads']) expect(o.blas).toHaveProperty(k);
    // The native part agrees with the addon's own status.
    expect(o.native.available).toBe(o.backends.some((b: { name: string; available: boolean }) => b.name === 'native' && b.available) || process.env['RLX_NATIVE'] === '0');
    // Where the addon and its libraries come from: in a checkout, the local build on the system's libraries.
    if (o.native.available && !process.env['RLX_NATIVE_PATH']) {
      expect(o.native.source).toBe('local build');
      expect(o.native.librariesFrom).toMatch(/^\/.*(lib|openblas)/);
      expect(o.native.librariesFrom.startsWith(ROOT)).toBe(false);
    }
  });

  it('info (text) names the backends, threads and BLAS', () => {
    const r = rlx(['info']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}js\s+available/m);
    expect(r.stdout).toMatch(/^threads: \d+/m);
    expect(r.stdout).toMatch(/^BLAS: /m);
    expect(r.stdout).toMatch(/^WebGPU( adapter)?: /m);
    if (/^native addon: [^u]/m.test(r.stdout) && !process.env['RLX_NATIVE_PATH']) {
      expect(r.stdout).toMatch(/^native addon: \S+ from the local build \(.*rlx_native\.node\)$/m);
      expect(r.stdout).toMatch(/^ {2}libraries from: \//m);
    }
  });

  it('--help lists the commands; <command> --help shows its options', () => {
    const r = rlx(['--help']);
    expect(r.code).toBe(0);
    for (const c of ['info', 'solve', 'bench', 'run', 'demo', 'version']) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\s`, 'm'));
    const s = rlx(['solve', '--help']);
    expect(s.code).toBe(0);
    expect(s.stdout).toMatch(/^usage: rlx solve/);
    expect(s.stdout).toMatch(/--method/);
  });
});

describe('usage errors: exit 2, the message, then the usage line', () => {
  it.each([
    [['frobnicate'], /^rlx: unknown command 'frobnicate'/],
    [['--frobnicate'], /^rlx: unknown option '--frobnicate'/],
    [['solve', 'A.mtx', '--frobnicate'], /^rlx solve: Unknown option '--frobnicate'/],
    [['solve', 'A.mtx', '--method', 'qr'], /^rlx solve: --method must be one of/],
    [['solve', 'A.mtx', '--rtol', 'tiny'], /^rlx solve: --rtol expects a number > 0, got 'tiny'/],
    [['solve'], /^rlx solve: missing A\.mtx/],
    [['solve', 'A.mtx', 'b.mtx', 'c.mtx'], /^rlx solve: unexpected argument 'c\.mtx'/],
    [['bench', 'no-such-suite'], /^rlx bench: unknown suite 'no-such-suite'/],
  ])('%j', (args, message) => {
    const r = rlx(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const err = lines(r.stderr);
    expect(err.length).toBe(2);
    expect(err[0]).toMatch(message);
    expect(err[1]).toMatch(/^usage: rlx /);
  });
});

describe('rlx solve', () => {
  it.each(['splu', 'klu', 'cholesky', 'cg', 'gmres', 'bicgstab', 'minres'])('--method %s: x written to -o solves A x = b (checked here)', (method) => {
    const out = `x-${method}.mtx`;
    const r = rlx(['solve', 'A.mtx', 'b.mtx', '--method', method, '--rtol', '1e-10', '-o', out, '--json'].filter((a, i, all) => !(['splu', 'klu', 'cholesky'].includes(method) && (a === '--rtol' || all[i - 1] === '--rtol'))));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ method, n: N, nnz: 3 * N - 2 });
    const x = readArray(join(dir, out));
    const Ax = poissonApply(x);
    const res = norm(Ax.map((v, i) => B[i]! - v)) / norm(B);
    // cond(A) ~ 4N²/π² ≈ 650: direct solves reach ~1e-14, the Krylov ones their rtol.
    expect(res).toBeLessThan(['cg', 'gmres', 'bicgstab', 'minres'].includes(method) ? 1e-9 : 1e-12);
    // The reported residual is that same quantity (x is printed with 17 digits, so they agree closely).
    expect(Math.abs(o.relativeResidual - res)).toBeLessThan(1e-12);
    if (['cg', 'gmres', 'bicgstab', 'minres'].includes(method)) {
      expect(o.iterations).toBeGreaterThan(0);
      expect(o.converged).toBe(true);
    } else {
      expect(o).not.toHaveProperty('iterations');
      // The library that factored A is reported (splu: UMFPACK, or KLU in a build without GPL parts; js without the addon).
      const want = { splu: ['umfpack', 'klu', 'js-lu'], klu: ['klu', 'js-lu'], cholesky: ['cholmod', 'js-cholesky'] }[method as 'splu'];
      expect(want).toContain(o.factorization);
    }
  });

  it('b defaults to ones; the text output names method, size, iterations, residual and time', () => {
    const r = rlx(['solve', 'A.mtx', '--method', 'cg', '-o', 'x1.mtx']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^method: cg$/m);
    expect(r.stdout).toMatch(/^n: 40, nnz: 118$/m);
    expect(r.stdout).toMatch(/^iterations: \d+$/m);
    expect(r.stdout).toMatch(/^relative residual .*: [0-9.]+e[+-]\d+$/m);
    expect(r.stdout).toMatch(/^time: solve [0-9.]+ m?s/m);
    // closed form for b = ones: x_i = i (N + 1 − i) / 2
    const x = readArray(join(dir, 'x1.mtx'));
    x.forEach((v, i) => expect(Math.abs(v - ((i + 1) * (N - i)) / 2)).toBeLessThan(1e-6));
  });

  it('--progress writes nothing when stderr is not a TTY', () => {
    const r = rlx(['solve', 'A.mtx', '--method', 'gmres', '--progress']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
  });

  it.each([
    [['solve', 'bad.mtx'], /^rlx solve: bad\.mtx: matrix market: line 4: /],
    [['solve', 'missing.mtx'], /^rlx solve: missing\.mtx: no such file$/],
    [['solve', 'rect.mtx'], /^rlx solve: rect\.mtx: A must be square, got 2×3$/],
    [['solve', 'A.mtx', 'bad.mtx'], /^rlx solve: bad\.mtx: /],
    [['solve', 'A.mtx', 'rect.mtx'], /^rlx solve: rect\.mtx: b must be 40×1/],
  ])('a bad file is exit 1 and exactly one stderr line naming it: %j', (args, message) => {
    const r = rlx(args);
    expect(r.code).toBe(1);
    const err = lines(r.stderr);
    expect(err.length).toBe(1);
    expect(err[0]).toMatch(message);
  });

  it('--verbose adds the stack trace', () => {
    const r = rlx(['solve', 'bad.mtx', '--verbose']);
    expect(r.code).toBe(1);
    expect(lines(r.stderr).length).toBeGreaterThan(2);
    expect(r.stderr).toMatch(/\n\s+at /);
  });

  it('an iterative solve that does not reach rtol reports and exits 1', () => {
    const r = rlx(['solve', 'A.mtx', '--method', 'cg', '--maxiter', '3', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ iterations: 3, converged: false });
    const err = lines(r.stderr);
    expect(err.length).toBe(1);
    expect(err[0]).toMatch(/^rlx solve: cg did not converge to rtol 1e-8 in 3 iterations/);
  });
});

describe('rlx plot', () => {
  it('--spy -o a.html writes one self-contained page with the pattern', () => {
    const r = rlx(['plot', 'A.mtx', '--spy', '-o', 'a.html']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const html = readFileSync(join(dir, 'a.html'), 'utf8');
    expect(html).toMatch(/<html/i);
    expect(html).not.toMatch(/<script[^>]+src=["']https?:/i); // offline: plotly inlined, no CDN
    expect(html).toContain(`${N}×${N}, ${3 * N - 2} nonzeros`); // the hand-written Poisson's nonzeros
  });

  it('without a kind is a usage error; a bad file is one line', () => {
    expect(rlx(['plot', 'A.mtx']).code).toBe(2);
    const r = rlx(['plot', 'bad.mtx', '--spy']);
    expect(r.code).toBe(1);
    expect(lines(r.stderr).length).toBe(1);
    expect(r.stderr).toMatch(/^rlx plot: bad\.mtx: matrix market: line 4/);
  });
});

describe('bench row counter', () => {
  it('numbers the harness row lines however the chunks split them', () => {
    const text = '[core] a: rp\n  rlx error: x\n[core] b: r\n[fft] c: rr\nmachine [core] d\n';
    const want = '[core 1/2] a: rp\n  rlx error: x\n[core 2/2] b: r\n[fft 1/1] c: rr\nmachine [core] d\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const f = rowCounter(new Map([['core', 2], ['fft', 1]]));
      expect(f(text.slice(0, cut)) + f(text.slice(cut)) + f('', true)).toBe(want);
    }
    const g = rowCounter(new Map([['core', 1]]));
    expect(g('[co') + g('', true)).toBe('[co'); // a held-back prefix comes out at the end
  });
});

describe('rlx demo / bench / run', () => {
  it('demo runs examples/demo.mjs (the heat equation within 1e-5 of the analytic solution)', () => {
    const r = rlx(['demo']);
    expect(r.code).toBe(0);
    const m = /max \|u - exact\| = ([0-9.e+-]+)/.exec(r.stdout);
    expect(Number(m![1])).toBeLessThan(1e-5);
  });

  it('run: a missing notebook is exit 1 and one line', () => {
    const r = rlx(['run', 'nope.ipynb']);
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(['rlx run: nope.ipynb: no such file']);
  });

  it('run: without Jupyter on PATH, one line naming the Debian package', () => {
    writeFileSync(join(dir, 'nb.ipynb'), '{}');
    const r = rlx(['run', 'nb.ipynb'], { env: { ...process.env, PATH: '/nonexistent' } });
    expect(r.code).toBe(1);
    expect(lines(r.stderr)).toEqual(['rlx run: jupyter nbconvert is not installed (Debian: apt-get install jupyter-nbconvert; elsewhere: pip install nbconvert)']);
  });
});
