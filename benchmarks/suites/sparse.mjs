// Sparse suite: rlx.sparse on the native device (threaded CSR SpMV, UMFPACK,
// CHOLMOD) side by side with SciPy (scipy.sparse / scipy.sparse.linalg: SuperLU,
// ARPACK, its Fortran/Python CG), rlx on its pure-TS kernels (peer `rlx-js`,
// RLX_NATIVE=0) and mathjs's sparse LU (slu + lusolve) at a small size.
// Matrix: poisson2d(n), the 5-point Dirichlet Laplacian (N = n²). Inputs:
// benchmarks/lib/sparse-cases.mjs (identical on every side, bit for bit).
// Ratios are peer ÷ rlx: > 1 means rlx is faster.

import { rlxSparseCase } from '../lib/sparse-cases.mjs';

const py = (c, args) => ({ script: 'sparse.py', case: `scipy-${c}`, args });
const js = (lib, c, args) => ({ script: 'peer.mjs', case: `${lib}:sp-${c}`, args });
const rlxSide = (kind, args) => (rlx) => rlxSparseCase(rlx, kind, args);

const rows = [];

// ---- SpMV: y = A x, n = 1024 (N = 1,048,576, 5,238,784 nonzeros) ----------------------
{
  const n = 1024;
  const N = n * n;
  const nnz = 5 * N - 4 * n;
  // Least memory traffic per call: data + indices (12 B/nnz), indptr, x read once, y written.
  const bytes = 12 * nnz + 4 * (N + 1) + 8 * N + 8 * N;
  const timing = { warmup: 5, reps: 15, inner: 5, runs: 3 };
  const spmv = (suffix, args, what, peers) =>
    rows.push({
      id: `spmv-poisson2d-${n}${suffix}`,
      description: `y = sparse.raw.matvec(A, x${args.alloc ? '' : ', y'}) on raw Float64Arrays, ${what}; A = poisson2d(${n}) CSR float64 (N = ${N}, ${nnz} nonzeros; the native path range-checks the column indices on every call), x = ramp(N, 1). SciPy: A @ x (one thread, allocates y). Goal SciPy ÷ rlx ≥ 1.5; checksum: y`,
      timing,
      bytes,
      rlx: rlxSide('spmv', { n, ...args }),
      peers,
    });
  spmv('-1t', { threads: 1 }, 'native kernel on 1 thread (rlx.setNumThreads(1)), y reused', { scipy: py('spmv', { n }), 'rlx-js': js('rlx-js', 'spmv', { n }) });
  spmv('-2t', { threads: 2 }, 'native kernel on 2 threads, y reused', { scipy: py('spmv', { n }) });
  spmv('-2t-alloc', { threads: 2, alloc: true }, 'native kernel on 2 threads, a fresh y per call (as SciPy\'s A @ x)', { scipy: py('spmv', { n }) });
}

// ---- The Tensor API as users call it (issue 13 §2: within 10% of the raw path) -----------
{
  const n = 1024;
  rows.push({
    id: `spmv-poisson2d-${n}-tensor`,
    description: `y = A.matvec(x).realize() with x a realized float64 Tensor: the lazy product as a user calls it (native threaded SpMV, 2 threads, a fresh y); A = poisson2d(${n}). SciPy: A @ x. Compare with spmv-poisson2d-${n}-2t-alloc (raw). Checksum: y`,
    timing: { warmup: 5, reps: 15, inner: 5, runs: 3 },
    rlx: rlxSide('spmv-tensor', { n }),
    peers: { scipy: py('spmv', { n }) },
  });
  const m = 512,
    rtol = 1e-8;
  for (const kind of ['cg-tensor', 'spsolve-cg']) {
    rows.push({
      id: `${kind}-poisson2d-${m}`,
      description: `${kind === 'cg-tensor' ? 'sparse.cg(A, b, {rtol}).x.realize()' : "sparse.spsolve(A, b, {method: 'cg', rtol}).realize() (the lazy graph op)"} with b a realized Tensor; A = poisson2d(${m}), rtol ${rtol}, no preconditioner. SciPy: scipy.sparse.linalg.cg. Compare with cg-poisson2d-${m} (raw). Checksum: x`,
      timing: { warmup: 1, reps: 3, inner: 1, runs: 2 },
      rlx: rlxSide(kind, { n: m, rtol }),
      peers: { scipy: py('cg', { n: m, rtol, precond: 'none' }) },
    });
  }
  const h = 199,
    steps = 1000;
  rows.push({
    id: `heat-${h}-${steps}-solves`,
    description: `${steps} implicit heat steps u ← F.solve(u).realize() with one F = sparse.splu(I + dt·L) (n = ${h}, tridiagonal): the per-solve cost of a factor object through the Tensor API. SciPy: lu = splu(A); ${steps} × lu.solve(u). Goal SciPy ÷ rlx ≥ 1. Checksum: u`,
    timing: { warmup: 3, reps: 10, inner: 1, runs: 3 },
    rlx: rlxSide('heat-steps', { n: h, steps }),
    peers: { scipy: py('heat', { n: h, steps }) },
  });
}

// ---- CG: rtol 1e-8 from x0 = 0, n = 512 (N = 262,144) -----------------------------------
{
  const n = 512;
  const rtol = 1e-8;
  const timing = { warmup: 1, reps: 3, inner: 1, runs: 2 }; // one solve takes seconds
  const WHAT = {
    none: 'no preconditioner',
    jacobi: 'Jacobi (rlx sparse.jacobi(A); SciPy M = diags(1/diag(A))), built once, untimed',
    ic0: 'IC(0) (sparse.ic0(A), built once, untimed: its set-up time is in the notes); SciPy has no IC(0), so no peer time',
  };
  for (const precond of ['none', 'jacobi', 'ic0']) {
    const args = { n, rtol, precond };
    rows.push({
      id: `cg-poisson2d-${n}${precond === 'none' ? '' : `-${precond}`}`,
      description: `sparse.raw.cg(A, b, {rtol: ${rtol}${precond === 'none' ? '' : ', M'}}) on Float64Arrays, ${WHAT[precond]}; A = poisson2d(${n}) (N = ${n * n}), b = ramp(N, 1), stop at ‖b − A x‖ ≤ rtol‖b‖ (true residual). SciPy: scipy.sparse.linalg.cg(A, b, tol/rtol=${rtol}, atol=0, callback counting iterations). Notes: iteration counts of both sides. Goal SciPy ÷ rlx ≥ 1.0; checksum: x`,
      timing,
      rlx: rlxSide('cg', args),
      peers: { scipy: py('cg', args) },
    });
  }
}

// ---- direct: factor + solve, n = 512 (N = 262,144), and n = 64 for mathjs ----------------
{
  const WHAT = {
    splu: 'F = sparse.splu(A) (UMFPACK), x = F.solveRaw(b), F.dispose()',
    cholesky: 'F = sparse.cholesky(A) (CHOLMOD), x = F.solveRaw(b), F.dispose()',
    spsolve: 'sparse.spsolve(A, b).realize(), the lazy graph op (UMFPACK), b a realized tensor',
  };
  for (const kind of ['splu', 'cholesky', 'spsolve']) {
    const n = 512;
    rows.push({
      id: `direct-poisson2d-${n}-${kind}`,
      description: `${WHAT[kind]}; A = poisson2d(${n}) (N = ${n * n}), b = ramp(N, 1). SciPy: scipy.sparse.linalg.spsolve(A (CSC), b, use_umfpack=False) = SuperLU, default permc_spec (COLAMD). Goal SciPy ÷ rlx ≥ 2; checksum: x`,
      timing: { warmup: 1, reps: 5, inner: 1, runs: 2 },
      rlx: rlxSide(kind, { n }),
      peers: { scipy: py('spsolve', { n }) },
    });
  }
  const n = 64;
  rows.push({
    id: `direct-poisson2d-${n}-splu`,
    description: `${WHAT.splu}; A = poisson2d(${n}) (N = ${n * n}), b = ramp(N, 1). Peers: SciPy spsolve (SuperLU, COLAMD); mathjs lusolve(slu(A, 1, 1), b) (CSparse LU in JS: AMD order of A + Aᵀ, partial pivoting); rlx-js = splu on the TS sparse LU. Checksum: x`,
    timing: { warmup: 2, reps: 10, inner: 1, runs: 2 },
    rlx: rlxSide('splu', { n }),
    peers: { scipy: py('spsolve', { n }), mathjs: js('mathjs', 'splu', { n }), 'rlx-js': js('rlx-js', 'splu', { n }) },
  });
}

// ---- eigsh: the 6 smallest eigenvalues, n = 128 (N = 16,384) ------------------------------
{
  const n = 128;
  const k = 6;
  const WHAT = {
    sigma0: ['sparse.eigsh(A, 6, {sigma: 0, v0}): shift-invert Lanczos, A factored once (UMFPACK)', 'eigsh(A, 6, sigma=0, v0) (ARPACK mode 3, SuperLU)'],
    SA: ["sparse.eigsh(A, 6, {which: 'SA', v0}): thick-restart Lanczos on A", "eigsh(A, 6, which='SA', v0) (ARPACK mode 1)"],
  };
  for (const mode of ['sigma0', 'SA']) {
    const args = { n, k, mode };
    rows.push({
      id: `eigsh-poisson2d-${n}-${mode.toLowerCase()}`,
      description: `${WHAT[mode][0]}, eigenvectors included; A = poisson2d(${n}) (N = ${n * n}; the 6 smallest include 2 double eigenvalues), v0 = lcgInts(N, 7)/4096, ncv 20, tol 0 on both sides. SciPy: ${WHAT[mode][1]}. Notes: restarts / OP applications (rlx) and ARPACK's OP applications (counted in an extra untimed run). Checksum: eigenvalues`,
      timing: mode === 'SA' ? { warmup: 1, reps: 2, inner: 1, runs: 2 } : { warmup: 1, reps: 5, inner: 1, runs: 2 },
      rlx: rlxSide('eigsh', args),
      peers: { scipy: py('eigsh', args) },
    });
  }
}

export default {
  name: 'sparse',
  description:
    'rlx.sparse on the native device (threaded CSR SpMV; UMFPACK / CHOLMOD for splu / cholesky / spsolve and shift-invert eigsh; Krylov solvers and Lanczos in TS over the native SpMV) vs SciPy ' +
    '(A @ x; scipy.sparse.linalg.cg; spsolve = SuperLU with COLAMD; eigsh = ARPACK). Goals (SciPy ÷ rlx): SpMV ≥ 1.5, CG ≥ 1.0, direct ≥ 2. ' +
    'rlx-js = the same rlx code with the native addon disabled (RLX_NATIVE=0): TS SpMV (n = 1024) and TS sparse LU (n = 64). mathjs: slu + lusolve at n = 64. ' +
    'Matrix: poisson2d(n), the 5-point Dirichlet Laplacian (4 / −1, N = n²), built identically on every side; vectors ramp(N, 1), eigsh start vector lcgInts(N, 7)/4096.',
  rows,
  derived: [
    { id: 'spmv 1 thread ÷ 2 threads', num: 'spmv-poisson2d-1024-1t', den: 'spmv-poisson2d-1024-2t', goal: '> 1 (memory bound: < 2)' },
    { id: 'spmv fresh y ÷ reused y', num: 'spmv-poisson2d-1024-2t-alloc', den: 'spmv-poisson2d-1024-2t', goal: '≈ 1' },
    { id: 'A.matvec(tensor) ÷ raw (fresh y)', num: 'spmv-poisson2d-1024-tensor', den: 'spmv-poisson2d-1024-2t-alloc', goal: '≤ 1.1' },
    { id: 'sparse.cg (Tensor) ÷ raw cg', num: 'cg-tensor-poisson2d-512', den: 'cg-poisson2d-512', goal: '≤ 1.1' },
    { id: "spsolve cg ÷ raw cg", num: 'spsolve-cg-poisson2d-512', den: 'cg-poisson2d-512', goal: '≤ 1.1' },
    { id: 'cg none ÷ ic0', num: 'cg-poisson2d-512', den: 'cg-poisson2d-512-ic0', goal: '> 1 (fewer iterations pay for the triangular solves)' },
    { id: 'splu ÷ cholesky', num: 'direct-poisson2d-512-splu', den: 'direct-poisson2d-512-cholesky', goal: '> 1' },
    { id: 'spsolve (graph op) ÷ splu', num: 'direct-poisson2d-512-spsolve', den: 'direct-poisson2d-512-splu', goal: '≈ 1' },
    { id: 'eigsh SA ÷ sigma=0', num: 'eigsh-poisson2d-128-sa', den: 'eigsh-poisson2d-128-sigma0', goal: '' },
  ],
};
