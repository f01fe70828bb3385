// rlx sides of benchmarks/suites/webgpu.mjs, shared with the `rlx-native` JS
// peer (benchmarks/js-peers/peer.mjs, case `rlx-native:wg-<kind>`): the same
// code through the public Tensor API, differing only in the device the inputs
// are pinned to with `.on(device)`.
//
// Cases (float32; inputs `ramp()` as Float32Array, copied to the device
// before timing, so no upload is timed):
//   matmul {n, read}: a.matmul(b), a and b n×n
//   chain  {n, read}: sqrt(a*a + b*b)*c + 1 (core.mjs's fused chain), n elements
//   splat  {n, width, height, pass, read: 'one'}: splat.render of splat.scenes's
//          sphereShell scene (the splat suite's: seed 0, float32, first ring
//          camera, fovY 60°) with n Gaussians at width×height, the five
//          Gaussian tensors pinned to the device. pass = 'forward': the image;
//          'backward': valueAndGrad of mean((image − target)²) w.r.t. all five
//          tensors (the loss and the five gradients realized: one training
//          step, forward + backward). The 1-element read is a kernel over the
//          last element of every output realized (the image; the loss and the
//          gradients). result(): the image, or the loss then the gradients,
//          concatenated.
// read = 'one': realize() the result, then toArray() of a 1-element kernel on
//   it (minus its last element): a 4-byte read that returns only once the GPU
//   has run the work (commands run in order on one queue; realize() alone
//   returns once the work is sent). The time is the GPU work plus one
//   1-element kernel and one small readback, not the transfer of the result
//   (which stays on the GPU). fn returns the result tensor; result() reads it
//   all, untimed, for the checksum.
// read = 'all': toArray() of the lazy expression: computing it and copying
//   the whole result to the host (what `await y.data()` does, blocking).
// On the native device realize() is synchronous and the same 1-element read
// is a few microseconds.

import { ramp } from './inputs.mjs';
import { SCENE, KEYS } from '../suites/splat.mjs';

const f32 = (x) => Float32Array.from(x);

/** Median of the last k entries of xs (k clamped to its length). */
function recentMedian(xs, k) {
  const s = xs.slice(-Math.max(1, Math.min(k, xs.length))).sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Throws when `device` is not available here, saying why (for a peer's `unavailable`). */
function requireDevice(rlx, device) {
  // Probing starts lazy devices (webgpu): only when that is the one asked for.
  const st = rlx.backends({ probe: device === 'webgpu' }).find((b) => b.name === device);
  if (!st?.available) throw new Error(`rlx device '${device}' unavailable: ${st?.reason ?? 'not registered'}`);
}

/**
 * The timed call of one case on `device`. `samples` = timing.reps × timing.inner
 * (the last that many calls are the timed ones: their median gives the
 * GFLOP/s that info() reports).
 * Returns { fn, result?, info, expr }.
 */
export function rlxWebgpuCase(rlx, device, kind, args, samples) {
  requireDevice(rlx, device);
  // -last element, computed on the device: a view alone of realized GPU data is resolved from a host copy
  // of the whole buffer (y.slice(...).toArray() reads all of y back); an op on it runs on the GPU.
  const lastOne = (y) => y.reshape([-1]).slice(rlx.s(rlx.tail(-1))).neg().toArray();
  // A leaf pinned to webgpu is copied to the GPU by the first graph that reads it: one such graph here, untimed.
  const put = (x, shape) => {
    const t = rlx.tensor(f32(x), { dtype: 'float32' }).reshape(shape).on(device).realize();
    lastOne(t);
    return t;
  };
  const { n, read } = args;
  let expr, flop;
  if (kind === 'matmul') {
    const a = put(ramp(n * n, 1), [n, n]), b = put(ramp(n * n, 3), [n, n]);
    expr = () => rlx.matmul(a, b);
    flop = 2 * n ** 3;
  } else if (kind === 'chain') {
    const a = put(ramp(n, 1), [n]), b = put(ramp(n, 3), [n]), c = put(ramp(n, 7), [n]);
    expr = () => a.mul(a).add(b.mul(b)).sqrt().mul(c).add(1);
  } else if (kind === 'splat') return splatCase(rlx, device, args, samples, lastOne);
  else throw new Error(`no webgpu case ${kind}`);
  const times = [];
  const clock = (body) => () => {
    const t0 = process.hrtime.bigint();
    const out = body();
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
    return out;
  };
  let fn, result;
  if (read === 'one') {
    fn = clock(() => {
      const y = expr().realize();
      lastOne(y);
      return y;
    });
    result = (y) => y.toArray();
  } else if (read === 'all') fn = clock(() => expr().toArray());
  else throw new Error(`read must be 'one' or 'all', got ${read}`);
  let kernels;
  const info = () => {
    kernels ??= rlx.explain(expr(), { print: false }).kernels.length;
    const out = { device, kernels };
    if (flop !== undefined && times.length) out.GFLOPs = +(flop / recentMedian(times, samples) / 1e9).toFixed(2);
    return out;
  };
  return { fn, result, info, expr };
}

/** The splat kind of rlxWebgpuCase (see the header): the same scene construction as benchmarks/suites/splat.mjs at its own size. */
function splatCase(rlx, device, args, samples, lastOne) {
  const { n, width, height, pass, read } = args;
  if (read !== 'one') throw new Error(`splat cases read 'one', got ${read}`);
  const { gaussians, cameras } = rlx.splat.scenes[SCENE.kind]({ n, seed: SCENE.seed, views: 1, width, height, fovY: SCENE.fovY, dtype: SCENE.dtype });
  const g = {};
  for (const k of KEYS) {
    g[k] = gaussians[k].on(device).realize();
    lastOne(g[k]); // copied to the device here, untimed
  }
  const camera = cameras[0];
  // One scalar from the last element of every output: a 1-element kernel that waits for all of them.
  const ready = (ys) => ys.map((y) => y.reshape([-1]).slice(rlx.s(rlx.tail(-1)))).reduce((a, b) => a.add(b)).neg().toArray();
  let call;
  if (pass === 'forward') {
    call = () => {
      const image = rlx.splat.render(g, camera).image.realize();
      ready([image]);
      return [image];
    };
  } else if (pass === 'backward') {
    // The splat suite's target: a fixed smooth ramp (its content does not change the work).
    const a = new Float32Array(height * width * 3);
    for (let i = 0; i < a.length; i++) a[i] = ((i * 7) % 1009) / 1009;
    const target = rlx.tensor(a).reshape([height, width, 3]).on(device).realize();
    lastOne(target);
    const loss = (...xs) => rlx.splat.render(Object.fromEntries(KEYS.map((k, i) => [k, xs[i]])), camera).image.sub(target).square().mean();
    const step = rlx.valueAndGrad(loss, { argnums: KEYS.map((_, i) => i) });
    const xs = KEYS.map((k) => g[k]);
    call = () => {
      const [value, grads] = step(...xs);
      const outs = [value, ...grads];
      for (const t of outs) t.realize();
      ready(outs);
      return outs;
    };
  } else throw new Error(`splat pass must be 'forward' or 'backward', got ${pass}`);
  const times = [];
  const fn = () => {
    const t0 = process.hrtime.bigint();
    const out = call();
    times.push(Number(process.hrtime.bigint() - t0) / 1e9);
    return out;
  };
  const result = (outs) => {
    const parts = outs.map((t) => Float32Array.from(t.reshape([-1]).toArray()));
    const all = new Float32Array(parts.reduce((m, p) => m + p.length, 0));
    let o = 0;
    for (const p of parts) {
      all.set(p, o);
      o += p.length;
    }
    return all;
  };
  const info = () => {
    const out = { device, Gaussians: n, resolution: `${width}×${height}` };
    if (device === 'native') Object.assign(out, { kernels: rlx.splat.nativeSplatStatus().kernels, threads: rlx.numThreads() });
    if (times.length) out['ms/frame'] = +(recentMedian(times, samples) * 1e3).toPrecision(4);
    return out;
  };
  return { fn, result, info };
}

export { recentMedian };
