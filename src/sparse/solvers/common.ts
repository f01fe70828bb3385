// What every Krylov solver shares: argument checking, the real/complex set-up,
// preconditioner normalization, the result object, and the driver that enforces
// the stopping rule on the TRUE residual.
//
// Stopping rule (SciPy's): ‖b − A x‖₂ ≤ max(rtol·‖b‖₂, atol). The solvers steer
// by their cheap recurrence (CG/BiCGSTAB's updated r, GMRES's Givens estimate,
// MINRES's φ̄), which drifts from the true residual in floating point. So when a
// solver claims convergence the driver recomputes r = b − A x; if the rule does
// not hold it restarts the solver from the current x with that true residual
// (at most MAX_TRUE_RESTARTS times), and `converged`/`info`/`residualNorm` in the
// result always describe the returned x's true residual.
//
// info follows SciPy: 0 converged; > 0 not converged, = iterations done (maxiter
// when it ran out); < 0 breakdown (-1), with `breakdown` naming the quantity that
// vanished and `message` saying what it means. Illegal input throws typed errors
// (ValueError, ShapeError) instead of returning info < 0.
//
// Non-finite input (NaN/±Inf in b, x0 or A) is found before the solve and
// reported as info −1, breakdown 'nonfinite' (or a NonFiniteError under
// `checkFinite`); b outside a safe magnitude range is solved scaled by a power
// of two and x scaled back (finite.ts says why and how).

import type { RawOperator, SparseDType } from '../contract.js';
import { Tensor } from '../../tensor/tensor.js';
import { fromStorage } from '../../tensor/create.js';
import { ShapeError, ValueError } from '../../tensor/errors.js';
import { NonFiniteError } from '../../tensor/errors-linalg.js';
import { aslinearoperator, csrArraysOf, isPreconditioner, type OperatorLike, type PreconditionerLike, type TypedPreconditioner } from './linear-operator.js';
import { csrMatvecDotRaw, csrMatvecRaw } from '../spmv.js';
import { isComplexDType } from './csr-kernels.js';
import { ldexp, ldexpInPlace, nrm2, sub } from './vec.js';
import { findNonFiniteInput, firstNonFinite, scaleExponent, type NonFiniteInput } from './finite.js';
import { progressOption, type ProgressOption } from '../../progress.js';
import { krylovBar } from './progress-bar.js';

/** A right-hand side or start vector: Float64Array (interleaved when complex), number[] or a 1-D Tensor. */
export type VectorLike = Float64Array | readonly number[] | Tensor;

export interface SolveOptions {
  /** Start vector (default zero). */
  x0?: VectorLike;
  /** Relative tolerance, default 1e-5. Must be ≥ 0. */
  rtol?: number;
  /** Absolute tolerance, default 0. Must be ≥ 0. */
  atol?: number;
  /** Iteration limit, default 10·n (SciPy). GMRES counts inner (Arnoldi) steps, not restart cycles. */
  maxiter?: number;
  /** Preconditioner M ≈ A⁻¹ (applied as out = M x): jacobi(), ssor(), ilu0(), ic0(), a LinearOperator... */
  M?: PreconditionerLike;
  /** Called after every iteration with the current iterate, the iteration number (1-based) and the solver's residual estimate. */
  callback?: (xk: Float64Array, iteration: number, residualNorm: number) => void;
  /**
   * NaN/±Inf in b, x0 or A's stored values (or in A x0, for an operator known
   * only by its action) throws NonFiniteError naming the input and position.
   * Default false: the result reports it (info −1, breakdown 'nonfinite').
   */
  checkFinite?: boolean;
  /**
   * A progress bar on stderr while the solve iterates (default off): true, or
   * {label, stream, enabled, intervalMs}. Drawn only when the stream is a TTY
   * (piped output and tests stay silent), redrawn at most every 100 ms, and
   * ended with the outcome (converged or not, iterations, true residual). It
   * shows the way from the first residual to the target on a log scale (or
   * the iteration budget used, when that is further) and never forms the
   * iterate, so it costs nothing measurable per iteration (progress-bar.ts).
   */
  progress?: ProgressOption;
}

export interface SolveResult {
  /** The solution: n values (float64) or 2n interleaved (complex128). */
  x: Float64Array;
  dtype: 'float64' | 'complex128';
  /** 0 converged; > 0 iterations done without converging; -1 breakdown or non-finite input. */
  info: number;
  iterations: number;
  /** True residual ‖b − A x‖₂ of the returned x. */
  residualNorm: number;
  converged: boolean;
  /** The quantity that vanished when info < 0 (e.g. 'rho', 'omega', 'pAp'); 'nonfinite' for NaN/Inf input or iterates, 'overflow' when x is out of float64 range. */
  breakdown?: string;
  message?: string;
  /** x as a 1-D rlx Tensor of `dtype` (a copy). */
  toTensor(): Tensor;
}

/** The problem as the solver cores see it: everything float64, one complex flag. */
export interface Problem {
  name: string;
  n: number;
  cplx: boolean;
  /** out = A x (out is written and returned; the solver's workspace, never the user's). */
  A(x: Float64Array, out: Float64Array): Float64Array;
  /** out = A x returning xᵀout in one pass (real square CSR A with a native kernel), or null when not available. */
  Adot: ((x: Float64Array, out: Float64Array) => number | null) | null;
  /** out = M x, or null without preconditioner. */
  M: ((x: Float64Array, out: Float64Array) => Float64Array) | null;
  /** The right-hand side the cores see: 2^scaleExp · b. */
  b: Float64Array;
  bnorm: number;
  /** max(rtol‖b‖, atol), in the cores' (scaled) units. */
  target: number;
  /** The cores solve A (2^scaleExp x) = 2^scaleExp b; result() scales back (finite.ts). */
  scaleExp: number;
  /** Throw NonFiniteError instead of reporting (SolveOptions.checkFinite). */
  checkFinite: boolean;
  maxiter: number;
  callback?: (xk: Float64Array, iteration: number, residualNorm: number) => void;
  /** The checked `progress` option (SolveOptions.progress). */
  progress: ProgressOption | undefined;
  /**
   * Called by the cores after every iteration with the iteration number and
   * their residual estimate (cores' units), never with x: the progress bar's
   * hook, set by drive() only while a bar is drawn (null otherwise).
   */
  onStep: ((iteration: number, residualNorm: number) => void) | null;
  /** The operator itself (MINRES/GMRES do not need more; kept for messages). */
  op: RawOperator;
}

export type CoreStatus = 'converged' | 'maxiter' | 'restart' | 'breakdown';
export interface CoreOutcome {
  status: CoreStatus;
  iterations: number;
  breakdown?: string;
  message?: string;
}
/**
 * One run of a solver from x with true residual r (‖r‖ = rnorm), at most `budget`
 * iterations; `done` iterations were spent before (for callback numbering).
 * Mutates x (and r as it likes).
 */
export type Core = (p: Problem, x: Float64Array, r: Float64Array, rnorm: number, budget: number, done: number) => CoreOutcome;

const MAX_TRUE_RESTARTS = 5;

/** Reads a vector argument: its values and, when it says so (complex Tensor), complex-ness. */
export function readVector(v: VectorLike, who: string): { data: Float64Array; complex?: boolean } {
  if (v instanceof Float64Array) return { data: v };
  if (v instanceof Tensor) {
    const s = v.shape;
    if (!(s.length === 1 || (s.length === 2 && s[1] === 1))) throw new ShapeError(`${who}: expected a 1-D Tensor (or [n, 1]), got shape [${s.join(', ')}]`);
    const complex = v.dtype === 'complex64' || v.dtype === 'complex128';
    return { data: Float64Array.from(v.toArray() as ArrayLike<number>), complex };
  }
  if (Array.isArray(v) || ArrayBuffer.isView(v)) return { data: Float64Array.from(v as ArrayLike<number>) };
  throw new ValueError(`${who}: expected a Float64Array, number[] or Tensor`);
}

function checkTol(who: string, name: string, v: number): number {
  if (typeof v !== 'number' || Number.isNaN(v) || v < 0) throw new ValueError(`${who}: ${name} must be a non-negative number, got ${v}`);
  return v;
}

/** Widens real interleaved data to complex (imaginary parts 0). */
function toComplex(x: Float64Array): Float64Array {
  const y = new Float64Array(2 * x.length);
  for (let i = 0; i < x.length; i++) y[2 * i] = x[i]!;
  return y;
}

/** Applies a real map to the real and imaginary parts of an interleaved vector separately. */
export function splitComplex(n: number, f: (x: Float64Array) => Float64Array): (x: Float64Array, out: Float64Array) => Float64Array {
  const re = new Float64Array(n),
    im = new Float64Array(n);
  return (x, out) => {
    for (let i = 0; i < n; i++) {
      re[i] = x[2 * i]!;
      im[i] = x[2 * i + 1]!;
    }
    const yr = f(re).slice();
    const yi = f(im);
    for (let i = 0; i < n; i++) {
      out[2 * i] = yr[i]!;
      out[2 * i + 1] = yi[i]!;
    }
    return out;
  };
}

const into = (y: Float64Array, out: Float64Array): Float64Array => {
  if (y !== out) out.set(y);
  return out;
};

export interface Setup {
  p: Problem;
  x: Float64Array;
  /** b = 0: the answer is x = 0 with 0 iterations; non-finite input: the report (set when so). */
  early?: SolveResult;
}

/** The result for non-finite input: no solve, x all NaN (nothing in it is an answer), or the NonFiniteError under checkFinite. */
function nonFiniteResult(p: Problem, bad: NonFiniteInput): SolveResult {
  if (p.checkFinite) throw new NonFiniteError(`${p.name}: ${bad.what}`, bad.position, bad.value);
  const x = new Float64Array((p.cplx ? 2 : 1) * p.n).fill(NaN);
  return result(p, x, -1, 0, NaN, 'nonfinite', `${p.name}: ${bad.what} holds ${bad.value} at [${bad.position.join(', ')}]; no solve was attempted (pass finite input)`);
}

/** Validates the arguments of solver `name` and builds its Problem and start vector. */
export function setup(name: string, A: OperatorLike, bIn: VectorLike, opts: SolveOptions = {}): Setup {
  const op = aslinearoperator(A);
  const [m, n] = op.shape;
  if (m !== n) throw new ShapeError(`${name}: A must be square, got shape [${m}, ${n}]`);
  const rtol = checkTol(name, 'rtol', opts.rtol ?? 1e-5);
  const atol = checkTol(name, 'atol', opts.atol ?? 0);
  const maxiter = opts.maxiter ?? Math.max(10 * n, 1);
  if (!Number.isInteger(maxiter) || maxiter < 1) throw new ValueError(`${name}: maxiter must be a positive integer, got ${maxiter}`);

  const opCplx = isComplexDType(op.dtype);
  const bv = readVector(bIn, `${name}: b`);
  // b decides complex-ness when it is a complex Tensor; a raw array of 2n values is complex only for a complex A.
  if (bv.data.length !== n && !(bv.data.length === 2 * n && (opCplx || bv.complex))) {
    throw new ShapeError(`${name}: b has ${bv.data.length} values, expected ${n}${opCplx ? ` or ${2 * n} (interleaved complex)` : ''} for A of shape [${m}, ${n}] ${op.dtype}`);
  }
  let bComplex = bv.complex ?? (bv.data.length === 2 * n && n > 0);
  const x0v = opts.x0 !== undefined ? readVector(opts.x0, `${name}: x0`) : undefined;
  if (x0v?.complex) bComplex = true;
  const cplx = opCplx || bComplex;
  let b = cplx && bv.data.length === n ? toComplex(bv.data) : bv.data;

  // A CSR matrix goes straight to the raw kernel: `out` is always solver workspace
  // (so the kernel may check indices inside its loop), and real square float64
  // CSR gets the fused A x + dot pass that CG uses.
  const csr = csrArraysOf(op);
  let Amv: Problem['A'];
  if (cplx && !opCplx) Amv = splitComplex(n, (v) => op.matvec(v));
  else if (csr) Amv = (x, out) => csrMatvecRaw(csr, x, out, true);
  else Amv = (x, out) => into(op.matvec(x, out), out);
  const Adot = csr && !cplx && csr.dtype === 'float64' ? (x: Float64Array, out: Float64Array) => csrMatvecDotRaw(csr, x, out) : null;

  const p: Problem = { name, n, cplx, A: Amv, Adot, M: makeM(name, opts.M, n, cplx), b, bnorm: 0, target: 0, scaleExp: 0, checkFinite: opts.checkFinite === true, maxiter, callback: opts.callback, progress: progressOption(name, opts.progress), onStep: null, op };

  const len = (cplx ? 2 : 1) * n;
  let x: Float64Array = new Float64Array(len);
  if (x0v) {
    if (x0v.data.length !== n && x0v.data.length !== len) throw new ShapeError(`${name}: x0 has ${x0v.data.length} values, expected ${len}`);
    x = x0v.data.length === len ? x0v.data.slice() : toComplex(x0v.data);
  }
  const bad = findNonFiniteInput(b, x0v ? x : null, op, cplx);
  if (bad) return { p, x, early: nonFiniteResult(p, bad) };
  const k = scaleExponent(b);
  if (k !== 0) {
    // Solve A (2^k x) = 2^k b (exact); result() and the callback see unscaled values.
    p.b = b = ldexpInPlace(b.slice(), k);
    ldexpInPlace(x, k);
    p.scaleExp = k;
    const cb = opts.callback;
    if (cb) p.callback = (xk, it, rn) => cb(ldexpInPlace(xk.slice(), -k), it, ldexp(rn, -k));
  }
  p.bnorm = nrm2(b);
  p.target = Math.max(rtol * p.bnorm, ldexp(atol, k));
  if (p.bnorm === 0) {
    // SciPy: a zero right-hand side has the exact solution 0, whatever x0 says.
    return { p, x, early: result(p, new Float64Array(len), 0, 0, 0) };
  }
  return { p, x };
}

function makeM(name: string, M: PreconditionerLike | undefined, n: number, cplx: boolean): Problem['M'] {
  if (M === undefined || M === null) return null;
  if (isPreconditioner(M)) {
    const pm = M as TypedPreconditioner;
    if (pm.shape[0] !== n || pm.shape[1] !== n) throw new ShapeError(`${name}: preconditioner M has shape [${pm.shape.join(', ')}], expected [${n}, ${n}]`);
    if (cplx && pm.dtype && !isComplexDType(pm.dtype)) return splitComplex(n, (v) => pm.apply(v));
    return (x, out) => into(pm.apply(x, out), out);
  }
  const mo = aslinearoperator(M);
  if (mo.shape[0] !== n || mo.shape[1] !== n) throw new ShapeError(`${name}: preconditioner M has shape [${mo.shape.join(', ')}], expected [${n}, ${n}]`);
  if (cplx && !isComplexDType(mo.dtype)) return splitComplex(n, (v) => mo.matvec(v));
  return (x, out) => into(mo.matvec(x, out), out);
}

/** The result object; x and residualNorm in the cores' units (scaled back here when the problem was scaled). */
export function result(p: Problem, x: Float64Array, info: number, iterations: number, residualNorm: number, breakdown?: string, message?: string): SolveResult {
  const dtype = p.cplx ? 'complex128' : 'float64';
  if (p.scaleExp !== 0) {
    ldexpInPlace(x, -p.scaleExp);
    residualNorm = ldexp(residualNorm, -p.scaleExp);
    if (info >= 0 && firstNonFinite(x) >= 0) {
      // The scaled solve was fine, but x itself does not fit in float64 (|x| > 1.8e308).
      info = -1;
      breakdown = 'overflow';
      message = `${p.name}: the solution overflows float64 (some |x_i| > ${Number.MAX_VALUE.toExponential(2)})`;
    }
  }
  const res: SolveResult = {
    x,
    dtype,
    info,
    iterations,
    residualNorm,
    converged: info === 0,
    toTensor: () => fromStorage(x.slice(), [p.n], dtype),
  };
  if (breakdown !== undefined) res.breakdown = breakdown;
  if (message !== undefined) res.message = message;
  return res;
}

/** r = b − A x; returns ‖r‖. */
export function trueResidual(p: Problem, x: Float64Array, r: Float64Array, tmp: Float64Array): number {
  p.A(x, tmp);
  sub(p.b, tmp, r);
  return nrm2(r);
}

/** Runs `core` until the true residual meets the rule, maxiter runs out or it breaks down (see header). */
export function drive(s: Setup, core: Core): SolveResult {
  if (s.early) return s.early;
  const { p, x } = s;
  const r = new Float64Array(x.length),
    tmp = new Float64Array(x.length);
  let rnorm = trueResidual(p, x, r, tmp);
  if (!Number.isFinite(rnorm)) {
    // b, x0 and A's stored values are finite (setup), so A x0 overflowed, or the operator (known only by its action) gave NaN/Inf.
    const i = firstNonFinite(tmp);
    const at = i >= 0 ? Math.floor(i / (p.cplx ? 2 : 1)) : -1;
    if (p.checkFinite && i >= 0) throw new NonFiniteError(`${p.name}: A x0`, [at], tmp[i]!);
    return result(p, x.fill(NaN), -1, 0, rnorm, 'nonfinite', `${p.name}: the residual b − A x0 is not finite${i >= 0 ? ` (A x0 holds ${tmp[i]} at [${at}]: the operator has non-finite values or overflows)` : ''}; no solve was attempted`);
  }
  if (rnorm <= p.target) return result(p, x, 0, 0, rnorm); // x0 already solves it
  const bar = krylovBar(p, rnorm);
  if (bar === null) return iterate(p, x, r, tmp, rnorm, core);
  p.onStep = bar.step;
  try {
    const res = iterate(p, x, r, tmp, rnorm, core);
    bar.finish(res);
    return res;
  } catch (e) {
    bar.abort();
    throw e;
  } finally {
    p.onStep = null;
  }
}

/** drive()'s loop: core runs, each checked on the true residual r = b − A x (‖r‖ = rnorm on entry). */
function iterate(p: Problem, x: Float64Array, r: Float64Array, tmp: Float64Array, rnorm: number, core: Core): SolveResult {
  let it = 0,
    mismatches = 0;
  for (;;) {
    const out = core(p, x, r, rnorm, p.maxiter - it, it);
    it += out.iterations;
    rnorm = trueResidual(p, x, r, tmp);
    if (!Number.isFinite(rnorm)) return result(p, x, -1, it, rnorm, out.breakdown ?? 'nonfinite', out.message ?? `${p.name}: the iterate became non-finite`);
    if (rnorm <= p.target) return result(p, x, 0, it, rnorm);
    if (out.status === 'breakdown') return result(p, x, -1, it, rnorm, out.breakdown, out.message);
    if (it >= p.maxiter || out.status === 'maxiter') return result(p, x, Math.max(it, 1), it, rnorm);
    if (out.status === 'converged' && ++mismatches > MAX_TRUE_RESTARTS) {
      // The recurrence keeps claiming convergence the true residual does not confirm: the
      // requested tolerance is below the attainable accuracy (≈ ε‖A‖‖x‖). Stop honestly.
      return result(p, x, Math.max(it, 1), it, rnorm, undefined, `${p.name}: rtol/atol below attainable accuracy; true residual stagnates at ${rnorm.toExponential(3)}`);
    }
  }
}

export type { SparseDType };
