// Wave equation u_tt = c² u_xx on [0, 1], u = 0 at both ends.
//
// Discretization: n interior points, h = 1/(n+1), u_xx ≈ −A u/h² with
// A = sparse.poisson1d(n). That is Newton's law for a chain of springs,
//   q' = p,  p' = F(q) = −(c²/h²) A q,
// a separable Hamiltonian H = ½|p|² + ½ (c²/h²) qᵀA q (times h, which cancels
// in relative terms), integrated with integrate.leapfrog (drift–kick–drift).
//
// What is checked: leapfrog is symplectic, so H is not drifting: its error
// stays bounded by O((ω dt)²) for all time (here ω ≈ 3πc, the highest mode
// present) — relative error below 1e-6 over 10⁴ steps. Second, a standing wave
// sin(πx) + ½ sin(3πx) has period 2/c, so after t = 2/c the string is back at
// u0 to the O(h², dt²) dispersion error (and at t = 1/c it is at −u0).
//   node examples/wave.mjs [--plot out.html]

import * as rlx from '../dist/index.js';
import { isMain, plotRequest } from './_script.mjs';
const { sparse, integrate } = rlx;

export function run({ n = 199, c = 1, steps = 10_000, saveEvery = 50 } = {}) {
  const h = 1 / (n + 1);
  const T = 2 / c, dt = T / steps;                     // exactly one period in `steps` steps
  const A = sparse.poisson1d(n);
  const k = (c * c) / (h * h);
  const x = Float64Array.from({ length: n }, (_, i) => (i + 1) * h);
  const u0 = rlx.tensor(x.map((xi) => Math.sin(Math.PI * xi) + 0.5 * Math.sin(3 * Math.PI * xi)));
  const p0 = rlx.zeros([n], { dtype: 'float64' });

  const force = (q) => A.matvec(q).mul(-k);
  const r = integrate.leapfrog(force, u0, p0, { dt, steps, saveEvery });

  // H at every saved state: ½ Σ p² + ½ k Σ q·(A q), rows of the saved [m, n] arrays.
  const Q = r.q, P = r.p;
  const AQ = A.matmul(Q.T).T;                          // A applied to each saved q
  const H = P.square().sum(1).mul(0.5).add(Q.mul(AQ).sum(1).mul(0.5 * k)).toArray();
  const E0 = H[0];
  let maxRel = 0;
  for (const e of H) maxRel = Math.max(maxRel, Math.abs(e - E0) / E0);
  // Half a period later both modes have flipped sign (cos π = cos 3π = −1): the string moved.
  const halfErr = Q.select(0, steps / 2 / saveEvery).add(u0).abs().max().item();
  const returnErr = r.qFinal.sub(u0).abs().max().item();
  return { n, h, dt, steps, E0, maxRelEnergyError: maxRel, finalRelEnergyError: Math.abs(H[H.length - 1] - E0) / E0, halfErr, returnErr };
}

if (isMain(import.meta.url)) {
  const t0 = performance.now();
  const o = run();
  console.log(`wave equation, leapfrog: ${o.n} points, dt = ${o.dt}, ${o.steps} steps (one period) in ${(performance.now() - t0).toFixed(0)} ms`);
  console.log(`energy H0 = ${o.E0.toPrecision(10)}; max |H − H0|/H0 over the run = ${o.maxRelEnergyError.toExponential(3)} (at the end ${o.finalRelEnergyError.toExponential(3)})`);
  console.log(`after half a period max |u + u0| = ${o.halfErr.toExponential(3)}`);
  console.log(`after one period max |u − u0| = ${o.returnErr.toExponential(3)}`);
  plotRequest();
}
