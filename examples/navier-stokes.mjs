// 2-D incompressible Navier–Stokes on the periodic square [0, 2π)², in
// vorticity form:
//   ω_t + u·∇ω = ν Δω,   u = (ψ_y, −ψ_x),   −Δψ = ω.
//
// Discretization: pseudo-spectral. ω̂ = rfft2(ω); derivatives are products
// with i·k; ψ̂ = ω̂/|k|²; the product u·∇ω is formed on the grid and its
// spectrum cut by the 2/3 rule (no aliasing: the truncated system is a
// Galerkin one). Time: classical RK4 (integrate.rk4, the run one scan node
// whose body holds the FFTs).
//
// What is checked:
// - Taylor–Green: ω = 2k cos kx cos ky has u·∇ω = 0 exactly, so it only
//   decays, ω(t) = ω(0) e^{−2νk²t}: the measured rate must be 2νk².
// - Inviscid (ν = 0) flow from a band-limited random-phase field: the
//   truncated Euler equations conserve the energy ½⟨|u|²⟩ and the enstrophy
//   ½⟨ω²⟩ exactly in space, so both drift only by RK4's error — while the
//   field itself changes by O(1) (the nonlinear term is doing real work).
//   node examples/navier-stokes.mjs [--plot out.html]

import * as rlx from '../dist/index.js';
import { isMain, plotRequest } from './_script.mjs';
const { fft, integrate } = rlx;

/** Spectral operators on an N×N grid of [0, 2π)²; rfft2 halves the last axis (y). */
export function spectral(N) {
  const kx = fft.fftfreq(N, 1 / N).reshape([N, 1]);         // integer wavenumbers along x (axis 0)
  const ky = fft.rfftfreq(N, 1 / N).reshape([1, N / 2 + 1]);
  const k2 = kx.square().add(ky.square());
  const invK2 = rlx.where(k2.gt(0), k2.pow(-1), 0);           // 1/|k|², 0 for the mean (k = 0)
  const zero = rlx.zeros([1, 1], { dtype: 'float64' });
  const ikx = rlx.complex(zero, kx), iky = rlx.complex(zero, ky);
  const cut = (2 / 3) * (N / 2);                            // 2/3 rule
  const mask = rlx.where(kx.abs().lt(cut).logicalAnd(ky.abs().lt(cut)), 1, 0);
  const toGrid = (h) => fft.irfft2(h, [N, N]);
  // Realized once: a lazy constant captured by the RK4 scan body would be recomputed at every step.
  const [rk2, rinvK2, rikx, riky, rmask] = [k2, invK2, ikx, iky, mask].map((t) => t.realize());
  return { kx, ky, k2: rk2, invK2: rinvK2, ikx: rikx, iky: riky, mask: rmask, toGrid };
}

/** dω/dt for viscosity ν, on the grid. */
export function vorticityRhs(N, nu) {
  const S = spectral(N);
  return (_t, w) => {
    const wh = fft.rfft2(w);
    const psi = wh.mul(S.invK2);
    const u = S.toGrid(psi.mul(S.iky)), v = S.toGrid(psi.mul(S.ikx).neg());
    const wx = S.toGrid(wh.mul(S.ikx)), wy = S.toGrid(wh.mul(S.iky));
    const adv = fft.rfft2(u.mul(wx).add(v.mul(wy))).mul(S.mask);
    return S.toGrid(adv.neg().sub(wh.mul(S.k2).mul(nu)));
  };
}

/** Energy ½⟨|u|²⟩ and enstrophy ½⟨ω²⟩ (grid means) of ω [N, N]. */
export function invariants(N, w) {
  const S = spectral(N);
  const psi = fft.rfft2(w).mul(S.invK2);
  const u = S.toGrid(psi.mul(S.iky)), v = S.toGrid(psi.mul(S.ikx));
  return { energy: u.square().add(v.square()).mean().item() / 2, enstrophy: w.square().mean().item() / 2 };
}

const grid = (N, f) => {
  const a = new Float64Array(N * N);
  for (let i = 0; i < N; i++) for (let j = 0; j < N; j++) a[i * N + j] = f((2 * Math.PI * i) / N, (2 * Math.PI * j) / N);
  return rlx.tensor(a).reshape([N, N]);
};

export function taylorGreen({ N = 32, k = 2, nu = 0.05, T = 1, steps = 200 } = {}) {
  const w0 = grid(N, (x, y) => 2 * k * Math.cos(k * x) * Math.cos(k * y));
  const r = integrate.rk4(vorticityRhs(N, nu), w0, { dt: T / steps, steps, saveEvery: steps });
  const amp0 = w0.abs().max().item(), amp = r.yFinal.abs().max().item();
  const rate = -Math.log(amp / amp0) / T;
  const shapeErr = r.yFinal.sub(w0.mul(amp / amp0)).abs().max().item() / amp; // still the same pattern
  return { N, k, nu, T, rate, exactRate: 2 * nu * k * k, shapeErr };
}

export function inviscid({ N = 32, T = 2, steps = 400, seed = 3 } = {}) {
  // Random phases on the modes 1 ≤ |k| ≤ 4 (well inside the 2/3 cut), amplitude ~ 1/|k|.
  let s = seed;
  const rand = () => ((s = (s * 16807) % 2147483647) / 2147483647);
  const modes = [];
  for (let a = -4; a <= 4; a++) for (let b = 0; b <= 4; b++) {
    const kk = Math.hypot(a, b);
    if (kk >= 1 && kk <= 4) modes.push([a, b, 1 / kk, 2 * Math.PI * rand()]);
  }
  const w0 = grid(N, (x, y) => modes.reduce((acc, [a, b, c, ph]) => acc + c * Math.cos(a * x + b * y + ph), 0));
  const r = integrate.rk4(vorticityRhs(N, 0), w0, { dt: T / steps, steps, saveEvery: steps });
  const i0 = invariants(N, w0), i1 = invariants(N, r.yFinal);
  const change = r.yFinal.sub(w0).abs().max().item() / w0.abs().max().item();
  return {
    N, T, energy0: i0.energy, enstrophy0: i0.enstrophy,
    energyErr: Math.abs(i1.energy / i0.energy - 1), enstrophyErr: Math.abs(i1.enstrophy / i0.enstrophy - 1), change,
  };
}

export function run(opts = {}) {
  return { taylorGreen: taylorGreen(opts.taylorGreen), inviscid: inviscid(opts.inviscid) };
}

if (isMain(import.meta.url)) {
  const t0 = performance.now();
  const { taylorGreen: tg, inviscid: iv } = run();
  console.log(`2-D Navier–Stokes, pseudo-spectral + RK4 on ${tg.N}² (${(performance.now() - t0).toFixed(0)} ms)`);
  console.log(`Taylor–Green k = ${tg.k}, ν = ${tg.nu}: decay rate ${tg.rate.toPrecision(12)} vs 2νk² = ${tg.exactRate} (rel. diff ${Math.abs(tg.rate / tg.exactRate - 1).toExponential(2)}); shape kept to ${tg.shapeErr.toExponential(2)}`);
  console.log(`inviscid, t = ${iv.T}: field changed by ${iv.change.toFixed(3)} of its max; energy drift ${iv.energyErr.toExponential(2)}, enstrophy drift ${iv.enstrophyErr.toExponential(2)}`);
  plotRequest();
}
