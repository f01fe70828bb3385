// splu's nested-dissection column order (native/src/sparse/nd_order.cc,
// umf_order.cc): with ordering 'nd' forced on small matrices of several kinds
// (SPD and non-symmetric values on 2D 5- and 9-point and 3D grids, complex,
// disconnected graphs with isolated vertices, a mostly symmetric pattern with
// zero diagonal entries, a hub) solves match dense references (N/T/H) and
// log-determinants a dense LU; 'auto' takes the dissection for large grids
// (9-point ones too, with up to 1.2x AMD's flops) and not for small,
// unsymmetric-pattern or tree-like matrices, nor for a grid with long-range
// links (no small separators), and its solutions match an independent AMD
// factorization; singular matrices stay SingularMatrixError; bad option
// combinations are typed errors.

import { expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { umfpackFactor } from '../../../src/sparse/kernels/native-direct.js';
import { nativeAddon } from '../../../src/backends/native/addon.js';
import type { CompressedArrays, SparseDType } from '../../../src/sparse/contract.js';
import { SingularMatrixError } from '../../../src/tensor/errors-linalg.js';
import { denseLogDet, denseMul, describeUmfpack, maxAbs, maxDiff, per, poisson2d, rng, storage, toC, toDense } from './util.js';

const ORDER = { amd: 1, nd: 6, auto: 7 } as const;

/** CSR from per-row maps column -> value (complex as [re, im]). */
function fromRows(n: number, rows: Map<number, number | [number, number]>[], dtype: SparseDType): CompressedArrays {
  const p = per(dtype);
  const indptr = new Int32Array(n + 1);
  const ix: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < n; i++) {
    for (const [j, v] of [...rows[i]!.entries()].sort((a, b) => a[0] - b[0])) {
      ix.push(j);
      if (p === 2) d.push(...(typeof v === 'number' ? [v, 0] : v));
      else d.push(typeof v === 'number' ? v : v[0]);
    }
    indptr[i + 1] = ix.length;
  }
  return { shape: [n, n], dtype, indptr, indices: Int32Array.from(ix), data: storage(dtype).from(d) };
}

type Kind = 'p5' | 'p9' | 'convect' | 'p3' | 'islands' | 'mostlysym' | 'hub';

/** Test matrices; `m` the grid side (or a size parameter). All nonsingular. */
function make(kind: Kind, m: number, dtype: SparseDType, seed = 1): CompressedArrays {
  const r = rng(seed);
  const cval = (re: number): number | [number, number] => (per(dtype) === 2 ? [re, 0.3 * (r() - 0.5)] : re);
  if (kind === 'p3') {
    const n = m * m * m;
    const rows = Array.from({ length: n }, () => new Map<number, number | [number, number]>());
    const id = (a: number, b: number, c: number) => (a * m + b) * m + c;
    for (let a = 0; a < m; a++)
      for (let b = 0; b < m; b++)
        for (let c = 0; c < m; c++) {
          const i = id(a, b, c);
          rows[i]!.set(i, cval(6.5));
          for (const [da, db, dc] of [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]] as const) {
            const [x, y, z] = [a + da, b + db, c + dc];
            if (x >= 0 && x < m && y >= 0 && y < m && z >= 0 && z < m) rows[i]!.set(id(x, y, z), cval(-1));
          }
        }
    return fromRows(n, rows, dtype);
  }
  if (kind === 'hub') {
    // arrow matrix: vertex 0 couples to all, plus a path; the dissection finds no small separator
    const n = m;
    const rows = Array.from({ length: n }, () => new Map<number, number | [number, number]>());
    for (let i = 0; i < n; i++) {
      rows[i]!.set(i, cval(n + 2));
      if (i > 0) rows[i]!.set(0, cval(1)), rows[0]!.set(i, cval(-1));
      if (i > 1) rows[i]!.set(i - 1, cval(0.5)), rows[i - 1]!.set(i, cval(0.25));
    }
    return fromRows(n, rows, dtype);
  }
  const n = m * m;
  const rows = Array.from({ length: n }, () => new Map<number, number | [number, number]>());
  // islands: every 7th vertex isolated (a diagonal entry only), and the grid cut into two halves
  const isolated = (i: number) => kind === 'islands' && i % 7 === 3;
  for (let y = 0; y < m; y++)
    for (let x = 0; x < m; x++) {
      const i = y * m + x;
      rows[i]!.set(i, cval(kind === 'p9' ? 8.5 : 4.5));
      if (isolated(i)) continue;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          if ((dx === 0 && dy === 0) || (kind !== 'p9' && dx !== 0 && dy !== 0)) continue;
          const [u, v] = [x + dx, y + dy];
          if (u < 0 || u >= m || v < 0 || v >= m) continue;
          const j = v * m + u;
          if (isolated(j) || (kind === 'islands' && (x < m / 2) !== (u < m / 2))) continue;
          if (kind === 'mostlysym' && j > i && r() < 0.15) continue; // ~15% of the upper entries dropped
          const val = kind === 'convect' ? -1 + 0.4 * dx + 0.3 * dy : -1;
          rows[i]!.set(j, cval(val));
        }
    }
  if (kind === 'mostlysym') {
    // zero diagonal entries on a few rows force off-diagonal pivots; a coupling keeps A nonsingular
    for (let i = 5; i < n - 1; i += 11) {
      rows[i]!.set(i, cval(0));
      rows[i]!.set(i + 1, cval(2));
      rows[i + 1]!.set(i, cval(2));
    }
  }
  return fromRows(n, rows, dtype);
}

const randB = (n: number, dtype: SparseDType, seed: number) => {
  const r = rng(seed);
  return Float64Array.from({ length: n * per(dtype) }, () => r() - 0.5);
};

/**
 * The 5- or 9-point Laplacian on an m×m grid (diagonal 4.5 / 8.5), plus
 * `links` random symmetric long-range couplings (-0.5 each, +0.5 on both
 * diagonals), float64 CSR built directly (the Map-based make() is slow at
 * these sizes).
 */
function grid(m: number, nine: boolean, links = 0, seed = 1): CompressedArrays {
  const n = m * m;
  const r = rng(seed);
  const far: number[][] = Array.from({ length: n }, () => []);
  for (let k = 0; k < links; k++) {
    const a = Math.floor(((r() + 1) / 2) * n), b = Math.floor(((r() + 1) / 2) * n);  // rng() is in [-1, 1)
    if (a !== b) far[a]!.push(b), far[b]!.push(a);
  }
  const indptr = new Int32Array(n + 1);
  const ix: number[] = [];
  const d: number[] = [];
  for (let y = 0; y < m; y++)
    for (let x = 0; x < m; x++) {
      const i = y * m + x;
      const row = new Map<number, number>([[i, (nine ? 8.5 : 4.5) + 0.5 * far[i]!.length]]);
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const [u, v] = [x + dx, y + dy];
          if ((dx === 0 && dy === 0) || (!nine && dx !== 0 && dy !== 0) || u < 0 || u >= m || v < 0 || v >= m) continue;
          row.set(v * m + u, -1);
        }
      for (const j of far[i]!) row.set(j, (row.get(j) ?? 0) - 0.5);
      for (const [j, val] of [...row.entries()].sort((p, q) => p[0] - q[0])) ix.push(j), d.push(val);
      indptr[i + 1] = ix.length;
    }
  return { shape: [n, n], dtype: 'float64', indptr, indices: Int32Array.from(ix), data: Float64Array.from(d) };
}

/** y = op(A) x for CSR A, complex interleaved in and out. */
function spMul(a: CompressedArrays, x: Float64Array, op: 'N' | 'T' | 'H'): Float64Array {
  const n = a.shape[0];
  const p = per(a.dtype);
  const y = new Float64Array(2 * n);
  for (let i = 0; i < n; i++)
    for (let k = a.indptr[i]!; k < a.indptr[i + 1]!; k++) {
      const j = a.indices[k]!;
      const ar = a.data[k * p]!, ai = p === 2 ? (op === 'H' ? -a.data[k * p + 1]! : a.data[k * p + 1]!) : 0;
      const [src, dst] = op === 'N' ? [j, i] : [i, j];
      y[2 * dst] += ar * x[2 * src]! - ai * x[2 * src + 1]!;
      y[2 * dst + 1] += ar * x[2 * src + 1]! + ai * x[2 * src]!;
    }
  return y;
}

/** ‖op(A) x − b‖∞ / (‖A‖max ‖x‖∞ n + ‖b‖∞). */
function residual(a: CompressedArrays, x: Float64Array, b: Float64Array, op: 'N' | 'T' | 'H'): number {
  const xc = toC(x, a.dtype), bc = toC(b, a.dtype);
  return maxDiff(spMul(a, xc, op), bc) / (maxAbs(a.data) * maxAbs(xc) * a.shape[0] + maxAbs(bc));
}

/** Factors through the addon (the handle's method says which order ran); returns method, solves and log-det. */
function factor(a: CompressedArrays, ordering: number, strategy = 0) {
  const native = nativeAddon()!;
  const n = a.shape[0];
  const r = native.umfpackFactor!(a.dtype, n, n, a.indptr, a.indices, a.data, strategy, ordering, 2);
  const method = native.directInfo(r.handle).method;
  const TRANS = { N: 0, T: 1, H: 2 } as const;
  const solve = (b: Float64Array, op: 'N' | 'T' | 'H' = 'N') => native.directSolve(r.handle, b, new Float64Array(b.length), 1, TRANS[op]);
  const logDet = () => native.directLogDet(r.handle);
  return { method, singular: r.singular, index: r.index, solve, logDet, dispose: () => native.directDispose(r.handle) };
}

/**
 * Solves with f (a dissected factorization) and with the AMD factorization of the
 * same float64 matrix: a small residual and the same solution. Returns b and f's x.
 */
function expectSolvesLikeAmd(a: CompressedArrays, f: ReturnType<typeof factor>, amd: ReturnType<typeof factor>, seed: number) {
  const b = randB(a.shape[0], 'float64', seed);
  const x = f.solve(b);
  expect(residual(a, x, b, 'N')).toBeLessThan(1e-15);
  expect(maxDiff(x, amd.solve(b)) / maxAbs(x)).toBeLessThan(1e-11);
  return { b, x };
}

describeUmfpack('splu: nested-dissection order (nd, auto)', () => {
  it("'nd' solves every matrix kind (real and complex, N/T/H) against a dense reference, log-det vs a dense LU", () => {
    // sizes above the dissection's smallest region (256 vertices), so that it splits
    const cases: [Kind, number][] = [['p5', 18], ['p9', 17], ['p9', 24], ['convect', 18], ['p3', 7], ['islands', 18], ['mostlysym', 18], ['hub', 300]];
    for (const dtype of ['float64', 'complex128'] as const)
      for (const [kind, m] of cases) {
        const a = make(kind, m, dtype);
        const n = a.shape[0];
        const dense = toDense(a);
        const f = factor(a, ORDER.nd);
        expect(f.method, `${kind} ${dtype}`).toBe('symmetric, nd');
        for (const op of dtype === 'float64' ? (['N', 'T'] as const) : (['N', 'T', 'H'] as const)) {
          const b = randB(n, dtype, n + op.charCodeAt(0));
          const x = f.solve(b, op);
          const err = maxDiff(denseMul(dense, n, n, toC(x, dtype), 1, op), toC(b, dtype)) / (maxAbs(dense) * maxAbs(toC(x, dtype)) * n + maxAbs(b));
          expect(err, `${kind} ${dtype} ${op}`).toBeLessThan(1e-14);
        }
        const want = denseLogDet(dense, n);
        const [sign, signIm, logabsdet] = f.logDet();
        expect(logabsdet, `${kind} ${dtype}`).toBeCloseTo(want.logabsdet, 9);
        expect(sign, `${kind} ${dtype}`).toBeCloseTo(want.sign, 9);
        expect(signIm, `${kind} ${dtype}`).toBeCloseTo(want.signIm, 9);
        f.dispose();
      }
  });

  it("'nd' and 'amd' factorizations of larger matrices give the same solutions to a small residual", () => {
    const cases: [Kind, number, SparseDType][] = [
      ['p5', 60, 'float64'],
      ['p9', 70, 'float64'],
      ['p9', 50, 'complex128'],
      ['convect', 50, 'complex128'],
      ['p3', 14, 'float64'],
      ['islands', 50, 'float64'],
      ['mostlysym', 40, 'complex128'],
    ];
    for (const [kind, m, dtype] of cases) {
      const a = make(kind, m, dtype, 3);
      const b = randB(a.shape[0], dtype, 5);
      const nd = factor(a, ORDER.nd), amd = factor(a, ORDER.amd);
      expect(nd.method).toBe('symmetric, nd');
      for (const op of ['N', 'T'] as const) {
        const x = nd.solve(b, op), y = amd.solve(b, op);
        expect(residual(a, x, b, op), `${kind} ${op}`).toBeLessThan(1e-15);
        expect(maxDiff(x, y) / maxAbs(y), `${kind} ${op}`).toBeLessThan(1e-11);
      }
      expect(nd.logDet()[2]).toBeCloseTo(amd.logDet()[2], 8);
      nd.dispose();
      amd.dispose();
    }
  });

  it("'auto' (the default) dissects large grids only, and its solutions match AMD's", () => {
    // n = 27000, 3D: AMD's LU needs 1e10 flops, the dissection's half of that
    const p3 = make('p3', 30, 'float64');
    const auto = factor(p3, ORDER.auto), amd = factor(p3, ORDER.amd);
    expect(auto.method).toBe('symmetric, nd');
    expect(amd.method).toBe('symmetric, amd');
    const { b, x } = expectSolvesLikeAmd(p3, auto, amd, 7);
    auto.dispose();
    amd.dispose();
    // the public API's default is 'auto' too (same factorization, so the same solution)
    const A = rlx.sparse.csr({ indptr: p3.indptr, indices: p3.indices, data: p3.data as Float64Array, shape: p3.shape });
    const F = rlx.sparse.splu(A);
    expect(maxDiff(F.solveRaw(b), x)).toBe(0);
    F.dispose();
    // 2D 5-point, n = 22500, over the size threshold but 9e7 flops under AMD (cheap): AMD
    const p2 = poisson2d(150);
    const f2 = factor(p2, ORDER.auto);
    expect(f2.method).toBe('symmetric, amd');
    const b2 = randB(p2.shape[0], 'float64', 8);
    expect(residual(p2, f2.solve(b2), b2, 'N')).toBeLessThan(1e-15);
    f2.dispose();
    // small: UMFPACK's own AMD; the dissection only when asked
    expect(factor(poisson2d(40), ORDER.auto).method).toBe('symmetric, amd');
    // large but tree-like (tridiagonal: AMD's LU has a few flops per row): no dissection
    const n = 30000;
    const tri = fromRows(n, Array.from({ length: n }, (_, i) => new Map<number, number>([[i - 1, -1], [i, 3], [i + 1, -1]].filter(([j]) => j! >= 0 && j! < n) as [number, number][])), 'float64');
    expect(factor(tri, ORDER.auto).method).toBe('symmetric, amd');
    // large with an unsymmetric pattern (upwind differences, a downstream coupling on every third row):
    // UMFPACK's unsymmetric strategy, as before
    const m = 160;
    const up = fromRows(m * m, Array.from({ length: m * m }, (_, i) => {
      const row = new Map<number, number>([[i, 3]]);
      if (i % m > 0) row.set(i - 1, -1);
      if (i >= m) row.set(i - m, -1);
      if (i % 3 === 0 && i + 1 < m * m) row.set(i + 1, 0.5);
      return row;
    }), 'float64');
    const f = factor(up, ORDER.auto);
    expect(f.method).toBe('unsymmetric, colamd');
    const bu = randB(m * m, 'float64', 9);
    expect(residual(up, f.solve(bu), bu, 'N')).toBeLessThan(1e-15);
  });

  it("'auto' on 9-point grids: the dissection, where its flops are below AMD's and where they are up to 1.2x AMD's", () => {
    // The dissection tries roots along the far level of a corner's BFS (the
    // levels of a 9-point stencil are L-shaped from a corner, straight from
    // the middle of a side). Its LU flops vs AMD's (AMD is erratic on these
    // grids, the dissection smooth): m = 362 2.35e9 vs 3.70e9 (0.63);
    // m = 320 1.60e9 vs 1.47e9 (1.09, under the 1.2 its cheaper analysis buys).
    for (const m of [362, 320]) {
      const a = grid(m, true);
      const f = factor(a, ORDER.auto);
      expect(f.method, `m = ${m}`).toBe('symmetric, nd');
      const b = randB(m * m, 'float64', m);
      expect(residual(a, f.solve(b), b, 'N'), `m = ${m}`).toBeLessThan(1e-15);
      f.dispose();
    }
  });

  it("'auto' on a grid with long-range links (separators of 10% of the graph): AMD's order, and the same solution as 'nd'", () => {
    // 300x300 5-point grid with 450 random links: AMD's LU 2.4e9 flops, the
    // dissection's 200x that; AMD's verdict stops it (nd_parts.h)
    const a = grid(300, false, 450);
    const auto = factor(a, ORDER.auto);
    expect(auto.method).toBe('symmetric, amd');
    const b = randB(a.shape[0], 'float64', 11);
    const x = auto.solve(b);
    expect(residual(a, x, b, 'N')).toBeLessThan(1e-15);
    auto.dispose();
    // a smaller one dissected anyway when asked: the same solution
    const s = grid(60, false, 20);
    const nd = factor(s, ORDER.nd), amd = factor(s, ORDER.amd);
    expect(nd.method).toBe('symmetric, nd');
    expectSolvesLikeAmd(s, nd, amd, 12);
    nd.dispose();
    amd.dispose();
  });

  it("singular matrices stay SingularMatrixError under 'nd' (the zero pivot's row is reported)", () => {
    // poisson2d(10) with row and column 37 zeroed (its diagonal entry kept, value 0)
    const a = poisson2d(10);
    const data = Float64Array.from(a.data as Float64Array);
    for (let i = 0; i < 100; i++)
      for (let k = a.indptr[i]!; k < a.indptr[i + 1]!; k++) if (i === 37 || a.indices[k] === 37) data[k] = 0;
    const z = { ...a, data };
    const f = factor(z, ORDER.nd);
    expect(f.singular).toBe(true);
    expect(f.index).toBe(37);
    f.dispose();
    expect(() => umfpackFactor(z, { ordering: ORDER.nd })).toThrow(SingularMatrixError);
    const A = rlx.sparse.csr({ indptr: z.indptr, indices: z.indices, data, shape: [100, 100] });
    expect(() => rlx.sparse.splu(A, { ordering: 'nd' })).toThrow(SingularMatrixError);
  });

  it("bad combinations are typed errors: 'nd' needs the auto or symmetric strategy; codes out of range", () => {
    const A = rlx.sparse.poisson2d(4);
    expect(() => rlx.sparse.splu(A, { ordering: 'nd', strategy: 'unsymmetric' })).toThrow(rlx.ValueError);
    expect(() => rlx.sparse.splu(A, { ordering: 'nd', strategy: 'unsymmetric' })).toThrow(/ordering 'nd' needs strategy 'auto' or 'symmetric'/);
    for (const strategy of ['auto', 'symmetric'] as const) {
      const F = rlx.sparse.splu(A, { ordering: 'nd', strategy });
      const b = new Float64Array(16).fill(1);
      expect(maxAbs(F.solveRaw(b))).toBeGreaterThan(0);
      F.dispose();
    }
    expect(() => rlx.sparse.splu(A, { ordering: 'dissection' as never })).toThrow(/ordering must be one of 'auto', 'nd', .* got "dissection"/);
    const a = poisson2d(3);
    expect(() => umfpackFactor(a, { strategy: 1, ordering: 6 })).toThrow(/ordering 6 \(nd\) needs strategy 0 \(auto\) or 3 \(symmetric\)/);
    expect(() => umfpackFactor(a, { ordering: 8 })).toThrow(/ordering/);
    // the unsymmetric strategy with 'auto' is plain UMFPACK (COLAMD)
    expect(factor(a, ORDER.auto, 1).method).toBe('unsymmetric, colamd');
  });
});
