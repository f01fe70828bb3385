// Contract cases of rlx.linalg. Inputs are built from the sampled tensors so
// every case stays well inside its domain: a + 4I (well conditioned), a aᴴ + 3I
// (Hermitian positive definite), a + aᴴ (Hermitian). Decompositions are checked
// through gauge-invariant quantities where their parts are defined only up to a
// sign or phase: |v|² of eigenvectors, u·vh of an SVD.

import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import type { Table, InSpec } from './checks.js';

const { linalg } = rlx;
const R = (m: number, n = m, lo = -1, hi = 1): InSpec => ({ shape: [m, n], lo, hi });
const Cx = (m: number, n = m, lo = -1, hi = 1): InSpec => ({ shape: [m, n], dtype: 'complex128', lo, hi });

const wellCond = (a: Tensor) => a.add(rlx.eye(a.shape[0]!).mul(4));
const hpd = (a: Tensor) => a.matmul(a.T.conj()).add(rlx.eye(a.shape[0]!).mul(3));
const herm = (a: Tensor) => a.add(a.T.conj());
const flat = (...ts: Tensor[]) => rlx.cat(ts.map((t) => t.flatten()), 0);
/** |v|² elementwise, real (sign/phase invariant). */
const abs2 = (v: Tensor) => (v.dtype === 'complex128' ? v.mul(v.conj()).real() : v.mul(v));

export const linalgCases: Table = {
  'linalg.LinAlgError': { none: 'error' },
  'linalg.SingularMatrixError': { none: 'error' },
  'linalg.NotPositiveDefiniteError': { none: 'error' },
  'linalg.ConvergenceError': { none: 'error' },
  'linalg.NonFiniteError': { none: 'error' },

  'linalg.lu': [
    { specs: [R(3)], f: (a) => { const { l, u } = linalg.lu(wellCond(a)); return flat(l, u); } },
    { label: 'complex', specs: [Cx(3)], f: (a) => { const { l, u } = linalg.lu(wellCond(a)); return flat(l, u); } },
  ],
  'linalg.luFactor': { specs: [R(3)], f: (a) => linalg.luFactor(wellCond(a)).lu },
  'linalg.luSolve': { specs: [R(3), R(3, 2)], f: (a, b) => linalg.luSolve(linalg.luFactor(wellCond(a)), b) },
  'linalg.qr': [
    { specs: [R(4, 3)], f: (a) => { const { q, r } = linalg.qr(a); return flat(q!, r); } },
    { label: 'complex', specs: [Cx(3, 3)], f: (a) => { const { q, r } = linalg.qr(a); return flat(q!, r); } },
  ],
  'linalg.cholesky': [
    { specs: [R(3)], f: (a) => linalg.cholesky(hpd(a)) },
    { label: 'complex', specs: [Cx(3)], f: (a) => linalg.cholesky(hpd(a)) },
  ],
  'linalg.choSolve': { specs: [R(3), R(3, 2)], f: (a, b) => linalg.choSolve(linalg.cholesky(hpd(a)), b) },
  'linalg.svd': [
    { specs: [R(3, 2)], f: (a) => { const { u, s, vh } = linalg.svd(a); return flat(s, u!.matmul(vh!)); } },
    { label: 'complex', specs: [Cx(2, 3)], f: (a) => { const { u, s, vh } = linalg.svd(a); return flat(s.cast('complex128'), u!.matmul(vh!)); } },
  ],
  'linalg.eigh': [
    { specs: [R(3)], f: (a) => { const { eigenvalues: w, eigenvectors: v } = linalg.eigh(herm(a)); return flat(w, abs2(v)); } },
    { label: 'complex', specs: [Cx(3)], f: (a) => { const { eigenvalues: w, eigenvectors: v } = linalg.eigh(herm(a)); return flat(w, abs2(v)); } },
  ],
  'linalg.eigvalsh': { specs: [R(3)], f: (a) => linalg.eigvalsh(herm(a)) },
  // eig has no derivative rule (ARCHITECTURE.md: TransformError); vmap loops.
  'linalg.eig': { specs: [R(3)], f: (a) => linalg.eig(a).eigenvalues, ad: 'throws' },
  'linalg.eigvals': { specs: [R(3)], f: (a) => linalg.eigvals(a), ad: 'throws' },

  'linalg.solve': [
    { specs: [R(3), R(3, 2)], f: (a, b) => linalg.solve(wellCond(a), b) },
    { label: 'complex', specs: [Cx(3), { shape: [3], dtype: 'complex128' }], f: (a, b) => linalg.solve(wellCond(a), b) },
  ],
  'linalg.lstsq': { specs: [R(4, 2), R(4, 1)], f: (a, b) => linalg.lstsq(a.add(rlx.eye(4, 2).mul(3)), b).x },
  'linalg.inv': [
    { specs: [R(3)], f: (a) => linalg.inv(wellCond(a)) },
    { label: 'complex', specs: [Cx(3)], f: (a) => linalg.inv(wellCond(a)) },
  ],
  'linalg.pinv': { specs: [R(3, 2)], f: (a) => linalg.pinv(a.add(rlx.eye(3, 2).mul(3))) },
  'linalg.solveTriangular': { specs: [R(3), R(3, 2)], f: (a, b) => linalg.solveTriangular(wellCond(a), b, { lower: true }) },
  'linalg.det': [
    { specs: [R(3)], f: (a) => linalg.det(wellCond(a)) },
    { label: 'complex', specs: [Cx(3)], f: (a) => linalg.det(wellCond(a)) },
  ],
  'linalg.slogdet': { specs: [R(3)], f: (a) => { const { sign, logabsdet } = linalg.slogdet(a.sub(rlx.eye(3).mul(4))); return rlx.stack([sign, logabsdet]); } },
  'linalg.norm': [
    { specs: [R(3)], f: (a) => linalg.norm(a) },
    { label: 'ord 2', specs: [R(3, 2)], f: (a) => linalg.norm(a, { ord: 2 }) },
    { label: 'nuc', specs: [R(3, 2)], f: (a) => linalg.norm(a, { ord: 'nuc' }) },
    { label: 'vector', specs: [{ shape: [4], lo: 0.2, hi: 1 }], f: (x) => linalg.norm(x, { ord: 3 }) },
    { label: 'complex', specs: [Cx(2, 3)], f: (a) => linalg.norm(a) },
  ],
  'linalg.cond': { specs: [R(3)], f: (a) => linalg.cond(wellCond(a)) },
  'linalg.matrixRank': { specs: [R(3)], f: (a) => linalg.matrixRank(wellCond(a)) },
  'linalg.trace': { specs: [R(3)], f: (a) => linalg.trace(a, { offset: 1 }) },
  'linalg.diagonal': { specs: [R(3, 4)], f: (a) => linalg.diagonal(a, { offset: -1 }) },
  'linalg.matrixPower': [
    { specs: [R(3)], f: (a) => linalg.matrixPower(a, 3) },
    { label: 'negative', specs: [R(2)], f: (a) => linalg.matrixPower(wellCond(a), -2) },
  ],
  'linalg.expm': [
    { specs: [R(3, 3, -0.5, 0.5)], f: (a) => linalg.expm(a) },
    { label: 'complex', specs: [Cx(2, 2, -0.5, 0.5)], f: (a) => linalg.expm(a) },
  ],
  'linalg.kron': { specs: [R(2), R(2, 3)], f: (a, b) => linalg.kron(a, b) },
  'linalg.cross': { specs: [{ shape: [2, 3] }, { shape: [2, 3] }], f: (a, b) => linalg.cross(a, b) },
};
