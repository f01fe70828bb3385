// Where a splat frame's time goes: the rows of benchmarks/suites/splat.mjs time
// the public API (splat.render / valueAndGrad); this probe calls the splat
// kernel set of a device directly (kernelsFor(device, SPLAT_KERNELS), the set
// the ops dispatch to) on the same scene and camera, and splits the time into
//   project    projectForward / projectBackward (wall clock around the call)
//   sort       the depth sorts of the tile lists          } filled in by the
//   bin        tile binning (counting + filling the lists) } rasterize kernels
//   raster     the per-tile pixel loops                    } through `timings`
//   other      the rest of the rasterize call (argument checks, list and
//              scratch allocation): its wall clock − sort − bin − raster
// The backward rasterize rebuilds the tile lists (sort and bin again), as the
// contract says. Output arrays are allocated outside the timed calls. The
// backward's cotangent is what the suite's loss gives: ∂mean((image −
// target)²)/∂image = 2(image − target)/(3HW), zero for alpha and depth.
// The public API's own time (render(...).image.realize(), and valueAndGrad
// with everything realized, which includes the forward) is measured in the
// same process, so "API − kernels" is the graph building, dispatch,
// allocation and loss ops around the kernels.
//
// Run after npm run build (and npm run build:native for the C++ kernels):
//   node --expose-gc benchmarks/probes/splat-breakdown.mjs [--device native,js] [--n 100000,1000000]
//        [--processes 3] [--reps R] [--write]
// Each (device, n) is measured in `processes` fresh processes (one warm-up call
// per measured function, then R samples; js at n ≥ 1M: no warm-up, 1 sample,
// 1 process, and no API timing unless --api); the table gives the median over
// processes of each process's median. --write also writes
// benchmarks/results/splat-breakdown.{md,json}.
import { spawnSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import os from 'node:os';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../..');
const med = (xs) => {
  const s = xs.filter((x) => x !== undefined && !Number.isNaN(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function parse(argv) {
  const o = { devices: ['native', 'js'], ns: [100_000, 1_000_000], processes: 3, reps: undefined, write: false, api: undefined, child: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--device') o.devices = argv[++i].split(',');
    else if (a === '--n') o.ns = argv[++i].split(',').map(Number);
    else if (a === '--processes') o.processes = Number(argv[++i]);
    else if (a === '--reps') o.reps = Number(argv[++i]);
    else if (a === '--write') o.write = true;
    else if (a === '--api') o.api = true;
    else if (a === '--no-api') o.api = false;
    else if (a === '--child') o.child = JSON.parse(argv[++i]);
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

// ---- one process: one device, one n ----------------------------------------------------
async function child({ device, n, reps, warmup, api }) {
  const rlx = await import(pathToFileURL(join(root, 'dist/index.js')).href);
  const { kernelsFor } = await import(pathToFileURL(join(root, 'dist/compiler/kernel-registry.js')).href);
  const { SPLAT_KERNELS } = await import(pathToFileURL(join(root, 'dist/splat/kernels/family.js')).href);
  const { buildScene, targetImage, KEYS, SCENE } = await import(pathToFileURL(join(root, 'benchmarks/suites/splat.mjs')).href);
  if (device === 'native') rlx.setNumThreads(2);
  const kernelSet = device === 'native' ? rlx.splat.nativeSplatStatus?.().kernels ?? 'unknown' : 'js';
  const K = kernelsFor(device, SPLAT_KERNELS);
  const { gaussians, camera } = buildScene(rlx, device, n);
  const arr = Object.fromEntries(KEYS.map((k) => [k, gaussians[k].toArray()]));
  const [fx, , cx, , fy, cy] = camera.K;
  const cam = { viewmat: [...camera.viewmat], fx, fy, cx, cy, width: camera.width, height: camera.height, near: camera.near, far: camera.far };
  const { width: W, height: H } = SCENE;
  const F = SCENE.dtype === 'float64' ? Float64Array : Float32Array;
  const pa = { dtype: SCENE.dtype, n, means: arr.means, quats: arr.quats, scales: arr.scales, opacities: arr.opacities, coeffs: arr.colors, k: 1, shDegree: -1, camera: cam, antialiased: false };
  const px = W * H;
  const target = new F(3 * px);
  for (let i = 0; i < target.length; i++) target[i] = ((i * 7) % 1009) / 1009; // the suite's targetImage
  const projOut = () => ({ means2d: new F(2 * n), conics: new F(3 * n), depths: new F(n), radii: new Int32Array(n), colors: new F(3 * n), opacities: new F(n) });
  const rastOut = () => ({ image: new F(3 * px), alpha: new F(px), depth: new F(px), finalT: new F(px), lastIndex: new Int32Array(px) });
  const rasterArgs = (p) => ({ dtype: SCENE.dtype, n, width: W, height: H, tileSize: 16, background: [0, 0, 0], means2d: p.means2d, conics: p.conics, colors: p.colors, opacities: p.opacities, depths: p.depths, radii: p.radii });

  const fwdSamples = [], bwdSamples = [];
  let last;
  const forward = () => {
    const p = projOut(), r = rastOut(), tm = { project: 0, bin: 0, sort: 0, raster: 0 };
    const t0 = performance.now();
    K.projectForward(pa, p);
    const t1 = performance.now();
    K.rasterizeForward(rasterArgs(p), r, tm);
    const t2 = performance.now();
    last = { p, r };
    return { project: t1 - t0, sort: tm.sort, bin: tm.bin, raster: tm.raster, other: t2 - t1 - tm.sort - tm.bin - tm.raster, total: t2 - t0 };
  };
  const backward = () => {
    const { p, r } = last;
    const ct = { image: new F(3 * px), alpha: new F(px), depth: new F(px) };
    for (let i = 0; i < 3 * px; i++) ct.image[i] = (2 * (r.image[i] - target[i])) / (3 * px);
    const rg = { means2d: new F(2 * n), conics: new F(3 * n), colors: new F(3 * n), opacities: new F(n), depths: new F(n) };
    const pg = { means: new F(3 * n), quats: new F(4 * n), scales: new F(3 * n), opacities: new F(n), coeffs: new F(3 * n) };
    const tm = { project: 0, bin: 0, sort: 0, raster: 0 };
    const t0 = performance.now();
    K.rasterizeBackward(rasterArgs(p), { finalT: r.finalT, lastIndex: r.lastIndex }, ct, rg, tm);
    const t1 = performance.now();
    K.projectBackward(pa, p.radii, { means2d: rg.means2d, conics: rg.conics, depths: rg.depths, colors: rg.colors, opacities: rg.opacities }, pg);
    const t2 = performance.now();
    return { project: t2 - t1, sort: tm.sort, bin: tm.bin, raster: tm.raster, other: t1 - t0 - tm.sort - tm.bin - tm.raster, total: t2 - t0 };
  };

  for (let w = 0; w < warmup; w++) (forward(), backward());
  for (let i = 0; i < reps; i++) {
    globalThis.gc?.();
    fwdSamples.push(forward());
    bwdSamples.push(backward());
  }

  // The work: visible splats and tile-list entries (the contract's tile rectangle).
  const { radii, means2d } = last.p;
  const tilesX = Math.ceil(W / 16), tilesY = Math.ceil(H / 16);
  const cl = (x, lo, hi) => (x < lo ? lo : x > hi ? hi : x);
  let visible = 0, entries = 0;
  for (let i = 0; i < n; i++) {
    const rr = radii[i];
    if (rr <= 0) continue;
    visible++;
    const u = means2d[2 * i], v = means2d[2 * i + 1];
    const x0 = cl(Math.floor((u - rr) / 16), 0, tilesX), x1 = cl(Math.floor((u + rr + 15) / 16), 0, tilesX);
    const y0 = cl(Math.floor((v - rr) / 16), 0, tilesY), y1 = cl(Math.floor((v + rr + 15) / 16), 0, tilesY);
    if (x1 > x0 && y1 > y0) entries += (x1 - x0) * (y1 - y0);
  }

  // The public API in the same process (the suite's calls).
  const apiTimes = { forward: [], valueAndGrad: [] };
  let calls;
  if (api) {
    const fwd = () => rlx.splat.render(gaussians, camera).image.realize();
    const tgt = targetImage(rlx, device);
    const step = rlx.valueAndGrad((...xs) => rlx.splat.render(Object.fromEntries(KEYS.map((k, i) => [k, xs[i]])), camera).image.sub(tgt).square().mean(), { argnums: KEYS.map((_, i) => i) });
    const xs = KEYS.map((k) => gaussians[k]);
    const vg = () => {
      const [v, gs] = step(...xs);
      v.realize();
      for (const g of gs) g.realize();
    };
    for (let w = 0; w < warmup; w++) (fwd(), vg());
    // Kernel calls per API call (each kernel once: nothing is recomputed), counted by wrapping the registered set's methods.
    const wrapped = Object.fromEntries(Object.keys(K).map((f) => [f, K[f]]));
    const count = {};
    for (const f of Object.keys(K)) K[f] = (...a) => ((count[f] = (count[f] ?? 0) + 1), wrapped[f](...a));
    const callsOf = (fn) => {
      for (const f of Object.keys(K)) count[f] = 0;
      fn();
      return Object.keys(K).map((f) => `${f} ${count[f]}`).join(', ');
    };
    calls = { forward: callsOf(fwd), valueAndGrad: callsOf(vg) };
    Object.assign(K, wrapped);
    for (let i = 0; i < reps; i++) {
      globalThis.gc?.();
      let t0 = performance.now();
      fwd();
      apiTimes.forward.push(performance.now() - t0);
      globalThis.gc?.();
      t0 = performance.now();
      vg();
      apiTimes.valueAndGrad.push(performance.now() - t0);
    }
  }
  const stageMedians = (ss) => Object.fromEntries(Object.keys(ss[0]).map((k) => [k, med(ss.map((s) => s[k]))]));
  return { device, n, kernels: kernelSet, threads: device === 'native' ? rlx.numThreads() : 1, visible, entries, forward: stageMedians(fwdSamples), backward: stageMedians(bwdSamples), api: { forward: med(apiTimes.forward), valueAndGrad: med(apiTimes.valueAndGrad) }, calls, reps, warmup };
}

// ---- parent: fresh processes, medians, table ---------------------------------------------
function table(r) {
  const f = (x) => (Number.isFinite(x) ? (x >= 100 ? x.toFixed(0) : x.toFixed(1)) : '–');
  const pct = (x, tot) => (Number.isFinite(x) && tot > 0 ? ` (${Math.round((100 * x) / tot)} %)` : '');
  const lines = [
    `### ${r.device} (kernels: ${r.kernels}, ${r.device === 'js' ? 'single-threaded' : `${r.threads} thread${r.threads > 1 ? 's' : ''}`}), n = ${r.n.toLocaleString('en-US')}: ${r.visible.toLocaleString('en-US')} visible splats, ${r.entries.toLocaleString('en-US')} tile-list entries (${(r.entries / Math.max(1, r.visible)).toFixed(2)} per splat)`,
    '',
    `${r.processes} process(es) × ${r.reps} sample(s) after ${r.warmup} warm-up call(s); ms, median over processes of per-process medians.`,
    '',
    '| stage | forward ms | backward ms |',
    '|---|---|---|',
  ];
  for (const k of ['project', 'sort', 'bin', 'raster', 'other'])
    lines.push(`| ${k} | ${f(r.forward[k])}${pct(r.forward[k], r.forward.total)} | ${f(r.backward[k])}${pct(r.backward[k], r.backward.total)} |`);
  lines.push(`| **kernels total** | **${f(r.forward.total)}** | **${f(r.backward.total)}** |`);
  if (Number.isFinite(r.api.forward)) {
    lines.push(`| public API: render(...).image.realize() / valueAndGrad (incl. forward), all realized | ${f(r.api.forward)} | ${f(r.api.valueAndGrad)} |`);
    lines.push(`| API − kernels (graph, dispatch, allocation, loss ops) | ${f(r.api.forward - r.forward.total)} | ${f(r.api.valueAndGrad - r.forward.total - r.backward.total)} |`);
    if (r.calls) lines.push('', `Kernel calls per API call: render ${r.calls.forward}; valueAndGrad ${r.calls.valueAndGrad}.`);
  }
  lines.push('');
  return lines.join('\n');
}

const o = parse(process.argv.slice(2));
if (o.child) {
  const res = await child(o.child);
  process.stdout.write('\n' + JSON.stringify(res) + '\n');
} else {
  const results = [];
  for (const device of o.devices)
    for (const n of o.ns) {
      const slow = device === 'js' && n >= 1_000_000;
      const spec = { device, n, reps: o.reps ?? (slow ? 1 : device === 'js' ? 3 : 7), warmup: slow ? 0 : 1, api: o.api ?? !slow };
      const processes = slow ? 1 : o.processes;
      const runs = [];
      for (let p = 0; p < processes; p++) {
        process.stderr.write(`[splat-breakdown] ${device} n=${n} process ${p + 1}/${processes}\n`);
        const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', JSON.stringify(spec)], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
        if (r.status !== 0) throw new Error(`child ${device} n=${n} failed: ${(r.stderr || r.stdout).slice(-2000)}`);
        runs.push(JSON.parse(r.stdout.trim().split('\n').pop()));
      }
      const agg = (side) => Object.fromEntries(Object.keys(runs[0][side]).map((k) => [k, med(runs.map((x) => x[side][k]))]));
      results.push({ ...runs[0], processes, forward: agg('forward'), backward: agg('backward'), api: agg('api'), perProcess: runs });
    }
  const cpu = os.cpus()[0]?.model?.trim() ?? 'unknown';
  const md = [
    '# rlx splat: where the time goes',
    '',
    'The splat kernel set of each device called directly (benchmarks/probes/splat-breakdown.mjs), on the scene and camera of',
    'benchmarks/suites/splat.mjs; the suite\'s rows time the public API (splat.render / valueAndGrad), shown here in the',
    'last rows for the same process. Stages: project = projectForward/Backward; sort, bin, raster = what the rasterize',
    'kernels report through their `timings` argument (the backward rebuilds the tile lists: its sort and bin repeat the',
    'forward\'s); other = the rest of the rasterize call (checks, list allocation).',
    '',
    ...results.map(table),
    `Machine: ${cpu}, ${os.cpus().length} logical cores, load average ${os.loadavg().map((x) => x.toFixed(2)).join(' / ')} at the end; node ${process.version}; ${new Date().toISOString()}.`,
    '',
    `Reproduce: \`node --expose-gc benchmarks/probes/splat-breakdown.mjs ${process.argv.slice(2).filter((a) => a !== '--write').join(' ')}\`.`,
    '',
  ].join('\n');
  console.log(md);
  if (o.write) {
    const dir = join(root, 'benchmarks/results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'splat-breakdown.md'), md);
    writeFileSync(join(dir, 'splat-breakdown.json'), JSON.stringify({ command: `node --expose-gc benchmarks/probes/splat-breakdown.mjs ${process.argv.slice(2).join(' ')}`, cpu, date: new Date().toISOString(), results }, null, 1) + '\n');
    console.log('wrote benchmarks/results/splat-breakdown.{md,json}');
  }
}
