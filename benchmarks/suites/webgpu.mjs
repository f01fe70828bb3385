// WebGPU suite (issue 19): rlx's 'webgpu' device through the public Tensor API
// (inputs pinned with .on('webgpu'), rlx.matmul, toArray) on whatever adapter
// Dawn finds here, beside the same code on rlx's native device (peer
// `native`) and jax-js 0.1.25's WebGPU backend on the same adapter (peer
// `jax-js`, benchmarks/js-peers/peer.mjs). Ratios are peer ÷ rlx-webgpu:
// > 1 means rlx on webgpu is faster.
//
// The adapter is probed once, in a child process (lib/webgpu-adapter.mjs),
// when run.mjs imports this file; the answer travels to the workers in
// RLX_BENCH_WEBGPU_ADAPTER so that every process sees the same rows. The
// matmul sizes depend on it: the issue's 1024, 2048, 4096 on a hardware
// adapter; 256, 512, 1024 on a software rasterizer, set when Mesa llvmpipe ran
// rlx's first WGSL matmul at ~0.15-0.35 GFLOP/s on the 2-core reference VM
// (one 2048 product: 65-117 s, at the edge of the device's 120 s limit on one
// synchronous call). The register-tiled kernel (1692ee8) runs ~2.5-3.3
// GFLOP/s there; the sizes stay.
// RLX_BENCH_WEBGPU_SIZES=1024,2048,4096 forces a size list.
// Splat rows (splat.render forward, and forward + backward through
// valueAndGrad): the issue's 1M Gaussians at 1920×1080 on a hardware adapter;
// on a software rasterizer 20k at 320×180, where one call takes ~0.5 s
// (forward) and ~1.5-3 s (backward) on the reference VM.
// RLX_BENCH_WEBGPU_SPLAT=1000000@1920x1080 forces one size. Peer: the native
// device only (jax-js has no splatting).

import { rlxWebgpuCase } from '../lib/webgpu-cases.mjs';
import { probeAdapter } from '../lib/webgpu-adapter.mjs';

const ENV = 'RLX_BENCH_WEBGPU_ADAPTER';
const adapter = process.env[ENV] ? JSON.parse(process.env[ENV]) : probeAdapter();
process.env[ENV] = JSON.stringify(adapter);

const software = adapter.available && adapter.software;
const forced = process.env.RLX_BENCH_WEBGPU_SIZES?.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
const SIZES = forced?.length ? forced : software ? [256, 512, 1024] : [1024, 2048, 4096];
const N_CHAIN = 10_000_000;

function splatSize() {
  const v = process.env.RLX_BENCH_WEBGPU_SPLAT;
  if (v) {
    const m = /^(\d+)@(\d+)x(\d+)$/.exec(v.trim());
    if (!m) throw new Error(`RLX_BENCH_WEBGPU_SPLAT must read N@WIDTHxHEIGHT (e.g. 1000000@1920x1080), got ${JSON.stringify(v)}`);
    return { n: +m[1], width: +m[2], height: +m[3], forced: true };
  }
  return software ? { n: 20_000, width: 320, height: 180 } : { n: 1_000_000, width: 1920, height: 1080 };
}
const SPLAT = splatSize();
const count = (n) => (n >= 1e6 && n % 1e5 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 100 === 0 ? `${n / 1e3}k` : `${n}`);
const SPLAT_LABEL = `${count(SPLAT.n)}-${SPLAT.width === 1920 && SPLAT.height === 1080 ? '1080p' : `${SPLAT.width}x${SPLAT.height}`}`;

const adapterText = adapter.available
  ? `${adapter.device || adapter.description} (${adapter.description}; Dawn ${adapter.backend}${software ? '; software rasterizer' : ''})`
  : `none (${adapter.reason})`;

// Per-call cost on llvmpipe (2 cores): matmul 256 ~13 ms, 512 ~90 ms, 1024 ~0.65 s (jax-js: 1.7 s); chain 10M ~0.2-0.5 s.
// On a GPU every row is milliseconds: more warm-up (pipeline compile, first buffer clears) and samples.
const mmTiming = (n) =>
  !software ? { warmup: 3, warmupMs: 300, reps: 10, inner: 1, runs: 3 }
  : n <= 512 ? { warmup: 2, reps: 5, inner: 1, runs: 2 }
  : { warmup: 1, reps: 3, inner: 1, runs: 2 };
// Splat on llvmpipe (20k, 320×180): ~0.5 s forward, ~3 s forward + backward per call; native ~15 ms / ~40 ms.
// On a GPU (1M, 1080p) the native peer takes ~0.1-1 s per call (and caps its samples at 8 s).
const splatTiming = {
  forward: software ? { warmup: 1, reps: 5, inner: 1, runs: 2 } : { warmup: 3, warmupMs: 300, reps: 10, inner: 1, runs: 3 },
  backward: software ? { warmup: 1, reps: 3, inner: 1, runs: 2 } : { warmup: 2, warmupMs: 300, reps: 8, inner: 1, runs: 3 },
};
const chainTiming = software ? { warmup: 2, reps: 5, inner: 1, runs: 2 } : { warmup: 5, warmupMs: 300, reps: 15, inner: 1, runs: 3 };

const peer = (c, args) => ({ script: 'peer.mjs', case: c, args });
const peers = (kind, args) => ({ native: peer(`rlx-native:wg-${kind}`, args), 'jax-js': peer(`jax-js-webgpu:${kind}`, args) });

function row(id, description, kind, args, timing, extra = {}, peerSet = peers(kind, args)) {
  return {
    id,
    description,
    timing,
    // float32 on both sides, summed in different orders (tiles, SIMD): the checksums agree to ~1e-7, not 1e-9.
    checkRtol: 1e-5,
    ...extra,
    rlx: (rlx, { timing: t }) => {
      const c = rlxWebgpuCase(rlx, 'webgpu', kind, args, t.reps * t.inner);
      return { fn: c.fn, result: c.result, info: () => ({ ...c.info(), ...(id === firstId ? { adapter: adapter.device || adapter.description } : {}) }) };
    },
    peers: peerSet,
  };
}

const rows = [];
for (const n of SIZES) {
  rows.push(
    row(
      `matmul-f32-${n}`,
      `rlx.matmul(a, b), a, b ${n}×${n} float32 on the GPU; realize() then read a 1-element kernel on it (waits for the GPU; the result stays there). Notes: GFLOP/s = 2n³ / t (last run's median). Peers: the same on native (OpenBLAS sgemm); jax-js np.matmul + blockUntilReady()`,
      'matmul',
      { n, read: 'one' },
      mmTiming(n),
    ),
  );
}
const mid = SIZES[Math.min(1, SIZES.length - 1)];
rows.push(
  row(
    `matmul-f32-${mid}-toarray`,
    `as matmul-f32-${mid}, with the whole ${mid}×${mid} result copied to the host: matmul(a, b).toArray() (the blocking form of await y.data()); jax-js: await .data()`,
    'matmul',
    { n: mid, read: 'all' },
    mmTiming(mid),
  ),
);
rows.push(
  row(
    'chain-f32-10M',
    'sqrt(a*a+b*b)*c+1 (core.mjs\'s fused chain: 6 elementwise ops on 3 inputs, one kernel), 10M float32, fresh expression per call; realize() then read a 1-element kernel on it (the result stays on the GPU). GB/s: 3 inputs read + 1 output written (160 MB). jax-js: the same ops + blockUntilReady()',
    'chain',
    { n: N_CHAIN, read: 'one' },
    chainTiming,
    { bytes: 16 * N_CHAIN },
  ),
  row(
    'chain-f32-10M-toarray',
    'the same chain with the 40 MB result copied to the host: expr.toArray(); jax-js: await .data(). GB/s counts the same 160 MB (the copy back is extra traffic)',
    'chain',
    { n: N_CHAIN, read: 'all' },
    chainTiming,
    { bytes: 16 * N_CHAIN },
  ),
);
const splatWhat = `splat.scenes.sphereShell (the splat suite's scene: seed 0, first ring camera, fovY 60°), n = ${SPLAT.n.toLocaleString('en-US')} float32 Gaussians, ${SPLAT.width}×${SPLAT.height}, the five Gaussian tensors .on(device)`;
for (const pass of ['forward', 'backward']) {
  const args = { n: SPLAT.n, width: SPLAT.width, height: SPLAT.height, pass, read: 'one' };
  rows.push(
    row(
      `splat-${pass}-${SPLAT_LABEL}`,
      (pass === 'forward'
        ? `splat.render(gaussians, camera).image.realize(), then read a 1-element kernel on the image's last element (waits for the GPU; the image stays there); ${splatWhat}`
        : `valueAndGrad(mean((splat.render(g, camera).image − target)²), argnums: means, quats, scales, opacities, colors) (one training step: forward + backward), the loss and the 5 gradients realized, then one 1-element kernel over the last element of each read; ${splatWhat}; target a fixed [H, W, 3] ramp`) +
        `. Notes: ms/frame = the last run's median. Peer: the same code on native (C++ splat kernels, rlx's default thread count, shown as threads); no jax-js peer (no splatting)`,
      'splat',
      args,
      splatTiming[pass],
      {},
      { native: peer('rlx-native:wg-splat', args) },
    ),
  );
}
const firstId = rows[0].id;

export default {
  name: 'webgpu',
  description: `rlx's 'webgpu' device (Dawn via npm webgpu) through the public Tensor API, float32: matmul, core.mjs's fused elementwise chain and Gaussian splatting (forward; forward + backward), vs the same calls on rlx's native device and (matmul, chain) jax-js's WebGPU backend on the same adapter. Adapter: ${adapterText}. Matmul sizes ${SIZES.join(', ')}${forced?.length ? ' (RLX_BENCH_WEBGPU_SIZES)' : software ? ' (software adapter: the issue\'s 2048 and 4096 are left to a GPU machine, benchmarks/gpu.sh)' : ''}. Splat: ${SPLAT.n.toLocaleString('en-US')} Gaussians at ${SPLAT.width}×${SPLAT.height}${SPLAT.forced ? ' (RLX_BENCH_WEBGPU_SPLAT)' : software ? ' (software adapter: the issue\'s 1M at 1920×1080 is left to a GPU machine)' : ''}.`,
  rows,
};
