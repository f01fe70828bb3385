// Derivatives of the linear solvers: solve (w.r.t. a and b), inv,
// solveTriangular (lower/upper, trans 0/1/2, unitDiagonal), lstsq (x and s,
// full-rank tall and wide minimum-norm) and pinv, on float64 and complex128.
// JVP vs central finite differences, VJP vs JVP by the dot-product identity
// (tolerances: helpers.ts and ad-harness.ts).

import { describe, it } from 'vitest';
import type { Tensor } from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { L, checkLinalgCase, flatCat, input, isCx, randMat, triangularIn, wellConditioned, type DT, type LCase } from './helpers.js';

const DTS: DT[] = ['float64', 'complex128'];

function cases(dt: DT): LCase[] {
  const cx = isCx(dt);
  const out: LCase[] = [
    {
      name: `solve w.r.t. a and b (${dt})`,
      dt,
      build: (r) => ({ ins: [input(wellConditioned(4, 4, cx, r), dt), input(randMat(4, 2, cx, r), dt)], f: (a, b) => L.solve(a!, b!) }),
    },
    {
      name: `solve with a vector b (${dt})`,
      dt,
      build: (r) => ({ ins: [input(wellConditioned(3, 3, cx, r), dt), { ...input(randMat(3, 1, cx, r), dt), spec: { shape: [3], dtype: dt } }], f: (a, b) => L.solve(a!, b!) }),
    },
    {
      name: `solve, batched [3, n, n] (${dt})`,
      dt,
      build: (r) => ({ ins: [input([0, 1, 2].map(() => wellConditioned(3, 3, cx, r)), dt), input([0, 1, 2].map(() => randMat(3, 2, cx, r)), dt)], f: (a, b) => L.solve(a!, b!) }),
    },
    {
      // a broadcast against a batch of b: a's cotangent sums over the batch
      name: `solve, a [n, n] broadcast against b [3, n, k] (${dt})`,
      dt,
      build: (r) => ({ ins: [input(wellConditioned(3, 3, cx, r), dt), input([0, 1, 2].map(() => randMat(3, 2, cx, r)), dt)], f: (a, b) => L.solve(a!, b!) }),
    },
    {
      name: `lstsq, batched [3, m, n] (${dt})`,
      dt,
      build: (r) => ({ ins: [input([0, 1, 2].map(() => wellConditioned(4, 3, cx, r)), dt), input([0, 1, 2].map(() => randMat(4, 1, cx, r)), dt)], f: (a, b) => L.lstsq(a!, b!).x }),
    },
    { name: `inv (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(4, 4, cx, r), dt)], f: (a) => L.inv(a!) }) },
    {
      name: `pinv, square (${dt})`,
      dt,
      build: (r) => ({ ins: [input(wellConditioned(3, 3, cx, r), dt)], f: (a) => L.pinv(a!) }),
    },
    { name: `pinv, tall 5x3 (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(5, 3, cx, r), dt)], f: (a) => L.pinv(a!) }) },
    { name: `pinv, wide 3x5 (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(3, 5, cx, r), dt)], f: (a) => L.pinv(a!) }) },
    {
      // a tall full-rank a with a b that is not in its range: the residual term of the rule is exercised
      name: `lstsq x w.r.t. a and b, tall 5x3 (${dt})`,
      dt,
      build: (r) => ({ ins: [input(wellConditioned(5, 3, cx, r), dt), input(randMat(5, 2, cx, r), dt)], f: (a, b) => L.lstsq(a!, b!).x }),
    },
    {
      // a wide full-row-rank a: x is the minimum-norm solution; the (I − p a) term of the rule is exercised
      name: `lstsq x w.r.t. a and b, wide 3x5, minimum norm (${dt})`,
      dt,
      build: (r) => ({ ins: [input(wellConditioned(3, 5, cx, r), dt), input(randMat(3, 2, cx, r), dt)], f: (a, b) => L.lstsq(a!, b!).x }),
    },
    {
      name: `lstsq x and s, square, vector b (${dt})`,
      dt,
      build: (r) => ({
        ins: [input(wellConditioned(4, 4, cx, r), dt), { ...input(randMat(4, 1, cx, r), dt), spec: { shape: [4], dtype: dt } }],
        f: (a, b) => {
          const res = L.lstsq(a!, b!);
          return flatCat(res.x, res.s);
        },
      }),
    },
    { name: `lstsq s, tall (${dt})`, dt, build: (r) => ({ ins: [input(wellConditioned(5, 3, cx, r), dt), input(randMat(5, 1, cx, r), dt)], f: (a, b) => L.lstsq(a!, b!).s }) },
  ];
  for (const lower of [true, false])
    for (const trans of [0, 1, 2] as const)
      for (const unitDiagonal of [false, true]) {
        if (!cx && trans === 2 && unitDiagonal) continue; // real trans 2 = trans 1; one real trans-2 case is enough
        out.push({
          name: `solveTriangular lower=${lower} trans=${trans} unitDiagonal=${unitDiagonal} (${dt}; the other triangle holds garbage)`,
          dt,
          build: (r) => ({
            ins: [input(triangularIn(4, cx, lower, r), dt), input(randMat(4, 2, cx, r), dt)],
            f: (a, b) => L.solveTriangular(a!, b!, { lower, trans, unitDiagonal }),
          }),
        });
      }
  out.push({
    name: `choSolve w.r.t. the factor and b (${dt})`,
    dt,
    build: (r) => ({ ins: [input(triangularIn(3, cx, true, r), dt), input(randMat(3, 2, cx, r), dt)], f: (c, b) => L.choSolve(c!, b!, { lower: true }) }),
  });
  return out;
}

describe.each(DEVICES)('linalg solver derivatives on %s', (device) => {
  for (const dt of DTS) for (const c of cases(dt)) it(c.name, () => checkLinalgCase(c, device));
});

export type { Tensor };
