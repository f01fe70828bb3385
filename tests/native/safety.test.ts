// The addon's boundary: every bad argument is a thrown Error with a clear
// message, both from the TS wrapper (gemm.ts) and from the C++ entry points
// called directly (their own validation, which must hold without the TS one),
// and the process stays alive and keeps computing afterwards.

import { expect, it } from 'vitest';
import { nativeAddon, type GemmSpec } from '../../src/backends/native/addon.js';
import { compiledMatmulRun, gemm } from '../../src/backends/native/gemm.js';
import type { MatmulKernel } from '../../src/compiler/kernel.js';
import { describeNative } from './native-harness.js';

/** A valid 2x3 @ 3x2 float64 problem; `patch` edits a deep copy. */
function spec(patch: (s: GemmSpec) => void = () => {}): GemmSpec {
  const s: GemmSpec = {
    dtype: 'float64',
    batch: [],
    m: 2,
    n: 2,
    k: 3,
    a: { data: Float64Array.from([1, 2, 3, 4, 5, 6]), offset: 0, strides: [3, 1] },
    b: { data: Float64Array.from([1, 0, 0, 1, 1, 1]), offset: 0, strides: [2, 1] },
    c: { data: new Float64Array(4), offset: 0, strides: [2, 1] },
  };
  patch(s);
  return s;
}

/** Bad specs: [what, edit, message expected from C++ (and TS, unless tsMessage)]. */
const BAD: [string, (s: GemmSpec) => void, RegExp, RegExp?][] = [
  ['a too short', (s) => (s.a.data = new Float64Array(5)), /a: view .* reads elements 0\.\.5 but the array has 5 elements/, /a: view .* reads elements 0\.\.5 of an array of 5/],
  ['c too short', (s) => (s.c.data = new Float64Array(3)), /c: view .*the array has 3 elements/, /array of 3/],
  ['offset past the end', (s) => (s.b.offset = 10), /b: view \(offset 10/, /offset 10/],
  ['negative offset', (s) => (s.b.offset = -1), /offset must be in \[0,|offset must be a non-negative integer/, /non-negative/],
  ['negative m', (s) => (s.m = -1), /spec\.m must be in \[0,/, /m must be an integer in \[0, 2\^31 - 1\], got -1/],
  ['fractional k', (s) => (s.k = 1.5), /spec\.k must be an integer, got number 1\.5/, /k must be an integer/],
  ['NaN n', (s) => (s.n = NaN), /spec\.n must be an integer, got number NaN/, /n must be an integer/],
  ['negative batch dim', (s) => ((s.batch = [-2]), (s.a.strides = [0, 3, 1]), (s.b.strides = [0, 2, 1]), (s.c.strides = [0, 2, 1])), /spec\.batch\[0\] must be in \[0,/, /batch must be an array of non-negative integers/],
  ['m beyond the BLAS integer', (s) => (s.m = 2 ** 31), /m, n, k must be at most 2147483647/, /m must be an integer in \[0, 2\^31 - 1\]/],
  ['huge sizes over tiny arrays', (s) => ((s.m = 1e9), (s.n = 1e9), (s.k = 1e9)), /a: view \(offset 0, shape \[1000000000, 1000000000\]/, /reads elements/],
  ['huge batch (index overflow)', (s) => ((s.batch = [2 ** 52, 2 ** 52]), (s.a.strides = [2 ** 52, 2 ** 52, 3, 1]), (s.b.strides = [0, 0, 2, 1]), (s.c.strides = [0, 0, 2, 1])), /overflows the index range|would write some elements more than once/, /reads elements|not safe/],
  ['strides of the wrong length', (s) => (s.a.strides = [3]), /spec\.a\.strides must have length 2, got length 1/, /a\.strides must be 2 integers/],
  ['non-integer stride', (s) => (s.a.strides = [3, 0.5]), /spec\.a\.strides\[1\] must be an integer/, /a\.strides must be 2 integers/],
  ['mismatched dtype (Float32Array for float64)', (s) => (s.b.data = new Float32Array(6) as unknown as Float64Array), /spec\.b\.data \(dtype float64\) must be a Float64Array, got Float32Array/, /b\.data must be a Float64Array for dtype float64, got Float32Array/],
  ['Int32Array data', (s) => (s.a.data = new Int32Array(6) as unknown as Float64Array), /must be a Float64Array, got Int32Array/, /must be a Float64Array for dtype float64, got Int32Array/],
  ['plain Array data', (s) => (s.a.data = [1, 2, 3, 4, 5, 6] as unknown as Float64Array), /spec\.a\.data .*must be a Float64Array, got Array/, /a\.data must be a Float64Array for dtype float64, got object/],
  ['string data', (s) => (s.c.data = 'xx' as unknown as Float64Array), /spec\.c\.data .*got string/, /got string/],
  ['missing operand', (s) => delete (s as Partial<GemmSpec>).b, /spec\.b must be an object, got undefined/, /b must be an object/],
  ['unknown dtype', (s) => (s.dtype = 'int32' as GemmSpec['dtype']), /dtype must be one of float32, float64, complex64, complex128, got 'int32'/, /dtype must be one of/],
  ['output overlapping an input', (s) => ((s.c.data = s.a.data), (s.c.offset = 2)), /c shares memory with a/],
  ['output overlapping an input through another view', (s) => (s.c.data = new Float64Array(s.b.data.buffer, 8, 4)), /c shares memory with b/],
  ['output writing an element twice (stride 0)', (s) => (s.c.strides = [0, 1]), /would write some elements more than once/, /c: view|more than once|overlap/],
  ['conj on the output', (s) => ((s.c as { conj?: boolean }).conj = true), /conj is not allowed/],
];

describeNative('native gemm rejects bad arguments with clear errors, and the process lives on', () => {
  it.each(BAD)('%s', (_what, edit, cxxMessage, tsMessage) => {
    // C++ validation alone (raw addon entry points, sync and async).
    const addon = nativeAddon()!;
    expect(() => addon.gemm(spec(edit))).toThrow(cxxMessage);
    expect(() => addon.gemm(spec(edit))).toThrow(/^rlx native gemm: /);
    expect(() => addon.gemmAsync(spec(edit))).toThrow(/^rlx native gemmAsync: /);
    expect(() => addon.gemmPlan(spec(edit))).toThrow(Error);
    // The TS wrapper rejects it first.
    expect(() => gemm(spec(edit))).toThrow(tsMessage ?? cxxMessage);
    // And the addon still works.
    expect([...addon.gemm(spec())]).toEqual([4, 5, 10, 11]);
  });

  it('errors are TypeError for wrong types and RangeError for wrong sizes', () => {
    const addon = nativeAddon()!;
    expect(() => addon.gemm(spec((s) => (s.a.data = new Float32Array(6) as unknown as Float64Array)))).toThrow(TypeError);
    expect(() => addon.gemm(spec((s) => (s.a.data = new Float64Array(2))))).toThrow(RangeError);
  });

  it('wrong argument counts and non-object specs', () => {
    const addon = nativeAddon()! as unknown as Record<string, (...a: unknown[]) => unknown>;
    expect(() => addon['gemm']!()).toThrow(/rlx native gemm: expected one argument \(the spec object\), got 0/);
    expect(() => addon['gemm']!(spec(), spec())).toThrow(/got 2/);
    expect(() => addon['gemm']!(null)).toThrow(/spec must be an object, got null/);
    expect(() => addon['gemm']!(new Float64Array(3))).toThrow(/spec must be an object, got Float64Array/);
    expect(() => addon['setNumThreads']!(0)).toThrow(/rlx native setNumThreads: n must be in \[1, 1024\], got 0/);
    expect(() => addon['setNumThreads']!('4')).toThrow(/n must be an integer, got string/);
    expect(() => gemm(null as unknown as GemmSpec)).toThrow(/spec must be an object, got null/);
  });

  it('a detached buffer is refused as detached, never read as freed memory', () => {
    const s = spec();
    structuredClone(s.a.data.buffer, { transfer: [s.a.data.buffer] });
    expect(s.a.data.length).toBe(0);
    expect(() => nativeAddon()!.gemm(s)).toThrow(/spec\.a\.data .*buffer has been detached/);
  });

  it('JS that runs while the spec is read (a getter detaching an input) cannot leave a stale pointer', () => {
    // Memory is taken only after every property has been read, so the detached array
    // is seen as empty and refused; taking pointers earlier would read freed memory.
    const s = spec();
    const holder = {
      ...s,
      get c() {
        structuredClone(s.a.data.buffer, { transfer: [s.a.data.buffer] });
        return s.c;
      },
    };
    expect(() => nativeAddon()!.gemm(holder)).toThrow(/spec\.a\.data .*buffer has been detached/);
  });
});

/** The spec's numbers in gemmFlat's layout (native/src/gemm_binding.cc). */
function flat(s: GemmSpec): [Float32Array | Float64Array, Float32Array | Float64Array, Float32Array | Float64Array, Float64Array] {
  const code = { float32: 0, float64: 1, complex64: 2, complex128: 3 }[s.dtype];
  const nb = s.batch.length;
  const meta = [code, nb, s.m, s.n, s.k, s.a.offset, s.b.offset, s.c.offset, s.a.conj ? 1 : 0, s.b.conj ? 1 : 0, ...s.batch, ...s.a.strides, ...s.b.strides, ...s.c.strides];
  return [s.a.data, s.b.data, s.c.data, Float64Array.from(meta)];
}

describeNative('native gemmFlat (the compiled kernels\' entry) checks everything gemm checks', () => {
  // Specs whose fault survives packing into numbers (the others are about the object form).
  const representable = BAD.filter(([what]) => !['missing operand', 'unknown dtype', 'conj on the output', 'plain Array data', 'string data'].includes(what));
  it.each(representable)('%s', (_what, edit) => {
    const addon = nativeAddon()!;
    expect(() => addon.gemmFlat(...flat(spec(edit)))).toThrow(/^rlx native gemmFlat: /);
    const ok = flat(spec());
    addon.gemmFlat(...ok);
    expect([...ok[2]]).toEqual([4, 5, 10, 11]);
  });

  it('malformed meta arrays and arguments', () => {
    const addon = nativeAddon()!;
    const [a, b, c, meta] = flat(spec());
    const edited = (i: number, v: number) => Float64Array.from(meta, (x, j) => (j === i ? v : x));
    expect(() => addon.gemmFlat(a, b, c, meta.subarray(0, 9))).toThrow(/meta must hold at least 10 numbers, got 9/);
    expect(() => addon.gemmFlat(a, b, c, meta.subarray(0, 15))).toThrow(/meta for 0 batch dims must hold 16 numbers, got 15/);
    expect(() => addon.gemmFlat(a, b, c, edited(1, 1))).toThrow(/meta for 1 batch dims must hold 20 numbers, got 16/);
    expect(() => addon.gemmFlat(a, b, c, edited(1, -1))).toThrow(/meta\[1\] \(batch rank\) must be an integer in \[0, 64\]/);
    expect(() => addon.gemmFlat(a, b, c, edited(0, 4))).toThrow(/meta\[0\] \(dtype code\) must be an integer in \[0, 3\], got 4/);
    expect(() => addon.gemmFlat(a, b, c, edited(8, 2))).toThrow(/meta\[8\] \(conj flag\)/);
    expect(() => addon.gemmFlat(a, b, c, edited(2, NaN))).toThrow(/meta\[2\] \(m\) must be an integer/);
    expect(() => addon.gemmFlat(a, b, c, edited(11, 0.5))).toThrow(/meta\[11\] \(stride\) must be an integer/);
    expect(() => addon.gemmFlat(a, b, c, edited(0, 0))).toThrow(/a must be a Float32Array, got Float64Array/);
    expect(() => addon.gemmFlat(a, b, c, Float32Array.from(meta) as unknown as Float64Array)).toThrow(/meta must be a Float64Array, got Float32Array/);
    const raw = addon as unknown as Record<string, (...x: unknown[]) => unknown>;
    expect(() => raw['gemmFlat']!(a, b, c)).toThrow(/expected \(a, b, c, meta\), got 3 arguments/);
    expect(() => raw['gemmFlat']!(a, b, 'c', meta)).toThrow(/c must be a Float64Array, got string/);
    // Still computing.
    addon.gemmFlat(a, b, c, meta);
    expect([...c]).toEqual([4, 5, 10, 11]);
  });

  it('agrees with gemm on batched, broadcast, transposed and conjugated complex views', () => {
    const addon = nativeAddon()!;
    const re = (n: number, k: number) => Float64Array.from({ length: n }, (_, i) => ((i * k) % 17) / 4 - 2);
    // c[2, 3, 4] = conj(a)[2, 3, 5] @ bᵀ[5, 4] (b broadcast over the batch), complex128.
    const s: GemmSpec = {
      dtype: 'complex128',
      batch: [2],
      m: 3,
      n: 4,
      k: 5,
      a: { data: re(2 * 3 * 5 * 2, 3), offset: 0, strides: [15, 5, 1], conj: true },
      b: { data: re(4 * 5 * 2, 5), offset: 0, strides: [0, 1, 5] },
      c: { data: new Float64Array(2 * 3 * 4 * 2), offset: 0, strides: [12, 4, 1] },
    };
    const want = addon.gemm(s).slice();
    s.c.data.fill(NaN);
    addon.gemmFlat(...flat(s));
    expect([...s.c.data]).toEqual([...want]);
  });
});

describeNative("a compiled matmul kernel re-checks each run's arrays", () => {
  // c[2, 2] = a[2, 3] @ b[3, 2], slots a = 0, b = 1, c = 2.
  const kernel: MatmulKernel = {
    kind: 'matmul',
    out: 2,
    outDType: 'float64',
    outShape: [2, 2],
    fused: [],
    a: { slot: 0, dtype: 'float64', chain: [] },
    b: { slot: 1, dtype: 'float64', chain: [] },
    aShape: [2, 3],
    bShape: [3, 2],
  };
  const shapes = [[2, 3], [3, 2], [2, 2]];
  const env = new Map<string, number>();
  const good = () => [Float64Array.from([1, 2, 3, 4, 5, 6]), Float64Array.from([1, 0, 0, 1, 1, 1]), new Float64Array(4)];

  it('runs, then refuses wrong array types, short arrays and an output overlapping an input', () => {
    const run = compiledMatmulRun(kernel, shapes);
    const bufs = good();
    run(bufs, env);
    expect([...bufs[2]!]).toEqual([4, 5, 10, 11]);
    expect(() => run([bufs[0]!, new Float32Array(6) as unknown as Float64Array, bufs[2]!], env)).toThrow(/arrays must be Float64Arrays, got Float64Array, Float32Array, Float64Array/);
    expect(() => run([bufs[0]!, bufs[1]!, new Float64Array(3)], env)).toThrow(/arrays of 6, 6, 3 elements are shorter than the views need \(6, 6, 4\)/);
    const shared = new Float64Array(10);
    shared.set([1, 2, 3, 4, 5, 6]);
    expect(() => run([shared, bufs[1]!, shared.subarray(5, 9)], env)).toThrow(/the output shares memory with a/);
    const after = good();
    run(after, env);
    expect([...after[2]!]).toEqual([4, 5, 10, 11]);
  });
});
