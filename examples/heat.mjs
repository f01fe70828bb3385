// Heat equation u_t = Δu on the unit square, u = 0 on the boundary.
//
// Discretization: the 5-point Laplacian on an n×n interior grid, h = 1/(n+1),
// Δ ≈ −A/h² with A = sparse.poisson2d(n); implicit Euler in time,
//   (I + dt/h²·A) u_{k+1} = u_k,
// with the SPD matrix on the left factored once by CHOLMOD (sparse.cholesky).
//
// What is checked: after the fast modes have died, u is the slowest mode
// sin(πx)sin(πy) times a decaying factor r per step. Implicit Euler multiplies
// a mode of eigenvalue λ by r = 1/(1 + dt·λ), so λ = (1/r − 1)/dt recovers
// the eigenvalue from the measured decay. It must equal the discrete eigenvalue
// λ_h = 8 sin²(πh/2)/h² to rounding and the analytic one, 2π², to the O(h²)
// discretization error (λ_h = 2π²(1 − π²h²/12 + ...)).
//   node examples/heat.mjs [--plot out.html]

import * as rlx from '../dist/index.js';
import { isMain, plotRequest } from './_script.mjs';
const { sparse } = rlx;

export function run({ n = 31, dt = 0.01, steps = 150 } = {}) {
  const h = 1 / (n + 1);
  const A = sparse.poisson2d(n);
  const M = sparse.add(sparse.eye(n * n), sparse.scale(A, dt / (h * h)));
  const F = sparse.cholesky(M);

  // Any initial state with a component along the slowest mode; (1 + x) breaks
  // the x↔y symmetry so other modes are present too and must decay away.
  const u0 = new Float64Array(n * n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
    const x = (i + 1) * h, y = (j + 1) * h;
    u0[i * n + j] = x * (1 - x) * y * (1 - y) * (1 + x);
  }
  let u = rlx.tensor(u0), prev = u;
  for (let k = 0; k < steps; k++) {
    prev = u;
    u = F.solve(u).realize();
  }
  // Decay factor of the last step as a Rayleigh quotient <u_{k+1}, u_k>/<u_k, u_k>.
  const r = u.mul(prev).sum().item() / prev.square().sum().item();
  const method = F.method;
  F.dispose();
  const lambdaMeasured = (1 / r - 1) / dt;
  const lambdaDiscrete = 8 * Math.sin(Math.PI * h / 2) ** 2 / (h * h);
  const lambdaExact = 2 * Math.PI ** 2;
  return { n, h, dt, steps, method, r, lambdaMeasured, lambdaDiscrete, lambdaExact };
}

if (isMain(import.meta.url)) {
  const t0 = performance.now();
  const o = run();
  console.log(`heat equation, implicit Euler (factor: ${o.method}): ${o.n}×${o.n} grid, dt = ${o.dt}, ${o.steps} steps in ${(performance.now() - t0).toFixed(0)} ms`);
  console.log(`decay factor per step r = ${o.r.toPrecision(12)}`);
  console.log(`slowest eigenvalue from the decay (1/r − 1)/dt = ${o.lambdaMeasured.toPrecision(12)}`);
  console.log(`  discrete 8 sin²(πh/2)/h² = ${o.lambdaDiscrete.toPrecision(12)}  (rel. diff ${Math.abs(o.lambdaMeasured / o.lambdaDiscrete - 1).toExponential(2)})`);
  console.log(`  analytic 2π²             = ${o.lambdaExact.toPrecision(12)}  (rel. diff ${Math.abs(o.lambdaMeasured / o.lambdaExact - 1).toExponential(2)}, O(h²) = π²h²/12 = ${(Math.PI ** 2 * o.h ** 2 / 12).toExponential(2)})`);
  plotRequest();
}
