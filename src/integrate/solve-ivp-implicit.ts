// What the implicit methods of integrate.solveIvp (Radau, BDF: the stiff
// solvers of SciPy's scipy/integrate/_ivp/radau.py and bdf.py) share: the
// state as a flat host vector, the right-hand side and the Jacobian on such
// vectors, and LU factorizations of the Newton matrices a·I + b·J.
//
// The implicit methods run on the host, as SciPy's do: every step is a Newton
// iteration whose convergence test reads numbers after each solve, so there is
// no graph worth tracing between two syncs. f and jac are the user's tensor
// functions; the O(n³) work, the factorization, goes to the direct solvers
// (LAPACK getrf through the linalg kernels, UMFPACK/the js sparse LU through
// sparse.splu), and the O(n²) triangular solves run on the host.
//
// A state of n elements is a Float64Array of n (real) or 2n (complex,
// interleaved re, im) numbers, in y0's row-major order; a dense Jacobian is
// n×n row-major (2n² numbers when complex), J[i, j] = ∂f_i/∂y_j.

import { Tensor } from '../tensor/tensor.js';
import { fromStorage, tensor, type TensorData } from '../tensor/create.js';
import { DTypeError, ShapeError, TransformError, ValueError } from '../tensor/errors.js';
import { isComplex } from '../tensor/dtype.js';
import { fmtShape } from '../tensor/shape.js';
import { jacfwd } from '../compiler/transforms/jacobian.js';
import { jit, type Jitted } from '../compiler/transforms/jit.js';
import { kernelsFor } from '../compiler/kernel-registry.js';
import { defaultDevice } from '../backends/registry.js';
import { LINALG_KERNELS } from '../linalg/kernels/family.js';
import { isSparse, CompressedMatrix, type SparseMatrix } from '../sparse/base.js';
import { CsrMatrix } from '../sparse/csr.js';
import { splu } from '../sparse/factor.js';
import type { Rhs, Tolerances } from './solve-ivp-step.js';

const OP = 'integrate.solveIvp';

/** The user's `jac` option: a function of (t, y) returning the Jacobian, or a constant one (dense or sparse). */
export type JacOption = ((t: Tensor, y: Tensor) => Tensor | SparseMatrix | TensorData) | Tensor | SparseMatrix | TensorData;

/** A Jacobian evaluated at one point. */
export type Jacobian = { kind: 'dense'; complex: boolean; a: Float64Array } | { kind: 'sparse'; complex: boolean; m: CompressedMatrix };

/** Factored a·I + b·J: solve(rhs) returns x (a fresh array) for the factorization's dtype (complex: interleaved). */
export interface Factored {
  readonly complex: boolean;
  solve(rhs: Float64Array): Float64Array;
}

/** A complex number as [re, im]; a real one as a number. */
export type Shift = number | readonly [number, number];

/**
 * The problem as the implicit methods see it: y0's shape and dtype, f and the
 * Jacobian on flat host vectors (with SciPy's counters nfev/njev), and the
 * tolerances as numbers.
 */
export class HostSystem {
  /** Elements of y (complex counted once). */
  readonly n: number;
  readonly complex: boolean;
  readonly shape: readonly number[];
  readonly device: string | undefined;
  /** atol as a number or per element (length n). */
  readonly atol: number | Float64Array;
  readonly rtol: number;
  nfev = 0;
  njev = 0;
  private readonly jacOf: (t: number, y: Float64Array) => Jacobian;
  /** Whether the Jacobian is constant (given as a matrix): SciPy then never recomputes it. */
  readonly constantJac: boolean;

  constructor(
    private readonly rhs: Rhs,
    private readonly f: (t: Tensor, y: Tensor) => Tensor,
    y0: Tensor,
    tol: Tolerances,
    jac: JacOption | undefined,
  ) {
    this.n = y0.size;
    this.complex = isComplex(y0.dtype);
    this.shape = y0.shape;
    this.device = y0.device;
    this.rtol = tol.rtol;
    this.atol = typeof tol.atol === 'number' ? tol.atol : Float64Array.from(tol.atol.toArray() as ArrayLike<number>);
    const made = this.jacobianSource(jac);
    this.jacOf = made.of;
    this.constantJac = made.constant;
  }

  /** A host vector as a tensor of y0's shape. */
  tensorOf(v: Float64Array): Tensor {
    return fromStorage(v, this.shape, this.complex ? 'complex128' : 'float64', this.device);
  }

  /** A tensor of y0's shape and dtype as a fresh host vector. */
  vectorOf(t: Tensor): Float64Array {
    return Float64Array.from(t.toArray() as ArrayLike<number>);
  }

  /**
   * f(t, y) as a jitted function of (t, y): one cached executable call per
   * evaluation (measured on Robertson's 3-species f: 15 µs, against 210 µs for
   * the graph built and realized eagerly each time). null once f failed to
   * trace (it reads values, say): every evaluation then runs eagerly, which
   * also re-raises any error of f's.
   */
  private rhsJitted: Jitted | null = jit((t: Tensor, y: Tensor) => this.rhs(t, y));

  /** f(t, y) on host vectors (counted in nfev). */
  fun(t: number, y: Float64Array): Float64Array {
    this.nfev++;
    const yt = this.tensorOf(y);
    if (this.rhsJitted !== null) {
      try {
        const tt = tensor(t);
        return this.vectorOf(this.rhsJitted(this.device === undefined ? tt : tt.on(this.device), yt) as Tensor);
      } catch {
        this.rhsJitted = null;
      }
    }
    return this.vectorOf(this.rhs(t, yt));
  }

  /**
   * The Jacobian at (t, y), counted in njev as SciPy counts every call of jac
   * (a constant matrix is not called: SciPy's njev stays 0).
   */
  jacobian(t: number, y: Float64Array): Jacobian {
    if (!this.constantJac) this.njev++;
    return this.jacOf(t, y);
  }

  /** The scale atol + rtol·max(|a|, |b|) per element (b optional), as SciPy's implicit methods form it. */
  scale(a: Float64Array, b?: Float64Array): Float64Array {
    const n = this.n,
      s = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      let m = absAt(a, i, this.complex);
      if (b !== undefined) {
        const mb = absAt(b, i, this.complex);
        if (mb > m || Number.isNaN(mb)) m = mb;
      }
      s[i] = (typeof this.atol === 'number' ? this.atol : this.atol[i]!) + this.rtol * m;
    }
    return s;
  }

  /** SciPy's norm(x / scale): the RMS of |x_i| / scale_i (0 for an empty state). */
  norm(x: Float64Array, scale: Float64Array): number {
    const n = this.n;
    if (n === 0) return 0;
    let s = 0;
    for (let i = 0; i < n; i++) {
      const v = absAt(x, i, this.complex) / scale[i]!;
      s += v * v;
    }
    return Math.sqrt(s) / Math.sqrt(n);
  }

  /**
   * LU of a·I + b·J (SciPy's lu(c·I − J) of Radau, lu(I − c·J) of BDF). The
   * factorization is complex when J is or when a is complex.
   */
  factor(J: Jacobian, a: Shift, b: number): Factored {
    const complex = J.complex || typeof a !== 'number';
    const [ar, ai] = typeof a === 'number' ? [a, 0] : a;
    if (J.kind === 'sparse') return sparseShifted(J.m, complex, ar, ai, b);
    return denseShifted(this.device, this.n, J, complex, ar, ai, b);
  }

  private jacobianSource(jac: JacOption | undefined): { of: (t: number, y: Float64Array) => Jacobian; constant: boolean } {
    const n = this.n;
    if (jac === undefined) return { of: this.forwardJacobian(), constant: false };
    if (typeof jac === 'function') {
      const user = jac as (t: Tensor, y: Tensor) => unknown;
      return {
        of: (t, y) => {
          const tt = tensor(t);
          return this.jacobianValue(user(this.device === undefined ? tt : tt.on(this.device), this.tensorOf(y)), 'jac(t, y) returned');
        },
        constant: false,
      };
    }
    const J = this.jacobianValue(jac, 'jac is');
    void n;
    return { of: () => J, constant: true };
  }

  /** The default Jacobian: jacfwd of f in y, jit-compiled as a function of (t, y); eager when f cannot be traced. */
  private forwardJacobian(): (t: number, y: Float64Array) => Jacobian {
    const n = this.n,
      shape = this.shape;
    const J = (t: Tensor, y: Tensor): Tensor => jacfwd((v: Tensor) => this.f(t, v.reshape(shape)).reshape([n]))(y.reshape([n]));
    let jitted: Jitted | null = jit(J);
    return (t, y) => {
      const tt = tensor(t),
        tv = this.device === undefined ? tt : tt.on(this.device);
      let out: Tensor | undefined;
      if (jitted !== null) {
        try {
          out = jitted(tv, this.tensorOf(y)) as Tensor;
        } catch {
          jitted = null;
        }
      }
      if (out === undefined) {
        try {
          out = J(tv, this.tensorOf(y));
        } catch (e) {
          if (e instanceof TransformError) throw new TransformError(`${OP}: the default Jacobian (jacfwd of f) failed: ${e.message}; pass the Jacobian as the jac option`);
          throw e;
        }
      }
      return this.jacobianValue(out, 'the Jacobian of f is');
    };
  }

  /** A Jacobian value checked: [n, n] (or y0.shape twice), dense or sparse, real or (for a complex y) complex. */
  private jacobianValue(v: unknown, what: string): Jacobian {
    const n = this.n;
    if (isSparse(v)) {
      const m = ((v as SparseMatrix).tocsr() as CompressedMatrix).sumDuplicates() as CompressedMatrix;
      if (m.shape[0] !== n || m.shape[1] !== n) throw new ShapeError(`${OP}: ${what} a ${m.shape[0]}x${m.shape[1]} sparse matrix, but y0 has ${n} elements; the Jacobian must be ${n}x${n}`);
      const c = isComplex(m.dtype);
      if (c && !this.complex) throw new DTypeError(`${OP}: ${what} complex (${m.dtype}) for a real y0; give a complex y0 to integrate in the complex domain`);
      return { kind: 'sparse', complex: c || this.complex, m };
    }
    let t: Tensor;
    if (v instanceof Tensor) t = v;
    else {
      try {
        t = tensor(v as TensorData);
      } catch (e) {
        throw new ValueError(`${OP}: ${what} neither a tensor nor a sparse matrix (${(e as Error).message})`);
      }
    }
    const square = t.ndim === 2 && t.shape[0] === n && t.shape[1] === n;
    const doubled = t.ndim === 2 * this.shape.length && t.shape.every((d, i) => d === this.shape[i % this.shape.length]);
    if (!square && !doubled) throw new ShapeError(`${OP}: ${what} of shape ${fmtShape(t.shape)}, but y0 has ${n} elements; the Jacobian must be [${n}, ${n}]`);
    if (isComplex(t.dtype) && !this.complex) throw new DTypeError(`${OP}: ${what} complex (${t.dtype}) for a real y0; give a complex y0 to integrate in the complex domain`);
    const dtype = this.complex ? 'complex128' : 'float64';
    const a = Float64Array.from(t.cast(dtype).toArray() as ArrayLike<number>);
    return { kind: 'dense', complex: this.complex, a };
  }
}

/** |v_i| of a real or interleaved complex vector. */
export function absAt(v: Float64Array, i: number, complex: boolean): number {
  return complex ? Math.hypot(v[2 * i]!, v[2 * i + 1]!) : Math.abs(v[i]!);
}

/**
 * SciPy's select_initial_step on host vectors (common.py): h from the norms of
 * y0, f0 and a difference quotient of f (one evaluation of f, counted).
 */
export function selectInitialStepHost(sys: HostSystem, t0: number, y0: Float64Array, f0: Float64Array, direction: number, order: number): number {
  if (sys.n === 0) return Infinity;
  const scale = sys.scale(y0);
  const d0 = sys.norm(y0, scale),
    d1 = sys.norm(f0, scale);
  const h0 = d0 < 1e-5 || d1 < 1e-5 ? 1e-6 : (0.01 * d0) / d1;
  const y1 = new Float64Array(y0.length);
  for (let i = 0; i < y0.length; i++) y1[i] = y0[i]! + h0 * direction * f0[i]!;
  const f1 = sys.fun(t0 + h0 * direction, y1);
  const df = new Float64Array(f0.length);
  for (let i = 0; i < f0.length; i++) df[i] = f1[i]! - f0[i]!;
  const d2 = sys.norm(df, scale) / h0;
  const h1 = d1 <= 1e-15 && d2 <= 1e-15 ? Math.max(1e-6, h0 * 1e-3) : (0.01 / Math.max(d1, d2)) ** (1 / (order + 1));
  return Math.min(100 * h0, h1);
}

/** LU (getrf through the linalg kernels of the state's device) of a·I + b·J, solved on the host. */
function denseShifted(device: string | undefined, n: number, J: Extract<Jacobian, { kind: 'dense' }>, complex: boolean, ar: number, ai: number, b: number): Factored {
  const lanes = complex ? 2 : 1;
  const M = new Float64Array(n * n * lanes);
  if (complex && !J.complex) for (let k = 0; k < n * n; k++) M[2 * k] = b * J.a[k]!;
  else for (let k = 0; k < M.length; k++) M[k] = b * J.a[k]!;
  for (let i = 0; i < n; i++) {
    M[(i * n + i) * lanes] += ar;
    if (complex) M[(i * n + i) * 2 + 1] += ai;
  }
  const dtype = complex ? 'complex128' : 'float64';
  const lu = new Float64Array(M.length),
    piv = new Int32Array(n),
    perm = new Int32Array(n);
  if (n > 0) kernelsFor(device ?? defaultDevice(), LINALG_KERNELS, OP, dtype).lu(dtype, 1, n, n, M, lu, piv, perm);
  // A zero pivot (info > 0) is not an error here: as with SciPy's lu_factor,
  // the solve then gives non-finite values and the Newton iteration fails.
  return { complex, solve: (rhs) => (complex ? luSolveComplex(n, lu, perm, rhs) : luSolveReal(n, lu, perm, rhs)) };
}

/** x with (l u) x = rhs[perm]: a[perm[i], :] = (l u)[i, :], so l u x = P a x = P rhs. */
function luSolveReal(n: number, lu: Float64Array, perm: Int32Array, rhs: Float64Array): Float64Array {
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = rhs[perm[i]!]!;
    const row = i * n;
    for (let j = 0; j < i; j++) s -= lu[row + j]! * x[j]!;
    x[i] = s;
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i]!;
    const row = i * n;
    for (let j = i + 1; j < n; j++) s -= lu[row + j]! * x[j]!;
    x[i] = s / lu[row + i]!;
  }
  return x;
}

function luSolveComplex(n: number, lu: Float64Array, perm: Int32Array, rhs: Float64Array): Float64Array {
  const x = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    let sr = rhs[2 * perm[i]!]!,
      si = rhs[2 * perm[i]! + 1]!;
    const row = 2 * i * n;
    for (let j = 0; j < i; j++) {
      const lr = lu[row + 2 * j]!,
        li = lu[row + 2 * j + 1]!,
        xr = x[2 * j]!,
        xi = x[2 * j + 1]!;
      sr -= lr * xr - li * xi;
      si -= lr * xi + li * xr;
    }
    x[2 * i] = sr;
    x[2 * i + 1] = si;
  }
  for (let i = n - 1; i >= 0; i--) {
    let sr = x[2 * i]!,
      si = x[2 * i + 1]!;
    const row = 2 * i * n;
    for (let j = i + 1; j < n; j++) {
      const ur = lu[row + 2 * j]!,
        ui = lu[row + 2 * j + 1]!,
        xr = x[2 * j]!,
        xi = x[2 * j + 1]!;
      sr -= ur * xr - ui * xi;
      si -= ur * xi + ui * xr;
    }
    const dr = lu[row + 2 * i]!,
      di = lu[row + 2 * i + 1]!;
    const d = dr * dr + di * di;
    x[2 * i] = (sr * dr + si * di) / d;
    x[2 * i + 1] = (si * dr - sr * di) / d;
  }
  return x;
}

/**
 * The CSR pattern of J with every diagonal entry present, and where J's
 * values and the diagonal go in it: computed once per Jacobian matrix.
 */
interface ShiftedPattern {
  indptr: Int32Array;
  indices: Int32Array;
  /** Position in the new pattern of J's k-th stored value. */
  from: Int32Array;
  /** Position of (i, i). */
  diag: Int32Array;
}
const patterns = new WeakMap<CompressedMatrix, ShiftedPattern>();

function shiftedPattern(m: CompressedMatrix): ShiftedPattern {
  const hit = patterns.get(m);
  if (hit !== undefined) return hit;
  const csr = m.format === 'csr' ? m : (m.tocsr() as CompressedMatrix);
  const n = csr.shape[0];
  const ip = csr.indptr,
    ix = csr.indices;
  const indptr = new Int32Array(n + 1);
  const indices: number[] = [];
  const from = new Int32Array(ix.length),
    diag = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let placed = false;
    for (let k = ip[i]!; k < ip[i + 1]!; k++) {
      const j = ix[k]!;
      if (!placed && j > i) ((diag[i] = indices.length), indices.push(i), (placed = true));
      if (j === i) ((diag[i] = indices.length), (placed = true));
      from[k] = indices.length;
      indices.push(j);
    }
    if (!placed) ((diag[i] = indices.length), indices.push(i));
    indptr[i + 1] = indices.length;
  }
  const p = { indptr, indices: Int32Array.from(indices), from, diag };
  patterns.set(m, p);
  return p;
}

/** sparse.splu of a·I + b·J (J canonical: sorted, no duplicates). */
function sparseShifted(m: CompressedMatrix, complex: boolean, ar: number, ai: number, b: number): Factored {
  const csr = m.format === 'csr' ? m : (m.tocsr() as CompressedMatrix);
  const p = shiftedPattern(m);
  const lanes = complex ? 2 : 1;
  const src = csr.data as Float64Array | Float32Array;
  const srcComplex = isComplex(csr.dtype);
  const data = new Float64Array(p.indices.length * lanes);
  for (let k = 0; k < p.from.length; k++) {
    if (srcComplex) ((data[2 * p.from[k]!] = b * src[2 * k]!), (data[2 * p.from[k]! + 1] = b * src[2 * k + 1]!));
    else data[p.from[k]! * lanes] = b * src[k]!;
  }
  for (let i = 0; i < p.diag.length; i++) {
    data[p.diag[i]! * lanes] += ar;
    if (complex) data[p.diag[i]! * 2 + 1] += ai;
  }
  const n = csr.shape[0];
  const A = new CsrMatrix([n, n], complex ? 'complex128' : 'float64', p.indptr, p.indices, data, { sorted: true, canonical: true });
  const f = splu(A);
  return { complex, solve: (rhs) => f.solveRaw(rhs) };
}
