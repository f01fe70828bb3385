// Straightforward triplet references of the PDE builders (src/sparse/builders.ts):
// every entry pushed as a (row, col, value) triplet, assembled by fromTriplets
// (duplicates summed), 2-D/3-D Laplacians as Kronecker sums of the 1-D one, and
// Helmholtz as poisson2d − s(1 + i·damping)·I through the generic sum. This is how
// the builders were written before they filled CSR arrays directly; the tests
// compare the arrays of both bit for bit on small sizes.

import * as sp from '../../../src/sparse/index.js';

type Bc = sp.BoundaryCondition;

export function refPoisson1d(n: number, bc: Bc = 'dirichlet'): sp.CsrMatrix {
  const r: number[] = [], c: number[] = [], v: number[] = [];
  for (let i = 0; i < n; i++) {
    let diag = 2;
    for (const j of [i - 1, i + 1]) {
      if (j >= 0 && j < n) r.push(i), c.push(j), v.push(-1);
      else if (bc === 'neumann') diag -= 1;
      else if (bc === 'periodic') r.push(i), c.push((j + n) % n), v.push(-1);
    }
    r.push(i), c.push(i), v.push(diag);
  }
  return sp.fromTriplets(r, c, v, [n, n]).eliminateZeros();
}

export function refPoisson2d(n: number, bc: Bc = 'dirichlet'): sp.CsrMatrix {
  const T = refPoisson1d(n, bc);
  return sp.kronsum(T, T).eliminateZeros();
}

export function refPoisson3d(n: number, bc: Bc = 'dirichlet'): sp.CsrMatrix {
  const T = refPoisson1d(n, bc);
  return sp.kronsum(sp.kronsum(T, T), T).eliminateZeros();
}

export function refDiffusion2d(k: Float64Array, n: number): sp.CsrMatrix {
  const r: number[] = [], c: number[] = [], v: number[] = [];
  for (let iy = 0; iy < n; iy++)
    for (let ix = 0; ix < n; ix++) {
      const p = iy * n + ix, kp = k[p]!;
      let diag = 0;
      for (const [dx, dy] of [[0, -1], [-1, 0], [1, 0], [0, 1]] as const) {
        const jx = ix + dx, jy = iy + dy;
        if (jx < 0 || jx >= n || jy < 0 || jy >= n) {
          diag += kp;
          continue;
        }
        const q = jy * n + jx, kq = k[q]!;
        const f = (2 * kp * kq) / (kp + kq);
        diag += f;
        r.push(p), c.push(q), v.push(-f);
      }
      r.push(p), c.push(p), v.push(diag);
    }
  return sp.fromTriplets(r, c, v, [n * n, n * n]);
}

export function refConvectionDiffusion2d(n: number, pe: number, [wx, wy]: [number, number]): sp.CsrMatrix {
  const h = 1 / (n + 1);
  const cx = pe * h * wx, cy = pe * h * wy;
  const r: number[] = [], c: number[] = [], v: number[] = [];
  for (let iy = 0; iy < n; iy++)
    for (let ix = 0; ix < n; ix++) {
      const p = iy * n + ix;
      r.push(p), c.push(p), v.push(4 + Math.abs(cx) + Math.abs(cy));
      const add = (jx: number, jy: number, up: number): void => {
        if (jx >= 0 && jx < n && jy >= 0 && jy < n) r.push(p), c.push(jy * n + jx), v.push(-1 - up);
      };
      add(ix - 1, iy, cx > 0 ? cx : 0);
      add(ix + 1, iy, cx < 0 ? -cx : 0);
      add(ix, iy - 1, cy > 0 ? cy : 0);
      add(ix, iy + 1, cy < 0 ? -cy : 0);
    }
  return sp.fromTriplets(r, c, v, [n * n, n * n]);
}

export function refHelmholtz2d(n: number, k: number, damping: number): sp.CsrMatrix {
  const s = (k / (n + 1)) ** 2;
  return refPoisson2d(n).astype('complex128').add(sp.eye(n * n, { dtype: 'complex128' }).scale([-s, -s * damping]));
}
