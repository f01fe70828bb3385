// Every operation against a dense reference on random sparse matrices: shapes
// including 0, all four dtypes, CSR and CSC inputs with unsorted indices and
// duplicates; after every op the result must be a valid (and, where promised,
// canonical) matrix whose flags tell the truth.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';
import { tensor } from '../../../src/tensor/create.js';
import { type Case, type Ref, arbCase, arbTrips, build, ref, toRef, expectClose, expectValid, refFrom, refMatmul, get, cmul, asLanes, lanes, DTYPES } from './helpers.js';
import { registerKernels, unregisterKernels } from '../../../src/compiler/kernel-registry.js';
import { getSpmvKernel, SPMV_KERNELS } from '../../../src/sparse/spmv.js';

const RUNS = { numRuns: 60 };
const FORMATS = ['csr', 'csc'] as const;
const fmt = fc.constantFrom<'csr' | 'csc'>(...FORMATS);
const tolOf = (d: string): number => (d === 'float32' || d === 'complex64' ? 1e-5 : 1e-12);

/** Two cases of the same shape. */
const arbPair = fc.record({ m: fc.nat(6), n: fc.nat(6), d1: fc.constantFrom(...DTYPES), d2: fc.constantFrom(...DTYPES) }).chain(({ m, n, d1, d2 }) =>
  fc.tuple(arbTrips(m, n), arbTrips(m, n)).map(([t1, t2]) => [{ m, n, dtype: d1, trips: t1 }, { m, n, dtype: d2, trips: t2 }] as [Case, Case]),
);
const mapRef = (r: Ref, f: (a: [number, number], i: number, j: number) => [number, number]): Ref => refFrom(r.m, r.n, r.l, (i, j) => f(get(r, i, j), i, j));

describe('structure', () => {
  it('toDense, conversions, sortIndices, sumDuplicates, eliminateZeros keep the matrix', () => {
    fc.assert(
      fc.property(arbCase(), fc.constantFrom('csr', 'csc', 'coo'), (c, f) => {
        const A = build(c, f as 'csr');
        const R = ref(c);
        expectClose(toRef(A.toDense()), R);
        for (const B of [A.tocsr(), A.tocsc(), A.tocoo(), A.tocsr().tocoo().tocsc()]) {
          expectValid(B);
          expectClose(toRef(B.toDense()), R);
        }
        expectValid(A.tocsr(), f === 'coo');
        if (f !== 'coo') {
          const C = A as sp.CsrMatrix;
          const s = C.sortIndices();
          expectValid(s);
          expect(s.hasSortedIndices).toBe(true);
          expectClose(toRef(s.toDense()), R);
          const d = C.sumDuplicates();
          expectValid(d, true);
          expectClose(toRef(d.toDense()), R);
          const z = d.eliminateZeros();
          expectValid(z, true);
          expectClose(toRef(z.toDense()), R);
          for (let p = 0; p < z.nnz; p++) expect(z.data[p * lanes(c.dtype)] !== 0 || (lanes(c.dtype) === 2 && z.data[2 * p + 1] !== 0)).toBe(true);
          expect(z.nnz).toBe(Array.from({ length: c.m * c.n }, (_, e) => (R.l === 1 ? R.v[e] !== 0 : R.v[2 * e] !== 0 || R.v[2 * e + 1] !== 0)).filter(Boolean).length);
        }
        const D = sp.fromDense(A.toDense(), { format: 'csr' }) as sp.CsrMatrix;
        expectValid(D, true);
        expect(D.dtype).toBe(c.dtype);
        expectClose(toRef(D.toDense()), R);
      }),
      RUNS,
    );
  });

  it('transpose and conjTranspose', () => {
    fc.assert(
      fc.property(arbCase(), fc.constantFrom('csr', 'csc', 'coo'), (c, f) => {
        const A = build(c, f as 'csr');
        const R = ref(c);
        const T = A.transpose(), H = A.conjTranspose();
        expectValid(T);
        expectValid(H);
        expectClose(toRef(T.toDense()), refFrom(c.n, c.m, R.l, (i, j) => get(R, j, i)));
        expectClose(toRef(H.toDense()), refFrom(c.n, c.m, R.l, (i, j) => { const [re, im] = get(R, j, i); return [re, -im]; }));
      }),
      RUNS,
    );
  });

  it('diagonal, rows, cols, getRow', () => {
    fc.assert(
      fc.property(arbCase(), fmt, fc.integer({ min: -7, max: 7 }), fc.nat(), fc.nat(), (c, f, k, s1, s2) => {
        const A = build(c, f) as sp.CsrMatrix;
        const R = ref(c);
        const d = A.diagonal(k);
        const len = Math.max(0, Math.min(c.m + Math.min(k, 0), c.n - Math.max(k, 0)));
        expect(d.shape).toEqual([len]);
        const dv = d.toArray();
        for (let t = 0; t < len; t++) {
          const [re, im] = get(R, t + Math.max(0, -k), t + Math.max(0, -k) + k);
          expect(dv[t * R.l]).toBe(re);
          if (R.l === 2) expect(dv[2 * t + 1]).toBe(im);
        }
        const [r0, r1] = [s1 % (c.m + 1), s2 % (c.m + 1)].sort((a, b) => a - b) as [number, number];
        const Rw = A.rows(r0, r1);
        expectValid(Rw);
        expectClose(toRef(Rw.toDense()), refFrom(r1 - r0, c.n, R.l, (i, j) => get(R, i + r0, j)));
        const [c0, c1] = [s1 % (c.n + 1), s2 % (c.n + 1)].sort((a, b) => a - b) as [number, number];
        const Cl = A.cols(c0, c1);
        expectValid(Cl);
        expectClose(toRef(Cl.toDense()), refFrom(c.m, c1 - c0, R.l, (i, j) => get(R, i, j + c0)));
        if (c.m > 0) {
          const i = s1 % c.m;
          expectClose(toRef(A.getRow(i).toDense()), refFrom(1, c.n, R.l, (_, j) => get(R, i, j)));
          expectClose(toRef(A.getRow(i - c.m).toDense()), refFrom(1, c.n, R.l, (_, j) => get(R, i, j)));
        }
        expect(() => A.rows(0, c.m + 1)).toThrow(/rows: range/);
        expect(() => A.getRow(c.m)).toThrow(/out of range/);
      }),
      RUNS,
    );
  });
});

describe('arithmetic', () => {
  it('add, sub (promoting dtypes, mixed formats) are canonical without zeros', () => {
    fc.assert(
      fc.property(arbPair, fmt, fmt, ([c1, c2], f1, f2) => {
        const A = build(c1, f1) as sp.CsrMatrix, B = build(c2, f2);
        const R1 = ref(c1), R2 = ref(c2);
        const l = Math.max(R1.l, R2.l) as 1 | 2;
        const [a, b] = [asLanes(R1, l), asLanes(R2, l)];
        const S = A.add(B), D = A.sub(B);
        for (const X of [S, D]) {
          expectValid(X, true);
          expect(X.format).toBe(f1);
          for (let p = 0; p < X.nnz; p++) expect(X.data[p * l] !== 0 || (l === 2 && X.data[2 * p + 1] !== 0)).toBe(true);
        }
        const tol = Math.max(tolOf(c1.dtype), tolOf(c2.dtype));
        expectClose(toRef(S.toDense()), refFrom(c1.m, c1.n, l, (i, j) => { const [x, y] = [get(a, i, j), get(b, i, j)]; return [x[0] + y[0], x[1] + y[1]]; }), tol);
        expectClose(toRef(D.toDense()), refFrom(c1.m, c1.n, l, (i, j) => { const [x, y] = [get(a, i, j), get(b, i, j)]; return [x[0] - y[0], x[1] - y[1]]; }), tol);
        expect(A.sub(A).eliminateZeros().nnz).toBe(0);
      }),
      RUNS,
    );
  });

  it('scale by real and complex scalars', () => {
    fc.assert(
      fc.property(arbCase(), fmt, fc.integer({ min: -3, max: 3 }), fc.integer({ min: -3, max: 3 }), (c, f, re, im) => {
        const A = build(c, f) as sp.CsrMatrix;
        const R = ref(c);
        const S = A.scale([re, im]);
        expectValid(S);
        expect(S.dtype.startsWith('complex')).toBe(im !== 0 || c.dtype.startsWith('complex'));
        expectClose(toRef(S.toDense()), refFrom(c.m, c.n, 2, (i, j) => cmul(get(R, i, j), [re, im])));
        expectClose(toRef(A.scale(re).toDense()), mapRef(R, ([x, y]) => [re * x, re * y]));
        expectClose(toRef(A.neg().toDense()), mapRef(R, ([x, y]) => [-x, -y]));
      }),
      RUNS,
    );
  });

  it('multiply: sparse∘sparse and sparse∘dense with broadcasting', () => {
    fc.assert(
      fc.property(arbPair, fmt, fc.constantFrom('full', 'row', 'col', 'vec'), ([c1, c2], f, bshape) => {
        const A = build(c1, f) as sp.CsrMatrix, B = build(c2, 'csr');
        const R1 = ref(c1), R2 = ref(c2);
        const l = Math.max(R1.l, R2.l) as 1 | 2;
        const [a, b] = [asLanes(R1, l), asLanes(R2, l)];
        const P = A.multiply(B);
        expectValid(P, true);
        expectClose(toRef(P.toDense()), refFrom(c1.m, c1.n, l, (i, j) => cmul(get(a, i, j), get(b, i, j))), 1e-5);
        // Dense operand: B's dense form reduced to the broadcast shape.
        const { m, n } = c1;
        const pick = (i: number, j: number): [number, number] => (bshape === 'full' ? get(b, i, j) : bshape === 'col' ? get(b, i, 0) : get(b, 0, j));
        const rows = bshape === 'full' || bshape === 'col' ? m : 1, cols = bshape === 'full' || bshape === 'row' || bshape === 'vec' ? n : 1;
        const vals: number[] = [];
        for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) vals.push(...get(b, i, j).slice(0, l));
        const shape = bshape === 'vec' ? [n] : [rows, cols];
        const dense = tensor(new Float64Array(vals), { dtype: l === 2 ? 'complex128' : 'float64', shape });
        const Q = A.multiply(dense);
        expectValid(Q, true);
        expectClose(toRef(Q.toDense()), refFrom(m, n, l, (i, j) => cmul(get(a, i, j), pick(i, j))), 1e-5);
      }),
      RUNS,
    );
  });

  it('matmulSparse (SpGEMM) for all dtype pairs and formats', () => {
    const arb = fc.record({ m: fc.nat(6), k: fc.nat(6), n: fc.nat(6), d1: fc.constantFrom(...DTYPES), d2: fc.constantFrom(...DTYPES) }).chain(({ m, k, n, d1, d2 }) =>
      fc.tuple(arbTrips(m, k), arbTrips(k, n)).map(([t1, t2]) => [{ m, n: k, dtype: d1, trips: t1 }, { m: k, n, dtype: d2, trips: t2 }] as [Case, Case]),
    );
    fc.assert(
      fc.property(arb, fmt, fmt, ([c1, c2], f1, f2) => {
        const A = build(c1, f1) as sp.CsrMatrix, B = build(c2, f2);
        const C = A.matmulSparse(B);
        expectValid(C, true);
        expect(C.format).toBe(f1);
        expectClose(toRef(C.toDense()), refMatmul(ref(c1), ref(c2)), 1e-5);
      }),
      RUNS,
    );
  });

  it('kron and kronsum', () => {
    const arb = fc.record({ m1: fc.nat(4), n1: fc.nat(4), m2: fc.nat(4), n2: fc.nat(4), d1: fc.constantFrom(...DTYPES), d2: fc.constantFrom(...DTYPES) }).chain(({ m1, n1, m2, n2, d1, d2 }) =>
      fc.tuple(arbTrips(m1, n1), arbTrips(m2, n2)).map(([t1, t2]) => [{ m: m1, n: n1, dtype: d1, trips: t1 }, { m: m2, n: n2, dtype: d2, trips: t2 }] as [Case, Case]),
    );
    fc.assert(
      fc.property(arb, ([c1, c2]) => {
        const A = build(c1), B = build(c2, 'csc');
        const K = sp.kron(A, B);
        expectValid(K, true);
        const ra = ref(c1), rb = ref(c2);
        const l = Math.max(ra.l, rb.l) as 1 | 2;
        const [a, b] = [asLanes(ra, l), asLanes(rb, l)];
        expectClose(toRef(K.toDense()), refFrom(c1.m * c2.m, c1.n * c2.n, l, (i, j) => cmul(get(a, Math.floor(i / c2.m), Math.floor(j / c2.n)), get(b, i % c2.m, j % c2.n))), 1e-5);
        // kronsum(A, B) = kron(I_n, A) + kron(B, I_m) on the square leading blocks.
        const ms = Math.min(c1.m, c1.n), ns = Math.min(c2.m, c2.n);
        const As = (A as sp.CsrMatrix).rows(0, ms).cols(0, ms), Bs = (B as sp.CscMatrix).rows(0, ns).cols(0, ns);
        const S = sp.kronsum(As, Bs);
        expectValid(S, true);
        const ref2 = sp.kron(sp.eye(ns), As).add(sp.kron(Bs, sp.eye(ms)));
        expectClose(toRef(S.toDense()), toRef(ref2.toDense()), 1e-6);
      }),
      RUNS,
    );
  });
});

describe('products', () => {
  it('matvec / rmatvec on raw vectors and Tensors; matmul with dense', () => {
    fc.assert(
      fc.property(arbCase(), fc.constantFrom('csr', 'csc', 'coo'), fc.nat(3), fc.integer(), (c, f, k, seed) => {
        const A = build(c, f as 'csr') as sp.CsrMatrix;
        const R = ref(c);
        const l = R.l;
        let s = seed;
        const rnd = (): number => ((s = (s * 1103515245 + 12345) | 0), ((s >>> 8) % 17) - 8);
        const x = Float64Array.from({ length: c.n * l }, rnd);
        const y = sp.raw.matvec(A, x);
        const X = { m: c.n, n: 1, l, v: x } as Ref;
        expectClose({ m: c.m, n: 1, l, v: y }, refMatmul(R, X), tolOf(c.dtype));
        // out parameter reused and overwritten.
        const out = new Float64Array(c.m * l).fill(99);
        expect(sp.raw.matvec(A, x, out)).toBe(out);
        expectClose({ m: c.m, n: 1, l, v: out }, refMatmul(R, X), tolOf(c.dtype));
        const z = Float64Array.from({ length: c.m * l }, rnd);
        const RH = refFrom(c.n, c.m, l, (i, j) => { const [re, im] = get(R, j, i); return [re, -im]; });
        const outR = new Float64Array(c.n * l).fill(7);
        expectClose({ m: c.n, n: 1, l, v: sp.raw.rmatvec(A, z, outR) }, refMatmul(RH, { m: c.m, n: 1, l, v: z }), tolOf(c.dtype));
        // Tensor paths (real x on a complex matrix promotes).
        const xt = tensor(Array.from({ length: c.n }, (_, i) => i - 1));
        const yt = A.matvec(xt);
        expect(yt.shape).toEqual([c.m]);
        expect(yt.dtype).toBe(c.dtype === 'float32' ? 'float64' : c.dtype === 'complex64' ? 'complex128' : c.dtype);
        expectClose({ m: c.m, n: 1, l, v: Float64Array.from(yt.toArray() as Float64Array) }, refMatmul(R, { m: c.n, n: 1, l: 1, v: Float64Array.from({ length: c.n }, (_, i) => i - 1) }), tolOf(c.dtype));
        const Xd = refFrom(c.n, k, 1, (i, j) => [i - 2 * j, 0]);
        const Y = A.matmul(tensor(Array.from({ length: c.n }, (_, i) => Array.from({ length: k }, (_, j) => i - 2 * j)), { shape: c.n === 0 || k === 0 ? [c.n, k] : undefined }));
        expectClose(toRef(Y), refMatmul(R, Xd), tolOf(c.dtype));
        expect(() => sp.raw.matvec(A, new Float64Array(c.n * l + 1))).toThrow(/length/);
      }),
      RUNS,
    );
  });

  it('the SpMV hook is used when installed and may decline', () => {
    const A = sp.poisson2d(3);
    const x = Float64Array.from({ length: 9 }, (_, i) => i);
    const want = sp.raw.matvec(A, x);
    let calls = 0;
    registerKernels('native', SPMV_KERNELS, { name: 'test', csrMatvec: (a, xx, yy) => { calls++; if (a.shape[0] > 5) return false; yy.fill(42); return true; } });
    try {
      expect(Array.from(sp.raw.matvec(A, x))).toEqual(Array.from(want));
      expect(calls).toBe(1);
      expect(Array.from(sp.raw.matvec(sp.poisson1d(2), new Float64Array(2)))).toEqual([42, 42]);
      expect(getSpmvKernel()?.name).toBe('test');
    } finally {
      unregisterKernels('native', SPMV_KERNELS);
    }
    expect(getSpmvKernel()).toBe(null);
  });
});
