// Per-call CPU time, minor page faults and GC time of a.matmul(b).realize() vs
// the bare GEMM into a reused output (1 thread). Run after npm run build:
//   node benchmarks/probes/matmul-overhead.mjs 512   (RLX_NATIVE_MALLOC=0 for glibc's default malloc policy)
//   OPENBLAS_NUM_THREADS=1 /usr/bin/python3 benchmarks/probes/matmul-overhead.py 512
import * as rlx from '../../dist/index.js';
import { nativeAddon } from '../../dist/backends/native/addon.js';
import { PerformanceObserver } from 'node:perf_hooks';
const n = Number(process.argv[2] ?? 512), reps = 50;
rlx.setNumThreads(1);
const addon = nativeAddon();
let gcMs = 0, gcs = 0;
new PerformanceObserver((l) => { for (const e of l.getEntries()) { gcMs += e.duration; gcs++; } }).observe({ entryTypes: ['gc'] });
const a = rlx.random.normal(rlx.random.key(1), [n, n]).on('native').realize();
const b = rlx.random.normal(rlx.random.key(2), [n, n]).on('native').realize();
const C0 = new Float64Array(n * n);
const spec = { dtype: 'float64', batch: [], m: n, n, k: n, a: { data: a.node.data, offset: 0, strides: [n, 1] }, b: { data: b.node.data, offset: 0, strides: [n, 1] }, c: { data: C0, offset: 0, strides: [n, 1] } };
const measure = async (name, f) => {
  for (let i = 0; i < 3; i++) f();
  await new Promise((r) => setTimeout(r, 10)); gcMs = 0; gcs = 0;
  const r0 = process.resourceUsage();
  for (let i = 0; i < reps; i++) f();
  const r1 = process.resourceUsage();
  await new Promise((r) => setTimeout(r, 10));
  console.log(`  ${name.padEnd(28)} cpu ${((r1.userCPUTime + r1.systemCPUTime - r0.userCPUTime - r0.systemCPUTime) / reps).toFixed(0)} µs (sys ${((r1.systemCPUTime - r0.systemCPUTime) / reps).toFixed(0)}), faults ${((r1.minorPageFault - r0.minorPageFault) / reps).toFixed(0)}, gc ${(gcMs * 1000 / reps).toFixed(0)} µs in ${gcs} GCs`);
};
console.log(`rlx n=${n} malloc=${process.env.RLX_NATIVE_MALLOC ?? 'tuned'} (per call, ${reps} calls, 1 thread)`);
await measure('a.matmul(b).realize()', () => a.matmul(b).realize());
await measure('addon.gemm, reused output', () => addon.gemm(spec));
