// JS peers of benchmarks/suites/native.mjs. Same protocol as the Python peers
// (benchmarks/peers/_bench.py): run.mjs starts
//   node --expose-gc benchmarks/js-peers/peer.mjs '{"case": "<lib>:<case>", "args": {...}, "timing": {...}}'
// and reads the last stdout line: { samples, checksum, versions } or { unavailable }.
//
// Libraries live in benchmarks/js-peers/package.json (NOT the root package.json)
// and are installed here on first use (`npm ci`, time-boxed); when that fails or
// a library cannot load on this Node, the row says why.
//
// Cases: rlx-js:* (rlx pinned to its pure-TS 'js' backend, from dist/), ml-matrix:*,
// tfjs-cpu:* / tfjs-wasm:* (@tensorflow/tfjs-core + backend; float32 only),
// jax-js:* (@jax-js/jax on its wasm device; asynchronous API, so awaited per call),
// mathjs:*, fft.js:* and ndarray-fft:* (benchmarks/suites/fft.mjs); rlx-native:wg-* and
// jax-js-webgpu:* (@jax-js/jax on its WebGPU device through Dawn) belong to benchmarks/suites/webgpu.mjs. Cases named `la-<op>` belong to benchmarks/suites/linalg.mjs (inputs:
// benchmarks/lib/linalg-cases.mjs; float64 only outside rlx-js); cases named
// `sp-<case>` to benchmarks/suites/sparse.mjs (inputs: benchmarks/lib/sparse-cases.mjs).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ramp, checksum } from '../lib/inputs.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const INSTALL_TIMEOUT_MS = 180_000;
// A slow peer (pure-JS GEMM at n = 1024) gets fewer samples: at most this many seconds of sampling.
const SAMPLE_BUDGET_S = 8;

function emit(obj) {
  process.stdout.write('\n' + JSON.stringify(obj) + '\n');
}

function ensureInstalled(pkg) {
  const has = () => existsSync(join(here, 'node_modules', pkg, 'package.json'));
  if (has()) return;
  const ci = existsSync(join(here, 'package-lock.json'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const r = spawnSync(npm, [ci ? 'ci' : 'install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], {
    cwd: here,
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT_MS,
  });
  if (r.error || r.status !== 0 || !has()) {
    const why = r.error ? String(r.error.code ?? r.error) : `exit ${r.status}: ${(r.stderr || '').trim().split('\n').slice(-2).join(' ')}`;
    throw Object.assign(new Error(`npm ${ci ? 'ci' : 'install'} in benchmarks/js-peers failed (${why})`), { unavailable: true });
  }
}

function version(pkg) {
  try {
    return JSON.parse(readFileSync(join(here, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

const f32 = (a) => Float32Array.from(a);

// ---- rlx on the js backend ------------------------------------------------------
async function rlxJs(kind, args) {
  // Sparse cases (benchmarks/suites/sparse.mjs): the sparse module picks the
  // native SpMV and SuiteSparse whenever the addon loads, so it is kept from
  // loading at all (read when dist/ is first imported).
  if (kind.startsWith('sp-')) process.env.RLX_NATIVE = '0';
  const rlx = await import(pathToFileURL(resolve(here, '../../dist/index.js')).href);
  if (kind.startsWith('sp-')) {
    const sc = await import('../lib/sparse-cases.mjs');
    const c = sc.rlxSparseCase(rlx, kind.slice(3), args);
    if (rlx.backends().some((b) => b.name === 'native' && b.available)) throw new Error('rlx-js: the native backend is loaded despite RLX_NATIVE=0');
    c.before?.();
    return { fn: c.fn, result: c.result, info: c.info, versions: { rlx: JSON.parse(readFileSync(resolve(here, '../../package.json'), 'utf8')).version, backend: 'js (RLX_NATIVE=0)' } };
  }
  if (kind.startsWith('la-')) {
    const la = await import('../lib/linalg-cases.mjs');
    const c = la.rlxLinalgCase(rlx, 'js', kind.slice(3), args);
    return { fn: c.fn, result: c.result, versions: { rlx: JSON.parse(readFileSync(resolve(here, '../../package.json'), 'utf8')).version, backend: 'js' } };
  }
  const inputs = await import('../lib/native-cases.mjs');
  const c = inputs.rlxCase(rlx, 'js', kind, args);
  return { fn: c.fn, result: (out) => out, versions: { rlx: JSON.parse(readFileSync(resolve(here, '../../package.json'), 'utf8')).version, backend: 'js' } };
}

// ---- ml-matrix --------------------------------------------------------------------
async function mlMatrix(kind, args) {
  ensureInstalled('ml-matrix');
  const { Matrix } = await import('ml-matrix');
  if (kind.startsWith('la-')) return mlMatrixLinalg(await import('ml-matrix'), kind.slice(3), args);
  if (kind !== 'matmul' || args.dtype !== 'float64') throw new Error(`ml-matrix: no case ${kind}/${args.dtype}`);
  const n = args.n;
  const rows = (r) => Array.from({ length: n }, (_, i) => r.subarray(i * n, (i + 1) * n));
  const a = new Matrix(rows(ramp(n * n, 1)));
  const b = new Matrix(rows(ramp(n * n, 3)));
  return { fn: () => a.mmul(b), result: (m) => Float64Array.from(m.to1DArray()), versions: { 'ml-matrix': version('ml-matrix') } };
}

// ---- linalg (benchmarks/suites/linalg.mjs) -------------------------------------------
const laCases = () => import('../lib/linalg-cases.mjs');
// The float64 input of a linalg row as an array of row arrays (plain JS, f64 only).
async function laInput(op, args, rowsOf) {
  const la = await laCases();
  const { n, dtype, scale } = args;
  if (dtype !== 'float64') throw new Error(`float64 only, got ${dtype}`);
  const p = la.INPUT_OF[op] === 'hpd' ? la.hpd(n, dtype) : la.general(n, dtype, scale);
  const rows = Array.from({ length: n }, (_, i) => rowsOf(p.re.subarray(i * n, (i + 1) * n)));
  return { la, n, rows, b: la.rhs(n, dtype).re };
}

async function mlMatrixLinalg(ml, op, args) {
  const { Matrix } = ml;
  const { la, n, rows, b } = await laInput(op, args, (r) => Array.from(r));
  const a = new Matrix(rows);
  const f64 = (x) => Float64Array.from(x);
  const cases = {
    // solve() on a square matrix is LU with partial pivoting (Jama).
    solve: () => [() => ml.solve(a, Matrix.columnVector(Array.from(b))), (x) => f64(x.to1DArray())],
    cholesky: () => [() => new ml.CholeskyDecomposition(a).lowerTriangularMatrix, (l) => f64(l.to1DArray())],
    // The constructor factors (Householder); the getters build Q and R, as qr() returns both.
    qr: () => [() => {
      const d = new ml.QrDecomposition(a);
      d.orthogonalMatrix;
      return d.upperTriangularMatrix;
    }, (r) => la.normalizeR(f64(r.to1DArray()), n, false)],
    // tred2 + tql2 (Jama), eigenvectors included.
    eigh: () => [() => new ml.EigenvalueDecomposition(a, { assumeSymmetric: true }), (e) => f64(e.realEigenvalues)],
    // Golub-Kahan (Jama), U and V included.
    svd: () => [() => new ml.SingularValueDecomposition(a, { autoTranspose: false }), (d) => f64(d.diagonal)],
    // orthes + hqr2 (Jama), eigenvectors included.
    eig: () => [() => new ml.EigenvalueDecomposition(a), (e) => {
      const re = e.realEigenvalues, im = e.imaginaryEigenvalues;
      return f64(re.flatMap((r, i) => [r, im[i]]));
    }],
    inv: () => [() => ml.inverse(a), (x) => f64(x.to1DArray())],
    det: () => [() => ml.determinant(a), (d) => f64([d])],
  };
  if (!cases[op]) throw new Error(`ml-matrix: no linalg case ${op}`);
  const [fn, result] = cases[op]();
  return { fn, result, versions: { 'ml-matrix': version('ml-matrix') } };
}

// Sparse LU (benchmarks/suites/sparse.mjs): slu (CSparse's LU ported to JS) + lusolve.
async function mathjsSparse(math, op, args) {
  if (op !== 'splu') throw new Error(`mathjs: no sparse case ${op}`);
  const sc = await import('../lib/sparse-cases.mjs');
  const { N, indptr, indices, data } = sc.poisson2dArrays(args.n);
  // poisson2d is symmetric: its CSR arrays are its CSC arrays (mathjs stores CSC).
  const S = new math.SparseMatrix({ values: Array.from(data), index: Array.from(indices), ptr: Array.from(indptr), size: [N, N], datatype: 'number' });
  const b = math.matrix(Array.from(sc.rhs(N), (v) => [v]), 'dense', 'number');
  // order 1: AMD ordering of A + Aᵀ (the symmetric choice); threshold 1: partial pivoting.
  return {
    fn: () => math.lusolve(math.slu(S, 1, 1), b),
    result: (x) => Float64Array.from(math.flatten(x.valueOf())),
    info: () => ({ order: 'A+Aᵀ (1)', threshold: 1 }),
    versions: { mathjs: version('mathjs') },
  };
}

async function mathjsLinalg(kind, args) {
  ensureInstalled('mathjs');
  const math = await import('mathjs');
  if (kind.startsWith('sp-')) return mathjsSparse(math, kind.slice(3), args);
  const op = kind.slice(3);
  if (!kind.startsWith('la-')) throw new Error(`mathjs: no case ${kind}`);
  const { n, rows, b } = await laInput(op, args, (r) => Array.from(r));
  // Dense matrices built once, outside timing (each call would otherwise convert the arrays).
  const a = math.matrix(rows, 'dense', 'number');
  const bv = math.matrix(Array.from(b, (x) => [x]), 'dense', 'number');
  const flatM = (m) => Float64Array.from(math.flatten(m.valueOf ? m.valueOf() : m));
  const cases = {
    solve: () => [() => math.lusolve(a, bv), flatM],
    inv: () => [() => math.inv(a), flatM],
    det: () => [() => math.det(a), (d) => Float64Array.from([d])],
    // Real symmetric input: Jacobi rotations; eigenvectors included (the default).
    eigh: () => [() => math.eigs(a), (e) => flatM(e.values)],
  };
  if (!cases[op]) throw new Error(`mathjs: no linalg case ${op}`);
  void n;
  const [fn, result] = cases[op]();
  return { fn, result, versions: { mathjs: version('mathjs') } };
}

async function jaxJsLinalg(jax, op, args) {
  const np = jax.numpy;
  const { la, n, b } = await laInput(op, args, (r) => r);
  const p = la.INPUT_OF[op] === 'hpd' ? la.hpd(n, 'float64') : la.general(n, 'float64', args.scale);
  // jax-js 0.1.25 tests `data instanceof Float16Array` before Float64Array, and
  // Node 20 has no Float16Array (ReferenceError on any float64 input). An empty
  // class that nothing constructs makes that test false; these rows never use float16.
  const shim = typeof globalThis.Float16Array === 'undefined';
  if (shim) globalThis.Float16Array = class Float16Array {};
  const a = np.array(p.re, { dtype: np.float64 }).reshape([n, n]);
  const L = np.linalg;
  // `.ref` keeps the input alive across calls; data() waits for the result and reads it.
  const cases = {
    solve: () => {
      const bb = np.array(b, { dtype: np.float64 });
      return async () => L.solve(a.ref, bb.ref).data();
    },
    cholesky: () => async () => L.cholesky(a.ref, { symmetrizeInput: false }).data(),
    eigh: () => async () => {
      const [w, v] = L.eigh(a.ref, { symmetrizeInput: false });
      const [dw] = await Promise.all([w.data(), v.data()]);
      return dw;
    },
    svd: () => async () => {
      const [u, s, vh] = L.svd(a.ref, { fullMatrices: false });
      const [, ds] = await Promise.all([u.data(), s.data(), vh.data()]);
      return ds;
    },
    inv: () => async () => L.inv(a.ref).data(),
    det: () => async () => L.det(a.ref).data(),
  };
  if (!cases[op]) throw new Error(`jax-js ${version('@jax-js/jax')} has no numpy.linalg.${op} (linalg: cholesky, det, eigh, inv, lstsq, slogdet, solve, svd; real only)`);
  return { fn: cases[op](), async: true, result: (d) => Float64Array.from(d), versions: { 'jax-js': version('@jax-js/jax'), device: 'wasm', ...(shim ? { note: 'Float16Array stubbed (Node 20)' } : {}) } };
}

// ---- tfjs -------------------------------------------------------------------------
async function tfjs(backend, kind, args) {
  ensureInstalled('@tensorflow/tfjs-core');
  const tf = await import('@tensorflow/tfjs-core');
  if (backend === 'wasm') {
    ensureInstalled('@tensorflow/tfjs-backend-wasm');
    await import('@tensorflow/tfjs-backend-wasm');
  } else {
    ensureInstalled('@tensorflow/tfjs-backend-cpu');
    await import('@tensorflow/tfjs-backend-cpu');
  }
  if (!(await tf.setBackend(backend))) throw new Error(`tfjs backend ${backend} did not initialize`);
  await tf.ready();
  let prev;
  // Each call disposes the previous result (as a user's loop must) and syncs the data.
  const run = (make) => () => {
    prev?.dispose();
    prev = make();
    prev.dataSync();
    return prev;
  };
  let fn;
  if (kind === 'matmul') {
    const n = args.n;
    const a = tf.tensor2d(f32(ramp(n * n, 1)), [n, n], 'float32');
    const b = tf.tensor2d(f32(ramp(n * n, 3)), [n, n], 'float32');
    fn = run(() => tf.matMul(a, b));
  } else if (kind === 'chain') {
    const n = args.n;
    const a = tf.tensor1d(f32(ramp(n, 1))), b = tf.tensor1d(f32(ramp(n, 3))), c = tf.tensor1d(f32(ramp(n, 7)));
    fn = run(() => tf.tidy(() => tf.add(tf.mul(tf.sqrt(tf.add(tf.mul(a, a), tf.mul(b, b))), c), 1)));
  } else if (kind === 'five_op') {
    const n = args.n;
    const x = tf.tensor1d(f32(ramp(n, 1))), y = tf.tensor1d(f32(ramp(n, 3)));
    fn = run(() => tf.tidy(() => tf.abs(tf.sub(tf.exp(tf.add(tf.mul(x, 2), 1)), y))));
  } else throw new Error(`tfjs: no case ${kind}`);
  return {
    fn,
    result: (t) => t.dataSync(),
    versions: { 'tfjs-core': version('@tensorflow/tfjs-core'), backend: tf.getBackend(), dtype: 'float32 (tfjs has no float64)' },
  };
}

// ---- jax-js -------------------------------------------------------------------------
async function jaxJs(kind, args) {
  ensureInstalled('@jax-js/jax');
  const jax = await import('@jax-js/jax');
  // init() with no argument probes WebGPU through `navigator`, which Node 20 lacks
  // (ReferenceError); the wasm device alone initializes.
  const devs = await jax.init('wasm');
  if (!devs.includes('wasm')) throw new Error(`jax-js: wasm device did not initialize (got ${devs})`);
  jax.defaultDevice('wasm');
  if (kind.startsWith('la-')) return jaxJsLinalg(jax, kind.slice(3), args);
  const np = jax.numpy;
  const dt = (d) => (d === 'float32' ? np.float32 : np.float64);
  const arr = (x, shape, d) => np.array(d === 'float32' ? f32(x) : x, { dtype: dt(d) }).reshape(shape);
  let fn;
  // jax-js arrays are reference counted: `.ref` keeps an input alive across calls.
  if (kind === 'matmul') {
    const n = args.n;
    const a = arr(ramp(n * n, 1), [n, n], args.dtype), b = arr(ramp(n * n, 3), [n, n], args.dtype);
    fn = async () => np.matmul(a.ref, b.ref).data();
  } else if (kind === 'chain') {
    const n = args.n;
    const a = arr(ramp(n, 1), [n], 'float64'), b = arr(ramp(n, 3), [n], 'float64'), c = arr(ramp(n, 7), [n], 'float64');
    fn = async () => np.sqrt(a.ref.mul(a.ref).add(b.ref.mul(b.ref))).mul(c.ref).add(1).data();
  } else if (kind === 'five_op') {
    const n = args.n;
    const x = arr(ramp(n, 1), [n], 'float64'), y = arr(ramp(n, 3), [n], 'float64');
    fn = async () => np.abs(np.exp(x.ref.mul(2).add(1)).sub(y.ref)).data();
  } else throw new Error(`jax-js: no case ${kind}`);
  return { fn, async: true, result: (d) => d, versions: { 'jax-js': version('@jax-js/jax'), device: 'wasm' } };
}

// ---- webgpu suite (benchmarks/suites/webgpu.mjs) --------------------------------------
// rlx-native:wg-<kind>: the webgpu rows' rlx code (benchmarks/lib/webgpu-cases.mjs) on the native device.
async function rlxNativeWebgpuRow(kind, args, timing) {
  if (!kind.startsWith('wg-')) throw new Error(`rlx-native: no case ${kind}`);
  const rlx = await import(pathToFileURL(resolve(here, '../../dist/index.js')).href);
  const { rlxWebgpuCase } = await import('../lib/webgpu-cases.mjs');
  const c = rlxWebgpuCase(rlx, 'native', kind.slice(3), args, timing.reps * timing.inner);
  return {
    fn: c.fn,
    result: c.result ?? ((out) => out),
    info: () => c.info(),
    versions: { rlx: JSON.parse(readFileSync(resolve(here, '../../package.json'), 'utf8')).version, backend: 'native', threads: rlx.numThreads?.() },
  };
}

// jax-js-webgpu:<kind>: @jax-js/jax on its WebGPU device in Node. jax-js finds
// WebGPU through `navigator.gpu` (a browser global): here that is Dawn from
// the npm `webgpu` package (rlx's own dependency, root node_modules), on the
// adapter rlx's webgpu device picks, tried in the same order
// (src/backends/webgpu/device.ts: RLX_WEBGPU_BACKEND, else Dawn's default
// backend when a Vulkan driver is installed, then OpenGL ES). jax-js asks
// requestAdapter({powerPreference}) for a core-level adapter; Dawn's OpenGL ES
// backend offers only compatibility level, so that call returns null there
// (init('webgpu') then lists only cpu and wasm): `navigator.gpu.requestAdapter`
// adds the featureLevel that found the adapter. The WebGPU globals
// (GPUBufferUsage...) come from the package's `globals`.
async function jaxJsWebgpu(kind, args, timing) {
  const named = process.env.RLX_WEBGPU_BACKEND;
  const vulkan = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d'].some((d) => existsSync(d) && readdirSafe(d).some((f) => f.endsWith('.json')));
  const attempts = named
    ? [{ label: named, options: [`backend=${named}`], featureLevel: named.startsWith('opengl') ? 'compatibility' : undefined }]
    : [
        ...(process.platform !== 'linux' || vulkan ? [{ label: 'default', options: [] }] : []),
        ...(process.platform === 'linux' ? [{ label: 'opengles', options: ['backend=opengles'], featureLevel: 'compatibility' }] : []),
      ];
  if (attempts.some((a) => a.label.startsWith('opengl'))) process.env.EGL_PLATFORM ??= 'surfaceless';
  let webgpu;
  try {
    webgpu = await import('webgpu');
  } catch (e) {
    throw new Error(`the npm 'webgpu' package (Dawn) did not load: ${String(e?.message ?? e).split('\n')[0]}`);
  }
  let found;
  const tried = [];
  for (const at of attempts) {
    const gpu = webgpu.create(at.options);
    const adapter = await gpu.requestAdapter(at.featureLevel ? { featureLevel: at.featureLevel } : {});
    if (adapter) {
      found = { gpu, at, adapter };
      break;
    }
    tried.push(`${at.label}: no adapter`);
  }
  if (!found) throw new Error(`no WebGPU adapter from Dawn (${tried.join('; ') || 'nothing to try'})`);
  const { gpu, at, adapter } = found;
  Object.assign(globalThis, webgpu.globals);
  const requestAdapter = (o = {}) => gpu.requestAdapter(at.featureLevel ? { ...o, featureLevel: at.featureLevel } : o);
  globalThis.navigator = {
    gpu: { requestAdapter, getPreferredCanvasFormat: () => 'rgba8unorm', wgslLanguageFeatures: gpu.wgslLanguageFeatures },
    userAgent: `Node.js/${process.version}`,
    hardwareConcurrency: (await import('node:os')).availableParallelism(),
  };
  // Node 20 has no Float16Array, which jax-js tests with instanceof (see jaxJsLinalg): an empty class nothing constructs.
  const shim = typeof globalThis.Float16Array === 'undefined';
  if (shim) globalThis.Float16Array = class Float16Array {};
  ensureInstalled('@jax-js/jax');
  const jax = await import('@jax-js/jax');
  const devs = await jax.init('webgpu');
  if (!devs.includes('webgpu')) throw new Error(`jax-js init('webgpu') gave [${devs}] on adapter ${adapter.info?.device || adapter.info?.description} (${at.label})`);
  jax.defaultDevice('webgpu');
  const np = jax.numpy;
  const f32a = (x, shape) => np.array(f32(x), { dtype: np.float32 }).reshape(shape);
  const { n, read } = args;
  let make, flop;
  // jax-js arrays are reference counted: `.ref` keeps an input alive across calls.
  if (kind === 'matmul') {
    const a = f32a(ramp(n * n, 1), [n, n]), b = f32a(ramp(n * n, 3), [n, n]);
    make = () => np.matmul(a.ref, b.ref);
    flop = 2 * n ** 3;
  } else if (kind === 'chain') {
    const a = f32a(ramp(n, 1), [n]), b = f32a(ramp(n, 3), [n]), c = f32a(ramp(n, 7), [n]);
    make = () => np.sqrt(a.ref.mul(a.ref).add(b.ref.mul(b.ref))).mul(c.ref).add(1);
  } else throw new Error(`jax-js-webgpu: no case ${kind}`);
  const times = [];
  let prev, fn, result;
  if (read === 'one') {
    // The result stays on the GPU (blockUntilReady: a 0-byte read after the work); the previous one is released first.
    fn = async () => {
      const t0 = process.hrtime.bigint();
      prev?.dispose();
      prev = make();
      await prev.blockUntilReady();
      times.push(Number(process.hrtime.bigint() - t0) / 1e9);
      return prev;
    };
    result = async (y) => y.ref.data();
  } else if (read === 'all') {
    fn = async () => {
      const t0 = process.hrtime.bigint();
      const d = await make().data();
      times.push(Number(process.hrtime.bigint() - t0) / 1e9);
      return d;
    };
    result = (d) => d;
  } else throw new Error(`read must be 'one' or 'all', got ${read}`);
  const { recentMedian } = await import('../lib/webgpu-cases.mjs');
  return {
    fn,
    async: true,
    result,
    info: () => (flop !== undefined && times.length ? { GFLOPs: +(flop / recentMedian(times, timing.reps * timing.inner) / 1e9).toFixed(2) } : undefined),
    versions: {
      'jax-js': version('@jax-js/jax'),
      device: 'webgpu',
      adapter: `${adapter.info?.device || adapter.info?.description || '?'} (Dawn ${at.label}${at.featureLevel ? `, featureLevel ${at.featureLevel} added to jax-js's requestAdapter` : ''})`,
      ...(shim ? { note: 'Float16Array stubbed (Node 20)' } : {}),
    },
  };
}

function readdirSafe(d) {
  try {
    return readdirSync(d);
  } catch {
    return [];
  }
}

// ---- fft.js (benchmarks/suites/fft.mjs): radix-4 FFT, powers of two only --------------
async function fftJs(kind, args) {
  ensureInstalled('fft.js');
  const { default: FFT } = await import('fft.js');
  const n = args.n;
  if ((n & (n - 1)) !== 0) throw new Error(`fft.js handles powers of two only, not ${n}`);
  const f = new FFT(n);
  const out = f.createComplexArray();
  let fn, result;
  if (kind === 'fft') {
    const re = ramp(n, 1), im = ramp(n, 3);
    const x = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) (x[2 * i] = re[i]), (x[2 * i + 1] = im[i]);
    fn = () => (f.transform(out, x), out);
    result = (o) => Float64Array.from(o);
  } else if (kind === 'rfft') {
    const x = ramp(n, 1);
    // realTransform fills the non-negative half (what rfft returns); completeSpectrum is not needed for it.
    fn = () => (f.realTransform(out, x), out);
    result = (o) => Float64Array.from(o.slice(0, 2 * (n / 2 + 1)));
  } else throw new Error(`fft.js: no case ${kind}`);
  return { fn, result, versions: { 'fft.js': version('fft.js') } };
}

// ---- ndarray-fft (benchmarks/suites/fft.mjs): radix 2, Bluestein otherwise, n-D -----------
// In place on separate real and imaginary ndarrays, every axis transformed (no
// axis choice, no real transform). Its "forward" direction (dir = 1) is
// e^{+2πi jk/n}; NumPy's forward sign is its inverse (dir = -1), which also
// scales by 1/n: that call is timed (the library's work, scaling included) and
// the result is multiplied by n untimed for the checksum. Each call first
// restores the input (two TypedArray copies, O(n) next to the transform).
async function ndarrayFft(kind, args) {
  ensureInstalled('ndarray-fft');
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const ndarray = require('ndarray');
  const fft = require('ndarray-fft');
  const shape = kind === 'fft' ? [args.n] : kind === 'fft2' ? args.shape : undefined;
  if (!shape) throw new Error(`ndarray-fft: no case ${kind}`);
  const n = shape.reduce((a, b) => a * b, 1);
  const re0 = ramp(n, 1), im0 = ramp(n, 3);
  const re = new Float64Array(n), im = new Float64Array(n);
  const x = ndarray(re, shape), y = ndarray(im, shape);
  const fn = () => {
    re.set(re0);
    im.set(im0);
    fft(-1, x, y);
    return re;
  };
  const result = () => {
    const out = new Float64Array(2 * n);
    for (let i = 0; i < n; i++) (out[2 * i] = re[i] * n), (out[2 * i + 1] = im[i] * n);
    return out;
  };
  return { fn, result, versions: { 'ndarray-fft': version('ndarray-fft'), ndarray: version('ndarray') } };
}

// ---- main ---------------------------------------------------------------------------
const req = JSON.parse(process.argv[2]);
const { timing } = req;
const [lib, kind] = req.case.split(':');
let made;
try {
  made =
    lib === 'rlx-js' ? await rlxJs(kind, req.args)
    : lib === 'ml-matrix' ? await mlMatrix(kind, req.args)
    : lib === 'tfjs-cpu' ? await tfjs('cpu', kind, req.args)
    : lib === 'tfjs-wasm' ? await tfjs('wasm', kind, req.args)
    : lib === 'jax-js' ? await jaxJs(kind, req.args)
    : lib === 'mathjs' ? await mathjsLinalg(kind, req.args)
    : lib === 'fft.js' ? await fftJs(kind, req.args)
    : lib === 'ndarray-fft' ? await ndarrayFft(kind, req.args)
    : lib === 'rlx-native' ? await rlxNativeWebgpuRow(kind, req.args, timing)
    : lib === 'jax-js-webgpu' ? await jaxJsWebgpu(kind, req.args, timing)
    : undefined;
  if (!made) throw new Error(`unknown JS peer ${lib}`);
} catch (e) {
  emit({ unavailable: `${lib} unavailable on node ${process.version} (${String(e?.message ?? e).split('\n')[0].slice(0, 300)})` });
  process.exit(0);
}

const gc = globalThis.gc ?? (() => {});
const { fn } = made;
let out;
const t0w = process.hrtime.bigint();
// Same warm-up rule as the rlx side (benchmarks/lib/worker.mjs): timing.warmup calls, more until timing.warmupMs.
const warmEnd = performance.now() + (timing.warmupMs ?? 0);
let warmed = 0;
for (; warmed < timing.warmup || (performance.now() < warmEnd && warmed < 100000); warmed++) out = made.async ? await fn() : fn();
const warmEach = warmed ? Number(process.hrtime.bigint() - t0w) / 1e9 / warmed : 0;
const reps = warmEach * timing.inner * timing.reps > SAMPLE_BUDGET_S ? Math.max(2, Math.floor(SAMPLE_BUDGET_S / (warmEach * timing.inner))) : timing.reps;
// timing.gc 'none': no forced GC, as on the rlx side (benchmarks/lib/worker.mjs says why).
if (timing.gc !== 'none') gc();
const samples = [];
for (let i = 0; i < reps; i++) {
  if (timing.gc === 'sample') gc();
  const t0 = process.hrtime.bigint();
  if (made.async) for (let k = 0; k < timing.inner; k++) out = await fn();
  else for (let k = 0; k < timing.inner; k++) out = fn();
  samples.push(Number(process.hrtime.bigint() - t0) / 1e9 / timing.inner);
}
// awaited: a GPU peer reads its last result back asynchronously (jax-js-webgpu); a plain value passes through.
const arr = await made.result(out);
// made.info (optional, untimed): what the peer reports about its run (e.g. iterations), shown in the row's notes.
const info = made.info?.(out);
emit({ samples, checksum: ArrayBuffer.isView(arr) ? checksum(arr) : undefined, versions: { node: process.version, ...made.versions }, ...(info ? { info } : {}), ...(reps < timing.reps ? { note: `reps capped to ${reps}` } : {}) });
// tfjs-wasm / jax-js may keep handles open.
process.exit(0);
