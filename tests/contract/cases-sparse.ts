// Contract cases of rlx.sparse and of the sparse matrix / factorization
// methods. The differentiable input is the values tensor v of a fixed pattern
// (built with csr/coo/fromTriplets/diags/fromDense or attached with
// A.withValues(v)), and the dense operand / right-hand side where there is one.
// Matrices are read out densely through A.matmul(I) (a differentiable product
// with a tensor), so a case fails for the method it names rather than for
// toDense, which has its own case.
//
// These cases state how the API behaves now that values flow as tensors through
// every method (the sparse rewrite of issue 13); before it (2bc1b4d) most of
// them failed with silent zero derivatives or an untyped error under vmap.

import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import type { Table, InSpec } from './checks.js';

const { sparse } = rlx;
type Sp = rlx.sparse.CsrMatrix | rlx.sparse.CscMatrix | rlx.sparse.CooMatrix;

// A 4x4 pattern: tridiagonal plus the corners (0,3), (3,0); nnz 12, rows sorted.
const INDPTR = [0, 3, 6, 9, 12];
const INDICES = [0, 1, 3, 0, 1, 2, 1, 2, 3, 0, 2, 3];
const ROWS = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3];
const NNZ = 12;
/** +6 on the diagonal entries: with off-diagonal values in [-1, 1] the matrix is diagonally dominant. */
const SHIFT = [6, 0, 0, 0, 6, 0, 0, 6, 0, 0, 0, 6];
/** Entry → parameter of a symmetric matrix (4 diagonal, 4 off-diagonal pairs). */
const SYM = [0, 4, 7, 4, 1, 5, 5, 2, 6, 7, 6, 3];
// The same matrix with rows stored out of order and entry (1,1) split in two.
const U_INDPTR = [0, 3, 7, 10, 13];
const U_INDICES = [3, 1, 0, 2, 1, 0, 1, 3, 2, 1, 3, 0, 2];

/** Fixed values for the cases that differentiate only the right-hand side. */
const FIXED = () => rlx.tensor([0.3, -0.5, 0.2, 0.7, -0.1, 0.4, -0.6, 0.25, 0.15, -0.35, 0.45, -0.2]);
/** Zeroes entry 2 (off-diagonal), so eliminateZeros has something to drop. */
const MASK = () => rlx.tensor(SHIFT.map((_, i) => (i === 2 ? 0 : 1)));

const vals = (n = NNZ, lo = -1, hi = 1): InSpec => ({ shape: [n], lo, hi });
const cvals = (n = NNZ): InSpec => ({ shape: [n], dtype: 'complex128', lo: -1, hi: 1 });
const vec = (n = 4): InSpec => ({ shape: [n] });
const cvec = (n = 4): InSpec => ({ shape: [n], dtype: 'complex128' });

const shift = (v: Tensor) => v.add(rlx.tensor(SHIFT).cast(v.dtype));
const ones = (n: number) => new Float64Array(n).fill(1);
/** The pattern in a format, with placeholder values (replaced by withValues). */
const pattern = (fmt: 'csr' | 'csc') => sparse[fmt]({ indptr: INDPTR, indices: INDICES, data: ones(NNZ), shape: [4, 4] });
const unsorted = (fmt: 'csr' | 'csc') => sparse[fmt]({ indptr: U_INDPTR, indices: U_INDICES, data: ones(13), shape: [4, 4] });
/** A diagonally dominant matrix with values v (shifted) in a format. */
const gen = (fmt: 'csr' | 'csc', v: Tensor) => pattern(fmt).withValues(shift(v));
/** A symmetric positive definite matrix from 8 parameters p. */
const spd = (fmt: 'csr' | 'csc', p: Tensor) => pattern(fmt).withValues(shift(p.gather(rlx.tensor(SYM, { dtype: 'int32' }))));
/** The dense matrix through a differentiable product with the identity. */
const dense = (A: Sp) => A.matmul(rlx.eye(A.shape[1]).cast(A.dtype === 'complex128' ? 'complex128' : 'float64'));

/** x of an iterative solver's result as a Tensor (a Tensor since the sparse rewrite; before it a Float64Array with toTensor()). */
function xOf(r: { x: unknown; toTensor?: () => Tensor }): Tensor {
  if (r.x instanceof rlx.Tensor) return r.x;
  if (!r.toTensor) throw new Error('the solver result has neither a Tensor x nor toTensor()');
  return r.toTensor();
}

/** The cases of the CSR or CSC prototype (CompressedMatrix methods included). */
function compressedCases(fmt: 'csr' | 'csc', cls: string): Table {
  const G = (v: Tensor) => gen(fmt, v);
  const t: Table = {
    diagonalRaw: { none: 'raw' },
    matvecRaw: { none: 'raw' },
    rmatvecRaw: { none: 'raw' },
    data: { none: 'readout' },
    nnz: { none: 'metadata' },
    toString: { none: 'printing' as const },

    valuesTensor: { specs: [vals()], f: (v) => G(v).valuesTensor() },
    withValues: [
      { specs: [vals(), vec()], f: (v, x) => pattern(fmt).withValues(v).matvec(x) },
      { label: 'complex', specs: [cvals(), cvec()], f: (v, x) => pattern(fmt).withValues(v).matvec(x) },
    ],
    tocsr: { specs: [vals()], f: (v) => dense(G(v).tocsr()) },
    tocsc: { specs: [vals()], f: (v) => dense(G(v).tocsc()) },
    tocoo: { specs: [vals()], f: (v) => dense(G(v).tocoo()) },
    sortIndices: { specs: [vals(13)], f: (v) => dense(unsorted(fmt).withValues(v).sortIndices()) },
    sumDuplicates: { specs: [vals(13)], f: (v) => dense(unsorted(fmt).withValues(v).sumDuplicates()) },
    // One value is exactly zero (masked): eliminateZeros drops it and keeps the others' derivatives.
    // Under vmap the pattern would depend on each example's values: a typed error.
    eliminateZeros: { specs: [vals()], f: (v) => dense(pattern(fmt).withValues(v.mul(MASK())).eliminateZeros()), vmap: 'throws' },
    astype: { specs: [vals()], f: (v) => dense(G(v).astype('complex128')) },
    copy: { specs: [vals()], f: (v) => dense(G(v).copy()) },
    transpose: { specs: [vals()], f: (v) => dense(G(v).transpose()) },
    T: { specs: [vals()], f: (v) => dense(G(v).T) },
    conjTranspose: { specs: [cvals()], f: (v) => dense(G(v).conjTranspose()) },
    H: { specs: [cvals()], f: (v) => dense(G(v).H) },
    conj: { specs: [cvals()], f: (v) => dense(G(v).conj()) },
    add: { specs: [vals(), vals()], f: (v, w) => dense(G(v).add(pattern('csr').withValues(w))) },
    sub: { specs: [vals(), vals()], f: (v, w) => dense(G(v).sub(pattern('csc').withValues(w))) },
    neg: { specs: [vals()], f: (v) => dense(G(v).neg()) },
    scale: [
      { specs: [vals()], f: (v) => dense(G(v).scale(2.5)) },
      { label: 'complex alpha', specs: [vals()], f: (v) => dense(G(v).scale([0.5, -2])) },
    ],
    multiply: [
      { label: 'sparse', specs: [vals(), vals()], f: (v, w) => dense(G(v).multiply(pattern(fmt).withValues(w))) },
      { label: 'dense', specs: [vals(), { shape: [4, 4] }], f: (v, d) => dense(G(v).multiply(d)) },
    ],
    matmulSparse: { specs: [vals(), vals()], f: (v, w) => dense(G(v).matmulSparse(pattern('csr').withValues(w))) },
    matvec: [
      { specs: [vals(), vec()], f: (v, x) => G(v).matvec(x) },
      { label: 'complex', specs: [cvals(), cvec()], f: (v, x) => G(v).matvec(x) },
    ],
    rmatvec: [
      { specs: [vals(), vec()], f: (v, x) => G(v).rmatvec(x) },
      { label: 'complex', specs: [cvals(), cvec()], f: (v, x) => G(v).rmatvec(x) },
    ],
    matmul: { specs: [vals(), { shape: [4, 2] }], f: (v, X) => G(v).matmul(X) },
    toDense: [
      { specs: [vals()], f: (v) => G(v).toDense() },
      { label: 'complex', specs: [cvals()], f: (v) => G(v).toDense() },
    ],
    diagonal: { specs: [vals()], f: (v) => G(v).diagonal(1) },
    rows: { specs: [vals()], f: (v) => dense(G(v).rows(1, 3)) },
    cols: { specs: [vals()], f: (v) => dense(G(v).cols(1, 3)) },
    getRow: { specs: [vals()], f: (v) => dense(G(v).getRow(2)) },
    getCol: { specs: [vals()], f: (v) => dense(G(v).getCol(-1)) },
  };
  return Object.fromEntries(Object.entries(t).map(([k, e]) => [`${cls}#${k}`, e])) as Table;
}

const COO = (v: Tensor) => sparse.coo({ row: ROWS, col: INDICES, data: shift(v), shape: [4, 4] });

const cooCases: Table = {
  'CooMatrix#nnz': { none: 'metadata' },
  'CooMatrix#data': { none: 'readout' },
  'CooMatrix#valuesTensor': { specs: [vals()], f: (v) => COO(v).valuesTensor() },
  'CooMatrix#toString': { none: 'printing' },
  'CooMatrix#tocsr': { specs: [vals()], f: (v) => dense(COO(v).tocsr()) },
  'CooMatrix#tocsc': { specs: [vals()], f: (v) => dense(COO(v).tocsc()) },
  'CooMatrix#tocoo': { specs: [vals()], f: (v) => dense(COO(v).tocoo()) },
  'CooMatrix#toDense': { specs: [vals()], f: (v) => COO(v).toDense() },
  'CooMatrix#transpose': { specs: [vals()], f: (v) => dense(COO(v).transpose()) },
  'CooMatrix#T': { specs: [vals()], f: (v) => dense(COO(v).T) },
  'CooMatrix#conjTranspose': { specs: [cvals()], f: (v) => dense(COO(v).conjTranspose()) },
  'CooMatrix#H': { specs: [cvals()], f: (v) => dense(COO(v).H) },
  'CooMatrix#sumDuplicates': { specs: [vals()], f: (v) => dense(COO(v).sumDuplicates()) },
  'CooMatrix#eliminateZeros': { specs: [vals()], f: (v) => dense(COO(v.mul(MASK())).eliminateZeros()), vmap: 'throws' },
  'CooMatrix#matvec': { specs: [vals(), vec()], f: (v, x) => COO(v).matvec(x) as Tensor },
  'CooMatrix#rmatvec': { specs: [vals(), vec()], f: (v, x) => COO(v).rmatvec(x) as Tensor },
  'CooMatrix#matmul': { specs: [vals(), { shape: [4, 2] }], f: (v, X) => COO(v).matmul(X) },
  'CooMatrix#add': { specs: [vals(), vals()], f: (v, w) => dense(COO(v).add(COO(w))) },
  'CooMatrix#sub': { specs: [vals(), vals()], f: (v, w) => dense(COO(v).sub(COO(w))) },
  'CooMatrix#scale': { specs: [vals()], f: (v) => dense(COO(v).scale(-1.5)) },
  'CooMatrix#multiply': { specs: [vals(), { shape: [4, 4] }], f: (v, d) => dense(COO(v).multiply(d)) },
  'CooMatrix#matmulSparse': { specs: [vals(), vals()], f: (v, w) => dense(COO(v).matmulSparse(COO(w))) },
  'CooMatrix#diagonal': { specs: [vals()], f: (v) => COO(v).diagonal(-1) },
  'CooMatrix#astype': { specs: [vals()], f: (v) => dense(COO(v).astype('complex128')) },
};

const solveTol = { rtol: 1e-13 };
/** Iterative solves converge to ~1e-13: the central difference divides that by h. */
const iterFd = { rtol: 1e-5, atolScale: 1e-6 };

const factorCases: Table = {
  'SparseFactorization#disposed': { none: 'metadata' },
  'SparseFactorization#solveRaw': { none: 'raw' },
  'SparseFactorization#logDet': { none: 'readout' },
  'SparseFactorization#refactor': { none: 'lifecycle' },
  'SparseFactorization#dispose': { none: 'lifecycle' },
  'SparseFactorization#solve': [
    { specs: [vals(), vec()], f: (v, b) => sparse.splu(gen('csr', v)).solve(b), vmap: 'throws' },
    { label: 'trans T', specs: [vals(), { shape: [4, 2] }], f: (v, b) => sparse.splu(gen('csc', v)).solve(b, { trans: 'T' }), vmap: 'throws' },
    { label: 'b only', specs: [{ shape: [4, 2] }], f: (b) => sparse.splu(gen('csr', FIXED())).solve(b, { trans: 'H' }) },
  ],
};

const namespaceCases: Table = {
  'sparse.SparseFormatError': { none: 'error' },
  'sparse.MatrixMarketError': { none: 'error' },
  'sparse.HarwellBoeingError': { none: 'error' },
  'sparse.NoConvergenceError': { none: 'error' },
  'sparse.SingularMatrixError': { none: 'error' },
  'sparse.NotPositiveDefiniteError': { none: 'error' },
  'sparse.ConvergenceError': { none: 'error' },
  'sparse.CompressedMatrix': { none: 'class' },
  'sparse.CsrMatrix': { none: 'class' },
  'sparse.CscMatrix': { none: 'class' },
  'sparse.CooMatrix': { none: 'class' },
  'sparse.SparseFactorization': { none: 'class' },
  'sparse.LinearOperator': { none: 'class' },
  'sparse.isSparse': { none: 'metadata' },
  'sparse.eye': { none: 'sizes' },
  'sparse.identity': { none: 'sizes' },
  'sparse.zeros': { none: 'sizes' },
  'sparse.poisson1d': { none: 'sizes' },
  'sparse.poisson2d': { none: 'sizes' },
  'sparse.poisson3d': { none: 'sizes' },
  'sparse.diffusion2d': { none: 'sizes' },
  'sparse.convectionDiffusion2d': { none: 'sizes' },
  'sparse.helmholtz2d': { none: 'sizes' },
  // Named one by one (not Object.keys) so that a new export still needs a decision here.
  ...Object.fromEntries(['toRawOperand', 'matvec', 'rmatvec', 'cg', 'bicgstab', 'gmres', 'minres', 'eigsh'].map((k) => [`sparse.raw.${k}`, { none: 'raw' as const }])),
  'sparse.aslinearoperator': { none: 'raw' },
  'sparse.jacobi': { none: 'raw' },
  'sparse.ssor': { none: 'raw' },
  'sparse.ilu0': { none: 'raw' },
  'sparse.ic0': { none: 'raw' },
  'sparse.eigsh': { none: 'raw' },
  'sparse.readMatrixMarket': { none: 'io' },
  'sparse.readMatrixMarketHeader': { none: 'io' },
  'sparse.writeMatrixMarket': { none: 'io' },
  'sparse.readHarwellBoeing': { none: 'io' },
  'sparse.readHarwellBoeingHeader': { none: 'io' },

  'sparse.csr': [
    { specs: [vals()], f: (v) => dense(sparse.csr({ indptr: INDPTR, indices: INDICES, data: v, shape: [4, 4] })) },
    { label: 'complex', specs: [cvals()], f: (v) => dense(sparse.csr({ indptr: INDPTR, indices: INDICES, data: v, shape: [4, 4] })) },
  ],
  'sparse.csc': { specs: [vals()], f: (v) => dense(sparse.csc({ indptr: INDPTR, indices: INDICES, data: v, shape: [4, 4] })) },
  'sparse.coo': { specs: [vals()], f: (v) => dense(sparse.coo({ row: ROWS, col: INDICES, data: v, shape: [4, 4] })) },
  'sparse.fromTriplets': { specs: [vals()], f: (v) => dense(sparse.fromTriplets(ROWS, INDICES, v, [4, 4])) },
  // The pattern is read from the values: under vmap it would differ per example, a typed error.
  'sparse.fromDense': { specs: [{ shape: [3, 4], lo: 0.5, hi: 2 }], f: (d) => dense(sparse.fromDense(d)), vmap: 'throws' },
  'sparse.diags': { specs: [vec(4), vec(3)], f: (d0, d1) => dense(sparse.diags([d0, d1], [0, 1], [4, 4])) },
  'sparse.kron': { specs: [vals(), vals()], f: (v, w) => dense(sparse.kron(gen('csr', v).rows(0, 2), gen('csc', w).cols(1, 3))) },
  // The function forms call the methods (src/sparse/functions.ts); a COO first operand gives CSR.
  'sparse.add': { specs: [vals(), vals()], f: (v, w) => dense(sparse.add(gen('csr', v), pattern('csc').withValues(w))) },
  'sparse.sub': { specs: [vals(), vals()], f: (v, w) => dense(sparse.sub(COO(v), gen('csr', w))) },
  'sparse.multiply': [
    { label: 'sparse', specs: [vals(), vals()], f: (v, w) => dense(sparse.multiply(gen('csc', v), pattern('csr').withValues(w))) },
    { label: 'dense', specs: [vals(), { shape: [4, 4] }], f: (v, d) => dense(sparse.multiply(gen('csr', v), d)) },
  ],
  'sparse.scale': [
    { specs: [vals()], f: (v) => dense(sparse.scale(gen('csr', v), 2.5)) },
    { label: 'complex alpha', specs: [vals()], f: (v) => dense(sparse.scale(COO(v), [0.5, -2])) },
  ],
  'sparse.kronsum': { specs: [vals(), vals()], f: (v, w) => dense(sparse.kronsum(gen('csr', v), gen('csr', w))) },

  'sparse.spsolve': [
    { specs: [vals(), vec()], f: (v, b) => sparse.spsolve(gen('csr', v), b) },
    { label: 'complex', specs: [cvals(), cvec()], f: (v, b) => sparse.spsolve(gen('csr', v), b) },
    { label: 'cholesky', specs: [vals(8), { shape: [4, 2] }], f: (p, b) => sparse.spsolve(spd('csc', p), b, { method: 'cholesky' }) },
  ],
  // The Krylov solvers solve at once (they report info and iterations): under vmap they refuse
  // with a TransformError pointing to the lazy spsolve(A, b, {method}) (src/sparse/krylov.ts).
  'sparse.cg': { specs: [vals(8), vec()], f: (p, b) => xOf(sparse.cg(spd('csr', p), b, solveTol)), fd: iterFd, vmap: 'throws' },
  'sparse.minres': { specs: [vals(8), vec()], f: (p, b) => xOf(sparse.minres(spd('csr', p), b, solveTol)), fd: iterFd, vmap: 'throws' },
  'sparse.bicgstab': { specs: [vals(), vec()], f: (v, b) => xOf(sparse.bicgstab(gen('csr', v), b, solveTol)), fd: iterFd, vmap: 'throws' },
  'sparse.gmres': { specs: [vals(), vec()], f: (v, b) => xOf(sparse.gmres(gen('csc', v), b, solveTol)), fd: iterFd, vmap: 'throws' },
  // A factorization is computed at once from the values: with the values batched under vmap it
  // is a typed error; a fixed factorization solves a batch of right-hand sides like the loop.
  'sparse.splu': [
    { specs: [vals(), vec()], f: (v, b) => sparse.splu(gen('csr', v)).solve(b), vmap: 'throws' },
    { label: 'b only', specs: [vec()], f: (b) => sparse.splu(gen('csr', FIXED())).solve(b) },
  ],
  'sparse.klu': [
    { specs: [vals(), vec()], f: (v, b) => sparse.klu(gen('csc', v)).solve(b), vmap: 'throws' },
    { label: 'b only', specs: [vec()], f: (b) => sparse.klu(gen('csc', FIXED())).solve(b) },
  ],
  'sparse.cholesky': [
    { specs: [vals(8), vec()], f: (p, b) => sparse.cholesky(spd('csr', p)).solve(b), vmap: 'throws' },
    { label: 'b only', specs: [vec()], f: (b) => sparse.cholesky(spd('csr', FIXED().slice(rlx.s(rlx.rg(0, 8))))).solve(b) },
  ],
};

export const sparseCases: Table = {
  ...namespaceCases,
  ...compressedCases('csr', 'CsrMatrix'),
  ...compressedCases('csc', 'CscMatrix'),
  ...cooCases,
  ...factorCases,
};

