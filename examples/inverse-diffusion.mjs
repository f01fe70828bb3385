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
// What is checked: the loss falls by more than 10³ from the constant guess
// κ = 1, and the recovered κ is close to the truth everywhere (the truth lies
// in the model space, so it is identifiable: noise-free data, m ≪ n).
//   node examples/inverse-diffusion.mjs [--plot out.html]

import * as rlx from '../dist/index.js';
import { isMain, plotRequest } from './_script.mjs';
const { sparse, s, rg } = rlx;

export function run({ n = 99, m = 6, sources = 4, iterations = 1000, tol = 1e-8 } = {}) {
  const h = 1 / (n + 1);
  const xFace = Float64Array.from({ length: n + 1 }, (_, i) => (i + 0.5) * h);
  const xNode = Float64Array.from({ length: m }, (_, k) => k / (m - 1));
  // P [n+1, m]: linear interpolation from the coarse nodes to the faces.
  const P = new Float64Array((n + 1) * m);
  for (let i = 0; i <= n; i++) {
    const t = xFace[i] * (m - 1), k = Math.min(Math.floor(t), m - 2), w = t - k;
    P[i * m + k] = 1 - w;
    P[i * m + k + 1] = w;
  }
  const Pt = rlx.tensor(P).reshape([n + 1, m]);
  // The field to recover: log κ piecewise linear through log(1 + ½ sin 2πx) at the nodes.
  const truth = (x) => 1 + 0.5 * Math.sin(2 * Math.PI * x);
  const thetaTrue = rlx.tensor(xNode.map((x) => Math.log(truth(x))));

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
  const lossAndGrad = rlx.valueAndGrad(loss);

  // Gradient descent with Barzilai–Borwein steps α = sᵀs / sᵀy (s, y: the last
  // changes of θ and of the gradient), a step size fitted to the curvature; a
  // step that raises the loss is retried at half length.
  let theta = rlx.zeros([m], { dtype: 'float64' });          // initial guess κ = 1
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
  const kappa = Pt.matmul(theta).exp().toArray();
  const kappaTrue = Pt.matmul(thetaTrue).exp().toArray();      // truth(x) at the nodes, interpolated
  let fieldErr = 0;
  for (let i = 0; i <= n; i++) fieldErr = Math.max(fieldErr, Math.abs(kappa[i] / kappaTrue[i] - 1));
  return { n, m, iterations, loss0, lossFinal: lossNow, reduction: loss0 / lossNow, fieldErr, steps: history.length - 1, history };
}

if (isMain(import.meta.url)) {
  const t0 = performance.now();
  const o = run();
  console.log(`inverse diffusion: ${o.m} log-κ parameters, ${o.n}-point grid, ${o.steps} accepted gradient steps in ${(performance.now() - t0).toFixed(0)} ms`);
  console.log(`loss ${o.loss0.toExponential(3)} → ${o.lossFinal.toExponential(3)} (÷${o.reduction.toExponential(2)})`);
  console.log(`recovered κ vs the true κ: max relative error ${o.fieldErr.toExponential(2)}`);
  plotRequest();
}
