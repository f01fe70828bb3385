// Timing sanity for the js linalg kernels (not a test, nothing asserted).
// Build the kernels first, then run:
//   npx tsc src/linalg/kernels/js/index.ts --outDir /tmp/linalg-js --rootDir src --module nodenext --moduleResolution nodenext --target es2022 --skipLibCheck
//   node scripts/time-linalg-js.mjs /tmp/linalg-js
const dir = process.argv[2] ?? '/tmp/linalg-js';
const { jsLinalgKernels: K } = await import(`${dir}/linalg/kernels/js/index.js`);

let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;

function time(label, f) {
  f(); // warm up the JIT
  const t0 = performance.now();
  const reps = 3;
  for (let i = 0; i < reps; i++) f();
  console.log(`${label}: ${((performance.now() - t0) / reps).toFixed(1)} ms`);
}

for (const n of [128, 256]) {
  const a = Float64Array.from({ length: n * n }, rnd);
  const h = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) h[i * n + j] = a[i * n + j] + a[j * n + i];
  const rhs = Float64Array.from({ length: n }, rnd);
  time(`float64 n=${n} solve (k=1)`, () => K.solve('float64', 1, n, 1, a, rhs, new Float64Array(n)));
  time(`float64 n=${n} eigh (vectors)`, () => K.eigh('float64', 1, n, h, new Float64Array(n), new Float64Array(n * n), true));
  time(`float64 n=${n} svd (thin, vectors)`, () => K.svd('float64', 1, n, n, a, new Float64Array(n), new Float64Array(n * n), new Float64Array(n * n), false));
  time(`float64 n=${n} eig (vectors)`, () => K.eig('float64', 1, n, a, new Float64Array(2 * n), new Float64Array(2 * n * n)));
}
