// splat.render through the public API, per device: its outputs are the
// kernels' (project → rasterize composed by hand on the js reference), its
// gradients match central finite differences in float64 for every Gaussian
// tensor (colours and SH), a batch of cameras is the stack of single renders,
// vmap over scenes is the loop, and what is not offered throws: jvp, second
// derivatives, bad shapes and dtypes, non-finite values under checkFinite.

import { describe, expect, test } from 'vitest';
import { splat, tensor, grad, jvp, vmap, stack, s, rg, ShapeError, ValueError, DTypeError, TransformError, type Tensor } from '../../src/index.js';
import { jsSplatKernels } from '../../src/splat/kernels/js/index.js';
import { DEVICES } from '../harness/devices.js';
import { mulberry32 } from '../harness/prng.js';
import '../harness/allclose.js';

const W = 20,
  H = 14;
const cam = splat.lookAt({ eye: [0.3, -0.2, -4], target: [0, 0, 0], fovY: 45, width: W, height: H });
const cam2 = splat.lookAt({ eye: [-1.5, 0.5, -3.5], target: [0, 0, 0], fovY: 50, width: W, height: H });

/** A small float64 scene: n Gaussians near the origin with moderate scales (no threshold near the values). */
function scene(n: number, seed: number, sh = false): Scene {
  const r = mulberry32(seed);
  const u = (lo: number, hi: number) => lo + (hi - lo) * r();
  const rows = (m: number, f: () => number) => Array.from({ length: n }, () => Array.from({ length: m }, f));
  return {
    means: tensor(rows(3, () => u(-0.8, 0.8))),
    quats: tensor(rows(4, () => u(-1, 1))),
    scales: tensor(rows(3, () => u(0.15, 0.4))),
    opacities: tensor(Array.from({ length: n }, () => u(0.3, 0.8))),
    ...(sh ? { sh: tensor(Array.from({ length: n }, () => rows(3, () => 0).slice(0, 9).map(() => [u(-0.5, 0.5), u(-0.5, 0.5), u(-0.5, 0.5)]))) } : { colors: tensor(rows(3, () => u(0, 1))) }),
  };
}

interface Scene {
  means: Tensor;
  quats: Tensor;
  scales: Tensor;
  opacities: Tensor;
  colors?: Tensor;
  sh?: Tensor;
}
const KEYS = ['means', 'quats', 'scales', 'opacities', 'colors', 'sh'] as const;

describe.each(DEVICES)('splat.render on %s', (device) => {
  const on = (g: Scene): Scene => Object.fromEntries(Object.entries(g).map(([k, v]) => [k, (v as Tensor).on(device)])) as unknown as Scene;

  test('its outputs are the kernels composed by hand (js reference)', () => {
    const g = scene(5, 1);
    const { image, alpha, depth } = splat.render(on(g), cam, { background: [0.1, 0.2, 0.3] });
    const n = 5;
    const arr = (t: Tensor) => t.toArray() as Float64Array;
    const [fx, , cx, , fy, cy] = cam.K;
    const p = { means2d: new Float64Array(2 * n), conics: new Float64Array(3 * n), depths: new Float64Array(n), radii: new Int32Array(n), colors: new Float64Array(3 * n), opacities: new Float64Array(n) };
    jsSplatKernels.projectForward(
      { dtype: 'float64', n, means: arr(g.means), quats: arr(g.quats), scales: arr(g.scales), opacities: arr(g.opacities), coeffs: arr(g.colors!), k: 1, shDegree: -1, antialiased: false, camera: { viewmat: cam.viewmat, fx: fx!, fy: fy!, cx: cx!, cy: cy!, width: W, height: H, near: cam.near, far: cam.far } },
      p,
    );
    expect(Array.from(p.radii).every((r) => r > 0)).toBe(true); // every Gaussian is drawn: the scene tests something
    const out = { image: new Float64Array(H * W * 3), alpha: new Float64Array(H * W), depth: new Float64Array(H * W), finalT: new Float64Array(H * W), lastIndex: new Int32Array(H * W) };
    jsSplatKernels.rasterizeForward({ dtype: 'float64', n, width: W, height: H, tileSize: 16, background: [0.1, 0.2, 0.3], ...p }, out);
    expect(image.shape).toEqual([H, W, 3]);
    expect(alpha.shape).toEqual([H, W]);
    expect(image.dtype).toBe('float64');
    expect(image.toArray()).toBeAllclose(Array.from(out.image), { rtol: 1e-12, atol: 1e-13 });
    expect(alpha.toArray()).toBeAllclose(Array.from(out.alpha), { rtol: 1e-12, atol: 1e-13 });
    expect(depth.toArray()).toBeAllclose(Array.from(out.depth), { rtol: 1e-12, atol: 1e-13 });
  });

  test.each([false, true])('gradients of every Gaussian tensor match central differences (sh: %s)', (sh) => {
    const g = on(scene(4, sh ? 3 : 2, sh));
    const r = mulberry32(7);
    const wImg = tensor(Array.from({ length: H * W * 3 }, () => r() - 0.5)).reshape([H, W, 3]).on(device);
    const wA = tensor(Array.from({ length: H * W }, () => r() - 0.5)).reshape([H, W]).on(device);
    const wD = tensor(Array.from({ length: H * W }, () => r() - 0.5)).reshape([H, W]).on(device);
    const keys = KEYS.filter((k) => g[k] !== undefined);
    const loss = (...xs: Tensor[]) => {
      const gg = Object.fromEntries(keys.map((k, i) => [k, xs[i]])) as unknown as Scene;
      const o = splat.render(gg, cam, { background: [0.2, 0.1, 0.4], antialiased: sh });
      return o.image.mul(wImg).sum().add(o.alpha.mul(wA).sum()).add(o.depth.mul(wD).sum().mul(0.1));
    };
    const xs = keys.map((k) => g[k]!);
    const grads = grad(loss, { argnums: keys.map((_, i) => i) })(...xs) as Tensor[];
    const h = 1e-6;
    keys.forEach((k, i) => {
      const dir = tensor(Array.from({ length: xs[i]!.size }, () => r() - 0.5)).reshape(xs[i]!.shape as number[]).on(device);
      const plus = xs.map((x, j) => (j === i ? x.add(dir.mul(h)) : x));
      const minus = xs.map((x, j) => (j === i ? x.sub(dir.mul(h)) : x));
      const fd = ((loss(...plus).item() as number) - (loss(...minus).item() as number)) / (2 * h);
      const an = grads[i]!.mul(dir).sum().item() as number;
      expect(Math.abs(an - fd), `${k}: analytic ${an} vs fd ${fd}`).toBeLessThan(1e-6 * Math.abs(fd) + 1e-7);
      expect(Math.abs(an), `${k}: the gradient is not zero`).toBeGreaterThan(1e-4);
    });
  });

  test('a batch of cameras is the stack of single renders; vmap over scenes is the loop', () => {
    const g = on(scene(6, 4));
    const both = splat.render(g, [cam, cam2]);
    expect(both.image.shape).toEqual([2, H, W, 3]);
    expect(both.image.toArray()).toBeAllclose(stack([splat.render(g, cam).image, splat.render(g, cam2).image]).toArray(), { rtol: 0, atol: 0 });
    const g2 = on(scene(6, 5));
    const batched = vmap((m: Tensor, c: Tensor) => splat.render({ ...g, means: m, colors: c }, cam).image)(stack([g.means, g2.means]), stack([g.colors!, g2.colors!]));
    const loop = stack([splat.render({ ...g, means: g.means, colors: g.colors }, cam).image, splat.render({ ...g, means: g2.means, colors: g2.colors }, cam).image]);
    expect(batched.toArray()).toBeAllclose(loop.toArray(), { rtol: 1e-14, atol: 1e-15 });
  });

  test('float32 Gaussians render in float32, float64 wins when mixed, results agree', () => {
    const g = scene(5, 6);
    const f32 = Object.fromEntries(Object.entries(g).map(([k, v]) => [k, (v as Tensor).cast('float32').on(device)])) as unknown as Scene;
    const a = splat.render(f32, cam).image;
    expect(a.dtype).toBe('float32');
    expect(splat.render({ ...f32, means: g.means.on(device) }, cam).image.dtype).toBe('float64');
    expect(a.toArray()).toBeAllclose(splat.render(on(g), cam).image.toArray(), { rtol: 1e-4, atol: 1e-5 });
  });

  test('what is not offered throws: jvp, second derivatives', () => {
    const g = on(scene(3, 8));
    const f = (m: Tensor) => splat.render({ ...g, means: m }, cam).image.sum();
    expect(() => jvp(f, [g.means], [g.means])).toThrow(TransformError);
    expect(() => grad((m: Tensor) => grad(f)(m).sum())(g.means)).toThrow(TransformError);
  });
});

describe('splat.render input checks', () => {
  const g = scene(3, 9);
  test('shapes, dtypes and options are checked with what was received', () => {
    expect(() => splat.render({ ...g, means: g.means.reshape([9]) }, cam)).toThrow(ShapeError);
    expect(() => splat.render({ ...g, quats: g.quats.slice(s(rg(0, 2))) }, cam)).toThrow(/quats \[2, 4\]/);
    expect(() => splat.render({ ...g, sh: tensor([[[0, 0, 0]], [[0, 0, 0]], [[0, 0, 0]]]) }, cam)).toThrow(/exactly one of colors/);
    const { colors: _c, ...noColor } = g;
    expect(() => splat.render(noColor, cam)).toThrow(/exactly one of colors/);
    expect(() => splat.render({ ...noColor, sh: tensor(new Float64Array(3 * 5 * 3)).reshape([3, 5, 3]) }, cam)).toThrow(/K = \(d \+ 1\)²/);
    expect(() => splat.render({ ...noColor, sh: tensor(new Float64Array(3 * 4 * 3)).reshape([3, 4, 3]) }, cam, { shDegree: 2 })).toThrow(/shDegree must be an integer in \[0, 1\]/);
    expect(() => splat.render(g, cam, { shDegree: 0 })).toThrow(/shDegree applies to sh/);
    expect(() => splat.render({ ...g, colors: g.colors!.cast('complex128') }, cam)).toThrow(DTypeError);
    expect(() => splat.render(g, cam, { background: [0, 0] })).toThrow(/background/);
    expect(() => splat.render(g, cam, { tileSize: 0 })).toThrow(/tileSize/);
    expect(() => splat.render(g, [])).toThrow(ValueError);
    expect(() => splat.render(g, [cam, splat.lookAt({ eye: [0, 0, -3], target: [0, 0, 0], fovY: 40, width: 8, height: 8 })])).toThrow(/one image size/);
    expect(() => splat.render(g, { width: 3 } as never)).toThrow(/splat.camera or splat.lookAt/);
  });
  test('checkFinite names the first non-finite value; without it the Gaussian is culled', () => {
    const bad = { ...g, scales: tensor([[0.2, 0.2, 0.2], [0.2, NaN, 0.2], [0.2, 0.2, 0.2]]) };
    expect(() => splat.render(bad, cam, { checkFinite: true })).toThrow(/scales has a non-finite value NaN at Gaussian 1/);
    const without = splat.render(bad, cam).image;
    const culled = splat.render({ means: g.means.slice(s(rg(0, 3, 2))), quats: g.quats.slice(s(rg(0, 3, 2))), scales: tensor([[0.2, 0.2, 0.2], [0.2, 0.2, 0.2]]), opacities: g.opacities.slice(s(rg(0, 3, 2))), colors: g.colors!.slice(s(rg(0, 3, 2))) }, cam).image;
    expect(without.toArray()).toBeAllclose(culled.toArray(), { rtol: 0, atol: 0 });
  });
});
