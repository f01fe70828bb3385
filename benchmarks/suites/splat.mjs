// Splat suite (issue 17, "Benchmarks"): Gaussian splatting through the public
// API, forward and backward, 800×600, 100k and 1M Gaussians of a procedural
// scene, on the native device (C++ kernels, 2 threads) and on the js device
// (the TypeScript reference kernels).
//
// Every row times what a user runs, from dist/:
//   forward   splat.render(gaussians, camera).image.realize()
//   backward  valueAndGrad(loss, {argnums: all five Gaussian tensors}) with
//             loss = mean((render(...).image − target)²); the loss and all
//             five gradients realized. This is one training step's render
//             cost (forward + backward), which is what "backward ÷ forward"
//             compares with the forward alone.
// The device is pinned as in the other suites: every input tensor (the
// Gaussians, the target image) is moved with .on(device) and realized during
// setup, so the ops run on that device's kernels. On 'native' the row reports
// which kernel set actually runs (splat.nativeSplatStatus(): an addon built
// before the splat kernels falls back to the js kernels) and sets
// rlx.setNumThreads(2).
//
// Peak memory: in each fresh worker process, after the inputs are built and a
// full GC, the first call (untimed; it is also the first warm-up call) runs
// between a reset of the kernel's resident-set high-water mark (writing "5" to
// /proc/self/clear_refs resets VmHWM to the current RSS) and a read of VmHWM
// from /proc/self/status: peak = VmHWM − VmRSS at the reset, i.e. the extra
// resident memory the process needed to produce its first frame (JS heap,
// array buffers, native allocations, thread stacks and code alike). Only the
// first call can be measured this way: rlx and the allocator keep what a call
// freed, so later calls reuse it and add ~0 (measured: 0.1 MB at 100k and 1M
// on native; a MALLOC_MMAP_THRESHOLD_ setting does not change either figure).
// The figure includes costs that do not scale with N: one-time
// initialisation and the per-image buffers (a render of an empty scene costs
// ~65 MB on native). "peak B/Gaussian" is that peak ÷ N, so it overstates the
// per-Gaussian cost at 100k; the N-dependent part is (peak at 1M − peak at
// 100k) ÷ 900,000 from the two rows. Without /proc (not Linux) the growth of
// process.resourceUsage().maxRSS over the call is reported instead: a lower
// bound (0 if setup had already peaked higher).
//
// The stage breakdown (projection, sort, binning, raster) comes from
// benchmarks/probes/splat-breakdown.mjs, which calls the kernel sets
// directly; these rows time only the public API.
//
// js at 1M Gaussians takes ~13 s (forward) and ~24 s (forward + backward) per
// call on the reference machine: those rows take one timed sample per process (the memory call is the
// only warm-up) and two processes; the notes say so.

import { readFileSync, writeFileSync } from 'node:fs';

/** The scene of every row: sphereShell (flat discs on a Fibonacci sphere, opacity 0.9), seed 0, float32, seen from its first ring camera (distance 3, 20° up, fovY 60°). */
export const SCENE = { kind: 'sphereShell', width: 800, height: 600, seed: 0, dtype: 'float32', fovY: 60 };
export const SIZES = { '100k': 100_000, '1M': 1_000_000 };
export const KEYS = ['means', 'quats', 'scales', 'opacities', 'colors'];

/** The scene's Gaussians (tensors pinned to `device`, realized) and its camera. */
export function buildScene(rlx, device, n) {
  const { gaussians, cameras } = rlx.splat.scenes[SCENE.kind]({ n, seed: SCENE.seed, views: 1, width: SCENE.width, height: SCENE.height, fovY: SCENE.fovY, dtype: SCENE.dtype });
  const g = {};
  for (const k of KEYS) g[k] = gaussians[k].on(device).realize();
  return { gaussians: g, camera: cameras[0] };
}

/** A fixed target image [H, W, 3] for the backward's loss (a smooth ramp; its content does not change the work). */
export function targetImage(rlx, device) {
  const { width: W, height: H } = SCENE;
  const a = new Float32Array(H * W * 3);
  for (let i = 0; i < a.length; i++) a[i] = ((i * 7) % 1009) / 1009;
  return rlx.tensor(a).reshape([H, W, 3]).on(device).realize();
}

// ---- peak memory -------------------------------------------------------------------
function procStatusKB(field) {
  const m = readFileSync('/proc/self/status', 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
  return m ? Number(m[1]) : undefined;
}

/** Runs fn once and returns the extra resident memory it needed at its peak (bytes) and how that was measured. */
export function peakExtraBytes(fn) {
  globalThis.gc?.();
  let viaProc = false;
  try {
    writeFileSync('/proc/self/clear_refs', '5'); // resets VmHWM to the current RSS
    viaProc = procStatusKB('VmHWM') !== undefined;
  } catch {
    viaProc = false;
  }
  if (viaProc) {
    const base = procStatusKB('VmRSS');
    fn();
    return { bytes: (procStatusKB('VmHWM') - base) * 1024, method: 'VmHWM reset' };
  }
  const base = process.resourceUsage().maxRSS;
  fn();
  return { bytes: (process.resourceUsage().maxRSS - base) * 1024, method: 'maxRSS growth (lower bound)' };
}

// ---- rows ----------------------------------------------------------------------------
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The rlx side of a row: setup, the memory call, then fn for the harness to time. */
function rlxSide(pass, device, n) {
  return async (rlx) => {
    const { splat } = rlx;
    let threadsBefore;
    if (device === 'native') {
      threadsBefore = rlx.numThreads();
      rlx.setNumThreads(2);
    }
    const kernels = device === 'native' ? splat.nativeSplatStatus?.().kernels ?? 'unknown' : 'js';
    const { gaussians, camera } = buildScene(rlx, device, n);
    let call;
    if (pass === 'forward') {
      call = () => splat.render(gaussians, camera).image.realize().node.data;
    } else {
      const target = targetImage(rlx, device);
      const loss = (...xs) => {
        const g = Object.fromEntries(KEYS.map((k, i) => [k, xs[i]]));
        return splat.render(g, camera).image.sub(target).square().mean();
      };
      const step = rlx.valueAndGrad(loss, { argnums: KEYS.map((_, i) => i) });
      const xs = KEYS.map((k) => gaussians[k]);
      call = () => {
        const [value, grads] = step(...xs);
        value.realize();
        for (const t of grads) t.realize();
        return grads[0].node.data;
      };
    }
    const mem = peakExtraBytes(call);
    const times = [];
    return {
      fn: () => {
        const t0 = performance.now();
        const out = call();
        times.push(performance.now() - t0);
        return out;
      },
      after: () => {
        if (threadsBefore !== undefined) rlx.setNumThreads(threadsBefore);
      },
      info: () => {
        const ms = median(times.slice(-Math.max(1, times.length >> 1)));
        return {
          kernels,
          threads: device === 'native' ? rlx.numThreads() : 1,
          'frames/s': +(1000 / ms).toFixed(2),
          'peak MB': +(mem.bytes / 2 ** 20).toFixed(1),
          'peak B/Gaussian': Math.round(mem.bytes / n),
          memory: mem.method,
        };
      },
    };
  };
}

// Timing per row. Native: several samples per process (0.2-0.6 s forward at
// 100k, 2-4 s at 1M on the loaded reference machine). js: ~3 s (forward) and
// ~5-8 s (backward) per call at 100k, ~13 s and ~24 s at 1M.
const TIMING = {
  'native-forward-100k': { warmup: 3, reps: 10, runs: 3 },
  'native-backward-100k': { warmup: 2, reps: 7, runs: 3 },
  'native-forward-1M': { warmup: 1, reps: 5, runs: 3 },
  'native-backward-1M': { warmup: 1, reps: 3, runs: 3 },
  'js-forward-100k': { warmup: 1, reps: 3, runs: 2 },
  'js-backward-100k': { warmup: 0, reps: 3, runs: 2 },
  // One timed sample per process; the memory call is the only warm-up.
  'js-forward-1M': { warmup: 0, reps: 1, runs: 2 },
  'js-backward-1M': { warmup: 0, reps: 1, runs: 2 },
};

const WHAT = {
  forward: 'splat.render(gaussians, camera).image.realize()',
  backward: 'valueAndGrad(mean((render(g, camera).image − target)²), argnums: means, quats, scales, opacities, colors): loss and the 5 gradients realized (forward + backward: one training step)',
};

const rows = [];
for (const [label, n] of Object.entries(SIZES))
  for (const pass of ['forward', 'backward'])
    for (const device of ['native', 'js']) {
      const id = `${device}-${pass}-${label}`;
      const t = TIMING[id];
      rows.push({
        id,
        description:
          `${WHAT[pass]}; ${SCENE.kind} n = ${n.toLocaleString('en-US')}, ${SCENE.dtype}, ${SCENE.width}×${SCENE.height}, inputs .on('${device}')` +
          (device === 'native' ? ', rlx.setNumThreads(2)' : '') +
          (t.reps === 1 ? `; one timed call per process (${t.runs} processes): a single sample, not a median of several` : ''),
        timing: { warmup: t.warmup, reps: t.reps, inner: 1, runs: t.runs, gc: 'run' },
        rlx: rlxSide(pass, device, n),
      });
    }

const ratio = (id, num, den, goal) => ({ id, num, den, goal });
const derived = [];
for (const label of Object.keys(SIZES)) {
  for (const device of ['native', 'js']) derived.push(ratio(`backward ÷ forward, ${device} ${label}`, `${device}-backward-${label}`, `${device}-forward-${label}`, device === 'native' ? '≤ 3' : ''));
  for (const pass of ['forward', 'backward']) derived.push(ratio(`js ÷ native ${pass} ${label}`, `js-${pass}-${label}`, `native-${pass}-${label}`, '≥ 20'));
}

export default {
  name: 'splat',
  description:
    `Gaussian splatting through the public API (from dist/): forward = splat.render(...).image.realize(); backward = valueAndGrad of an L2 image loss w.r.t. all five Gaussian tensors, everything realized (forward + backward). ` +
    `Scene: splat.scenes.${SCENE.kind} (seed ${SCENE.seed}, ${SCENE.dtype}) at ${SCENE.width}×${SCENE.height}, first ring camera, 100k and 1M Gaussians. ` +
    `native = inputs .on('native'), C++ kernels (notes: kernels=native; kernels=js means the addon predates them and the js kernels ran), rlx.setNumThreads(2); js = inputs .on('js'), the TypeScript reference kernels. ` +
    `Goals (issue 17): native forward at 100k ≥ 10 frames/s; backward ÷ forward ≤ 3; js ÷ native ≥ 20. ` +
    `"peak MB" / "peak B/Gaussian" (= peak ÷ N): extra resident memory at the peak of the process's first (untimed) call over the RSS after setup (VmHWM reset through /proc/self/clear_refs); it includes costs that do not scale with N (one-time initialisation, the 800×600 buffers: ~65 MB for an empty scene on native), so the N-dependent bytes per Gaussian are (peak 1M − peak 100k) ÷ 900,000. ` +
    `Where the time goes (projection, sort, binning, raster) is measured by benchmarks/probes/splat-breakdown.mjs, which calls the kernel sets directly; the rows here time only the public API. ` +
    `js at 1M: one timed call per process, two processes.`,
  rows,
  derived,
};
