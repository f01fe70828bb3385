// Contract cases of rlx.fft and rlx.integrate. The transforms are linear, so
// finite differences are exact up to rounding; the integrators are checked on
// short, smooth problems. solveIvp is an adaptive host loop: jvp, grad and
// vmap must throw a TransformError (never a silent zero); odeint offers grad
// (the adjoint method) and refuses jvp and vmap.

import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import type { Table, InSpec } from './checks.js';

const { fft, integrate } = rlx;
const R = (...shape: number[]): InSpec => ({ shape, lo: -1, hi: 1 });
const Cx = (...shape: number[]): InSpec => ({ shape, dtype: 'complex128', lo: -1, hi: 1 });
const flat = (...ts: Tensor[]) => rlx.cat(ts.map((t) => t.flatten()), 0);

export const moduleCases: Table = {
  'fft.fft': [
    { specs: [Cx(3, 5)], f: (x) => fft.fft(x) },
    { label: 'real input, padded, ortho, axis 0', specs: [R(3, 5)], f: (x) => fft.fft(x, 4, 0, 'ortho') },
  ],
  'fft.ifft': { specs: [Cx(3, 6)], f: (x) => fft.ifft(x, 5, -1, 'forward') },
  'fft.rfft': [
    { specs: [R(2, 8)], f: (x) => fft.rfft(x) },
    { label: 'odd n', specs: [R(2, 7)], f: (x) => fft.rfft(x, undefined, -1, 'ortho') },
  ],
  'fft.irfft': [
    { specs: [Cx(2, 5)], f: (x) => fft.irfft(x) },
    { label: 'odd n', specs: [Cx(2, 5)], f: (x) => fft.irfft(x, 9) },
  ],
  'fft.fft2': { specs: [Cx(3, 4)], f: (x) => fft.fft2(x) },
  'fft.ifft2': { specs: [Cx(3, 4)], f: (x) => fft.ifft2(x, [4, 3]) },
  'fft.rfft2': { specs: [R(3, 4)], f: (x) => fft.rfft2(x) },
  'fft.irfft2': { specs: [Cx(3, 3)], f: (x) => fft.irfft2(x, [3, 4]) },
  'fft.fftn': { specs: [Cx(2, 3, 4)], f: (x) => fft.fftn(x, undefined, [0, 2]) },
  'fft.ifftn': { specs: [Cx(2, 3, 4)], f: (x) => fft.ifftn(x) },
  'fft.rfftn': { specs: [R(2, 3, 4)], f: (x) => fft.rfftn(x) },
  'fft.irfftn': { specs: [Cx(2, 3, 3)], f: (x) => fft.irfftn(x, [2, 3, 4]) },
  'fft.fftshift': { specs: [R(3, 5)], f: (x) => fft.fftshift(x) },
  'fft.ifftshift': { specs: [R(3, 5)], f: (x) => fft.ifftshift(x, 1) },
  'fft.fftfreq': { none: 'sizes' },
  'fft.rfftfreq': { none: 'sizes' },
  'fft.setPlanner': { none: 'config' },
  'fft.planner': { none: 'config' },
  'fft.exportWisdom': { none: 'config' },
  'fft.importWisdom': { none: 'config' },

  'integrate.rk4': { specs: [R(3)], f: (y0) => integrate.rk4((t, y) => y.mul(-0.5).add(y.sin().mul(0.2)).add(t.mul(0.1)), y0, { dt: 0.1, steps: 6 }).y },
  'integrate.velocityVerlet': {
    specs: [R(2), R(2)],
    f: (q0, p0) => {
      const r = integrate.velocityVerlet((q) => q.neg().sub(q.pow(3).mul(0.1)), q0, p0, { dt: 0.1, steps: 5 });
      return flat(r.q, r.p);
    },
  },
  'integrate.leapfrog': {
    specs: [R(2), R(2)],
    f: (q0, p0) => {
      const r = integrate.leapfrog((q) => q.neg(), q0, p0, { dt: 0.1, steps: 5, mass: 2 });
      return flat(r.q, r.p);
    },
  },
  'integrate.crankNicolson': {
    specs: [R(3, 3), R(3)],
    f: (a, u0) => integrate.crankNicolson(a.mul(0.3).sub(rlx.eye(3)), u0, { dt: 0.1, steps: 4 }).u,
  },
  // Reverse mode only (the adjoint method); jvp and vmap refuse with typed errors.
  'integrate.odeint': { specs: [R(2)], f: (y0) => integrate.odeint((y: Tensor) => y.mul(-0.5).add(y.sin().mul(0.1)), y0, [0, 0.5, 1]), ad: 'throws', grad: 'fd', vmap: 'throws' },
  'integrate.solveIvp': [
    { specs: [R(2)], f: (y0) => integrate.solveIvp((_t, y) => y.mul(-0.5), [0, 1], y0).y, ad: 'throws', vmap: 'throws' },
    { label: 'Radau', specs: [R(2)], f: (y0) => integrate.solveIvp((_t, y) => y.mul(-0.5), [0, 1], y0, { method: 'Radau' }).y, ad: 'throws', vmap: 'throws' },
    { label: 'BDF', specs: [R(2)], f: (y0) => integrate.solveIvp((_t, y) => y.mul(-0.5), [0, 1], y0, { method: 'BDF' }).y, ad: 'throws', vmap: 'throws' },
  ],
};
