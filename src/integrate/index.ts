// rlx.integrate: fixed-step integrators of ordinary differential equations,
// each one scan node (jit-able, differentiable, vmappable).
// This file only re-exports.

export { rk4 } from './rk4.js';
export type { Rk4Result } from './rk4.js';
export { velocityVerlet, leapfrog } from './verlet.js';
export type { HamiltonianOptions, HamiltonianResult } from './verlet.js';
export { crankNicolson } from './crank-nicolson.js';
export type { CrankNicolsonResult } from './crank-nicolson.js';
export type { FixedStepOptions } from './march.js';
