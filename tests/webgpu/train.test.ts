// Training on 'webgpu': issue 18's jitted step (forward, backward, Adam update
// as one graph) with the default device set to webgpu, against the same
// steps on 'js' from the same initialisation. Both are float32; they differ
// by WGSL's transcendental accuracy and summation order, so losses and
// parameters agree to a relative 1e-4 over 10 steps, not bit for bit.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { jit, nn, optim, random, valueAndGrad, type Tensor } from '../../src/index.js';
import { webgpuStatus } from '../../src/backends/webgpu/device.js';

const status = webgpuStatus();

/** Losses and final first-layer weights of `steps` Adam steps on `device` (unpinned tensors run on the default device). */
function train(device: string, steps: number): { losses: number[]; weight: Float32Array; ranOn: string | undefined } {
  rlx.setDefaultDevice(device);
  try {
    const model = nn.Sequential(nn.Linear(20, 32, { key: random.key(1) }), nn.ReLU(), nn.Linear(32, 5, { key: random.key(2) }));
    const opt = optim.adam({ lr: 1e-2 });
    let state = opt.init(model);
    const x = random.normal(random.key(3), [16, 20], { dtype: 'float32' });
    const y = random.randint(random.key(4), [16], 0, 5);
    const step = jit((m: typeof model, s: typeof state, xb: Tensor, yb: Tensor) => {
      const [loss, g] = valueAndGrad((mm: typeof model) => nn.functional.crossEntropy(mm.forward(xb), yb))(m);
      const r = opt.step(m, g, s);
      return [loss, r.params, r.state] as const;
    });
    let m = model;
    const losses: number[] = [];
    let ranOn: string | undefined;
    for (let i = 0; i < steps; i++) {
      const [l, p, s] = step(m, state, x, y);
      ranOn ??= l.node.dev?.device ?? 'host'; // where the step's outputs live
      m = p;
      state = s;
      losses.push(l.item() as number);
    }
    const first = m.stateDict()['0.weight']!;
    return { losses, weight: first.toArray() as Float32Array, ranOn };
  } finally {
    rlx.setDefaultDevice(undefined);
  }
}

describe.runIf(status.available)("training on 'webgpu'", () => {
  it('a jitted MLP + Adam step matches the same steps on js (float32)', () => {
    const gpu = train('webgpu', 10);
    const cpu = train('js', 10);
    expect(gpu.ranOn).toBe('webgpu'); // the jitted step ran on the GPU (its outputs are GPU buffers)
    expect(cpu.ranOn).toBe('host');
    expect(gpu.losses[9]!).toBeLessThan(gpu.losses[0]! * 0.8); // it trains
    gpu.losses.forEach((l, i) => expect(Math.abs(l - cpu.losses[i]!)).toBeLessThanOrEqual(1e-4 * Math.abs(cpu.losses[i]!)));
    let worst = 0;
    gpu.weight.forEach((w, i) => (worst = Math.max(worst, Math.abs(w - cpu.weight[i]!))));
    expect(worst).toBeLessThan(1e-4);
  });
});
