// One moderate size (n = 48) per kernel in float64 and complex128: iteration
// counts, deflation and tolerances at sizes the small fast-check cases never
// reach. Same identities, naive expected sides.

import { describe, expect, it } from 'vitest';
import type { LinalgDType } from '../../../src/linalg/kernels/contract.js';
import { jsLinalgKernels as K } from '../../../src/linalg/kernels/js/index.js';
import { adj, fromStorage, hermitian, isCplx, maxAbs, mul, mulberry32, newStore, orthErr, randM, scaleCols, sub, toStorage, zerosM } from './helpers.js';

const n = 48;
// Backward-stable O(n^3) algorithms: residuals ~ n eps ‖a‖ ≈ 1e-14 here; 1e-10 is far from any bug.
const TOL = 1e-10;

describe.each(['float64', 'complex128'] as LinalgDType[])('%s n=48', (dtype) => {
  const cp = isCplx(dtype);
  const rnd = mulberry32(4242);

  it('eigh', () => {
    const h = hermitian(n, cp, rnd);
    const w = new Float64Array(n),
      v = newStore(dtype, n * n);
    expect(K.eigh(dtype, 1, n, toStorage(dtype, [h]), w, v, true)[0]).toBe(0);
    const vm = fromStorage(cp, v, 0, n, n);
    expect(orthErr(vm)).toBeLessThan(TOL);
    expect(maxAbs(sub(mul(h, vm), scaleCols(vm, w)))).toBeLessThan(TOL);
  });

  it('svd (tall 60x48, full)', () => {
    const a = randM(60, n, cp, rnd);
    const s = new Float64Array(n),
      u = newStore(dtype, 60 * 60),
      vh = newStore(dtype, n * n);
    expect(K.svd(dtype, 1, 60, n, toStorage(dtype, [a]), s, u, vh, true)[0]).toBe(0);
    const um = fromStorage(cp, u, 0, 60, 60),
      vm = fromStorage(cp, vh, 0, n, n);
    expect(orthErr(um)).toBeLessThan(TOL);
    expect(orthErr(adj(vm))).toBeLessThan(TOL);
    const us = zerosM(60, n);
    for (let i = 0; i < 60; i++)
      for (let j = 0; j < n; j++) {
        us.re[i * n + j] = um.re[i * 60 + j]! * s[j]!;
        us.im[i * n + j] = um.im[i * 60 + j]! * s[j]!;
      }
    expect(maxAbs(sub(mul(us, vm), a))).toBeLessThan(TOL);
  });

  it('eig', () => {
    const a = randM(n, n, cp, rnd);
    const w = new Float64Array(2 * n),
      v = new Float64Array(2 * n * n);
    expect(K.eig(dtype, 1, n, toStorage(dtype, [a]), w, v)[0]).toBe(0);
    const vm = fromStorage(true, v, 0, n, n),
      wd = fromStorage(true, w, 0, 1, n);
    const vw = zerosM(n, n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        const xr = vm.re[i * n + j]!,
          xi = vm.im[i * n + j]!;
        vw.re[i * n + j] = xr * wd.re[j]! - xi * wd.im[j]!;
        vw.im[i * n + j] = xr * wd.im[j]! + xi * wd.re[j]!;
      }
    expect(maxAbs(sub(mul(a, vm), vw))).toBeLessThan(TOL);
  });

  it('solve and qr', () => {
    const a = randM(n, n, cp, rnd),
      b = randM(n, 3, cp, rnd);
    const x = newStore(dtype, n * 3);
    expect(K.solve(dtype, 1, n, 3, toStorage(dtype, [a]), toStorage(dtype, [b]), x)[0]).toBe(0);
    const xm = fromStorage(cp, x, 0, n, 3);
    expect(maxAbs(sub(mul(a, xm), b)) / (1 + maxAbs(xm))).toBeLessThan(TOL);
    const q = newStore(dtype, n * n),
      r = newStore(dtype, n * n);
    K.qr(dtype, 1, n, n, toStorage(dtype, [a]), q, r, false);
    const qm = fromStorage(cp, q, 0, n, n);
    expect(orthErr(qm)).toBeLessThan(TOL);
    expect(maxAbs(sub(mul(qm, fromStorage(cp, r, 0, n, n)), a))).toBeLessThan(TOL);
  });
});
