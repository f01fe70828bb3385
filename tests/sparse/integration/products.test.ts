// Sparse × dense products with tensors (A.matvec, A.rmatvec, A.matmul) through
// the csrMatmul IR op, for CSR/CSC/COO and the four dtypes, on every device:
// random shapes (0 rows/cols included), densities, duplicates and unsorted
// indices vs a plain-JS dense reference and vs A.toDense().matmul; laziness and
// fusion with following ops; dtype promotion of mixed operands.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';
import { SDTYPES, build, expectPlanesClose, isCplx, isSingle, planes, prng, randTensor, randomTriplets, refMul } from './helpers.js';

const FORMATS = ['csr', 'csc', 'coo'] as const;
const RUNS = 12;

/** float32 sums round at every step: bound by inner·eps32 relative to Σ|a||x| ≤ inner (entries in [-1, 1]). */
const tolFor = (d: string, inner: number) => (isSingle(d) ? { rtol: 1e-5, atol: 4e-7 * (inner + 1) * 4 } : { rtol: 1e-12, atol: 1e-13 * (inner + 1) });

/** Pins the values tensor of a compressed matrix (COO converts to CSR in products: its values stay unpinned). */
function pinned<T>(A: T, device: string): T {
  const M = A as unknown as { format: string; withValues(v: Tensor): T; valuesTensor(): Tensor };
  return M.format === 'coo' ? A : M.withValues(M.valuesTensor().on(device));
}

describe.each(DEVICES)('sparse products on %s', (device) => {
  for (const format of FORMATS)
    for (const dtype of SDTYPES) {
      it(`${format} ${dtype}: matvec, rmatvec, matmul vs dense references`, () => {
        fc.assert(
          fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.integer({ min: 0, max: 7 }), fc.integer({ min: 0, max: 7 }), fc.constantFrom(0, 0.15, 0.5, 1), fc.integer({ min: 1, max: 3 }), (seed, m, n, density, k) => {
            const r = prng(seed);
            const T = randomTriplets(r, m, n, density, dtype, true);
            const A = pinned(build(T, format), device);
            const x = randTensor(r, [n], dtype, device);
            const y = randTensor(r, [m], dtype, device);
            const X = randTensor(r, [n, k], dtype, device);

            const Ax = A.matvec(x.t);
            expect(Ax.dtype).toBe(dtype);
            expect(Ax.shape).toEqual([m]);
            expect(Ax.device).toBe(device);
            expectPlanesClose(planes(Ax), refMul(T.dense, x.p, 1, 'N'), tolFor(dtype, n), `${format} ${dtype} A x`);
            const AHy = A.rmatvec(y.t);
            expect(AHy.shape).toEqual([n]);
            expect(AHy.dtype).toBe(dtype);
            expectPlanesClose(planes(AHy), refMul(T.dense, y.p, 1, 'H'), tolFor(dtype, m), `${format} ${dtype} Aᴴ y`);
            const AX = A.matmul(X.t);
            expect(AX.shape).toEqual([m, k]);
            expectPlanesClose(planes(AX), refMul(T.dense, X.p, k, 'N'), tolFor(dtype, n), `${format} ${dtype} A X`);
            // matmul of a 1-D operand is matvec
            expectPlanesClose(planes(A.matmul(x.t)), planes(Ax), { rtol: 0, atol: 0 }, 'matmul([n])');
            // the library's own dense path agrees (toDense · x, conj-transpose for rmatvec)
            const D = A.toDense();
            expectPlanesClose(planes(Ax), planes(D.matmul(x.t.reshape([n, 1])).reshape([m])), tolFor(dtype, n), 'vs toDense().matmul');
            const DH = isCplx(dtype) ? D.conj().T : D.T;
            expectPlanesClose(planes(AHy), planes(DH.matmul(y.t.reshape([m, 1])).reshape([n])), tolFor(dtype, m), 'vs toDense()ᴴ.matmul');
          }),
          { numRuns: RUNS },
        );
      });
    }

  it('the csrMatmul op runs on the pinned device (values and operand pinned)', () => {
    const r = prng(7);
    const T = randomTriplets(r, 6, 5, 0.4, 'float64');
    for (const format of ['csr', 'csc'] as const) {
      const A = pinned(build(T, format), device);
      const x = randTensor(r, [5], 'float64', device).t;
      const y = A.matvec(x);
      const plan = rlx.explain(y, { print: false });
      expect(plan.device).toBe(device);
      expect(plan.kernels.some((kp) => kp.kind === 'registered'), plan.toString()).toBe(true);
      expect(rlx.explain(A.rmatvec(randTensor(r, [6], 'float64', device).t), { print: false }).device).toBe(device);
    }
  });

  it('results are lazy and fuse with the ops that follow', () => {
    const r = prng(11);
    const T = randomTriplets(r, 8, 8, 0.3, 'float64');
    const A = pinned(build(T, 'csr'), device);
    const x = randTensor(r, [8], 'float64', device);
    const y = A.matvec(x.t);
    expect(y.isRealized).toBe(false);
    const z = y.mul(2).add(1).exp().sum();
    expect(z.isRealized).toBe(false);
    expect(y.isRealized).toBe(false);
    const plan = rlx.explain(z, { print: false });
    // one opaque product kernel, and the elementwise tail fused: fewer kernels than ops after it
    const prod = plan.kernels.filter((kp) => kp.kind === 'registered');
    expect(prod.length, plan.toString()).toBe(1);
    const tail = plan.kernels.filter((kp) => !prod.includes(kp));
    expect(tail.length, plan.toString()).toBeLessThanOrEqual(2);
    expect(tail.some((kp) => kp.ops.length >= 3), plan.toString()).toBe(true);
    const ref = refMul(T.dense, x.p, 1, 'N').re.reduce((s, v) => s + Math.exp(2 * v + 1), 0);
    expect(z.item() as number).toBeCloseTo(ref, 10);
  });

  it('mixed dtypes promote (float32 matrix × float64 vector → float64, real × complex → complex)', () => {
    const r = prng(3);
    const cases: [string, string, string][] = [
      ['float32', 'float64', 'float64'],
      ['float64', 'float32', 'float64'],
      ['float32', 'complex64', 'complex64'],
      ['float64', 'complex64', 'complex128'],
      ['complex64', 'float64', 'complex128'],
      ['float32', 'float32', 'float32'],
    ];
    for (const [ad, xd, want] of cases) {
      const T = randomTriplets(r, 5, 4, 0.5, ad as never);
      const A = pinned(build(T, 'csr'), device);
      const x = randTensor(r, [4], xd, device);
      const X = randTensor(r, [4, 2], xd, device);
      const y = randTensor(r, [5], xd, device);
      for (const [res, ref] of [
        [A.matvec(x.t), refMul(T.dense, x.p, 1, 'N')],
        [A.matmul(X.t), refMul(T.dense, X.p, 2, 'N')],
        [A.rmatvec(y.t), refMul(T.dense, y.p, 1, 'H')],
      ] as const) {
        expect(res.dtype, `${ad} × ${xd}`).toBe(want);
        expect(res.dtype).toBe(rlx.promoteTypes(ad as never, xd as never));
        expectPlanesClose(planes(res), ref, tolFor(want, 5), `${ad} × ${xd}`);
      }
    }
  });

  it('a float64 product of a float32 matrix keeps float64 precision of the operand', () => {
    // x has bits below float32 resolution: a product computed in float32 would lose them
    const A = pinned(rlx.sparse.eye(3, { dtype: 'float32' }), device);
    const x = rlx.tensor([1 + 1e-12, 2, 3], { dtype: 'float64' }).on(device);
    expect(Array.from(A.matvec(x).toArray())).toEqual([1 + 1e-12, 2, 3]);
  });

  it('matrices sharing an indptr array but not their indices give their own products (no stale pattern)', () => {
    const ip = Int32Array.from([0, 1, 2]);
    const x = rlx.tensor([10, 20]).on(device);
    const A = rlx.sparse.csr({ indptr: ip, indices: Int32Array.from([0, 1]), data: Float64Array.from([1, 2]), shape: [2, 2] });
    const B = rlx.sparse.csr({ indptr: ip, indices: Int32Array.from([1, 0]), data: Float64Array.from([1, 2]), shape: [2, 2] });
    expect(Array.from(A.matvec(x).toArray())).toEqual([10, 40]);
    expect(Array.from(B.matvec(x).toArray())).toEqual([20, 20]);
    expect(Array.from(A.matvec(x).toArray())).toEqual([10, 40]);
    // the same arrays read as CSC are the transpose
    const C = rlx.sparse.csc({ indptr: ip, indices: Int32Array.from([1, 0]), data: Float64Array.from([1, 2]), shape: [2, 2] });
    expect(Array.from(C.matvec(x).toArray())).toEqual([40, 10]);
    // and the cholesky solves (which build a Hermitian completion per pattern)
    const S1 = rlx.sparse.csr({ indptr: Int32Array.from([0, 1, 3]), indices: Int32Array.from([0, 0, 1]), data: [4, 1, 3], shape: [2, 2] });
    const S2 = rlx.sparse.csr({ indptr: S1.indptr, indices: Int32Array.from([0, 1, 1]), data: [4, 1, 3], shape: [2, 2] }); // diagonal 4, 1 + 3 (a duplicate: summed)
    const b = rlx.tensor([1, 2]).on(device);
    expect(Array.from(rlx.sparse.spsolve(S1, b, { method: 'cholesky' }).toArray())).toBeAllclose([1 / 11, 7 / 11], { rtol: 1e-12, atol: 1e-14 });
    expect(Array.from(rlx.sparse.spsolve(S2, b, { method: 'cholesky' }).toArray())).toBeAllclose([1 / 4, 2 / 4], { rtol: 1e-12, atol: 1e-14 });
  });

  for (const dtype of ['float64', 'complex128', 'float32'] as const)
    it(`large ${dtype} matrix (the threaded kernels: 20000x15000, ~160k entries) vs a plain CSR loop`, () => {
      const r = prng(123);
      const m = 20000,
        n = 15000,
        L = isCplx(dtype) ? 2 : 1;
      const ip = [0],
        ix: number[] = [],
        dv: number[] = [];
      for (let i = 0; i < m; i++) {
        const cnt = Math.floor(r() * 17);
        for (let t = 0; t < cnt; t++) {
          ix.push(Math.floor(r() * n));
          for (let l = 0; l < L; l++) dv.push(isSingle(dtype) ? Math.fround(2 * r() - 1) : 2 * r() - 1);
        }
        ip.push(ix.length);
      }
      const A = rlx.sparse.csr({ indptr: ip, indices: ix, data: Float64Array.from(dv), shape: [m, n], dtype });
      const Ap = A.withValues(A.valuesTensor().on(device));
      const k = 3;
      const X = randTensor(r, [n, k], dtype, device),
        y = randTensor(r, [m], dtype, device);
      // plain CSR references: A X and Aᴴ y
      const ref = { re: new Float64Array(m * k), im: new Float64Array(m * k) },
        refH = { re: new Float64Array(n), im: new Float64Array(n) };
      for (let i = 0; i < m; i++)
        for (let p = ip[i]!; p < ip[i + 1]!; p++) {
          const j = ix[p]!,
            ar = dv[p * L]!,
            ai = L === 2 ? dv[p * L + 1]! : 0;
          for (let c = 0; c < k; c++) {
            ref.re[i * k + c] += ar * X.p.re[j * k + c]! - ai * X.p.im[j * k + c]!;
            ref.im[i * k + c] += ar * X.p.im[j * k + c]! + ai * X.p.re[j * k + c]!;
          }
          refH.re[j] += ar * y.p.re[i]! + ai * y.p.im[i]!;
          refH.im[j] += ar * y.p.im[i]! - ai * y.p.re[i]!;
        }
      const t = tolFor(dtype, 20);
      expectPlanesClose(planes(Ap.matmul(X.t)), ref, t, 'A X');
      const col0 = { re: ref.re.filter((_, q) => q % k === 0), im: ref.im.filter((_, q) => q % k === 0) };
      expectPlanesClose(planes(Ap.matvec(X.t.select(1, 0))), col0, t, 'A x');
      expectPlanesClose(planes(Ap.rmatvec(y.t)), refH, tolFor(dtype, 40), 'Aᴴ y');
      expectPlanesClose(planes(Ap.tocsc().withValues(Ap.tocsc().valuesTensor().on(device)).matvec(X.t.select(1, 0))), col0, t, 'CSC A x');
    });

  it('withValues from a plain number array keeps a float32 matrix float32 and works in products and solves', () => {
    const x = rlx.ones([3], { dtype: 'float32' }).on(device);
    for (const dtype of ['float32', 'float64'] as const) {
      const B = rlx.sparse.poisson1d(3).astype(dtype).withValues([4, 1, 1, 4, 1, 1, 4]);
      expect(B.dtype).toBe(dtype);
      expect(B.valuesTensor().dtype).toBe(dtype);
      const y = B.matvec(x);
      expect(y.dtype).toBe(dtype);
      expect(Array.from(y.toArray())).toEqual([5, 6, 5]);
      for (const method of ['lu', 'cholesky', 'cg'] as const) expect(Array.from(rlx.sparse.spsolve(B, x, { method, rtol: 1e-7 }).toArray())).toBeAllclose([3 / 14, 1 / 7, 3 / 14], { rtol: 1e-6, atol: 1e-7 });
    }
  });

  it('0-column products and empty matrices', () => {
    const A = pinned(build(randomTriplets(prng(1), 3, 0, 1, 'float64'), 'csr'), device);
    const y = A.matvec(rlx.zeros([0]).on(device));
    expect(y.shape).toEqual([3]);
    expect(Array.from(y.toArray())).toEqual([0, 0, 0]);
    const B = pinned(build(randomTriplets(prng(2), 4, 3, 0.5, 'complex128'), 'csc'), device);
    const Z = B.matmul(rlx.zeros([3, 0], { dtype: 'complex128' }).on(device));
    expect(Z.shape).toEqual([4, 0]);
    expect(Z.toArray().length).toBe(0);
  });
});
