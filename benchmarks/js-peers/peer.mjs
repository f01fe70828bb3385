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
// jax-js:* (@jax-js/jax on its wasm device; asynchronous API, so awaited per call).

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
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
  const rlx = await import(pathToFileURL(resolve(here, '../../dist/index.js')).href);
  const inputs = await import('../lib/native-cases.mjs');
  const c = inputs.rlxCase(rlx, 'js', kind, args);
  return { fn: c.fn, result: (out) => out, versions: { rlx: JSON.parse(readFileSync(resolve(here, '../../package.json'), 'utf8')).version, backend: 'js' } };
}

// ---- ml-matrix --------------------------------------------------------------------
async function mlMatrix(kind, args) {
  ensureInstalled('ml-matrix');
  const { Matrix } = await import('ml-matrix');
  if (kind !== 'matmul' || args.dtype !== 'float64') throw new Error(`ml-matrix: no case ${kind}/${args.dtype}`);
  const n = args.n;
  const rows = (r) => Array.from({ length: n }, (_, i) => r.subarray(i * n, (i + 1) * n));
  const a = new Matrix(rows(ramp(n * n, 1)));
  const b = new Matrix(rows(ramp(n * n, 3)));
  return { fn: () => a.mmul(b), result: (m) => Float64Array.from(m.to1DArray()), versions: { 'ml-matrix': version('ml-matrix') } };
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
for (let w = 0; w < timing.warmup; w++) out = made.async ? await fn() : fn();
const warmEach = timing.warmup ? Number(process.hrtime.bigint() - t0w) / 1e9 / timing.warmup : 0;
const reps = warmEach * timing.inner * timing.reps > SAMPLE_BUDGET_S ? Math.max(2, Math.floor(SAMPLE_BUDGET_S / (warmEach * timing.inner))) : timing.reps;
gc();
const samples = [];
for (let i = 0; i < reps; i++) {
  if (timing.gc === 'sample') gc();
  const t0 = process.hrtime.bigint();
  if (made.async) for (let k = 0; k < timing.inner; k++) out = await fn();
  else for (let k = 0; k < timing.inner; k++) out = fn();
  samples.push(Number(process.hrtime.bigint() - t0) / 1e9 / timing.inner);
}
const arr = made.result(out);
emit({ samples, checksum: ArrayBuffer.isView(arr) ? checksum(arr) : undefined, versions: { node: process.version, ...made.versions }, ...(reps < timing.reps ? { note: `reps capped to ${reps}` } : {}) });
// tfjs-wasm / jax-js may keep handles open.
process.exit(0);
