// Inputs and rlx sides of benchmarks/suites/sparse.mjs, shared with the `rlx-js`
// JS peer (benchmarks/js-peers/peer.mjs runs the same code with RLX_NATIVE=0,
// so the sparse module has no native SpMV and factors with its TS LU/Cholesky).
// The Python peers (benchmarks/peers/sparse.py) build the same inputs bit for bit.
//
// Matrix: rlx.sparse.poisson2d(n), the 5-point Dirichlet Laplacian on an n×n grid
// (N = n² unknowns, 4 on the diagonal, −1 for the 2-4 neighbours, CSR float64,
// columns sorted): SciPy's kronsum(T, T) of the 1-D T = tridiag(−1, 2, −1).
// poisson2dArrays(n) builds the same arrays in plain JS for JS peers (the matrix
// is symmetric, so its CSR arrays are also its CSC arrays).
// Vectors: x (SpMV) and b (solves) = ramp(N, 1); the eigsh start vector
// v0 = lcgInts(N, 7) / 4096 (a ramp vector is too regular for Lanczos).
//
// A case returns { fn, result, info, before?, after? }: fn() is the timed call,
// result(last) (untimed) what is checksummed: y for SpMV, x for solves, the
// eigenvalues for eigsh (eigenvectors carry a sign, and a basis of a repeated
// eigenvalue's space is not unique: poisson2d has pairs λ_ij = λ_ji).

import { ramp, lcgInts } from './inputs.mjs';

/** CSR (= CSC) arrays of poisson2d(n), plain JS. */
export function poisson2dArrays(n) {
  const N = n * n;
  const indptr = new Int32Array(N + 1);
  const indices = new Int32Array(5 * N - 4 * n);
  const data = new Float64Array(5 * N - 4 * n);
  let p = 0;
  for (let iy = 0; iy < n; iy++) {
    for (let ix = 0; ix < n; ix++) {
      const r = iy * n + ix;
      const put = (c, v) => {
        indices[p] = c;
        data[p++] = v;
      };
      if (iy > 0) put(r - n, -1);
      if (ix > 0) put(r - 1, -1);
      put(r, 4);
      if (ix < n - 1) put(r + 1, -1);
      if (iy < n - 1) put(r + n, -1);
      indptr[r + 1] = p;
    }
  }
  return { N, indptr, indices, data };
}

/** Right-hand side / SpMV input. */
export const rhs = (N) => ramp(N, 1);

/** eigsh start vector. */
export function startVector(N) {
  const v = lcgInts(N, 7);
  for (let i = 0; i < N; i++) v[i] /= 4096;
  return v;
}

/** I + dt·L for the 1-D Dirichlet Laplacian L = tridiag(−1, 2, −1)/h² on n points, dt/h² = 0.01: diagonal 1.02, off-diagonals −0.01 (CSC, as SciPy's splu wants). */
export function heatMatrix(rlx, n) {
  const sp = rlx.sparse;
  return sp.diags([new Float64Array(n).fill(1.02), new Float64Array(n - 1).fill(-0.01), new Float64Array(n - 1).fill(-0.01)], [0, -1, 1]).tocsc();
}

const ms = (t0) => +(Number(process.hrtime.bigint() - t0) / 1e6).toFixed(1);

export function rlxSparseCase(rlx, kind, args) {
  const sp = rlx.sparse;
  const { n } = args;
  const A = sp.poisson2d(n);
  const N = A.shape[0];
  const kernel = () => (rlx.backends().some((b) => b.name === 'native' && b.available) ? 'native' : 'js');
  switch (kind) {
    // y = A x through the Tensor API as a user calls it: a lazy product, realized.
    case 'spmv-tensor': {
      const x = rlx.tensor(rhs(N)).realize();
      return { fn: () => A.matvec(x).realize(), result: (y) => y.toArray(), info: () => ({ kernel: kernel(), threads: kernel() === 'js' ? 1 : rlx.numThreads(), nnz: A.nnz }) };
    }
    // x = A⁻¹ b by CG through the Tensor API: sparse.cg (eager, with info) or the lazy spsolve op.
    case 'cg-tensor':
    case 'spsolve-cg': {
      const b = rlx.tensor(rhs(N)).realize();
      let last;
      const fn = kind === 'cg-tensor' ? () => ((last = sp.cg(A, b, { rtol: args.rtol })), last.x.realize()) : () => sp.spsolve(A, b, { method: 'cg', rtol: args.rtol }).realize();
      return { fn, result: (x) => x.toArray(), info: () => (last ? { iterations: last.iterations, converged: last.converged } : { method: 'cg' }) };
    }
    // Implicit heat steps: 1000 solves with one factorization of (I + dt·L) on n points, u ← F.solve(u) (Tensor API).
    case 'heat-steps': {
      const H = heatMatrix(rlx, n);
      const F = sp.splu(H);
      const u0 = rlx.tensor(rhs(n)).realize();
      return {
        fn: () => {
          let u = u0;
          for (let s = 0; s < args.steps; s++) u = F.solve(u).realize();
          return u;
        },
        result: (u) => u.toArray(),
        info: () => ({ method: F.method, steps: args.steps }),
      };
    }
    // y = A x on the raw Float64Array path (sparse.raw: what the Krylov solvers call).
    case 'spmv': {
      const x = rhs(N);
      const y = new Float64Array(N);
      let prev, used;
      return {
        before: () => {
          if (args.threads) {
            prev = rlx.numThreads();
            rlx.setNumThreads(args.threads);
          }
          used = rlx.numThreads();
        },
        after: () => {
          if (prev) rlx.setNumThreads(prev);
        },
        // alloc: a fresh y per call (like SciPy's A @ x); otherwise y is reused.
        fn: args.alloc ? () => sp.raw.matvec(A, x) : () => sp.raw.matvec(A, x, y),
        result: (out) => out,
        info: () => ({ kernel: kernel(), threads: kernel() === 'js' ? 1 : used, nnz: A.nnz }),
      };
    }
    // Preconditioned CG from x0 = 0 to ‖b − A x‖ ≤ rtol ‖b‖; M built once, untimed.
    case 'cg': {
      const b = rhs(N);
      let M, setup;
      if (args.precond !== 'none') {
        const t0 = process.hrtime.bigint();
        M = sp[args.precond](A);
        setup = ms(t0);
      }
      let last;
      return {
        fn: () => (last = sp.raw.cg(A, b, { rtol: args.rtol, M })),
        result: (r) => r.x,
        info: () => ({
          iterations: last.iterations,
          converged: last.converged,
          ...(setup !== undefined ? { [`${args.precond}SetupMs`]: setup } : {}),
          threads: kernel() === 'js' ? 1 : rlx.numThreads(),
        }),
      };
    }
    // Factor + one solve + dispose (the factor object's whole life).
    case 'splu':
    case 'cholesky': {
      const b = rhs(N);
      let method;
      return {
        fn: () => {
          const F = sp[kind](A);
          method = F.method;
          try {
            return F.solveRaw(b);
          } finally {
            F.dispose();
          }
        },
        result: (x) => x,
        info: () => ({ method }),
      };
    }
    // The lazy graph op: spsolve(A, b) realized (UMFPACK on native).
    case 'spsolve': {
      const b = rlx.tensor(rhs(N)).realize();
      return { fn: () => sp.spsolve(A, b).realize(), result: (t) => t.toArray(), info: () => ({ method: 'lu' }) };
    }
    // k eigenpairs: mode 'sigma0' = shift-invert around 0 (A factored once, UMFPACK), 'SA' = plain Lanczos.
    case 'eigsh': {
      const v0 = startVector(N);
      const opts = args.mode === 'sigma0' ? { sigma: 0 } : { which: args.mode };
      let last;
      return {
        fn: () => (last = sp.eigsh(A, args.k, { ...opts, v0 })),
        result: (r) => r.eigenvalues.toArray(),
        info: () => ({ restarts: last.iterations, opCalls: last.matvecs }),
      };
    }
    default:
      throw new Error(`no rlx sparse case ${kind}`);
  }
}
