// Transforms suite: forward vs forward+backward (reverse mode) of a 3-layer MLP
// and of a 1,000-step scan of a 2D particle system, side by side with PyTorch.
// The backward/forward ratio of each is in the notes (goal <= 3).

import { ramp } from '../lib/inputs.mjs';

const B = 256, D = [784, 512, 512, 10];
const NP = 64, STEPS = 1000, DT = 0.01;

function mlp(rlx) {
  const f32 = (n, k, shape, scale = 1) => rlx.tensor(Float32Array.from(ramp(n, k), (v) => v * scale), { shape });
  const params = {
    w1: f32(D[0] * D[1], 3, [D[0], D[1]], 0.1), b1: f32(D[1], 5, [D[1]]),
    w2: f32(D[1] * D[2], 7, [D[1], D[2]], 0.1), b2: f32(D[2], 11, [D[2]]),
    w3: f32(D[2] * D[3], 13, [D[2], D[3]], 0.1), b3: f32(D[3], 17, [D[3]]),
  };
  const x = f32(B * D[0], 1, [B, D[0]]);
  const forward = (p, xs) => xs.matmul(p.w1).add(p.b1).relu().matmul(p.w2).add(p.b2).relu().matmul(p.w3).add(p.b3);
  const loss = (p, xs) => forward(p, xs).square().mean();
  return { params, x, forward, loss };
}

function particles(rlx) {
  const x0 = rlx.tensor(ramp(NP * 2, 3), { shape: [NP, 2] });
  const v0 = rlx.tensor(ramp(NP * 2, 7), { shape: [NP, 2] });
  // Springs to the origin, a weak pairwise-free drag, semi-implicit Euler.
  const sim = (x, v) => {
    const [[xf]] = rlx.scan(([xx, vv]) => {
      const vn = vv.sub(xx.mul(DT)).sub(vv.mul(0.1 * DT));
      return [[xx.add(vn.mul(DT)), vn], null];
    }, [x, v], null, { length: STEPS });
    return xf.square().sum();
  };
  return { x0, v0, sim };
}

const mlpTiming = { warmup: 2, reps: 7, inner: 1, runs: 3 };
const scanTiming = { warmup: 2, reps: 7, inner: 1, runs: 3 };

export default {
  name: 'transforms',
  description: 'Reverse mode vs forward: MLP 784-512-512-10 (batch 256, float32) and a 1,000-step 2D particle scan; rlx jit-compiled, PyTorch eager autograd.',
  derived: [
    { id: 'MLP backward/forward', num: 'mlp-forward-backward', den: 'mlp-forward', goal: '<= 3' },
    { id: 'scan backward/forward', num: 'scan-forward-backward', den: 'scan-forward', goal: '<= 3' },
  ],
  rows: [
    {
      id: 'mlp-forward',
      description: 'MLP forward + squared-mean loss, batch 256, float32 (jit)',
      timing: mlpTiming,
      rlx: (rlx) => {
        const { params, x, loss } = mlp(rlx);
        const f = rlx.jit(loss);
        return () => f(params, x).realize().node.data;
      },
      peers: { torch: { script: 'transforms.py', case: 'mlp_forward', args: { B, D } } },
    },
    {
      id: 'mlp-forward-backward',
      description: 'valueAndGrad of the same loss w.r.t. all 6 parameters (jit)',
      timing: mlpTiming,
      rlx: (rlx) => {
        const { params, x, loss } = mlp(rlx);
        const f = rlx.jit(rlx.valueAndGrad(loss));
        return () => {
          const [v, g] = f(params, x);
          g.w1.realize();
          return v.realize().node.data;
        };
      },
      peers: { torch: { script: 'transforms.py', case: 'mlp_backward', args: { B, D } } },
    },
    {
      id: 'scan-forward',
      description: `${STEPS}-step scan of ${NP} particles in 2D (float64), loss = sum |x_T|^2 (jit)`,
      timing: scanTiming,
      rlx: (rlx) => {
        const { x0, v0, sim } = particles(rlx);
        const f = rlx.jit(sim);
        return () => f(x0, v0).realize().node.data;
      },
      peers: { torch: { script: 'transforms.py', case: 'scan_forward', args: { NP, STEPS, DT } } },
    },
    {
      id: 'scan-forward-backward',
      description: 'valueAndGrad of the same w.r.t. initial positions and velocities (jit)',
      timing: scanTiming,
      rlx: (rlx) => {
        const { x0, v0, sim } = particles(rlx);
        const f = rlx.jit(rlx.valueAndGrad(sim, { argnums: [0, 1] }));
        return () => {
          const [v, g] = f(x0, v0);
          g[1].realize();
          return v.realize().node.data;
        };
      },
      peers: { torch: { script: 'transforms.py', case: 'scan_backward', args: { NP, STEPS, DT } } },
    },
  ],
};
