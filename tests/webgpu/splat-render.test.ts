// splat.render through the public API on 'webgpu' (the splat ops' WGSL
// runners, src/splat/kernels/webgpu/, through the webgpu runtime): the image,
// alpha and depth of float32 Gaussians pinned to 'webgpu' match the same
// render on 'js', and so do the gradients of a loss with respect to every
// Gaussian tensor (splat.projectBackward, splat.rasterizeBackward on the GPU),
// within the float32 tolerances of the kernel tests. float64 Gaussians on
// 'webgpu' are a LegalizationError naming the reason.

import { describe, expect, it } from 'vitest';
import { splat, tensor, grad, backends, LegalizationError, type Tensor } from '../../src/index.js';
import { mulberry32 } from '../harness/prng.js';
import { gpuOp, gpuOpRefusal, registerGpuOp } from '../../src/backends/webgpu/registered.js';
import { status } from './splat-helpers.js';

/** Calls of each splat op's GPU runner (wrapped here), so the test knows the GPU kernels ran. */
const calls: Record<string, number> = {};
for (const name of ['splat.project', 'splat.projectBackward', 'splat.rasterize', 'splat.rasterizeBackward']) {
  const op = gpuOp(name);
  if (op === undefined) continue;
  calls[name] = 0;
  registerGpuOp(name, { ...op, run: (a) => (calls[name]!++, op.run(a)) });
}

const W = 40,
  H = 28;
const cam = splat.lookAt({ eye: [0.3, -0.2, -4], target: [0, 0, 0], fovY: 45, width: W, height: H });

function scene(n: number, seed: number, sh: boolean) {
  const r = mulberry32(seed);
  const u = (lo: number, hi: number) => lo + (hi - lo) * r();
  const t = (shape: number[], f: () => number) => tensor(Float32Array.from({ length: shape.reduce((a, b) => a * b, 1) }, f), { dtype: 'float32' }).reshape(shape);
  return {
    means: t([n, 3], () => u(-1, 1)),
    quats: t([n, 4], () => u(-1, 1)),
    scales: t([n, 3], () => Math.exp(u(Math.log(0.05), Math.log(0.4)))),
    opacities: t([n], () => u(0.2, 0.9)),
    ...(sh ? { sh: t([n, 9, 3], () => u(-0.4, 0.4)) } : { colors: t([n, 3], () => u(0, 1)) }),
  };
}
type Scene = ReturnType<typeof scene>;
const on = (g: Scene, device: string): Scene => Object.fromEntries(Object.entries(g).map(([k, v]) => [k, (v as Tensor).on(device)])) as unknown as Scene;

function close(label: string, got: Tensor, want: Tensor, rtol: number, atol: number): number {
  const g = got.toArray() as Float32Array, w = want.toArray() as Float32Array;
  expect(g.length, label).toBe(w.length);
  let worst = 0;
  for (let i = 0; i < w.length; i++) {
    const ex = Math.abs(g[i]! - w[i]!) / (atol + rtol * Math.abs(w[i]!));
    if (!(ex <= 1)) throw new Error(`${label}[${i}]: got ${g[i]}, want ${w[i]}`);
    worst = Math.max(worst, ex);
  }
  return worst;
}

describe.runIf(status.available)("splat.render on 'webgpu'", () => {
  for (const sh of [false, true])
    it(`image, alpha, depth and the gradients of every Gaussian tensor match 'js' (${sh ? 'SH degree 2, antialiased' : 'colours'})`, () => {
      const g = scene(150, sh ? 2 : 1, sh);
      const opts = { background: [0.1, 0.2, 0.3], antialiased: sh };
      const gpu = splat.render(on(g, 'webgpu'), cam, opts), js = splat.render(on(g, 'js'), cam, opts);
      expect(gpu.image.device).toBe('webgpu');
      for (const k of ['image', 'alpha', 'depth'] as const) close(k, gpu[k], js[k], 1e-4, 1e-4);
      expect((js.alpha.toArray() as Float32Array).some((a) => a > 0.5)).toBe(true); // the scene covers the image
      const keys = Object.keys(g) as (keyof Scene)[];
      // A loss touching all three outputs, with fixed random weights.
      const wImg = tensor(Float32Array.from({ length: H * W * 3 }, (_, i) => Math.sin(i)), { dtype: 'float32' }).reshape([H, W, 3]);
      const loss = (device: string) => (...xs: Tensor[]) => {
        const r = splat.render(Object.fromEntries(keys.map((k, i) => [k, xs[i]!])) as unknown as Scene, cam, opts);
        return r.image.mul(wImg.on(device)).sum().add(r.alpha.sum().mul(0.3)).add(r.depth.mean());
      };
      const args = keys.map((k) => g[k] as Tensor);
      const gg = grad(loss('webgpu'), { argnums: keys.map((_, i) => i) })(...args.map((x) => x.on('webgpu'))) as Tensor[];
      const gj = grad(loss('js'), { argnums: keys.map((_, i) => i) })(...args.map((x) => x.on('js'))) as Tensor[];
      keys.forEach((k, i) => close(`grad ${k}`, gg[i]!, gj[i]!, 2.5e-4, 2e-3));
      for (const name of Object.keys(calls)) expect(calls[name], name).toBeGreaterThan(0);
    });

  // The check: the GPU against the native C++ kernels (float32, rendered from the same Gaussians).
  it.runIf(backends().some((b) => b.name === 'native' && b.available))("image, alpha, depth and gradients match 'native' (the C++ kernels)", () => {
    const g = scene(200, 5, true);
    const opts = { background: [0.3, 0.1, 0.0], antialiased: true };
    const gpu = splat.render(on(g, 'webgpu'), cam, opts), nat = splat.render(on(g, 'native'), cam, opts);
    for (const k of ['image', 'alpha', 'depth'] as const) close(k, gpu[k], nat[k], 1e-4, 1e-4);
    const keys = Object.keys(g) as (keyof Scene)[];
    const loss = (...xs: Tensor[]) => {
      const r = splat.render(Object.fromEntries(keys.map((k, i) => [k, xs[i]!])) as unknown as Scene, cam, opts);
      return r.image.square().sum().add(r.depth.mean());
    };
    const gg = grad(loss, { argnums: keys.map((_, i) => i) })(...keys.map((k) => (g[k] as Tensor).on('webgpu'))) as Tensor[];
    const gn = grad(loss, { argnums: keys.map((_, i) => i) })(...keys.map((k) => (g[k] as Tensor).on('native'))) as Tensor[];
    keys.forEach((k, i) => close(`grad ${k}`, gg[i]!, gn[i]!, 2.5e-4, 2e-3));
  });

  it('float64 Gaussians on webgpu are a LegalizationError; the splat runners refuse float64 with the reason', () => {
    const g = scene(3, 3, false);
    const g64 = Object.fromEntries(Object.entries(g).map(([k, v]) => [k, (v as Tensor).astype('float64').on('webgpu')])) as unknown as Scene;
    expect(() => splat.render(g64, cam).image.toArray()).toThrow(LegalizationError);
    for (const name of Object.keys(calls)) expect(gpuOpRefusal(name, ['float64'], {})).toMatch(/float32 only \(WGSL has no float64 type\)/);
    expect(gpuOpRefusal('splat.rasterize', ['float32'], {})).toBeUndefined();
  });
});
