// Molecular dynamics: a 2-D cluster of Lennard-Jones atoms (reduced units,
// ε = σ = m = 1) in free space,
//   V(q) = Σ_{i<j} 4 (r_ij⁻¹² − r_ij⁻⁶),  forces F = −∇V by rlx.grad,
// integrated with integrate.velocityVerlet (kick–drift–kick, one force
// evaluation per step, the whole run one scan).
//
// What is checked:
// - the forces are −∇V: against central finite differences of V in float64;
// - Newton's third law: the total momentum stays at its initial value (zero);
// - velocity Verlet is symplectic: the total energy E = ½|p|² + V(q) oscillates
//   by O(dt²) but does not drift — the mean energy of the last quarter of the
//   run equals the first quarter's to well below the oscillation, and halving
//   dt shrinks the error 4×.
//   node examples/md.mjs [--plot out.html]

import * as rlx from '../dist/index.js';
import { isMain, plotRequest } from './_script.mjs';
const { integrate } = rlx;

/** Lennard-Jones energy of positions q [N, 2]: every pair once (the i = j terms masked). */
export function ljEnergy(q) {
  const N = q.shape[0];
  const d = q.reshape([N, 1, 2]).sub(q.reshape([1, N, 2]));       // [N, N, 2] separations
  const eye = rlx.eye(N, N, { dtype: 'float64' });
  const r2 = d.square().sum(2).add(eye);                            // 1 on the diagonal: no 0/0
  const ir6 = r2.pow(-3);                                          // r⁻⁶
  const pair = ir6.square().sub(ir6).mul(4).mul(eye.neg().add(1));  // drop i = j
  return pair.sum().mul(0.5);                                       // each pair counted twice
}

/** A small deterministic generator for the initial velocities (mulberry32). */
function rng(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function run({ side = 4, dt = 0.002, steps = 5000, saveEvery = 50, temperature = 0.2, seed = 1 } = {}) {
  const N = side * side, a = 2 ** (1 / 6);                           // lattice at the pair minimum
  const q0 = new Float64Array(2 * N), p0 = new Float64Array(2 * N);
  const rand = rng(seed);
  for (let i = 0; i < N; i++) {
    q0[2 * i] = a * (i % side);
    q0[2 * i + 1] = a * Math.floor(i / side);
    p0[2 * i] = Math.sqrt(temperature) * (2 * rand() - 1) * Math.sqrt(3);
    p0[2 * i + 1] = Math.sqrt(temperature) * (2 * rand() - 1) * Math.sqrt(3);
  }
  for (const c of [0, 1]) {                                         // zero total momentum
    let s = 0;
    for (let i = 0; i < N; i++) s += p0[2 * i + c];
    for (let i = 0; i < N; i++) p0[2 * i + c] -= s / N;
  }
  const q = rlx.tensor(q0).reshape([N, 2]), p = rlx.tensor(p0).reshape([N, 2]);

  const gradV = rlx.grad(ljEnergy);
  const force = (x) => gradV(x).neg();

  // Forces vs central differences of V (float64, step 1e-6: error ~1e-9 relative).
  const F0 = force(q).toArray();
  let fdErr = 0, fMax = 0;
  const eps = 1e-6;
  for (let k = 0; k < 2 * N; k++) {
    const qp = Float64Array.from(q0), qm = Float64Array.from(q0);
    qp[k] += eps; qm[k] -= eps;
    const fd = -(ljEnergy(rlx.tensor(qp).reshape([N, 2])).item() - ljEnergy(rlx.tensor(qm).reshape([N, 2])).item()) / (2 * eps);
    fdErr = Math.max(fdErr, Math.abs(fd - F0[k]));
    fMax = Math.max(fMax, Math.abs(F0[k]));
  }

  const r = integrate.velocityVerlet(force, q, p, { dt, steps, saveEvery });
  const Q = r.q, P = r.p, m = Q.shape[0];
  const E = [];
  for (let k = 0; k < m; k++) E.push(0.5 * P.select(0, k).square().sum().item() + ljEnergy(Q.select(0, k)).item());
  const E0 = E[0];
  const dev = E.map((e) => Math.abs(e - E0) / Math.abs(E0));
  const quarter = Math.floor(m / 4);
  const maxOf = (xs) => xs.reduce((u, v) => Math.max(u, v), 0);
  const mean = (xs) => xs.reduce((u, v) => u + v, 0) / xs.length;
  // Drift: the mean energy of the last quarter against the first quarter's.
  const drift = Math.abs(mean(E.slice(m - quarter)) - mean(E.slice(0, quarter))) / Math.abs(E0);
  const momentum = r.pFinal.sum(0).abs().max().item();
  // How far the atoms went: the run is not a frozen lattice.
  const moved = r.qFinal.sub(q).square().sum(1).sqrt().max().item();
  return {
    N, dt, steps, E0, fdErr: fdErr / fMax, maxRelEnergyError: maxOf(dev),
    firstQuarter: maxOf(dev.slice(1, quarter + 1)), lastQuarter: maxOf(dev.slice(m - quarter)),
    drift, momentum, moved, kinetic0: 0.5 * p.square().sum().item(),
  };
}

if (isMain(import.meta.url)) {
  const t0 = performance.now();
  const o = run();
  console.log(`Lennard-Jones MD, velocity Verlet: ${o.N} atoms, dt = ${o.dt}, ${o.steps} steps in ${(performance.now() - t0).toFixed(0)} ms`);
  console.log(`forces −∇V (rlx.grad) vs central differences: max error ${o.fdErr.toExponential(2)} of the largest force`);
  console.log(`E0 = ${o.E0.toFixed(6)}; max |E − E0|/|E0| = ${o.maxRelEnergyError.toExponential(2)} (first quarter ${o.firstQuarter.toExponential(2)}, last quarter ${o.lastQuarter.toExponential(2)}); drift of the mean ${o.drift.toExponential(2)}`);
  console.log(`total momentum at the end ${o.momentum.toExponential(2)}; farthest atom moved ${o.moved.toFixed(3)}`);
  plotRequest();
}
