// Derivatives through sparse construction and structural operations (issue 13
// §1): a matrix built from a tensor of values that is being differentiated
// keeps it, so grad/jvp of anything computed from the matrix reaches the values
// (each of these returned zeros before). Checked against central differences in
// float64 (and complex128, JAX's convention: the directional derivative along d
// is Re Σ ḡ·d with the bilinear pairing) on a loss that weighs every entry
// differently, so a wrong permutation cannot pass.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import type { Tensor } from '../../../src/index.js';
import { prng } from './helpers.js';
import { DEVICES } from '../../harness/devices.js';

const { sparse } = rlx;
type Build = (v: Tensor, w: Tensor) => Tensor;

const r = prng(1301);
const rand = (n: number) => Float64Array.from({ length: n }, () => 2 * r() - 1);
const T = (a: Float64Array, shape: number[], dtype: 'float64' | 'complex128' = 'float64') => rlx.fromStorage(a, shape, dtype);
const vals = (t: Tensor) => Float64Array.from(t.toArray() as ArrayLike<number>);

// A 4x5 pattern with a duplicate (1, 2) and unsorted columns in row 3.
const ROW = [0, 0, 1, 1, 1, 3, 3, 2];
const COL = [0, 3, 2, 2, 4, 4, 1, 0];
const NNZ = ROW.length;
const IP = [0, 2, 5, 6, 8];
const IX = [0, 3, 2, 2, 4, 0, 4, 1];

/** Σ t ∘ W with a fixed (same seed on every call) random W of t's shape, real part. */
function weighed(t: Tensor): Tensor {
  const c = t.dtype === 'complex128' || t.dtype === 'complex64';
  const wr = prng(77);
  const W = T(Float64Array.from({ length: t.size * (c ? 2 : 1) }, () => 2 * wr() - 1), t.shape, c ? 'complex128' : 'float64');
  const p = t.mul(W).sum();
  return c ? p.real() : p;
}

/** Checks grad and jvp of loss(v) against central differences in a random direction. */
function checkFd(loss: (v: Tensor) => Tensor, n: number, dtype: 'float64' | 'complex128' = 'float64'): void {
  const L = dtype === 'complex128' ? 2 : 1;
  const v0 = rand(n * L);
  const dir = rand(n * L);
  const at = (x: Float64Array) => loss(T(x, [n], dtype)).item() as number;
  const h = 1e-6;
  const fd = (at(v0.map((x, i) => x + h * dir[i]!)) - at(v0.map((x, i) => x - h * dir[i]!))) / (2 * h);
  const g = vals(rlx.grad(loss)(T(v0.slice(), [n], dtype)) as Tensor);
  let dot = 0;
  for (let i = 0; i < n; i++) dot += L === 1 ? g[i]! * dir[i]! : g[2 * i]! * dir[2 * i]! - g[2 * i + 1]! * dir[2 * i + 1]!;
  expect(Math.abs(fd)).toBeGreaterThan(1e-3); // the loss depends on v: a zero gradient cannot pass
  expect(dot).toBeCloseTo(fd, 6);
  const [, tan] = rlx.jvp(loss, [T(v0.slice(), [n], dtype)], [T(dir.slice(), [n], dtype)]) as [Tensor, Tensor];
  expect(tan.item() as number).toBeCloseTo(fd, 6);
}

const csrOf = (v: Tensor) => sparse.csr({ indptr: IP, indices: IX, data: v, shape: [4, 5] });
const cooOf = (v: Tensor) => sparse.coo({ row: ROW, col: COL, data: v, shape: [4, 5] });
const dense45 = rand(20);
const other = () => sparse.fromTriplets([0, 1, 2, 3, 1], [1, 2, 0, 4, 4], [0.5, -1, 2, 0.25, 3], [4, 5]);

const CASES: [string, (v: Tensor) => rlx.sparse.SparseMatrix | Tensor, number][] = [
  ['csr({data: v})', csrOf, NNZ],
  ['coo({data: v})', cooOf, NNZ],
  ['fromTriplets with duplicates', (v) => sparse.fromTriplets(ROW, COL, v, [4, 5]), NNZ],
  ['fromTriplets without duplicates', (v) => sparse.fromTriplets([0, 1, 2], [2, 0, 1], v, [3, 3]), 3],
  ['fromDense(t)', (v) => sparse.fromDense(v.reshape([4, 5])), 20],
  ['fromDense(t, csc)', (v) => sparse.fromDense(v.reshape([4, 5]), { format: 'csc' }), 20],
  ['diags([...])', (v) => sparse.diags([v.slice(rlx.s(rlx.rg(0, 4))), v.slice(rlx.s(rlx.rg(4, 7)))], [0, 1], [4, 4]), 7],
  ['withValues().T', (v) => csrOf(v).T, NNZ],
  ['withValues().H', (v) => csrOf(v).H, NNZ],
  ['tocsc', (v) => csrOf(v).tocsc(), NNZ],
  ['tocsc().tocsr()', (v) => csrOf(v).tocsc().tocsr(), NNZ],
  ['tocoo', (v) => csrOf(v).tocoo(), NNZ],
  ['coo.tocsr', (v) => cooOf(v).tocsr(), NNZ],
  ['coo.T', (v) => cooOf(v).T, NNZ],
  ['toDense', (v) => csrOf(v).toDense(), NNZ],
  ['rows', (v) => csrOf(v).rows(1, 3), NNZ],
  ['cols', (v) => csrOf(v).cols(2, 5), NNZ],
  ['csc rows', (v) => csrOf(v).tocsc().rows(1, 4), NNZ],
  ['getRow', (v) => csrOf(v).getRow(1), NNZ],
  ['scale', (v) => csrOf(v).scale(-2.5), NNZ],
  ['neg', (v) => csrOf(v).neg(), NNZ],
  ['add', (v) => csrOf(v).add(other()), NNZ],
  ['sub (self)', (v) => csrOf(v).sub(csrOf(v.mul(0.5))), NNZ],
  ['multiply sparse', (v) => csrOf(v).multiply(other()), NNZ],
  ['multiply dense (A traced)', (v) => csrOf(v).multiply(T(dense45.slice(), [4, 5])), NNZ],
  ['multiply traced dense', (v) => other().multiply(v.reshape([4, 5])), 20],
  ['multiply row broadcast', (v) => csrOf(v).multiply(T(dense45.slice(0, 5), [5])), NNZ],
  ['matmulSparse', (v) => csrOf(v).matmulSparse(other().T), NNZ],
  ['matmulSparse (csc)', (v) => csrOf(v).tocsc().matmulSparse(other().T), NNZ],
  ['matmulSparse (right)', (v) => other().T.matmulSparse(csrOf(v)), NNZ],
  ['kron', (v) => sparse.kron(csrOf(v), sparse.fromTriplets([0, 1], [1, 0], [2, -1], [2, 2])), NNZ],
  ['kronsum', (v) => sparse.kronsum(sparse.fromTriplets([0, 1, 1], [1, 0, 1], v, [2, 2]), sparse.eye(3)), 3],
  ['astype', (v) => csrOf(v).astype('complex128'), NNZ],
  ['diagonal', (v) => csrOf(v).diagonal(0), NNZ],
  ['diagonal(k)', (v) => csrOf(v).diagonal(1), NNZ],
  ['sumDuplicates', (v) => csrOf(v).sumDuplicates(), NNZ],
  ['sortIndices', (v) => csrOf(v).sortIndices(), NNZ],
  ['coo.sumDuplicates', (v) => cooOf(v).sumDuplicates(), NNZ],
  ['matvec', (v) => csrOf(v).matvec(T(dense45.slice(0, 5), [5])), NNZ],
  ['rmatvec', (v) => csrOf(v).rmatvec(T(dense45.slice(5, 9), [4])), NNZ],
];

const lossOf = (build: (v: Tensor) => rlx.sparse.SparseMatrix | Tensor) => (v: Tensor) => {
  const out = build(v);
  return weighed(out instanceof rlx.Tensor ? out : out.toDense());
};

describe('sparse: derivatives through construction and structure (float64)', () => {
  for (const [name, build, n] of CASES) it(name, () => checkFd(lossOf(build), n));
});

describe('sparse: derivatives through construction and structure (complex128)', () => {
  const cases = CASES.filter(([name]) => !['astype', 'fromDense(t)', 'fromDense(t, csc)'].includes(name));
  for (const [name, build, n] of cases) it(name, () => checkFd(lossOf(build), n, 'complex128'));
});

describe('sparse: tensor values keep eager results', () => {
  it('values of a traced construction equal the stored-values path', () => {
    const v0 = rand(NNZ);
    let traced: Float64Array | undefined;
    rlx.grad((v: Tensor) => {
      traced = vals(csrOf(v).T.tocsc().toDense());
      return v.sum();
    })(T(v0.slice(), [NNZ]));
    const plain = vals(sparse.csr({ indptr: IP, indices: IX, data: v0, shape: [4, 5] }).T.tocsc().toDense());
    expect(traced).toEqual(plain);
  });
  it('csr()/coo() own their arrays: writing the caller arrays later changes nothing', () => {
    const ip = Int32Array.from(IP),
      ix = Int32Array.from(IX),
      d = rand(NNZ);
    const A = sparse.csr({ indptr: ip, indices: ix, data: d, shape: [4, 5] });
    const before = vals(A.toDense());
    ix.fill(99);
    ip.fill(-5);
    d.fill(NaN);
    expect(vals(A.toDense())).toEqual(before);
    const row = Int32Array.from(ROW),
      col = Int32Array.from(COL),
      cd = rand(NNZ);
    const C = sparse.coo({ row, col, data: cd, shape: [4, 5] });
    const c0 = vals(C.toDense());
    row.fill(1e6);
    cd.fill(NaN);
    expect(vals(C.toDense())).toEqual(c0);
  });
});

describe('sparse: factor solves are lazy and differentiable', () => {
  // A 4x4 SPD matrix (diagonally dominant, symmetric pattern) as triplets.
  const SR = [0, 1, 2, 3, 0, 1, 1, 2, 2, 3];
  const SC = [0, 1, 2, 3, 1, 0, 2, 1, 3, 2];
  const base = [4, 5, 6, 4.5, 0.7, 0.7, -1.2, -1.2, 0.4, 0.4];
  const b0 = Float64Array.from([1, -2, 0.5, 3]);
  const factors = { splu: sparse.splu, klu: sparse.klu, cholesky: sparse.cholesky } as const;
  for (const [name, factor] of Object.entries(factors)) {
    for (const trans of ['N', 'T'] as const) {
      it(`${name}(A).solve(b, ${trans}): grad in b`, () => {
        const F = factor(sparse.fromTriplets(SR, SC, base, [4, 4]));
        checkFd((b) => weighed(F.solve(b, { trans })), 4);
        F.dispose();
      });
      it(`${name}(A(v)).solve(b, ${trans}): grad in the values (symmetric perturbation)`, () => {
        // v perturbs the matrix symmetrically (one value per pair), so Cholesky's lower-triangle read sees all of it.
        const pair = [0, 1, 2, 3, 4, 4, 5, 5, 6, 6];
        checkFd((v) => {
          const vals = v.gather(pair).add(T(Float64Array.from(base), [10]));
          const F = factor(sparse.fromTriplets(SR, SC, vals, [4, 4]));
          return weighed(F.solve(T(b0.slice(), [4]), { trans }));
        }, 7);
      });
    }
  }
  it('solve of a lazy b is lazy: reading after dispose is a typed error, reading before is not', () => {
    const F = sparse.splu(sparse.fromTriplets(SR, SC, base, [4, 4]));
    // b = 2·b0, not yet computed: the solve is a node of the graph.
    const x = F.solve(T(b0.slice(), [4]).mul(2));
    const y = F.solve(T(b0.slice(), [4]).mul(2));
    expect(y.node.op).toBe('reshape');
    expect(vals(x).length).toBe(4);
    F.dispose();
    expect(() => y.toArray()).toThrow(rlx.ValueError);
    expect(() => F.solve(T(b0.slice(), [4]))).toThrow(rlx.ValueError);
  });
  it('solve of a concrete, untraced float64 b is computed at once, equal to the lazy solve', () => {
    for (const device of DEVICES as ('native' | 'js')[]) {
      const F = sparse.splu(sparse.fromTriplets(SR, SC, base, [4, 4]), { device });
      for (const trans of ['N', 'T'] as const) {
        const eager = F.solve(T(b0.slice(), [4]), { trans });
        const lazy = F.solve(T(b0.slice(), [4]).mul(1), { trans });
        expect(eager.node.op).toBe('buffer');
        expect(vals(eager)).toEqual(vals(lazy));
      }
      // b [4, 2] = [b0, −b0] row-major: x = [x0, −x0].
      const X = F.solve(T(Float64Array.from(Array.from(b0).flatMap((v) => [v, -v])), [4, 2]));
      expect(X.node.op).toBe('buffer');
      const col = vals(F.solve(T(b0.slice(), [4]).mul(1)));
      vals(X).forEach((v, i) => expect(v).toBeCloseTo((i % 2 ? -1 : 1) * col[i >> 1]!, 13));
      const after = F.solve(T(b0.slice(), [4]));
      F.dispose();
      expect(vals(after).length).toBe(4);
    }
  });
});

describe('sparse factorizations refuse non-finite values on every device (native KLU/CHOLMOD returned NaN)', () => {
  for (const device of DEVICES as ('native' | 'js')[]) {
    for (const [name, factor] of Object.entries({ splu: sparse.splu, klu: sparse.klu, cholesky: sparse.cholesky }))
      for (const bad of [Infinity, NaN])
        it(`${name} ${device}: ${bad} at [2, 1] is a NonFiniteError naming the position`, () => {
          const A = sparse.fromTriplets([0, 1, 2, 2, 1], [0, 1, 2, 1, 2], [4, 5, 6, bad, bad], [3, 3]);
          let err: unknown;
          try {
            factor(A, { device });
          } catch (e) {
            err = e;
          }
          expect(err).toBeInstanceOf(rlx.linalg.NonFiniteError);
          expect((err as { position: number[] }).position).toEqual(name === 'cholesky' ? [2, 1] : [1, 2]);
        });
  }
  it('spsolve (direct) refuses them too', () => {
    const A = sparse.fromTriplets([0, 1], [0, 1], [1, Infinity], [2, 2]);
    expect(() => sparse.spsolve(A, rlx.tensor([1, 1])).toArray()).toThrow(rlx.linalg.NonFiniteError);
  });
});

describe('sparse operations that need the values as numbers name themselves under vmap', () => {
  const V = T(Float64Array.from({ length: 2 * NNZ }, (_, i) => 1 + i), [2, NNZ]);
  const cases: [string, (v: Tensor) => unknown, RegExp][] = [
    ['fromDense', (v) => sparse.fromDense(v.slice(rlx.s(rlx.rg(0, 4))).reshape([2, 2])).toDense(), /fromDense/],
    ['eliminateZeros', (v) => csrOf(v).eliminateZeros().toDense(), /eliminateZeros/],
    ['splu', (v) => sparse.splu(sparse.fromTriplets([0, 1], [0, 1], v.slice(rlx.s(rlx.rg(0, 2))), [2, 2])).solve(T(Float64Array.from([1, 2]), [2])), /splu/],
    ['toString', (v) => csrOf(v).toString(), /reads the csr values/],
  ];
  for (const [name, f, msg] of cases)
    it(name, () => {
      expect(() => rlx.vmap((v: Tensor) => f(v) as Tensor)(V)).toThrow(rlx.TransformError);
      expect(() => rlx.vmap((v: Tensor) => f(v) as Tensor)(V)).toThrow(msg);
    });
  it('products and solves do batch over the values', () => {
    const x = T(Float64Array.from([1, -1, 2, 0.5, 3]), [5]);
    const y = rlx.vmap((v: Tensor) => csrOf(v).T.tocsc().matmul(T(Float64Array.from([1, 2, 3, 4]), [4])))(V) as Tensor;
    for (let b = 0; b < 2; b++) {
      const vb = V.slice(rlx.s(rlx.ix(b)));
      expect(vals(y.slice(rlx.s(rlx.ix(b))))).toEqual(vals(sparse.csr({ indptr: IP, indices: IX, data: vals(vb), shape: [4, 5] }).T.matvec(T(Float64Array.from([1, 2, 3, 4]), [4]))));
    }
    expect(x.shape).toEqual([5]);
  });
});
