// `rlx solve A.mtx [b.mtx] --method ...`: solves A x = b for a Matrix Market A
// with one of rlx's sparse solvers and reports what a user checks first:
// method, size, iterations, the relative residual ‖b − A x‖/‖b‖ and the time.
//
// The residual is computed here, by a plain loop over A's stored entries in
// float64 (complex when A or b is), independently of the solver's own estimate
// and of rlx's spmv: it is the number the command vouches for. An iterative
// solve that does not reach --rtol is reported and exits 1.
//
// --progress draws a bar on a TTY stderr through the Krylov solvers' existing
// `callback` option (the solvers' own `progress` option leaves a final outcome
// line; the CLI prints its own report instead, so it clears the bar). The
// callback is passed only when the bar is drawn: gmres forms the iterate at
// every step for a callback (O(k·n) extra work), which a silent run must not pay.

import { performance } from 'node:perf_hooks';
import { cg, bicgstab, gmres, minres, type KrylovResult } from '../sparse/krylov.js';
import { splu, klu, cholesky, type SparseFactorization } from '../sparse/factor.js';
import type { CsrMatrix } from '../sparse/csr.js';
import { tensor, fromStorage } from '../tensor/create.js';
import type { Tensor } from '../tensor/tensor.js';
import { progress } from '../progress.js';
import { CliFailure, UsageError } from './errors.js';
import { choiceOption, numberOption, positionals, type Command } from './command.js';
import { readMatrixFile, writeVectorFile } from './matrix-io.js';

const METHODS = ['splu', 'klu', 'cholesky', 'cg', 'gmres', 'bicgstab', 'minres'] as const;
type Method = (typeof METHODS)[number];
const ITERATIVE = new Set<Method>(['cg', 'gmres', 'bicgstab', 'minres']);

/** The right-hand side as interleaved-or-real float64 values: b.mtx (n×1 or 1×n, dense or sparse), or ones. */
function rightHandSide(n: number, path: string | undefined): { values: Float64Array; complex: boolean } {
  if (path === undefined) return { values: new Float64Array(n).fill(1), complex: false };
  const B = readMatrixFile(path);
  const [r, c] = B.shape;
  if (!((r === n && c === 1) || (r === 1 && c === n))) throw new CliFailure(`${path}: b must be ${n}×1 (or 1×${n}) to match A, got ${r}×${c}`);
  const complex = B.dtype === 'complex128' || B.dtype === 'complex64';
  const L = complex ? 2 : 1;
  const values = new Float64Array(n * L);
  const { indptr, indices } = B;
  const data = B.data;
  // Sum stored entries into position (row for n×1, column for 1×n): duplicates add, as the format says.
  for (let i = 0; i < r; i++)
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const k = c === 1 ? i : indices[p]!;
      for (let l = 0; l < L; l++) values[k * L + l]! += data[p * L + l]!;
    }
  return { values, complex };
}

/** ‖b − A x‖₂ / ‖b‖₂ in float64 over A's stored entries (complex when `complex`: all arrays interleaved). */
export function relativeResidual(A: CsrMatrix, x: Float64Array, b: Float64Array, complex: boolean): number {
  const aCplx = A.dtype === 'complex128' || A.dtype === 'complex64';
  const { indptr, indices } = A;
  const data = A.data;
  const n = A.shape[0];
  let rr = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    let re = 0;
    let im = 0;
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const j = indices[p]!;
      const ar = aCplx ? data[2 * p]! : data[p]!;
      const ai = aCplx ? data[2 * p + 1]! : 0;
      const xr = complex ? x[2 * j]! : x[j]!;
      const xi = complex ? x[2 * j + 1]! : 0;
      re += ar * xr - ai * xi;
      im += ar * xi + ai * xr;
    }
    const br = complex ? b[2 * i]! : b[i]!;
    const bi = complex ? b[2 * i + 1]! : 0;
    rr += (br - re) ** 2 + (bi - im) ** 2;
    bb += br * br + bi * bi;
  }
  return bb === 0 ? Math.sqrt(rr) : Math.sqrt(rr / bb);
}

function factor(method: Method, A: CsrMatrix): SparseFactorization {
  if (method === 'splu') return splu(A);
  if (method === 'klu') return klu(A);
  return cholesky(A);
}

export const solve: Command = {
  name: 'solve',
  summary: 'solve A x = b for a Matrix Market A with a sparse direct or Krylov solver',
  usage: 'solve A.mtx [b.mtx] [--method m] [--rtol x] [-o x.mtx] [--json] [--progress]',
  options: {
    method: { type: 'string', short: 'm', help: `-m, --method   ${METHODS.join('|')} (default splu)` },
    rtol: { type: 'string', help: '--rtol <x>     iterative methods: stop at ‖b − Ax‖ ≤ rtol‖b‖ (default 1e-8)' },
    maxiter: { type: 'string', help: '--maxiter <k>  iterative methods: iteration limit (default 10·n)' },
    output: { type: 'string', short: 'o', help: '-o, --output   write x to this file (Matrix Market array, n×1)' },
    json: { type: 'boolean', help: '--json         one JSON object on stdout' },
    progress: { type: 'boolean', help: '--progress     a progress bar on stderr (TTY only; not with --json)' },
  },
  details: 'b defaults to ones. The residual printed is recomputed from A, x and b, not taken from the solver.\nExit 1 when an iterative method does not reach --rtol.',
  run(args) {
    const [aPath, bPath] = positionals(args, ['A.mtx'], ['b.mtx']) as [string, string | undefined];
    const method = choiceOption(args, 'method', METHODS, 'splu');
    const rtol = numberOption(args, 'rtol', { positive: true }) ?? 1e-8;
    const maxiter = numberOption(args, 'maxiter', { positive: true, integer: true });
    if (!ITERATIVE.has(method) && (args.values['rtol'] !== undefined || maxiter !== undefined))
      throw new UsageError(`--rtol and --maxiter apply to the iterative methods (cg, gmres, bicgstab, minres), not ${method}`);
    const json = args.values['json'] === true;
    const out = args.values['output'] as string | undefined;

    const t0 = performance.now();
    const A = readMatrixFile(aPath);
    const [n, m] = A.shape;
    if (n !== m) throw new CliFailure(`${aPath}: A must be square, got ${n}×${m}`);
    const rhs = rightHandSide(n, bPath);
    const aCplx = A.dtype === 'complex128' || A.dtype === 'complex64';
    const complex = aCplx || rhs.complex;
    const b: Tensor = rhs.complex ? fromStorage(rhs.values, [n], 'complex128') : tensor(rhs.values);
    const tRead = performance.now() - t0;

    const t1 = performance.now();
    let x: Tensor;
    let it: KrylovResult | undefined;
    // Which library factored A: splu is UMFPACK where the addon has it, KLU in a build without GPL parts, the js LU without the addon.
    let factorization: string | undefined;
    try {
      if (ITERATIVE.has(method)) {
        const bar = progress({ label: method, total: 1, enabled: args.values['progress'] === true && !json && process.stderr.isTTY === true });
        const opts: Parameters<typeof cg>[2] = { rtol, atol: 0 };
        if (maxiter !== undefined) opts.maxiter = maxiter;
        if (bar.enabled) {
          // Progress as the fraction of the way, on a log scale, from the first residual to rtol·‖r0‖ (x0 = 0: r0 = b).
          let r0 = 0;
          opts.callback = (k, rn) => {
            if (r0 === 0) r0 = rn > 0 ? rn : 1;
            const f = rn > 0 ? Math.log(r0 / rn) / Math.log(1 / rtol) : 1;
            bar.update(f, () => `it ${k}, residual ${rn.toExponential(2)}`);
          };
        }
        const solver = { cg, bicgstab, gmres, minres }[method as 'cg'];
        it = solver(A, b, opts);
        bar.done(undefined, { clear: true });
        x = it.x;
      } else {
        const f = factor(method, A);
        factorization = f.method;
        try {
          x = f.solve(b);
        } finally {
          f.dispose();
        }
      }
    } catch (e) {
      throw new CliFailure(`${method} on ${aPath}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    }
    const xv = x.cast(complex ? 'complex128' : 'float64').toArray() as Float64Array;
    const tSolve = performance.now() - t1;
    const bv = complex && !rhs.complex ? interleave(rhs.values) : rhs.values;
    const residual = relativeResidual(A, xv, bv, complex);
    if (out !== undefined) writeVectorFile(out, xv, complex, `x solving A x = b for A = ${aPath} (rlx solve --method ${method})`);

    const converged = it === undefined ? Number.isFinite(residual) : it.converged;
    const report = {
      matrix: aPath,
      rhs: bPath ?? 'ones',
      method,
      ...(factorization !== undefined ? { factorization } : {}),
      n,
      nnz: A.nnz,
      dtype: complex ? 'complex128' : 'float64',
      ...(it ? { iterations: it.iterations, converged: it.converged, info: it.info, rtol } : {}),
      relativeResidual: residual,
      seconds: { read: tRead / 1000, solve: tSolve / 1000 },
      ...(out !== undefined ? { output: out } : {}),
    };
    if (json) console.log(JSON.stringify(report));
    else {
      console.log(`method: ${method}${factorization !== undefined ? ` (factored by ${factorization})` : ''}`);
      console.log(`n: ${n}, nnz: ${A.nnz}${complex ? ' (complex)' : ''}`);
      if (it) console.log(`iterations: ${it.iterations}${it.converged ? '' : ' (not converged)'}`);
      console.log(`relative residual ‖b − Ax‖/‖b‖: ${residual.toExponential(3)}`);
      console.log(`time: solve ${fmtMs(tSolve)}, read ${fmtMs(tRead)}`);
      if (out !== undefined) console.log(`x written to ${out}`);
    }
    if (!converged) throw new CliFailure(it ? `${method} did not converge to rtol ${rtol} in ${it.iterations} iterations (relative residual ${residual.toExponential(3)}${it.message ? `: ${it.message}` : ''})` : `the solution is not finite`);
    return 0;
  },
};

const fmtMs = (ms: number): string => (ms < 1000 ? `${ms.toFixed(1)} ms` : `${(ms / 1000).toFixed(2)} s`);

/** A real vector as complex interleaved (imaginary parts 0). */
function interleave(v: Float64Array): Float64Array {
  const out = new Float64Array(2 * v.length);
  for (let i = 0; i < v.length; i++) out[2 * i] = v[i]!;
  return out;
}
