// Time-dependent Schrödinger equation in a harmonic well (ħ = m = 1):
//   i ψ_t = H ψ,  H = −½ ∂²/∂x² + ½ ω² x²,  on [−L, L] with ψ = 0 at ±L.
//
// Discretization: n interior points, h = 2L/(n+1), −∂² ≈ A/h² with
// A = sparse.poisson1d(n), so ψ' = −iH ψ with a complex sparse matrix −iH.
// integrate.crankNicolson factors I + (i dt/2) H once (complex sparse LU,
// UMFPACK) and steps (I + i dt/2 H) ψ_{k+1} = (I − i dt/2 H) ψ_k.
//
// What is checked:
// - The Cayley transform of a Hermitian H is unitary, so ‖ψ‖ is conserved to
//   rounding (1e-10 relative over the whole run), whatever dt.
// - A coherent state, the ground-state Gaussian displaced to x0, oscillates
//   like the classical particle: ⟨x⟩(t) = x0 cos ωt, keeping its shape; after
//   one period T = 2π/ω it is back where it started (ψ(T) = −ψ0: the phase
//   e^{−iωT/2}), so |⟨ψ0|ψ(T)⟩| ≈ 1, and at T/2 it sits at −x0.
//   node examples/schrodinger.mjs [--plot out.html]

import * as rlx from '../dist/index.js';
import { isMain, plotRequest } from './_script.mjs';
const { sparse, integrate } = rlx;

export function run({ n = 1000, L = 10, omega = 1, x0 = 2, steps = 2000, saveEvery = 100 } = {}) {
  const h = (2 * L) / (n + 1);
  const x = Float64Array.from({ length: n }, (_, i) => -L + (i + 1) * h);
  const V = x.map((xi) => 0.5 * omega * omega * xi * xi);
  const H = sparse.add(sparse.scale(sparse.poisson1d(n), 0.5 / (h * h)), sparse.diags(V));
  const A = sparse.scale(H, [0, -1]);                  // −iH: complex128, anti-Hermitian
  const T = (2 * Math.PI) / omega, dt = T / steps;

  const g = x.map((xi) => (omega / Math.PI) ** 0.25 * Math.exp((-omega * (xi - x0) ** 2) / 2));
  const psi0 = rlx.complex(rlx.tensor(g), rlx.zeros([n], { dtype: 'float64' }));
  const { u } = integrate.crankNicolson(A, psi0, { dt, steps, saveEvery });

  // Per saved state: the norm ∫|ψ|² and ⟨x⟩ = ∫ x |ψ|².
  const rho = u.abs().square();                        // [m, n]
  const norms = rho.sum(1).mul(h).toArray();
  const meanX = rho.mul(rlx.tensor(x)).sum(1).mul(h).toArray();
  let maxNormErr = 0;
  for (const v of norms) maxNormErr = Math.max(maxNormErr, Math.abs(v / norms[0] - 1));
  const m = norms.length - 1;
  const psiT = u.select(0, m);
  const overlap = psiT.mul(rlx.tensor(g)).sum().mul(h).abs().item(); // |⟨ψ0|ψ(T)⟩| (ψ0 real)
  const ok = psiT.sub(psi0.neg()).abs().max().item();                  // ψ(T) vs −ψ0
  // ⟨x⟩ against the classical x0 cos ωt at every saved time.
  let maxMeanXErr = 0;
  for (let k = 0; k <= m; k++) maxMeanXErr = Math.max(maxMeanXErr, Math.abs(meanX[k] - x0 * Math.cos(omega * k * saveEvery * dt)));
  return { n, h, dt, steps, norm0: norms[0], maxNormErr, overlap, maxPsiErr: ok, meanXHalf: meanX[m / 2], meanXEnd: meanX[m], maxMeanXErr };
}

if (isMain(import.meta.url)) {
  const t0 = performance.now();
  const o = run();
  console.log(`Schrödinger, Crank–Nicolson (complex sparse LU): ${o.n} points, ${o.steps} steps over one period in ${(performance.now() - t0).toFixed(0)} ms`);
  console.log(`norm ${o.norm0.toPrecision(12)}, max relative change ${o.maxNormErr.toExponential(2)}`);
  console.log(`⟨x⟩ at T/2 = ${o.meanXHalf.toFixed(6)}, at T = ${o.meanXEnd.toFixed(6)} (classical: −2, 2); max |⟨x⟩ − x0 cos ωt| = ${o.maxMeanXErr.toExponential(2)}`);
  console.log(`|⟨ψ0|ψ(T)⟩| = ${o.overlap.toFixed(8)}, max |ψ(T) + ψ0| = ${o.maxPsiErr.toExponential(2)}`);
  plotRequest();
}
