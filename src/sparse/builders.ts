// Model operators of PDE test problems, unscaled (no 1/h² factor) as SciPy users
// build them with diags/kronsum. All are CSR, canonical, float64 unless stated.
//
// Grids: n points per direction, index p = iy·n + ix (x fastest) in 2-D and
// p = (iz·n + iy)·n + ix in 3-D. Boundary conditions of the Laplacians:
//   'dirichlet' (default): u = 0 on ghost points just outside the grid. 1-D
//       stencil [-1, 2, -1] everywhere; the matrix is SPD (eigenvalues
//       2 − 2cos(kπ/(n+1))). 2-D/3-D: 4 / 6 on the diagonal.
//   'neumann': zero flux through the boundary (ghost value = boundary value), i.e.
//       the boundary rows lose the missing neighbour's coupling: 1-D diagonal is 1
//       in the first and last row (the path-graph Laplacian). Symmetric positive
//       semidefinite, null space = constants, every row sums to 0.
//   'periodic': index n wraps to 0 (circulant; the torus in 2-D/3-D). Symmetric
//       positive semidefinite, null space = constants. For n = 2 both neighbours
//       are the same point and their couplings add (entries −2); for n = 1 the
//       operator is the 1×1 zero matrix (no stored entries).
// In 2-D/3-D the operator is the Kronecker sum of the 1-D ones (SciPy's kronsum).

import { CsrMatrix } from './csr.js';
import { fromTriplets, kronsum, eye } from './construct.js';
import { ValueError } from '../tensor/errors.js';

export type BoundaryCondition = 'dirichlet' | 'neumann' | 'periodic';
export interface PoissonOptions {
  bc?: BoundaryCondition;
}

function checkN(op: string, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new ValueError(`${op}: n must be a non-negative integer, got ${n}`);
}

/** 1-D 3-point Laplacian (n×n), see the boundary conditions above. */
export function poisson1d(n: number, opts: PoissonOptions = {}): CsrMatrix {
  checkN('poisson1d', n);
  const bc = opts.bc ?? 'dirichlet';
  if (bc !== 'dirichlet' && bc !== 'neumann' && bc !== 'periodic') throw new ValueError(`poisson1d: bc must be 'dirichlet', 'neumann' or 'periodic', got ${JSON.stringify(bc)}`);
  const r: number[] = [], c: number[] = [], v: number[] = [];
  for (let i = 0; i < n; i++) {
    let diag = 2;
    for (const j of [i - 1, i + 1]) {
      if (j >= 0 && j < n) {
        r.push(i), c.push(j), v.push(-1);
      } else if (bc === 'neumann') diag -= 1;
      else if (bc === 'periodic') {
        r.push(i), c.push((j + n) % n), v.push(-1);
      }
    }
    r.push(i), c.push(i), v.push(diag);
  }
  return fromTriplets(r, c, v, [n, n]).eliminateZeros();
}

/** 2-D 5-point Laplacian on an n×n grid (n²×n²): kronsum(T, T) with T = poisson1d(n, {bc}). */
export function poisson2d(n: number, opts: PoissonOptions = {}): CsrMatrix {
  checkN('poisson2d', n);
  const T = poisson1d(n, opts);
  return kronsum(T, T).eliminateZeros();
}

/** 3-D 7-point Laplacian on an n×n×n grid (n³×n³). */
export function poisson3d(n: number, opts: PoissonOptions = {}): CsrMatrix {
  checkN('poisson3d', n);
  const T = poisson1d(n, opts);
  return kronsum(kronsum(T, T), T).eliminateZeros();
}

/**
 * Variable-coefficient diffusion −∇·(κ∇u) on the n×n interior points of the unit
 * square (h = 1/(n+1), point (ix, iy) at ((ix+1)h, (iy+1)h)), zero Dirichlet
 * boundary, 5-point stencil, unscaled. κ is a function of (x, y) evaluated at the
 * points, or a Float64Array of n² values indexed like the unknowns. The coupling
 * of neighbours p, q is the harmonic mean 2κpκq/(κp+κq) of their coefficients
 * (the conductance of two half-cells in series: exact for piecewise-constant κ
 * and robust to jumps, unlike the arithmetic mean); a boundary face uses the
 * point's own κ. The matrix is symmetric positive definite for κ > 0, and equals
 * poisson2d(n) when κ ≡ 1.
 */
export function diffusion2d(kappa: ((x: number, y: number) => number) | Float64Array, n: number): CsrMatrix {
  checkN('diffusion2d', n);
  const N = n * n;
  const h = 1 / (n + 1);
  let k: Float64Array;
  if (typeof kappa === 'function') {
    k = new Float64Array(N);
    for (let iy = 0; iy < n; iy++) for (let ix = 0; ix < n; ix++) k[iy * n + ix] = kappa((ix + 1) * h, (iy + 1) * h);
  } else if (kappa instanceof Float64Array) {
    if (kappa.length !== N) throw new ValueError(`diffusion2d: kappa has ${kappa.length} values, expected n² = ${N}`);
    k = kappa;
  } else throw new ValueError('diffusion2d: kappa must be a function (x, y) => number or a Float64Array of n² values');
  for (let p = 0; p < N; p++) if (!(k[p]! > 0) || !Number.isFinite(k[p]!)) throw new ValueError(`diffusion2d: kappa must be finite and > 0, got ${k[p]} at point ${p} (ix = ${p % n}, iy = ${Math.floor(p / n)})`);
  const r: number[] = [], c: number[] = [], v: number[] = [];
  for (let iy = 0; iy < n; iy++) {
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
  }
  return fromTriplets(r, c, v, [N, N]);
}

/**
 * Convection–diffusion −Δu + Pe·(w·∇u) on the n×n interior grid of the unit square
 * (h = 1/(n+1)), zero Dirichlet boundary, first-order upwind differences for the
 * convection (so the matrix is an M-matrix for every Pe ≥ 0: no oscillations),
 * multiplied by h² like the other builders: diagonal 4 + Pe·h·(|wx| + |wy|), the
 * upwind neighbour −1 − Pe·h·|w|, the downwind one −1. Non-symmetric for Pe ≠ 0;
 * peclet = 0 gives poisson2d(n). Wind w defaults to (1, 1).
 */
export function convectionDiffusion2d(n: number, opts: { peclet?: number; wind?: [number, number] } = {}): CsrMatrix {
  checkN('convectionDiffusion2d', n);
  const pe = opts.peclet ?? 1;
  const [wx, wy] = opts.wind ?? [1, 1];
  if (![pe, wx, wy].every(Number.isFinite)) throw new ValueError(`convectionDiffusion2d: peclet and wind must be finite, got ${pe}, [${wx}, ${wy}]`);
  const h = 1 / (n + 1);
  const cx = pe * h * wx, cy = pe * h * wy;
  const r: number[] = [], c: number[] = [], v: number[] = [];
  for (let iy = 0; iy < n; iy++) {
    for (let ix = 0; ix < n; ix++) {
      const p = iy * n + ix;
      r.push(p), c.push(p), v.push(4 + Math.abs(cx) + Math.abs(cy));
      // Neighbour (dx, dy): −1, plus the upwind share −|c| when it lies against the wind.
      const add = (jx: number, jy: number, up: number): void => {
        if (jx < 0 || jx >= n || jy < 0 || jy >= n) return;
        r.push(p), c.push(jy * n + jx), v.push(-1 - up);
      };
      add(ix - 1, iy, cx > 0 ? cx : 0);
      add(ix + 1, iy, cx < 0 ? -cx : 0);
      add(ix, iy - 1, cy > 0 ? cy : 0);
      add(ix, iy + 1, cy < 0 ? -cy : 0);
    }
  }
  return fromTriplets(r, c, v, [n * n, n * n]);
}

/**
 * Helmholtz operator −Δu − k²(1 + i·damping)u on the n×n interior grid of the unit
 * square (h = 1/(n+1)), zero Dirichlet boundary, times h²: poisson2d(n) −
 * (kh)²(1 + i·damping)·I, complex128. damping > 0 is the "complex shifted
 * Laplacian" used as a preconditioner; damping = 0 is the (indefinite) Helmholtz
 * operator itself. Complex symmetric (Aᵀ = A), not Hermitian unless damping = 0.
 */
export function helmholtz2d(n: number, k: number, opts: { damping?: number } = {}): CsrMatrix {
  checkN('helmholtz2d', n);
  const damping = opts.damping ?? 0;
  if (!Number.isFinite(k) || !Number.isFinite(damping)) throw new ValueError(`helmholtz2d: k and damping must be finite, got ${k}, ${damping}`);
  const s = (k / (n + 1)) ** 2;
  const L = poisson2d(n).astype('complex128');
  return L.add(eye(n * n, { dtype: 'complex128' }).scale([-s, -s * damping]));
}
