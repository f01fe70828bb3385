// Inverse problem: recover a spatially varying diffusion coefficient κ(x) from
// observations of the steady states it produces.
//
// Forward model: −(κ u')' = f_j on (0, 1), u(0) = u(1) = 0, for a few sources
// f_j. Finite volumes on n interior points, h = 1/(n+1), κ at the n+1 cell
// faces: row i of A(κ) is (−κ_i, κ_i + κ_{i+1}, −κ_{i+1})/h², assembled by
// sparse.fromTriplets from a tensor of values, so the solve is differentiable
// in κ (its gradient is one adjoint solve with the same factorization).
// Unknowns: θ, the log of κ at m coarse nodes, κ = exp(P θ) with P linear
// interpolation to the faces (positive by construction, m ≪ n: well posed).
//
// Loss: L(θ) = Σ_j ‖u_j(θ) − u_j^obs‖² / Σ_j ‖u_j^obs‖², with u^obs from the
// true κ. Gradient descent on θ (rlx.valueAndGrad through sparse.spsolve),
// stopped when the loss is 10⁻⁸ of its start.
//
// Time-dependent version (runTimeDependent): the same κ(θ) in the heat
// equation u_t = (κ u_x)_x, u = 0 at both ends, observed at a few times from a
// few initial states; the forward model is integrate.odeint (adaptive
// Dormand–Prince) and the gradient its adjoint method (a backward ODE), so
// memory does not grow with the number of steps.
//
// What is checked, for both: the loss falls by more than 10³ from the
// constant guess κ = 1, and the recovered κ is close to the truth everywhere
// (the truth lies in the model space, so it is identifiable: noise-free data,
// m ≪ n).
//   node examples/inverse-diffusion.mjs [--plot out.html]

import * as rlx from '../dist/index.js';
import { isMain, plotRequest } from './_script.mjs';
const { sparse, integrate, s, rg } = rlx;

/** P [n+1, m]: linear interpolation from m coarse nodes on [0, 1] to the n+1 cell faces. */
function interpolation(n, m) {
  const h = 1 / (n + 1);
  const P = new Float64Array((n + 1) * m);
  for (let i = 0; i <= n; i++) {
    const t = (i + 0.5) * h * (m - 1), k = Math.min(Math.floor(t), m - 2), w = t - k;
    P[i * m + k] = 1 - w;
    P[i * m + k + 1] = w;
  }
  return rlx.tensor(P).reshape([n + 1, m]);
}

/** The field to recover: log κ piecewise linear through log(1 + ½ sin 2πx) at the m nodes. */
function trueTheta(m) {
  return rlx.tensor(Float64Array.from({ length: m }, (_, k) => Math.log(1 + 0.5 * Math.sin((2 * Math.PI * k) / (m - 1)))));
}

/**
 * Gradient descent with Barzilai–Borwein steps α = sᵀs / sᵀy (s, y: the last
 * changes of θ and of the gradient), a step size fitted to the curvature; a
 * step that raises the loss is retried at half length. Stops when the loss is
 * `tol` of its start.
 */
function descend(lossAndGrad, theta, { iterations, tol }) {
  let [L, g] = lossAndGrad(theta);
  const loss0 = L.item();
  let lossNow = loss0, step = 1;
  const history = [loss0];
  for (let it = 0; it < iterations && lossNow > tol * loss0; it++) {
    const trial = theta.sub(g.mul(step)).realize();
    const [Lt, gt] = lossAndGrad(trial);
    const lt = Lt.item();
    if (!(lt < lossNow)) { step /= 2; continue; }
    const sv = trial.sub(theta), yv = gt.sub(g);
    const sy = sv.mul(yv).sum().item();
    step = sy > 0 ? sv.square().sum().item() / sy : step * 2;
    theta = trial; g = gt.realize(); lossNow = lt;
    history.push(lossNow);
  }
  return { theta, loss0, lossFinal: lossNow, reduction: loss0 / lossNow, steps: history.length - 1, history };
}

/** Max relative error of κ = exp(P θ) against the truth at every cell face. */
function fieldError(Pt, theta, thetaTrue) {
  const kappa = Pt.matmul(theta).exp().toArray();
  const kappaTrue = Pt.matmul(thetaTrue).exp().toArray();
  let err = 0;
  for (let i = 0; i < kappa.length; i++) err = Math.max(err, Math.abs(kappa[i] / kappaTrue[i] - 1));
  return err;
}

/** The steady problem: observations u_j solve −(κ u')' = f_j; the loss goes through sparse.spsolve. */
export function run({ n = 99, m = 6, sources = 4, iterations = 1000, tol = 1e-8 } = {}) {
  const h = 1 / (n + 1);
  const Pt = interpolation(n, m);
  const thetaTrue = trueTheta(m);

  // Stencil pattern: diagonal, then superdiagonal, then subdiagonal.
  const idx = (a, b) => Array.from({ length: b - a }, (_, i) => a + i);
  const rows = [...idx(0, n), ...idx(0, n - 1), ...idx(1, n)];
  const cols = [...idx(0, n), ...idx(1, n), ...idx(0, n - 1)];
  const matrix = (kappa) => {
    const left = kappa.slice(s(rg(0, n))), right = kappa.slice(s(rg(1, n + 1)));
    const off = kappa.slice(s(rg(1, n))).neg();
    return sparse.fromTriplets(rows, cols, rlx.cat([left.add(right), off, off]).mul(1 / (h * h)), [n, n]);
  };
  // Sources f_j(x) = 1.5 + cos jπx: u_j' vanishes at different places for each j,
  // so together they see κ everywhere (κ is invisible where the flux κu' is 0).
  const F = new Float64Array(n * sources);
  for (let i = 0; i < n; i++) for (let j = 0; j < sources; j++) F[i * sources + j] = Math.cos(j * Math.PI * (i + 1) * h) + 1.5;
  const B = rlx.tensor(F).reshape([n, sources]);
  const solve = (theta) => sparse.spsolve(matrix(Pt.matmul(theta).exp()), B);

  const uObs = solve(thetaTrue).realize();
  const scale = 1 / uObs.square().sum().item();
  const loss = (theta) => solve(theta).sub(uObs).square().sum().mul(scale);
  const r = descend(rlx.valueAndGrad(loss), rlx.zeros([m], { dtype: 'float64' }), { iterations, tol }); // initial guess κ = 1
  return { n, m, iterations, ...r, fieldErr: fieldError(Pt, r.theta, thetaTrue) };
}

/**
 * The time-dependent problem: u_t = (κ u_x)_x on n interior points, u = 0 at
 * both ends, from `states` initial profiles 1.5 + cos jπx, observed at `times`;
 * the loss goes through integrate.odeint and its gradient through the adjoint.
 */
export function runTimeDependent({ n = 19, m = 5, states = 3, times = [0, 0.005, 0.01, 0.02, 0.04], iterations = 300, tol = 1e-8, rtol = 1e-8, atol = 1e-10 } = {}) {
  const h = 1 / (n + 1);
  const Pt = interpolation(n, m);
  const thetaTrue = trueTheta(m);
  const U0 = new Float64Array(n * states);
  for (let i = 0; i < n; i++) for (let j = 0; j < states; j++) U0[i * states + j] = Math.cos(j * Math.PI * (i + 1) * h) + 1.5;
  const u0 = rlx.tensor(U0).reshape([n, states]);
  const wall = rlx.zeros([1, states], { dtype: 'float64' });
  // u' = (flux_{i+1/2} − flux_{i−1/2}) / h with flux = κ (u_{i+1} − u_i) / h on the faces (the walls hold u = 0).
  const rhs = (u, _t, theta) => {
    const kappa = Pt.matmul(theta).exp().reshape([n + 1, 1]);
    const ue = rlx.cat([wall, u, wall]);
    const flux = kappa.mul(ue.slice(s(rg(1, n + 2))).sub(ue.slice(s(rg(0, n + 1)))));
    return flux.slice(s(rg(1, n + 1))).sub(flux.slice(s(rg(0, n)))).mul(1 / (h * h));
  };
  const simulate = (theta) => integrate.odeint(rhs, u0, times, theta, { rtol, atol });
  const uObs = simulate(thetaTrue).realize();
  const scale = 1 / uObs.square().sum().item();
  const loss = (theta) => simulate(theta).sub(uObs).square().sum().mul(scale);
  const r = descend(rlx.valueAndGrad(loss), rlx.zeros([m], { dtype: 'float64' }), { iterations, tol });
  return { n, m, iterations, ...r, fieldErr: fieldError(Pt, r.theta, thetaTrue) };
}

if (isMain(import.meta.url)) {
  const t0 = performance.now();
  const o = run();
  console.log(`inverse diffusion: ${o.m} log-κ parameters, ${o.n}-point grid, ${o.steps} accepted gradient steps in ${(performance.now() - t0).toFixed(0)} ms`);
  console.log(`loss ${o.loss0.toExponential(3)} → ${o.lossFinal.toExponential(3)} (÷${o.reduction.toExponential(2)})`);
  console.log(`recovered κ vs the true κ: max relative error ${o.fieldErr.toExponential(2)}`);
  const t1 = performance.now();
  const d = runTimeDependent();
  console.log(`time-dependent (heat equation through integrate.odeint, adjoint gradients): ${d.m} log-κ parameters, ${d.n}-point grid, ${d.steps} accepted gradient steps in ${(performance.now() - t1).toFixed(0)} ms`);
  console.log(`loss ${d.loss0.toExponential(3)} → ${d.lossFinal.toExponential(3)} (÷${d.reduction.toExponential(2)}); recovered κ: max relative error ${d.fieldErr.toExponential(2)}`);
  plotRequest();
}
