// Per-call overhead of a small linalg call: rlx.linalg.<op>(A).realize() vs the
// bare native kernel on the same matrix (the TS wrapper + addon call of
// src/linalg/kernels/native.ts, a fresh output each call), timed as the
// linalg suite times its rows: a fresh process, 40 warm-up calls, 15 samples
// of 2 calls, the median. That state matters: after ~70 calls V8 still runs
// the per-call JS in its baseline tier, where it costs several times what it
// does once optimized, so a hot loop understates it. Run after npm run build:
//   node --expose-gc benchmarks/probes/linalg-overhead.mjs det float64 128 [runs]
// prints the median over `runs` fresh processes of rlx, kernel and rlx - kernel.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const [op = 'det', dtype = 'float64', nS = '128', runsS = '8', child] = process.argv.slice(2);
const n = Number(nS);

if (child !== 'child') {
  const rows = [];
  for (let i = 0; i < Number(runsS); i++) {
    const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), op, dtype, nS, '1', 'child'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    rows.push(JSON.parse(r.stdout.trim().split('\n').pop()));
  }
  const med = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const f = (x) => `${x.toFixed(1)} µs`;
  console.log(`${op} ${dtype} n=${n}, ${rows.length} processes: rlx ${f(med(rows.map((r) => r.rlx)))}, kernel ${f(med(rows.map((r) => r.kernel)))}, overhead ${f(med(rows.map((r) => r.rlx - r.kernel)))}`);
} else {
  const rlx = await import('../../dist/index.js');
  const { kernelsFor } = await import('../../dist/compiler/kernel-registry.js');
  const { LINALG_KERNELS } = await import('../../dist/linalg/kernels/family.js');
  const { general, hpd, rhs } = await import('../lib/linalg-cases.mjs');
  const K = kernelsFor('native', LINALG_KERNELS);
  const complex = dtype === 'complex128';
  const L = complex ? 2 : 1;
  const scale = 2 ** Math.round(Math.log2(Math.sqrt((complex ? 6 : 12) * Math.E / n)));
  const interleaved = (p) => (p.im ? Float64Array.from({ length: 2 * p.re.length }, (_, i) => (i % 2 ? p.im : p.re)[i >> 1]) : Float64Array.from(p.re));
  const tensorOf = (p, shape) => {
    const re = rlx.tensor(p.re).reshape(shape).on('native');
    return (p.im ? rlx.complex(re, rlx.tensor(p.im).reshape(shape).on('native')) : re).realize();
  };
  const P = op === 'cholesky' ? hpd(n, dtype) : general(n, dtype, scale);
  const A = tensorOf(P, [n, n]);
  const a = interleaved(P);
  const B = rhs(n, dtype);
  const b = interleaved(B);
  const Bt = tensorOf(B, [n]);
  const cases = {
    det: [() => rlx.linalg.det(A).realize(), () => K.det(dtype, 1, n, a, new Float64Array(L), null)],
    inv: [() => rlx.linalg.inv(A).realize(), () => K.inv(dtype, 1, n, a, new Float64Array(n * n * L))],
    cholesky: [() => rlx.linalg.cholesky(A).realize(), () => K.cholesky(dtype, 1, n, a, new Float64Array(n * n * L), true)],
    solve: [() => rlx.linalg.solve(A, Bt).realize(), () => K.solve(dtype, 1, n, 1, a, b, new Float64Array(n * L))],
  };
  const [viaRlx, kernel] = cases[op];
  const time = (fn) => {
    for (let w = 0; w < 40; w++) fn();
    globalThis.gc?.();
    const s = [];
    for (let i = 0; i < 15; i++) {
      const t0 = process.hrtime.bigint();
      fn();
      fn();
      s.push(Number(process.hrtime.bigint() - t0) / 2e3);
    }
    return s.sort((x, y) => x - y)[7];
  };
  console.log(JSON.stringify({ rlx: time(viaRlx), kernel: time(kernel) }));
}
