// Derivatives of spsolve(A(values), b, {method, trans}) w.r.t. the values and b:
// JVP vs central finite differences and VJP vs JVP (dot-product identity) for
// 'lu' (trans 0/1/2, CSR and CSC), 'gmres' / 'bicgstab' (non-symmetric, tight
// rtol), 'cholesky' / 'cg' (SPD/HPD: the values are parameterized Hermitian, so
// every perturbation stays in the method's domain); the values gradient equals
// the closed form dA_ij = −λ_i x_j (λ = A⁻ᵀ x̄) computed by a plain-JS dense
// solve; vmap over b equals stacking; jit(grad) equals grad.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { type AdCase, type DT, type FdOpts, checkCase, rint, vals } from '../../transforms/ad-harness.js';
import { build, planes, prng, randomNonsym, randomSpd, refSolve } from './helpers.js';

// spsolve spells trans as factor objects do: 'N', 'T', 'H'.
const TRANS = ['N', 'T', 'H'] as const;

type Method = 'lu' | 'cholesky' | 'cg' | 'gmres' | 'bicgstab' | 'minres';
const RUNS = 5;
const TIGHT = { rtol: 1e-12, atol: 0, maxiter: 500 };
/** Iterative solves are accurate to ~1e-12 relative: a larger step keeps that error/h small. */
const FD_ITER: FdOpts = { h: 1e-5, rtol: 1e-5, atolScale: 1e-6 };

type Sp = { nnz: number; indptr: Int32Array; indices: Int32Array; valuesTensor(): Tensor; withValues(v: Tensor): Sp; matvec(x: Tensor): Tensor; rmatvec(x: Tensor): Tensor };
const conj = (t: Tensor) => (rlx.isComplex(t.dtype) ? t.conj() : t);

/** f(w, b) = spsolve(A(v0 + w), b) with a random non-symmetric, diagonally dominant A. */
function generalCase(method: Method, format: 'csr' | 'csc', trans: 0 | 1 | 2, dt: DT, device: string): AdCase {
  return {
    name: `${method} ${format} trans ${trans} ${dt}`,
    fd: method === 'lu' ? undefined : FD_ITER,
    specs: (r) => {
      const n = rint(r, 1, 6),
        k = rint(r, 0, 2);
      const A = build(randomNonsym(r, n, 'float64', 0.4), format) as unknown as Sp;
      const v0 = A.valuesTensor().cast(dt).on(device);
      const opts = method === 'lu' ? { method, trans: TRANS[trans] } : { method, trans: TRANS[trans], ...TIGHT };
      return {
        specs: [
          { shape: [A.nnz], dtype: dt, lo: -0.3, hi: 0.3 },
          { shape: k === 0 ? [n] : [n, k], dtype: dt },
        ],
        f: (w, b) => rlx.sparse.spsolve(A.withValues(v0.add(w)) as never, b, opts),
      };
    },
  };
}

/** The permutation taking each stored entry (i, j) to the stored (j, i) of a pattern-symmetric matrix. */
function transposePerm(A: Sp, format: 'csr' | 'csc'): number[] {
  const pos = new Map<string, number>();
  const at: [number, number][] = [];
  for (let a = 0; a + 1 < A.indptr.length; a++)
    for (let p = A.indptr[a]!; p < A.indptr[a + 1]!; p++) {
      const ij: [number, number] = format === 'csr' ? [a, A.indices[p]!] : [A.indices[p]!, a];
      pos.set(`${ij[0]},${ij[1]}`, p);
      at.push(ij);
    }
  return at.map(([i, j]) => pos.get(`${j},${i}`)!);
}

/** f(w, b) = spsolve(A(v0 + ½(w + P conj w)), b): Hermitian perturbations of an HPD A (real diagonal). */
function hermitianCase(method: Method, format: 'csr' | 'csc', dt: DT, device: string): AdCase {
  return {
    name: `${method} ${format} ${dt}`,
    fd: method === 'cholesky' ? undefined : FD_ITER,
    specs: (r) => {
      const n = rint(r, 1, 6),
        k = rint(r, 0, 2);
      const A = build(randomSpd(r, n, 'float64', 0.5), format) as unknown as Sp;
      const perm = transposePerm(A, format);
      const P = new Float64Array(A.nnz * A.nnz);
      perm.forEach((q, p) => (P[p * A.nnz + q] = 0.5));
      const Pm = rlx.fromStorage(P, [A.nnz, A.nnz], 'float64').cast(dt).on(device);
      const v0 = A.valuesTensor().cast(dt).on(device);
      const opts = method === 'cholesky' ? { method } : { method, ...TIGHT };
      return {
        specs: [
          { shape: [A.nnz], dtype: dt, lo: -0.3, hi: 0.3 },
          { shape: k === 0 ? [n] : [n, k], dtype: dt },
        ],
        f: (w, b) => {
          const sym = w.mul(0.5).add(Pm.matmul(conj(w).reshape([A.nnz, 1])).reshape([A.nnz]));
          return rlx.sparse.spsolve(A.withValues(v0.add(sym)) as never, b, opts);
        },
      };
    },
  };
}

describe.each(DEVICES)('derivatives of spsolve on %s', (device) => {
  for (const format of ['csr', 'csc'] as const)
    for (const trans of [0, 1, 2] as const)
      for (const dt of ['float64', 'complex128'] as const)
        it(`lu ${format} trans ${trans} ${dt}: JVP vs FD, VJP vs JVP`, () => checkCase(generalCase('lu', format, trans, dt, device), device, RUNS));

  for (const method of ['gmres', 'bicgstab'] as const)
    for (const [format, trans] of [['csr', 0], ['csc', 0], ['csr', 1], ['csc', 2]] as const)
      for (const dt of ['float64', 'complex128'] as const)
        it(`${method} ${format} trans ${trans} ${dt} (non-symmetric, rtol 1e-12): JVP vs FD, VJP vs JVP`, () => checkCase(generalCase(method, format, trans, dt, device), device, RUNS));

  for (const method of ['cholesky', 'cg', 'minres'] as const)
    for (const format of ['csr', 'csc'] as const)
      for (const dt of ['float64', 'complex128'] as const)
        it(`${method} ${format} ${dt} (HPD, Hermitian perturbations): JVP vs FD, VJP vs JVP`, () => checkCase(hermitianCase(method, format, dt, device), device, RUNS));

  // The Cholesky solvers (CHOLMOD, the js one) read only the lower triangle (and
  // the real part of the diagonal): x = H(v)⁻¹ b with H = tril(A) + tril(A, −1)ᴴ.
  // Derivatives must be those of that function, for any perturbation of the
  // stored values, and for a matrix stored as its lower triangle only.
  for (const storage of ['full', 'lower'] as const)
    for (const format of ['csr', 'csc'] as const)
      for (const trans of [0, 1, 2] as const)
        for (const dt of ['float64', 'complex128'] as const)
          it(`cholesky ${storage} storage ${format} trans ${trans} ${dt}: general value perturbations, JVP vs FD, VJP vs JVP`, () =>
            checkCase(
              {
                name: 'cholesky one triangle',
                specs: (r) => {
                  const n = rint(r, 1, 6),
                    k = rint(r, 0, 2);
                  const T = randomSpd(r, n, 'float64', 0.5);
                  if (storage === 'lower') {
                    const keep = T.ri.map((i, e) => i >= T.ci[e]!);
                    [T.ri, T.ci] = [T.ri.filter((_, e) => keep[e]), T.ci.filter((_, e) => keep[e])];
                    T.data = T.data.filter((_, e) => keep[e]);
                  }
                  const A = build(T, format) as unknown as Sp;
                  const v0 = A.valuesTensor().cast(dt).on(device);
                  return {
                    specs: [
                      { shape: [A.nnz], dtype: dt, lo: -0.3, hi: 0.3 },
                      { shape: k === 0 ? [n] : [n, k], dtype: dt },
                    ],
                    f: (w, b) => rlx.sparse.spsolve(A.withValues(v0.add(w)) as never, b, { method: 'cholesky', trans: TRANS[trans] }),
                  };
                },
              },
              device,
              RUNS,
            ));

  for (const method of ['lu', 'gmres', 'bicgstab'] as const)
    for (const format of ['csr', 'csc'] as const)
      for (const trans of [0, 1] as const)
        for (const dt of ['float64', 'complex128'] as const)
          it(`${method} ${format} trans ${trans} ${dt}: grad of Re Σ w·x w.r.t. the values is −λ_i x_j on the pattern`, () => {
            const r = prng(100 + trans * 7 + (format === 'csc' ? 3 : 0) + (dt === 'complex128' ? 1 : 0));
            const n = 6;
            const T = randomNonsym(r, n, dt, 0.4);
            const A = build(T, format) as unknown as Sp;
            const L = dt === 'complex128' ? 2 : 1;
            const bst = new Float64Array(n * L).map(() => 2 * r() - 1);
            const wst = new Float64Array(n * L).map(() => 2 * r() - 1);
            const b = rlx.fromStorage(bst.slice(), [n], dt).on(device);
            const w = rlx.fromStorage(wst.slice(), [n], dt).on(device);
            const opts = method === 'lu' ? { method, trans: TRANS[trans] } : { method, trans: TRANS[trans], ...TIGHT };
            const loss = (v: Tensor) => w.mul(rlx.sparse.spsolve(A.withValues(v) as never, b, opts)).real().sum();
            const g = vals(rlx.grad(loss)(A.valuesTensor().on(device)) as Tensor);
            // Independent reference: x = op(A)⁻¹ b and the adjoint λ by dense elimination.
            const pb = planes(rlx.fromStorage(bst, [n], dt)),
              pw = planes(rlx.fromStorage(wst, [n], dt));
            const x = refSolve(T.dense, pb, 1, trans === 0 ? 'N' : 'T');
            const lam = refSolve(T.dense, pw, 1, trans === 0 ? 'T' : 'N');
            // trans 0: L = wᵀA⁻¹b → ∂L/∂A_ij = −λ_i x_j;  trans 1: L = wᵀA⁻ᵀb → ∂L/∂A_ij = −x_i λ_j.
            const want: number[] = [];
            for (let a = 0; a < n; a++)
              for (let p = A.indptr[a]!; p < A.indptr[a + 1]!; p++) {
                const [i, j] = format === 'csr' ? [a, A.indices[p]!] : [A.indices[p]!, a];
                const [u, z] = trans === 0 ? [lam, x] : [x, lam];
                const re = -(u.re[i]! * z.re[j]! - u.im[i]! * z.im[j]!),
                  im = -(u.re[i]! * z.im[j]! + u.im[i]! * z.re[j]!);
                want.push(re);
                if (L === 2) want.push(im);
              }
            expect(g).toBeAllclose(want, method === 'lu' ? { rtol: 1e-10, atol: 1e-12 } : { rtol: 1e-8, atol: 1e-10 });
          });

  for (const method of ['lu', 'gmres'] as const)
    it(`${method}: vmap over b [B, n] equals stacking; vmap of grad w.r.t. b too`, () => {
      const r = prng(55);
      const n = 5,
        B = 4;
      const A = build(randomNonsym(r, n, 'complex128', 0.4), 'csr') as unknown as Sp;
      const opts = method === 'lu' ? { method } : { method, ...TIGHT };
      const Bs = rlx.fromStorage(new Float64Array(B * n * 2).map(() => r() - 0.5), [B, n], 'complex128').on(device);
      const rows = (t: Tensor) => Array.from({ length: B }, (_, i) => t.select(0, i));
      const batched = rlx.vmap((b: Tensor) => rlx.sparse.spsolve(A as never, b, opts))(Bs) as Tensor;
      expect(batched.shape).toEqual([B, n]);
      const stacked = rlx.stack(rows(Bs).map((b) => rlx.sparse.spsolve(A as never, b, opts)));
      expect(vals(batched)).toBeAllclose(vals(stacked), { rtol: 1e-10, atol: 1e-12 });
      const gl = (b: Tensor) => rlx.sparse.spsolve(A as never, b, opts).abs().square().sum();
      const gb = rlx.vmap(rlx.grad(gl))(Bs) as Tensor;
      const gs = rlx.stack(rows(Bs).map((b) => rlx.grad(gl)(b) as Tensor));
      expect(vals(gb)).toBeAllclose(vals(gs), { rtol: 1e-9, atol: 1e-12 });
    });

  it('vmap over the values (a batch of matrices of one pattern) equals stacking', () => {
    const r = prng(56);
    const n = 5,
      B = 3;
    const A = build(randomNonsym(r, n, 'float64', 0.4), 'csr') as unknown as Sp;
    const v0 = vals(A.valuesTensor());
    const Vs = rlx.fromStorage(Float64Array.from({ length: B * A.nnz }, (_, q) => v0[q % A.nnz]! + 0.2 * (r() - 0.5)), [B, A.nnz], 'float64').on(device);
    const b = rlx.fromStorage(new Float64Array(n).map(() => r()), [n], 'float64').on(device);
    const batched = rlx.vmap((v: Tensor) => rlx.sparse.spsolve(A.withValues(v) as never, b), { inAxes: 0 })(Vs) as Tensor;
    const stacked = rlx.stack(Array.from({ length: B }, (_, i) => rlx.sparse.spsolve(A.withValues(Vs.select(0, i)) as never, b)));
    expect(vals(batched)).toBeAllclose(vals(stacked), { rtol: 1e-12, atol: 1e-14 });
    // values and b batched together
    const Bb = rlx.fromStorage(new Float64Array(B * n).map(() => r()), [B, n], 'float64').on(device);
    const both = rlx.vmap((v: Tensor, bb: Tensor) => rlx.sparse.spsolve(A.withValues(v) as never, bb))(Vs, Bb) as Tensor;
    const both0 = rlx.stack(Array.from({ length: B }, (_, i) => rlx.sparse.spsolve(A.withValues(Vs.select(0, i)) as never, Bb.select(0, i))));
    expect(vals(both)).toBeAllclose(vals(both0), { rtol: 1e-12, atol: 1e-14 });
    // cholesky (values gathered into the Hermitian completion) batches too, and under jit
    const S = rlx.sparse.poisson2d(3) as unknown as Sp;
    const s0 = vals(S.valuesTensor());
    const Ss = rlx.fromStorage(Float64Array.from({ length: B * S.nnz }, (_, q) => s0[q % S.nnz]! * (1 + Math.floor(q / S.nnz))), [B, S.nnz], 'float64').on(device);
    const c = rlx.fromStorage(new Float64Array(9).map(() => r()), [9], 'float64').on(device);
    const chol = (v: Tensor) => rlx.sparse.spsolve(S.withValues(v) as never, c, { method: 'cholesky' });
    const cb = rlx.vmap(chol)(Ss) as Tensor;
    const cs = rlx.stack(Array.from({ length: B }, (_, i) => rlx.sparse.spsolve(S.withValues(Ss.select(0, i)) as never, c)));
    expect(vals(cb)).toBeAllclose(vals(cs), { rtol: 1e-12, atol: 1e-14 });
    expect(vals(rlx.jit(chol)(Ss.select(0, 1)) as Tensor)).toBeAllclose(vals(cs.select(0, 1)), { rtol: 1e-12, atol: 1e-14 });
  });

  for (const method of ['lu', 'cholesky'] as const)
    for (const dt of ['float64', 'complex128'] as const)
      it(`${method} ${dt}: second order (hvp through the csrSddmm rules) vs FD of the gradient`, () => {
        const r = prng(58);
        const L = dt === 'complex128' ? 2 : 1;
        const S = rlx.sparse.poisson2d(3) as unknown as Sp;
        const b = rlx.fromStorage(new Float64Array(9 * L).map(() => r() - 0.5), [9], dt).on(device);
        const sq = (t: Tensor) => t.mul(conj(t)).real();
        const loss = (v: Tensor) => sq(rlx.sparse.spsolve(S.withValues(v) as never, b, { method })).sum().add(sq(S.withValues(v).rmatvec(b).sin()).sum());
        // a Hermitian base (cholesky reads the lower triangle; keep the lu case the same matrix)
        const v0 = vals(S.valuesTensor().cast(dt));
        const dir = new Float64Array(S.nnz * L).map(() => 0.2 * (r() - 0.5));
        const at = (h: number) => rlx.fromStorage(v0.map((x, q) => x + h * dir[q]!), [S.nnz], dt).on(device);
        const hv = rlx.hvp(loss, [at(0)], [rlx.fromStorage(dir.slice(), [S.nnz], dt).on(device)]);
        const hvt = (Array.isArray(hv) ? hv[0] : hv) as Tensor;
        const h = 1e-5;
        const gp = vals(rlx.grad(loss)(at(h)) as Tensor),
          gm = vals(rlx.grad(loss)(at(-h)) as Tensor);
        expect(vals(hvt)).toBeAllclose(gp.map((x, q) => (x - gm[q]!) / (2 * h)), { rtol: 1e-6, atol: 1e-8 });
      });

  // (complex cholesky is not holomorphic in the values — the completion conjugates — so it has no complex Jacobian)
  for (const [method, dt] of [['lu', 'float64'], ['lu', 'complex128'], ['gmres', 'float64'], ['gmres', 'complex128'], ['cholesky', 'float64']] as const)
      it(`${method} ${dt}: jacfwd and jacrev w.r.t. the values equal −(A⁻¹)_{k,row e} x_{col e} (lower entries only for cholesky)`, () => {
        const r = prng(60);
        const n = 5;
        const T = method === 'cholesky' ? randomSpd(r, n, dt, 0.5) : randomNonsym(r, n, dt, 0.4);
        const A = build(T, 'csr') as unknown as Sp;
        const L = dt === 'complex128' ? 2 : 1;
        const bst = new Float64Array(n * L).map(() => r() - 0.5);
        const b = rlx.fromStorage(bst.slice(), [n], dt).on(device);
        const opts = method === 'gmres' ? { method, ...TIGHT } : { method };
        const f = (v: Tensor) => rlx.sparse.spsolve(A.withValues(v) as never, b, opts);
        const x = refSolve(T.dense, planes(rlx.fromStorage(bst, [n], dt)), 1);
        const eye = { re: new Float64Array(n * n), im: new Float64Array(n * n) };
        for (let i = 0; i < n; i++) eye.re[i * n + i] = 1;
        const Ainv = refSolve(T.dense, eye, n);
        // J[k, e] = −Ainv[k, i] x[j] for entry e = (i, j); for cholesky (symmetric completion of
        // the lower triangle) a strictly-lower e also enters at (j, i), an upper one not at all.
        const J = new Float64Array(n * A.nnz * L);
        for (let i = 0; i < n; i++)
          for (let p = A.indptr[i]!; p < A.indptr[i + 1]!; p++) {
            const j = A.indices[p]!;
            const terms: [number, number][] = method === 'cholesky' ? (i > j ? [[i, j], [j, i]] : i === j ? [[i, i]] : []) : [[i, j]];
            for (let k = 0; k < n; k++)
              for (const [ii, jj] of terms) {
                const ar = Ainv.re[k * n + ii]!,
                  ai = Ainv.im[k * n + ii]!;
                J[(k * A.nnz + p) * L] -= ar * x.re[jj]! - ai * x.im[jj]!;
                if (L === 2) J[(k * A.nnz + p) * L + 1] -= ar * x.im[jj]! + ai * x.re[jj]!;
              }
          }
        const v = A.valuesTensor().cast(dt).on(device);
        for (const jac of [rlx.jacfwd, rlx.jacrev]) {
          const Jt = jac(f)(v) as Tensor;
          expect(Jt.shape).toEqual([n, A.nnz]);
          expect(vals(Jt)).toBeAllclose(J, method === 'gmres' ? { rtol: 1e-8, atol: 1e-10 } : { rtol: 1e-10, atol: 1e-12 });
        }
      });

  it('jit(grad) of a spsolve loss equals grad (values and b)', () => {
    const r = prng(57);
    const n = 6;
    const A = build(randomNonsym(r, n, 'complex128', 0.4), 'csc') as unknown as Sp;
    const b = rlx.fromStorage(new Float64Array(2 * n).map(() => r() - 0.5), [n], 'complex128').on(device);
    const v = A.valuesTensor().on(device);
    const loss = (vv: Tensor, bb: Tensor) => rlx.sparse.spsolve(A.withValues(vv) as never, bb).abs().square().sum();
    const g = rlx.grad(loss, { argnums: [0, 1] })(v, b) as Tensor[];
    const gj = rlx.jit(rlx.grad(loss, { argnums: [0, 1] }))(v, b) as Tensor[];
    expect(g[0]!.device).toBe(device);
    for (const i of [0, 1]) expect(vals(gj[i]!)).toBeAllclose(vals(g[i]!), { rtol: 1e-12, atol: 1e-14 });
  });
});
