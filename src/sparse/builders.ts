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

//
// Memory: every builder counts its stored entries exactly from the sizes (closed
// forms below), allocates the three CSR arrays once at their final length and
// fills them row by row in column order, so the peak is the result itself (plus
// κ's n² values for diffusion2d). Sizes whose indices cannot be int32, or whose
// arrays cannot be allocated, are refused with a ValueError before allocating:
// building through number[] triplets (as this file once did) made large sizes
// abort V8 with an uncatchable fatal error and cost 3-7× the result.

import { totalmem } from 'node:os';
import { CsrMatrix } from './csr.js';
import { ValueError } from '../tensor/errors.js';

export type BoundaryCondition = 'dirichlet' | 'neumann' | 'periodic';
export interface PoissonOptions {
  bc?: BoundaryCondition;
}

const INT32_MAX = 2147483647;
/** V8's largest typed-array length (elements) in Node ≥ 20. */
const MAX_TYPED_LENGTH = 2 ** 32;

function checkN(op: string, n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new ValueError(`${op}: n must be a non-negative integer, got ${n}`);
}

function checkBc(op: string, bc: unknown): BoundaryCondition {
  if (bc !== 'dirichlet' && bc !== 'neumann' && bc !== 'periodic') throw new ValueError(`${op}: bc must be 'dirichlet', 'neumann' or 'periodic', got ${JSON.stringify(bc)}`);
  return bc;
}

interface CsrArrays {
  indptr: Int32Array;
  indices: Int32Array;
  data: Float64Array;
}

const gib = (bytes: number): string => `${(bytes / 2 ** 30).toFixed(1)} GiB`;

/**
 * The arrays of a rows×rows CSR matrix with exactly `nnz` entries of `lanes`
 * float64 lanes, or a ValueError naming the builder, the size asked (`asked`) and
 * the limit it passes: int32 row/column indices, V8's typed-array length, the
 * machine's memory (a larger request could only end in the OOM killer), or an
 * allocation that fails.
 */
function allocBuilderCsr(op: string, asked: string, rows: number, nnz: number, lanes: 1 | 2): CsrArrays {
  if (rows > INT32_MAX) throw new ValueError(`${op}: ${asked} gives ${rows} rows, more than the int32 index limit ${INT32_MAX}`);
  if (nnz > INT32_MAX) throw new ValueError(`${op}: ${asked} gives ${nnz} stored entries, more than the int32 index limit ${INT32_MAX}`);
  if (nnz * lanes > MAX_TYPED_LENGTH) throw new ValueError(`${op}: ${asked} needs ${nnz * lanes} values, more than the typed-array limit ${MAX_TYPED_LENGTH}`);
  const bytes = 4 * (rows + 1) + 4 * nnz + 8 * lanes * nnz;
  const mem = totalmem();
  if (bytes > mem) throw new ValueError(`${op}: ${asked} needs ${gib(bytes)} for the result, more than this machine's memory (${gib(mem)})`);
  try {
    return { indptr: new Int32Array(rows + 1), indices: new Int32Array(nnz), data: new Float64Array(nnz * lanes) };
  } catch (e) {
    if (e instanceof RangeError) throw new ValueError(`${op}: ${asked} needs ${gib(bytes)} for the result, which could not be allocated (${e.message})`);
    throw e;
  }
}

/** The filled arrays as a canonical CSR matrix; `q` must have reached the counted nnz. */
function finish(op: string, rows: number, a: CsrArrays, q: number, lanes: 1 | 2): CsrMatrix {
  // An internal invariant (the closed-form counts below), not a user error.
  if (q * lanes !== a.data.length) throw new Error(`${op}: internal error: wrote ${q} entries, counted ${a.data.length / lanes}`);
  return new CsrMatrix([rows, rows], lanes === 2 ? 'complex128' : 'float64', a.indptr, a.indices, a.data, { sorted: true, canonical: true });
}

/**
 * One row of the 1-D operator T (see the boundary conditions above): its
 * off-diagonal entries below and above the diagonal, sorted by column with
 * coinciding neighbours merged (periodic n = 2), and the diagonal value (0 means
 * not stored: n = 1 with Neumann or periodic conditions).
 */
class Line1d {
  readonly lo = new Int32Array(2);
  readonly loV = new Float64Array(2);
  readonly up = new Int32Array(2);
  readonly upV = new Float64Array(2);
  nLo = 0;
  nUp = 0;
  diag = 2;
  constructor(
    private readonly n: number,
    private readonly bc: BoundaryCondition,
  ) {}

  at(i: number): this {
    this.nLo = this.nUp = 0;
    this.diag = 2;
    this.neighbour(i, i - 1);
    this.neighbour(i, i + 1);
    return this;
  }

  private neighbour(i: number, j: number): void {
    const n = this.n;
    if (j < 0 || j >= n) {
      if (this.bc === 'dirichlet') return;
      if (this.bc === 'neumann') {
        this.diag -= 1;
        return;
      }
      j = (j + n) % n;
    }
    if (j === i) this.diag -= 1; // periodic n = 1: both neighbours are the point itself
    else if (j < i) this.nLo = insert(this.lo, this.loV, this.nLo, j);
    else this.nUp = insert(this.up, this.upV, this.nUp, j);
  }
}

/** Adds a −1 coupling to column j of a sorted list of at most 2 entries; returns the new count. */
function insert(cols: Int32Array, vals: Float64Array, count: number, j: number): number {
  for (let t = 0; t < count; t++) {
    if (cols[t] === j) {
      vals[t]! -= 1;
      return count;
    }
  }
  if (count === 1 && cols[0]! > j) {
    cols[1] = cols[0]!;
    vals[1] = vals[0]!;
    cols[0] = j;
    vals[0] = -1;
  } else {
    cols[count] = j;
    vals[count] = -1;
  }
  return count + 1;
}

/** Stored entries of the d-dimensional Laplacian: diagonal (unless zero) + d·n^(d−1)·(off-diagonals of T). */
function poissonNnz(d: number, n: number, bc: BoundaryCondition): number {
  if (n === 0) return 0;
  const diagStored = !(n === 1 && bc !== 'dirichlet');
  const offT = bc === 'periodic' ? (n >= 3 ? 2 * n : n === 2 ? 2 : 0) : 2 * (n - 1);
  return (diagStored ? n ** d : 0) + d * n ** (d - 1) * offT;
}

/** T = the 1-D operator: interior rows [−1, 2, −1] inline, the two boundary rows through Line1d. */
function poisson1dArrays(op: string, n: number, bc: BoundaryCondition): CsrArrays {
  const a = allocBuilderCsr(op, `n = ${n}`, n, poissonNnz(1, n, bc), 1);
  const { indptr, indices, data } = a;
  const L = new Line1d(n, bc);
  let q = 0;
  for (let i = 0; i < n; i++) {
    if (i > 0 && i < n - 1) {
      indices[q] = i - 1, data[q++] = -1;
      indices[q] = i, data[q++] = 2;
      indices[q] = i + 1, data[q++] = -1;
    } else {
      L.at(i);
      for (let t = 0; t < L.nLo; t++) (indices[q] = L.lo[t]!), (data[q++] = L.loV[t]!);
      if (L.diag !== 0) (indices[q] = i), (data[q++] = L.diag);
      for (let t = 0; t < L.nUp; t++) (indices[q] = L.up[t]!), (data[q++] = L.upV[t]!);
    }
    indptr[i + 1] = q;
  }
  if (q !== indices.length) throw new Error(`${op}: internal error: wrote ${q} entries, counted ${indices.length}`);
  return a;
}

/**
 * The Kronecker sum of d copies of T (d = 2, 3), row p = (iz·n + iy)·n + ix, read
 * off T's rows. Columns of a row in increasing order: the z, y, x couplings below
 * the diagonal, the diagonal (Tx + Ty + Tz, the sum kronsum forms; not stored when
 * 0), then x, y, z above it.
 */
function poissonNd(op: string, d: 2 | 3, n: number, opts: PoissonOptions): CsrMatrix {
  checkN(op, n);
  const bc = checkBc(op, opts.bc ?? 'dirichlet');
  const N = n ** d;
  const a = allocBuilderCsr(op, `n = ${n}`, N, poissonNnz(d, n, bc), 1);
  const T = poisson1dArrays(op, n, bc);
  const Tp = T.indptr, Ti = T.indices, Tv = T.data;
  // Per index i of T's row: where its off-diagonals below the diagonal end, where those above start, its diagonal.
  const loEnd = new Int32Array(n), hiStart = new Int32Array(n), dg = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let t = Tp[i]!;
    while (t < Tp[i + 1]! && Ti[t]! < i) t++;
    loEnd[i] = t;
    if (t < Tp[i + 1]! && Ti[t] === i) dg[i] = Tv[t++]!;
    hiStart[i] = t;
  }
  const { indptr, indices, data } = a;
  const nz = d === 3 ? n : 1, sz = n * n;
  let q = 0, p = 0;
  for (let iz = 0; iz < nz; iz++) {
    // Without a z direction its ranges are empty and its diagonal 0.
    const zLo0 = d === 3 ? Tp[iz]! : 0, zLo1 = d === 3 ? loEnd[iz]! : 0, zHi0 = d === 3 ? hiStart[iz]! : 0, zHi1 = d === 3 ? Tp[iz + 1]! : 0;
    const zd = d === 3 ? dg[iz]! : 0;
    for (let iy = 0; iy < n; iy++) {
      const yLo1 = loEnd[iy]!, yHi0 = hiStart[iy]!, yd = dg[iy]!;
      const plane = iz * sz, line = iy * n, base = plane + line;
      for (let ix = 0; ix < n; ix++, p++) {
        for (let t = zLo0; t < zLo1; t++) (indices[q] = Ti[t]! * sz + line + ix), (data[q++] = Tv[t]!);
        for (let t = Tp[iy]!; t < yLo1; t++) (indices[q] = plane + Ti[t]! * n + ix), (data[q++] = Tv[t]!);
        for (let t = Tp[ix]!, e = loEnd[ix]!; t < e; t++) (indices[q] = base + Ti[t]!), (data[q++] = Tv[t]!);
        const diag = dg[ix]! + yd + zd;
        if (diag !== 0) (indices[q] = p), (data[q++] = diag);
        for (let t = hiStart[ix]!, e = Tp[ix + 1]!; t < e; t++) (indices[q] = base + Ti[t]!), (data[q++] = Tv[t]!);
        for (let t = yHi0, e = Tp[iy + 1]!; t < e; t++) (indices[q] = plane + Ti[t]! * n + ix), (data[q++] = Tv[t]!);
        for (let t = zHi0; t < zHi1; t++) (indices[q] = Ti[t]! * sz + line + ix), (data[q++] = Tv[t]!);
        indptr[p + 1] = q;
      }
    }
  }
  return finish(op, N, a, q, 1);
}

/**
 * 1-D 3-point Laplacian (n×n), see the boundary conditions above.
 * @example
 * ```ts
 * sparse.poisson1d(3).toDense().tolist();   // [[2, -1, 0], [-1, 2, -1], [0, -1, 2]]
 * sparse.poisson1d(3, { bc: 'neumann' }).toDense().tolist();   // [[1, -1, 0], [-1, 2, -1], [0, -1, 1]]
 * ```
 */
export function poisson1d(n: number, opts: PoissonOptions = {}): CsrMatrix {
  checkN('poisson1d', n);
  const a = poisson1dArrays('poisson1d', n, checkBc('poisson1d', opts.bc ?? 'dirichlet'));
  return new CsrMatrix([n, n], 'float64', a.indptr, a.indices, a.data, { sorted: true, canonical: true });
}

/**
 * 2-D 5-point Laplacian on an n×n grid (n²×n²): kronsum(T, T) with T = poisson1d(n, {bc}).
 * @example
 * ```ts
 * const A = sparse.poisson2d(3);   // 9×9, 33 nonzeros
 * const u = sparse.spsolve(A, ones([9]));
 * ```
 */
export function poisson2d(n: number, opts: PoissonOptions = {}): CsrMatrix {
  return poissonNd('poisson2d', 2, n, opts);
}

/**
 * 3-D 7-point Laplacian on an n×n×n grid (n³×n³).
 * @example
 * ```ts
 * const A = sparse.poisson3d(2);   // the 2×2×2 grid: 8 unknowns
 * A.shape;                         // [8, 8]
 * A.nnz;                           // 32 (8 diagonal 6s, two −1s per edge of the cube's 12)
 * ```
 */
export function poisson3d(n: number, opts: PoissonOptions = {}): CsrMatrix {
  return poissonNd('poisson3d', 3, n, opts);
}

/** Stored entries of a 5-point stencil on the n×n grid with zero Dirichlet boundary: n² + 4n(n − 1). */
const fivePointNnz = (n: number): number => n * n + 4 * n * (n - 1);

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
 * @example
 * ```ts
 * // κ ≡ 2 gives 2·poisson2d(n)
 * sparse.diffusion2d(() => 2, 2).toDense().tolist();   // [[8, -2, -2, 0], [-2, 8, 0, -2], [-2, 0, 8, -2], [0, -2, -2, 8]]
 * ```
 */
export function diffusion2d(kappa: ((x: number, y: number) => number) | Float64Array, n: number): CsrMatrix {
  checkN('diffusion2d', n);
  const N = n * n;
  const h = 1 / (n + 1);
  if (typeof kappa !== 'function' && !(kappa instanceof Float64Array)) throw new ValueError('diffusion2d: kappa must be a function (x, y) => number or a Float64Array of n² values');
  if (kappa instanceof Float64Array && kappa.length !== N) throw new ValueError(`diffusion2d: kappa has ${kappa.length} values, expected n² = ${N}`);
  // Refused before κ is evaluated or the result allocated.
  const a = allocBuilderCsr('diffusion2d', `n = ${n}`, N, fivePointNnz(n), 1);
  let k: Float64Array;
  if (typeof kappa === 'function') {
    k = new Float64Array(N);
    for (let iy = 0; iy < n; iy++) for (let ix = 0; ix < n; ix++) k[iy * n + ix] = kappa((ix + 1) * h, (iy + 1) * h);
  } else k = kappa;
  for (let p = 0; p < N; p++) if (!(k[p]! > 0) || !Number.isFinite(k[p]!)) throw new ValueError(`diffusion2d: kappa must be finite and > 0, got ${k[p]} at point ${p} (ix = ${p % n}, iy = ${Math.floor(p / n)})`);
  const { indptr, indices, data } = a;
  const hm = (kp: number, kq: number): number => (2 * kp * kq) / (kp + kq);
  let q = 0;
  for (let iy = 0; iy < n; iy++) {
    for (let ix = 0; ix < n; ix++) {
      const p = iy * n + ix, kp = k[p]!;
      // Faces in the order south, west, east, north: the diagonal sums them in this order.
      const fS = iy > 0 ? hm(kp, k[p - n]!) : kp;
      const fW = ix > 0 ? hm(kp, k[p - 1]!) : kp;
      const fE = ix < n - 1 ? hm(kp, k[p + 1]!) : kp;
      const fN = iy < n - 1 ? hm(kp, k[p + n]!) : kp;
      let diag = 0;
      diag += fS;
      diag += fW;
      diag += fE;
      diag += fN;
      if (iy > 0) (indices[q] = p - n), (data[q++] = -fS);
      if (ix > 0) (indices[q] = p - 1), (data[q++] = -fW);
      (indices[q] = p), (data[q++] = diag);
      if (ix < n - 1) (indices[q] = p + 1), (data[q++] = -fE);
      if (iy < n - 1) (indices[q] = p + n), (data[q++] = -fN);
      indptr[p + 1] = q;
    }
  }
  return finish('diffusion2d', N, a, q, 1);
}

/**
 * Convection–diffusion −Δu + Pe·(w·∇u) on the n×n interior grid of the unit square
 * (h = 1/(n+1)), zero Dirichlet boundary, first-order upwind differences for the
 * convection (so the matrix is an M-matrix for every Pe ≥ 0: no oscillations),
 * multiplied by h² like the other builders: diagonal 4 + Pe·h·(|wx| + |wy|), the
 * upwind neighbour −1 − Pe·h·|w|, the downwind one −1. Non-symmetric for Pe ≠ 0;
 * peclet = 0 gives poisson2d(n). Wind w defaults to (1, 1).
 * @example
 * ```ts
 * // n = 2, h = 1/3, Pe = 3: Pe·h = 1, so diagonal 4 + 2, upwind −2, downwind −1
 * sparse.convectionDiffusion2d(2, { peclet: 3 }).toDense().tolist();   // [[6, -1, -1, 0], [-2, 6, 0, -1], [-2, 0, 6, -1], [0, -2, -2, 6]]
 * ```
 */
export function convectionDiffusion2d(n: number, opts: { peclet?: number; wind?: [number, number] } = {}): CsrMatrix {
  checkN('convectionDiffusion2d', n);
  const pe = opts.peclet ?? 1;
  const [wx, wy] = opts.wind ?? [1, 1];
  if (![pe, wx, wy].every(Number.isFinite)) throw new ValueError(`convectionDiffusion2d: peclet and wind must be finite, got ${pe}, [${wx}, ${wy}]`);
  const N = n * n;
  const a = allocBuilderCsr('convectionDiffusion2d', `n = ${n}`, N, fivePointNnz(n), 1);
  const { indptr, indices, data } = a;
  const h = 1 / (n + 1);
  const cx = pe * h * wx, cy = pe * h * wy;
  const diag = 4 + Math.abs(cx) + Math.abs(cy);
  // Neighbour couplings: −1, plus the upwind share −|c| when the neighbour lies against the wind.
  const vS = -1 - (cy > 0 ? cy : 0), vW = -1 - (cx > 0 ? cx : 0), vE = -1 - (cx < 0 ? -cx : 0), vN = -1 - (cy < 0 ? -cy : 0);
  let q = 0;
  for (let iy = 0; iy < n; iy++) {
    for (let ix = 0; ix < n; ix++) {
      const p = iy * n + ix;
      if (iy > 0) (indices[q] = p - n), (data[q++] = vS);
      if (ix > 0) (indices[q] = p - 1), (data[q++] = vW);
      (indices[q] = p), (data[q++] = diag);
      if (ix < n - 1) (indices[q] = p + 1), (data[q++] = vE);
      if (iy < n - 1) (indices[q] = p + n), (data[q++] = vN);
      indptr[p + 1] = q;
    }
  }
  return finish('convectionDiffusion2d', N, a, q, 1);
}

/**
 * Helmholtz operator −Δu − k²(1 + i·damping)u on the n×n interior grid of the unit
 * square (h = 1/(n+1)), zero Dirichlet boundary, times h²: poisson2d(n) −
 * (kh)²(1 + i·damping)·I, complex128. damping > 0 is the "complex shifted
 * Laplacian" used as a preconditioner; damping = 0 is the (indefinite) Helmholtz
 * operator itself. Complex symmetric (Aᵀ = A), not Hermitian unless damping = 0.
 * A diagonal that cancels exactly (kh = 2, damping = 0) is not stored, as the sum
 * of the two matrices would drop it.
 * @example
 * ```ts
 * // n = 1, k = 2: h = 1/2, (kh)² = 1, so the one entry is 4 − (1 + 0.5i)
 * const A = sparse.helmholtz2d(1, 2, { damping: 0.5 });
 * A.dtype;                  // 'complex128'
 * A.toDense().tolist();     // [[[3, -0.5]]]  (3 − 0.5i as [re, im])
 * ```
 */
export function helmholtz2d(n: number, k: number, opts: { damping?: number } = {}): CsrMatrix {
  checkN('helmholtz2d', n);
  const damping = opts.damping ?? 0;
  if (!Number.isFinite(k) || !Number.isFinite(damping)) throw new ValueError(`helmholtz2d: k and damping must be finite, got ${k}, ${damping}`);
  const s = (k / (n + 1)) ** 2;
  // The diagonal 4 + (−s)(1 + i·damping), evaluated as the complex scale and sum of
  // poisson2d(n) − s(1 + i·damping)·I would (so the values are bit-identical to it).
  const sr = -s, si = -s * damping;
  const dr = 4 + (sr * 1 - si * 0), di = 0 + (sr * 0 + si * 1);
  const keepDiag = dr !== 0 || di !== 0;
  const N = n * n;
  const a = allocBuilderCsr('helmholtz2d', `n = ${n}`, N, fivePointNnz(n) - (keepDiag ? 0 : N), 2);
  const { indptr, indices, data } = a;
  let q = 0;
  const put = (col: number, re: number, im: number): void => {
    indices[q] = col;
    data[2 * q] = re;
    data[2 * q++ + 1] = im;
  };
  for (let iy = 0; iy < n; iy++) {
    for (let ix = 0; ix < n; ix++) {
      const p = iy * n + ix;
      if (iy > 0) put(p - n, -1, 0);
      if (ix > 0) put(p - 1, -1, 0);
      if (keepDiag) put(p, dr, di);
      if (ix < n - 1) put(p + 1, -1, 0);
      if (iy < n - 1) put(p + n, -1, 0);
      indptr[p + 1] = q;
    }
  }
  return finish('helmholtz2d', N, a, q, 2);
}
