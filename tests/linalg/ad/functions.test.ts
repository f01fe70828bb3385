// Derivatives of the matrix functions and norms, which are compositions of
// tensor ops and linalg ops: expm (with and without squarings), norm (fro,
// nuc, 2, 1, inf, -2, -1, -inf, vector 2/1/inf/3), matrixPower (positive,
// negative, zero), kron and trace, on float64 and complex128.
// JVP vs central finite differences, VJP vs JVP by the dot-product identity
// (tolerances: helpers.ts and ad-harness.ts).
//
// The non-smooth norms (1, inf: a max over sums of |x|; 2: the largest
// singular value) are differentiable at inputs without ties and without zero
// entries; random inputs have neither (ties have probability zero, and the
// margins are far larger than h = 1e-6 with overwhelming probability).

import { describe, it } from 'vitest';
import type { Tensor } from '../../../src/index.js';
import type { NormOrder } from '../../../src/linalg/index.js';
import { DEVICES } from '../../harness/devices.js';
import { L, checkLinalgCase, input, isCx, randMat, wellConditioned, type DT, type LCase } from './helpers.js';

const DTS: DT[] = ['float64', 'complex128'];

function cases(dt: DT): LCase[] {
  const cx = isCx(dt);
  const one = (m: number, n: number, f: (a: Tensor) => Tensor, scale = 1) => (r: () => number) => ({ ins: [input(randMat(m, n, cx, r, scale), dt)], f: (a: Tensor) => f(a) });
  const out: LCase[] = [
    // ‖a‖₁ <= 4 · 1 < θ13 = 5.37: no squaring
    { name: `expm, small norm (no squaring) (${dt})`, dt, build: one(4, 4, (a) => L.expm(a)) },
    // ‖a‖₁ up to 4 · 4 = 16: one or two squarings (the count is locally constant at a random input)
    { name: `expm, larger norm (with squarings) (${dt})`, dt, build: one(4, 4, (a) => L.expm(a), 4), fd: { rtol: 1e-6, atolScale: 1e-7 } },
    { name: `expm, batched [3, n, n] (${dt})`, dt, build: (r) => ({ ins: [input([0, 1, 2].map(() => randMat(3, 3, cx, r)), dt)], f: (a) => L.expm(a!) }) },
    { name: `matrixPower 3 (${dt})`, dt, build: one(3, 3, (a) => L.matrixPower(a, 3)) },
    { name: `matrixPower 6 (${dt})`, dt, build: one(3, 3, (a) => L.matrixPower(a, 6)) },
    { name: `matrixPower -2 (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(3, 3, cx, r), dt)], f: (a) => L.matrixPower(a!, -2) }) },
    { name: `matrixPower 1 (${dt})`, dt, build: one(3, 3, (a) => L.matrixPower(a, 1)) },
    { name: `matrixPower 0 (constant: zero derivative) (${dt})`, dt, build: one(3, 3, (a) => L.matrixPower(a, 0).add(a)) },
    { name: `kron of matrices (${dt})`, dt, build: (r) => ({ ins: [input(randMat(2, 3, cx, r), dt), input(randMat(2, 2, cx, r), dt)], f: (a, b) => L.kron(a!, b!) }) },
    { name: `kron with itself (${dt})`, dt, build: one(2, 2, (a) => L.kron(a, a)) },
    { name: `trace (${dt})`, dt, build: one(3, 4, (a) => L.trace(a)) },
    { name: `trace offset 1 and -1 (${dt})`, dt, build: one(4, 4, (a) => L.trace(a, { offset: 1 }).mul(L.trace(a, { offset: -1 }))) },
    { name: `trace, batched (${dt})`, dt, build: (r) => ({ ins: [input([0, 1, 2].map(() => randMat(3, 3, cx, r)), dt)], f: (a) => L.trace(a!) }) },
  ];
  const mats: NormOrder[] = [null, 'fro', 'nuc', 2, -2, 1, -1, Infinity, -Infinity];
  for (const ord of mats)
    for (const [m, n] of [[4, 3], [3, 4]] as const)
      out.push({
        name: `matrix norm ord=${String(ord)}, ${m}x${n} (${dt})`,
        dt,
        build: (r) => ({ ins: [input(wellConditioned(m, n, cx, r, undefined), dt)], f: (a) => L.norm(a!, { ord }) }),
      });
  out.push({
    name: `matrix norm 'nuc' over axes [0, 2] of a [3, 2, 4] stack (${dt})`,
    dt,
    build: (r) => ({ ins: [{ ...input(randMat(3, 8, cx, r), dt), spec: { shape: [3, 2, 4], dtype: dt } }], f: (a) => L.norm(a!, { ord: 'nuc', axis: [0, 2] }) }),
  });
  for (const ord of [2, 1, Infinity, -Infinity, 3, null] as const)
    out.push({
      name: `vector norm ord=${String(ord)} along axis 1 (${dt})`,
      dt,
      build: (r) => ({ ins: [input(randMat(3, 5, cx, r), dt)], f: (a) => L.norm(a!, { ord, axis: 1 }) }),
    });
  out.push({
    name: `vector norm of a 1-D input, ord 2 and 1 (${dt})`,
    dt,
    build: (r) => ({ ins: [{ ...input(randMat(1, 5, cx, r), dt), spec: { shape: [5], dtype: dt } }], f: (a) => L.norm(a!, { ord: 2 }).mul(L.norm(a!, { ord: 1 })) }),
  });
  return out;
}

describe.each(DEVICES)('linalg matrix function and norm derivatives on %s', (device) => {
  for (const dt of DTS) for (const c of cases(dt)) it(c.name, () => checkLinalgCase(c, device));
});
