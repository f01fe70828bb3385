// Native CSR products (spmv, spmm, spmvH) against a dense reference, for the four
// dtypes, random matrices (empty rows, 0×n, unsorted and duplicate indices),
// alpha/beta; the threaded path against the serial one; bad arguments throw.

import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { spmm, spmv, spmvH } from '../../../src/sparse/kernels/native-products.js';
import { nativeAddon } from '../../../src/backends/native/addon.js';
import { numThreads, setNumThreads } from '../../../src/backends/native/threads.js';
import type { CompressedArrays, SparseDType } from '../../../src/sparse/contract.js';
import { DTYPES, denseMul, describeNative, isCplx, maxAbs, maxDiff, per, poisson2d, rng, storage, toC, toDense } from './util.js';

/** A random CSR matrix: each row gets 0..maxRow entries, columns unsorted and (when dup) repeated. */
function randomCsr(rows: number, cols: number, dtype: SparseDType, seed: number, opts: { unsorted?: boolean; dup?: boolean; maxRow?: number } = {}): CompressedArrays {
  const r = rng(seed);
  const p = per(dtype);
  const ip = [0];
  const ix: number[] = [];
  const d: number[] = [];
  for (let i = 0; i < rows; i++) {
    const cnt = cols === 0 ? 0 : Math.floor(((r() + 1) / 2) * ((opts.maxRow ?? 4) + 1));
    const row = new Set<number>();
    for (let t = 0; t < cnt; t++) row.add(Math.floor(((r() + 1) / 2) * cols) % cols);
    let js = [...row];
    if (!opts.unsorted) js.sort((a, b) => a - b);
    if (opts.dup && js.length) js = [...js, js[0]!];
    for (const j of js) {
      ix.push(j);
      d.push(r());
      if (p === 2) d.push(r());
    }
    ip.push(ix.length);
  }
  return { shape: [rows, cols], dtype, indptr: Int32Array.from(ip), indices: Int32Array.from(ix), data: storage(dtype).from(d) };
}

function randVec(len: number, dtype: SparseDType, seed: number) {
  const r = rng(seed);
  return storage(dtype).from(Array.from({ length: len * per(dtype) }, () => r()));
}

/** alpha·(op(A) X) + beta·Y0 in complex Float64 */
function reference(a: CompressedArrays, X: ArrayLike<number>, k: number, Y0: ArrayLike<number> | undefined, alpha: [number, number], beta: [number, number], op: 'N' | 'H') {
  const [rows, cols] = a.shape;
  const AX = denseMul(toDense(a), rows, cols, toC(X, a.dtype), k, isCplx(a.dtype) ? op : op === 'H' ? 'T' : 'N');
  const y0 = Y0 ? toC(Y0, a.dtype) : new Float64Array(AX.length);
  const out = new Float64Array(AX.length);
  for (let i = 0; i < AX.length; i += 2) {
    const [sr, si] = [AX[i]!, AX[i + 1]!];
    out[i] = alpha[0] * sr - alpha[1] * si + (beta[0] * y0[i]! - beta[1] * y0[i + 1]!);
    out[i + 1] = alpha[0] * si + alpha[1] * sr + (beta[0] * y0[i + 1]! + beta[1] * y0[i]!);
  }
  return out;
}

const tolOf = (d: SparseDType) => (d === 'float32' || d === 'complex64' ? 2e-5 : 1e-12);

describeNative('native CSR products', () => {
  const threads0 = numThreads();
  afterAll(() => void setNumThreads(threads0));

  it.each(DTYPES)('spmv, spmm, spmvH match the dense reference (%s, random matrices)', (dtype) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer(),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom(0, 1, 2),
        (rows, cols, k, seed, unsorted, dup, betaKind) => {
          const a = randomCsr(rows, cols, dtype, seed, { unsorted, dup });
          const c = isCplx(dtype);
          const alpha: [number, number] = c ? [0.75, -0.5] : [1.5, 0];
          const beta: [number, number] = betaKind === 0 ? [0, 0] : betaKind === 1 ? [1, 0] : c ? [-0.5, 0.25] : [-0.5, 0];
          const tol = tolOf(dtype);
          const sc = (s: [number, number]) => (c ? s : s[0]);
          // spmv
          const x = randVec(cols, dtype, seed + 1);
          const y0 = randVec(rows, dtype, seed + 2);
          const y = spmv(a, x, y0.slice(), sc(alpha), sc(beta));
          expect(maxDiff(toC(y, dtype), reference(a, x, 1, y0, alpha, beta, 'N'))).toBeLessThanOrEqual(tol);
          // defaults: alpha 1, beta 0, new output
          expect(maxDiff(toC(spmv(a, x), dtype), reference(a, x, 1, undefined, [1, 0], [0, 0], 'N'))).toBeLessThanOrEqual(tol);
          // spmm
          const X = randVec(cols * k, dtype, seed + 3);
          const Y0 = randVec(rows * k, dtype, seed + 4);
          const Y = spmm(a, X, k, Y0.slice(), sc(alpha), sc(beta));
          expect(maxDiff(toC(Y, dtype), reference(a, X, k, Y0, alpha, beta, 'N'))).toBeLessThanOrEqual(tol);
          // spmvH
          const xh = randVec(rows, dtype, seed + 5);
          const yh0 = randVec(cols, dtype, seed + 6);
          const yh = spmvH(a, xh, yh0.slice(), sc(alpha), sc(beta));
          expect(maxDiff(toC(yh, dtype), reference(a, xh, 1, yh0, alpha, beta, 'H'))).toBeLessThanOrEqual(tol);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('beta = 0 ignores NaN in the output; 0×n and n×0 matrices', () => {
    const a = randomCsr(5, 4, 'float64', 7);
    const y = new Float64Array(5).fill(NaN);
    spmv(a, new Float64Array(4).fill(1), y);
    expect(y.every((v) => Number.isFinite(v))).toBe(true);
    expect(spmv(randomCsr(0, 4, 'float64', 1), new Float64Array(4)).length).toBe(0);
    expect(Array.from(spmv(randomCsr(3, 0, 'complex128', 1), new Float64Array(0)))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(Array.from(spmvH(randomCsr(3, 0, 'float32', 1), new Float32Array(3)))).toEqual([]);
  });

  it.each(DTYPES)('threaded products equal the serial ones (%s, large matrix)', (dtype) => {
    const a = poisson2d(300, dtype); // 90k rows, 450k nonzeros: above the threading threshold
    const r = rng(3);
    for (let k = 0; k < a.data.length; k++) a.data[k] = a.data[k]! + 0.1 * r();
    const n = a.shape[0];
    const x = randVec(n, dtype, 11);
    const X = randVec(n * 3, dtype, 12);
    const run = () => [spmv(a, x), spmm(a, X, 3), spmvH(a, x)] as const;
    setNumThreads(1);
    const [s1, m1, h1] = run();
    setNumThreads(2);
    const [s2, m2, h2] = run();
    // spmv / spmm: each row computed by one thread in a fixed order -> identical bits
    expect(Buffer.from(s2.buffer).equals(Buffer.from(s1.buffer))).toBe(true);
    expect(Buffer.from(m2.buffer).equals(Buffer.from(m1.buffer))).toBe(true);
    // spmvH: serial for Poisson (nnz = 5·cols); a matrix with long rows (nnz >=
    // 16·cols) takes the private-accumulator path, equal to rounding
    expect(maxDiff(h2, h1)).toBeLessThanOrEqual(tolOf(dtype) * 10 * Math.max(1, maxAbs(h1)));
    const wide = randomCsr(4000, 300, dtype, 5, { maxRow: 40, unsorted: true });
    const xw = randVec(4000, dtype, 13);
    const yw0 = randVec(300, dtype, 14);
    setNumThreads(1);
    const w1 = spmvH(wide, xw, yw0.slice(), 1, [0.5, 0]);
    setNumThreads(2);
    const w2 = spmvH(wide, xw, yw0.slice(), 1, [0.5, 0]);
    const scale = Math.max(1, maxAbs(w1));
    expect(maxDiff(w2, w1)).toBeLessThanOrEqual(tolOf(dtype) * 10 * scale);
    const wantW = new Float64Array(300 * per(dtype));
    for (let i = 0; i < 4000; i++) {
      for (let q = wide.indptr[i]!; q < wide.indptr[i + 1]!; q++) {
        const j = wide.indices[q]!;
        if (per(dtype) === 1) wantW[j] += wide.data[q]! * xw[i]!;
        else {
          const [ar, ai, xr, xi] = [wide.data[2 * q]!, wide.data[2 * q + 1]!, xw[2 * i]!, xw[2 * i + 1]!];
          wantW[2 * j] += ar * xr + ai * xi;
          wantW[2 * j + 1] += ar * xi - ai * xr;
        }
      }
    }
    for (let j = 0; j < wantW.length; j++) wantW[j] += 0.5 * yw0[j]!;
    expect(maxDiff(w2, wantW)).toBeLessThanOrEqual(tolOf(dtype) * 10 * scale);
    // and the threaded spmv agrees with a plain loop
    const p = per(dtype);
    const want = new Float64Array(n * p);
    for (let i = 0; i < n; i++) {
      for (let q = a.indptr[i]!; q < a.indptr[i + 1]!; q++) {
        const j = a.indices[q]!;
        if (p === 1) want[i] += a.data[q]! * x[j]!;
        else {
          want[2 * i] += a.data[2 * q]! * x[2 * j]! - a.data[2 * q + 1]! * x[2 * j + 1]!;
          want[2 * i + 1] += a.data[2 * q]! * x[2 * j + 1]! + a.data[2 * q + 1]! * x[2 * j]!;
        }
      }
    }
    expect(maxDiff(s2, want)).toBeLessThanOrEqual(tolOf(dtype) * 8);
  });

  it('wrong lengths, bad indptr and out-of-range indices throw; the process lives on', () => {
    const good = randomCsr(4, 5, 'float64', 9);
    const x = new Float64Array(5);
    expect(() => spmv(good, new Float64Array(4))).toThrow(/x must have length 5/);
    expect(() => spmv(good, x, new Float64Array(3))).toThrow(/y must have length 4/);
    expect(() => spmv(good, new Float32Array(5) as unknown as Float64Array)).toThrow(/Float64Array/);
    expect(() => spmm(good, new Float64Array(9), 2)).toThrow(/X must have length 10/);
    expect(() => spmvH(good, x)).toThrow(/x must have length 4/);
    const badIdx = { ...good, indices: good.indices.slice() };
    badIdx.indices[0] = 5;
    expect(() => spmv(badIdx, x)).toThrow(/indices\[0\] = 5/);
    badIdx.indices[0] = -1;
    expect(() => spmvH(badIdx, new Float64Array(4))).toThrow(/indices\[0\] = -1/);
    const badPtr = { ...good, indptr: good.indptr.slice() };
    badPtr.indptr[1] = badPtr.indptr[2]! + 1;
    expect(() => spmv(badPtr, x)).toThrow(/non-decreasing/);
    badPtr.indptr[4] = 1000;
    expect(() => spmv(badPtr, x)).toThrow();
    expect(() => spmv({ ...good, data: new Float64Array(1) }, x)).toThrow(/data must have length/);
    const y = new Float64Array(4);
    expect(() => spmv(good, x, y, [1, 1])).toThrow(/real/);
    // output aliasing an input
    const buf = new Float64Array(9);
    expect(() => spmv(good, buf.subarray(0, 5), buf.subarray(5, 9))).not.toThrow();
    expect(() => spmv(good, buf.subarray(0, 5), buf.subarray(4, 8))).toThrow(/overlap/);
    // straight to the addon, skipping the TS checks: C++ refuses too
    const native = nativeAddon()!;
    const bad = badIdx.indices;
    expect(() => native.sparseSpmv('float64', 4, 5, good.indptr, bad, good.data, false, x, y, 1, 0, 0, 0)).toThrow(/indices\[0\] = -1/);
    expect(() => native.sparseSpmvH('float64', 4, 5, good.indptr, bad, good.data, false, new Float64Array(4), x, 1, 0, 0, 0)).toThrow(/outside/);
    expect(() => native.sparseSpmv('float64', 4, 5, good.indptr.subarray(1), good.indices, good.data, true, x, y, 1, 0, 0, 0)).toThrow(/indptr/);
    expect(() => native.sparseSpmv('float64', 4, 5, good.indptr, good.indices, good.data, true, x, x.subarray(0, 4), 1, 0, 0, 0)).toThrow(/overlaps/);
    expect(() => native.sparseSpmm('complex64' as 'float64', 4, 5, good.indptr, good.indices, good.data, true, x, 1, y, 1, 0, 0, 0)).toThrow(/Float32Array/);
    // validated: skips only the index scan; results unchanged
    expect(Array.from(spmv(good, x.fill(1), undefined, 1, 0, { validated: true }))).toEqual(Array.from(spmv(good, x)));
  });
});
