// Derivatives of sparse products with tensors: f(values, x) = g(A(values)·x)
// (matvec, rmatvec, matmul; CSR and CSC; float64 and complex128) against
// central finite differences (real, imaginary and mixed perturbations), the
// dot-product identity tying the VJP to the JVP, and grad of a real loss
// component by component (grad = ∂L/∂re − i ∂L/∂im, the bilinear convention of
// compiler/transforms/rules/vjp.ts); jit(grad) equals grad; vmap over x.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { type AdCase, type DT, checkCase, rint, toT, vals } from '../../transforms/ad-harness.js';
import { build, prng, randomTriplets } from './helpers.js';

const RUNS = 8;
type Op = 'matvec' | 'rmatvec' | 'matmul';

/** A random pattern (duplicates, unsorted rows) and f(v, x) = sin(op(A(v)) x). */
function productCase(op: Op, format: 'csr' | 'csc', dt: DT): AdCase {
  return {
    name: `${format} ${op} ${dt}`,
    specs: (r) => {
      const m = rint(r, 1, 5),
        n = rint(r, 1, 5),
        k = rint(r, 1, 3);
      const A = build(randomTriplets(r, m, n, 0.5, 'float64', true), format);
      const xs = op === 'matvec' ? [n] : op === 'rmatvec' ? [m] : [n, k];
      const M = A as unknown as { withValues(v: Tensor): typeof A };
      return { specs: [{ shape: [A.nnz], dtype: dt }, { shape: xs, dtype: dt }], f: (v, x) => M.withValues(v)[op](x).sin() };
    },
  };
}

/** grad of a real scalar L(args) w.r.t. argument `i` vs FD on each real and imaginary component. */
export function checkGradFd(L: (...xs: Tensor[]) => Tensor, args: { data: Float64Array; shape: number[]; dtype: DT }[], i: number, device: string, o: { h?: number; rtol?: number; atol?: number } = {}): Float64Array {
  const h = o.h ?? 1e-6;
  const mk = (j: number, d?: Float64Array) => toT(d ?? args[j]!.data, { shape: args[j]!.shape, dtype: args[j]!.dtype }, device);
  const g = rlx.grad(L, { argnums: i })(...args.map((_, j) => mk(j))) as Tensor;
  expect(g.dtype).toBe(args[i]!.dtype);
  expect(g.shape).toEqual(args[i]!.shape);
  const gv = vals(g);
  const cplx = args[i]!.dtype === 'complex128';
  const at = (q: number, s: number) => {
    const d = args[i]!.data.slice();
    d[q]! += s * h;
    return L(...args.map((_, j) => (j === i ? mk(j, d) : mk(j)))).item() as number;
  };
  const fd = new Float64Array(gv.length);
  for (let q = 0; q < gv.length; q++) {
    const c = (at(q, 1) - at(q, -1)) / (2 * h);
    // the bilinear convention: grad = ∂L/∂re − i ∂L/∂im
    fd[q] = cplx && q % 2 === 1 ? -c : c;
  }
  expect(gv).toBeAllclose(fd, { rtol: o.rtol ?? 1e-6, atol: o.atol ?? 1e-7 });
  return gv;
}

describe.each(DEVICES)('derivatives of sparse products on %s', (device) => {
  for (const format of ['csr', 'csc'] as const)
    for (const op of ['matvec', 'rmatvec', 'matmul'] as const)
      for (const dt of ['float64', 'complex128'] as const)
        it(`${format} ${op} ${dt}: JVP vs FD, VJP vs JVP (values and x)`, () => {
          checkCase(productCase(op, format, dt), device, RUNS);
        });

  for (const format of ['csr', 'csc'] as const)
    for (const dt of ['float64', 'complex128'] as const)
      it(`${format} ${dt}: grad of Σ|A(v) x|² + Re Σ w·(Aᴴ(v) y) w.r.t. v and x, component by component`, () => {
        const r = prng(format === 'csr' ? 5 : 6);
        const m = 4,
          n = 3;
        const A = build(randomTriplets(r, m, n, 0.6, 'float64', true), format) as unknown as { nnz: number; withValues(v: Tensor): { matvec(x: Tensor): Tensor; rmatvec(x: Tensor): Tensor } };
        const L = (dt === 'complex128' ? 2 : 1) as number;
        const rnd = (len: number) => new Float64Array(len * L).map(() => 2 * r() - 1);
        const args = [
          { data: rnd(A.nnz), shape: [A.nnz], dtype: dt },
          { data: rnd(n), shape: [n], dtype: dt },
          { data: rnd(m), shape: [m], dtype: dt },
        ];
        const w = toT(rnd(n), { shape: [n], dtype: dt }, device);
        const loss = (v: Tensor, x: Tensor, y: Tensor) => {
          const M = A.withValues(v);
          const ax = M.matvec(x);
          const s = ax.mul(ax.conj()).real().sum();
          return s.add(w.mul(M.rmatvec(y)).real().sum());
        };
        for (const i of [0, 1, 2]) checkGradFd(loss, args, i, device);
      });

  it('grad w.r.t. the values of a real matvec is sddmm: ∂(uᵀ A x)/∂a_e = u_row(e) x_col(e) (CSR and CSC)', () => {
    const r = prng(21);
    const T = randomTriplets(r, 5, 4, 0.5, 'float64', false);
    const u = Float64Array.from({ length: 5 }, () => r() - 0.5);
    const x = Float64Array.from({ length: 4 }, () => r() - 0.5);
    const ut = rlx.tensor(Array.from(u)).on(device);
    const xt = rlx.tensor(Array.from(x)).on(device);
    for (const format of ['csr', 'csc'] as const) {
      const A = build(T, format) as unknown as { indptr: Int32Array; indices: Int32Array; valuesTensor(): Tensor; withValues(v: Tensor): { matvec(x: Tensor): Tensor } };
      const g = vals(rlx.grad((v: Tensor) => ut.mul(A.withValues(v).matvec(xt)).sum())(A.valuesTensor().on(device)) as Tensor);
      const want: number[] = [];
      for (let a = 0; a + 1 < A.indptr.length; a++)
        for (let p = A.indptr[a]!; p < A.indptr[a + 1]!; p++) {
          const [i, j] = format === 'csr' ? [a, A.indices[p]!] : [A.indices[p]!, a];
          want.push(u[i]! * x[j]!);
        }
      expect(g).toBeAllclose(want, { rtol: 1e-13, atol: 1e-15 });
    }
  });

  it('float32 values with a float64 operand: the product is float64, the values gradient float32', () => {
    const A = rlx.sparse.poisson1d(4).astype('float32');
    const x = rlx.tensor([1, 2, 3, 4], { dtype: 'float64' }).on(device);
    const u = rlx.tensor([0.5, -1, 2, 1], { dtype: 'float64' }).on(device);
    const g = rlx.grad((v: Tensor) => u.mul(A.withValues(v).matvec(x)).sum())(A.valuesTensor().on(device)) as Tensor;
    expect(A.withValues(A.valuesTensor()).matvec(x).dtype).toBe('float64');
    expect(g.dtype).toBe('float32');
    // entries in CSR order of the tridiagonal (i, j): u_i x_j
    const want = [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 1], [2, 2], [2, 3], [3, 2], [3, 3]].map(([i, j]) => [0.5, -1, 2, 1][i!]! * (j! + 1));
    expect(Array.from(g.toArray())).toEqual(want);
  });

  for (const format of ['csr', 'csc'] as const)
    for (const dt of ['float64', 'complex128'] as const)
      it(`${format} ${dt}: jacfwd and jacrev (vmap of the JVP / VJP rules) of v ↦ A(v) x and of x ↦ Aᴴ(v) x equal the explicit Jacobians`, () => {
        const r = prng(31);
        const m = 5,
          n = 4;
        const A = build(randomTriplets(r, m, n, 0.5, 'float64', true), format) as unknown as { nnz: number; indptr: Int32Array; indices: Int32Array; valuesTensor(): Tensor; withValues(v: Tensor): { matvec(x: Tensor): Tensor; rmatvec(x: Tensor): Tensor } };
        const L = dt === 'complex128' ? 2 : 1;
        const xs = new Float64Array(n * L).map(() => r() - 0.5);
        const x = rlx.fromStorage(xs.slice(), [n], dt).on(device);
        const v = A.valuesTensor().cast(dt).on(device);
        const vs = vals(v);
        // ∂(A x)_i/∂v_e = x_col(e) when row(e) = i
        const Jv = new Float64Array(m * A.nnz * L);
        // ∂(Aᴴ y)_j/∂y_i = conj(A_ij) (summing duplicates)
        const Jy = new Float64Array(n * m * L);
        for (let a = 0; a + 1 < A.indptr.length; a++)
          for (let p = A.indptr[a]!; p < A.indptr[a + 1]!; p++) {
            const [i, j] = format === 'csr' ? [a, A.indices[p]!] : [A.indices[p]!, a];
            for (let l = 0; l < L; l++) Jv[(i * A.nnz + p) * L + l] = xs[j * L + l]!;
            Jy[(j * m + i) * L] += vs[p * L]!;
            if (L === 2) Jy[(j * m + i) * L + 1] -= vs[p * L + 1]!;
          }
        const fv = (vv: Tensor) => A.withValues(vv).matvec(x);
        for (const jac of [rlx.jacfwd, rlx.jacrev]) {
          const J = jac(fv)(v) as Tensor;
          expect(J.shape).toEqual([m, A.nnz]);
          expect(vals(J)).toBeAllclose(Jv, { rtol: 1e-14, atol: 1e-15 });
        }
        // Aᴴ y is antiholomorphic in v but linear in y: both Jacobian modes give conj(A)ᵀ
        const fy = (y: Tensor) => A.withValues(v).rmatvec(y);
        const y0 = rlx.zeros([m], { dtype: dt }).on(device);
        for (const jac of [rlx.jacfwd, rlx.jacrev]) expect(vals(jac(fy)(y0) as Tensor)).toBeAllclose(Jy, { rtol: 1e-14, atol: 1e-15 });
      });

  it('jit(grad) equals grad; the gradient runs on the pinned device', () => {
    const r = prng(8);
    const A = build(randomTriplets(r, 6, 5, 0.4, 'complex128'), 'csr') as unknown as { valuesTensor(): Tensor; withValues(v: Tensor): { matmul(x: Tensor): Tensor } };
    const v = A.valuesTensor().on(device);
    const X = rlx.fromStorage(new Float64Array(5 * 2 * 2).map(() => r() - 0.5), [5, 2], 'complex128').on(device);
    const loss = (vv: Tensor, XX: Tensor) => A.withValues(vv).matmul(XX).abs().square().sum();
    const g = rlx.grad(loss, { argnums: [0, 1] })(v, X) as Tensor[];
    expect(g[0]!.device).toBe(device);
    const gj = rlx.jit(rlx.grad(loss, { argnums: [0, 1] }))(v, X) as Tensor[];
    expect(vals(gj[0]!)).toBeAllclose(vals(g[0]!), { rtol: 1e-12, atol: 1e-14 });
    expect(vals(gj[1]!)).toBeAllclose(vals(g[1]!), { rtol: 1e-12, atol: 1e-14 });
  });

  it('vmap over x (and over the values) equals stacking', () => {
    const r = prng(9);
    const A = build(randomTriplets(r, 4, 3, 0.6, 'float64'), 'csc') as unknown as { nnz: number; valuesTensor(): Tensor; withValues(v: Tensor): { matvec(x: Tensor): Tensor; rmatvec(x: Tensor): Tensor } };
    const B = 3;
    const Xs = rlx.fromStorage(new Float64Array(B * 3).map(() => r() - 0.5), [B, 3], 'float64').on(device);
    const Vs = rlx.fromStorage(new Float64Array(B * A.nnz).map(() => r() - 0.5), [B, A.nnz], 'float64').on(device);
    const v0 = A.valuesTensor().on(device);
    const batched = rlx.vmap((x: Tensor) => A.withValues(v0).matvec(x))(Xs) as Tensor;
    const stacked = rlx.stack(Array.from({ length: B }, (_, b) => A.withValues(v0).matvec(rowOf(Xs, b))));
    expect(vals(batched)).toBeAllclose(vals(stacked), { rtol: 1e-14, atol: 1e-15 });
    const both = rlx.vmap((v: Tensor, x: Tensor) => A.withValues(v).matvec(x))(Vs, Xs) as Tensor;
    const ref = rlx.stack(Array.from({ length: B }, (_, b) => A.withValues(rowOf(Vs, b)).matvec(rowOf(Xs, b))));
    expect(vals(both)).toBeAllclose(vals(ref), { rtol: 1e-14, atol: 1e-15 });
  });
});

/** Row b of a [B, n] tensor as [n]. */
export function rowOf(t: Tensor, b: number): Tensor {
  return t.select(0, b);
}
