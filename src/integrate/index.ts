// rlx.integrate: integrators of ordinary differential equations: fixed-step ones,
// each one scan node (jit-able, differentiable, vmappable), and solveIvp (adaptive).
// This file only re-exports.

export { rk4 } from './rk4.js';
export type { Rk4Result } from './rk4.js';
export { velocityVerlet, leapfrog } from './verlet.js';
export type { HamiltonianOptions, HamiltonianResult } from './verlet.js';
export { crankNicolson } from './crank-nicolson.js';
export type { CrankNicolsonResult } from './crank-nicolson.js';
export type { FixedStepOptions } from './march.js';
export { solveIvp } from './solve-ivp.js';
export type { SolveIvpOptions, SolveIvpResult, DenseSolution, EventFunction, IvpMethod } from './solve-ivp.js';
export { odeint } from './odeint.js';
export type { OdeintOptions, OdeFn, OdeintStats } from './odeint.js';
