// Native GEMM (OpenBLAS through the addon) against rlx's js matmul, which is
// the reference: every dtype x every transpose combination x batched and
// broadcast batches x strided views, conjugation, degenerate sizes, the
// async variant, and matmul kernels whose loads carry view chains. The plans
// are checked too: transposed and padded views reach BLAS without copies.
// Tolerances: expectGemmClose (native-harness.ts) explains the bound used.

import { expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { compiledMatmulRun, gemm, gemmAsync, gemmPlan, matmulSpec, GEMM_DTYPES, type GemmDType, type GemmSpec } from '../../src/backends/native/gemm.js';
import type { MatmulKernel, ViewStep } from '../../src/compiler/kernel.js';
import type { StorageArray } from '../../src/tensor/dtype.js';
import { absF64, describeNative, expectGemmClose, isComplexD, LAYOUTS, makeOperand, storageFor, type Layout } from './native-harness.js';

interface Case {
  dtype: GemmDType;
  batch: number[];
  bcastA: boolean[];
  bcastB: boolean[];
  m: number;
  n: number;
  k: number;
  la: Layout;
  lb: Layout;
  conjA?: boolean;
  conjB?: boolean;
}

let seed = 1;
const name = (c: Case) =>
  `${c.dtype} [${c.batch}] a${c.bcastA.map(Number).join('')} b${c.bcastB.map(Number).join('')} ${c.m}x${c.k}@${c.k}x${c.n} ${c.la}${c.conjA ? '*' : ''} @ ${c.lb}${c.conjB ? '*' : ''}`;

/** Builds one case: the spec (c filled with NaN) and a check of c against the js reference. */
function prepare(c: Case): { spec: GemmSpec; verify: () => void } {
  const A = makeOperand(c.dtype, c.batch, c.bcastA, c.m, c.k, c.la, seed++);
  const B = makeOperand(c.dtype, c.batch, c.bcastB, c.k, c.n, c.lb, seed++);
  const size = [...c.batch, c.m, c.n].reduce((x, y) => x * y, 1);
  const lanes = isComplexD(c.dtype) ? 2 : 1;
  const C = new (storageFor(c.dtype))(size * lanes).fill(NaN);
  const cStrides = [...c.batch, c.m, c.n].map((_, i, s) => s.slice(i + 1).reduce((x, y) => x * y, 1));
  const spec: GemmSpec = {
    dtype: c.dtype,
    batch: c.batch,
    m: c.m,
    n: c.n,
    k: c.k,
    a: { ...A.spec, conj: c.conjA ?? false },
    b: { ...B.spec, conj: c.conjB ?? false },
    c: { data: C, offset: 0, strides: cStrides },
  };
  const verify = () => {
    const ra = c.conjA ? A.ref.conj() : A.ref,
      rb = c.conjB ? B.ref.conj() : B.ref;
    const want = ra.matmul(rb).toArray() as Float32Array | Float64Array;
    const bound = absF64(A.ref).matmul(absF64(B.ref)).toArray() as Float64Array;
    expectGemmClose(C, want, bound, c.dtype, c.k, name(c));
  };
  return { spec, verify };
}

/** Runs one case natively (sync) and compares with js; returns the spec. */
function check(c: Case): GemmSpec {
  const p = prepare(c);
  expect(gemm(p.spec)).toBe(p.spec.c.data);
  p.verify();
  return p.spec;
}

const TRANS: [Layout, Layout][] = [
  ['row', 'row'],
  ['row', 'trans'],
  ['trans', 'row'],
  ['trans', 'trans'],
];
const BATCHES: { batch: number[]; bcastA: boolean[]; bcastB: boolean[] }[] = [
  { batch: [], bcastA: [], bcastB: [] },
  { batch: [3], bcastA: [false], bcastB: [false] },
  { batch: [3], bcastA: [false], bcastB: [true] }, // x[t] @ w: folds into m
  { batch: [3], bcastA: [true], bcastB: [false] }, // w @ x[t]
  { batch: [2, 3], bcastA: [true, false], bcastB: [false, true] },
];

describeNative('native gemm vs the js reference', () => {
  it.each(GEMM_DTYPES)('%s: every transpose combination, batched and broadcast', (dtype) => {
    for (const { batch, bcastA, bcastB } of BATCHES) {
      for (const [la, lb] of TRANS) {
        check({ dtype, batch, bcastA, bcastB, m: 5, n: 4, k: 7, la, lb });
      }
    }
  });

  it.each(GEMM_DTYPES)('%s: strided views (leading dims, column steps, reversed rows) on either side', (dtype) => {
    for (const la of LAYOUTS) {
      for (const lb of LAYOUTS) {
        check({ dtype, batch: [2], bcastA: [false], bcastB: [la === lb], m: 3, n: 5, k: 4, la, lb });
      }
    }
  });

  it.each(['complex64', 'complex128'] as const)('%s: conjugated operands, transposed or not (CblasConjTrans / ConjNoTrans)', (dtype) => {
    for (const [la, lb] of TRANS) {
      for (const [conjA, conjB] of [[true, false], [false, true], [true, true]]) {
        check({ dtype, batch: [2], bcastA: [false], bcastB: [true], m: 4, n: 3, k: 5, la, lb, conjA: conjA!, conjB: conjB! });
      }
    }
  });

  // C with one column or one row goes to gemv (gemm.cc's product()): every layout of either operand, batches, conjugation.
  it.each(GEMM_DTYPES)('%s: matrix-vector shapes (m = 1 or n = 1: the gemv path) in every layout', (dtype) => {
    const conjs: [boolean, boolean][] = dtype.startsWith('complex') ? [[false, false], [true, false], [false, true], [true, true]] : [[false, false]];
    for (const [m, n] of [[1, 6], [6, 1], [1, 1]] as const) {
      for (const la of LAYOUTS) {
        for (const lb of LAYOUTS) {
          for (const [conjA, conjB] of conjs) {
            check({ dtype, batch: [], bcastA: [], bcastB: [], m, n, k: 5, la, lb, conjA, conjB });
            check({ dtype, batch: [2], bcastA: [false], bcastB: [m === 1], m, n, k: 5, la, lb, conjA, conjB });
          }
        }
      }
    }
    // Past OpenBLAS's gemv threading threshold.
    check({ dtype, batch: [], bcastA: [], bcastB: [], m: 300, n: 1, k: 400, la: 'row', lb: 'row' });
    check({ dtype, batch: [], bcastA: [], bcastB: [], m: 1, n: 300, k: 400, la: 'trans', lb: 'trans' });
  });

  it.each(GEMM_DTYPES)('%s: sizes past the BLAS kernels\' blocking (96 x 80 @ 80 x 112)', (dtype) => {
    check({ dtype, batch: [2], bcastA: [false], bcastB: [false], m: 96, n: 112, k: 80, la: 'trans', lb: 'padded' });
  });

  it('degenerate sizes: k = 0 gives zeros, m or n = 0 or an empty batch writes nothing, unit dims', () => {
    for (const dtype of GEMM_DTYPES) {
      for (const [m, n, k] of [[1, 1, 1], [1, 5, 3], [4, 1, 3], [3, 4, 1], [3, 4, 0]] as const) {
        for (const [la, lb] of TRANS) check({ dtype, batch: [2], bcastA: [false], bcastB: [true], m, n, k, la, lb });
      }
      const C = new (storageFor(dtype))(4).fill(7);
      const empty = (b: number[], m: number, n: number): GemmSpec => ({
        dtype,
        batch: b,
        m,
        n,
        k: 3,
        a: { data: new (storageFor(dtype))(m * 3 * 2), offset: 0, strides: [...b.map(() => 0), 3, 1] },
        b: { data: new (storageFor(dtype))(3 * n * 2), offset: 0, strides: [...b.map(() => 0), n, 1] },
        c: { data: C, offset: 0, strides: [...b.map(() => 0), n, 1] },
      });
      gemm(empty([], 0, 2));
      gemm(empty([], 2, 0));
      gemm(empty([0], 2, 2));
      expect([...C]).toEqual([7, 7, 7, 7]);
    }
  });

  it('a strided output (transposed, or every other column) is written in place', () => {
    for (const dtype of GEMM_DTYPES) {
      const A = makeOperand(dtype, [], [], 3, 4, 'row', 99);
      const B = makeOperand(dtype, [], [], 4, 5, 'trans', 98);
      const want = A.ref.matmul(B.ref).toArray();
      const bound = absF64(A.ref).matmul(absF64(B.ref)).toArray();
      const lanes = isComplexD(dtype) ? 2 : 1;
      // Column-major output: element (i, j) at i + 3 j.
      const Ct = new (storageFor(dtype))(15 * lanes);
      gemm({ dtype, batch: [], m: 3, n: 5, k: 4, a: A.spec, b: B.spec, c: { data: Ct, offset: 0, strides: [1, 3] } });
      // Every other column of a 3 x 10 array (no unit stride: computed then scattered).
      const Cs = new (storageFor(dtype))(30 * lanes).fill(-5);
      const plan = gemmPlan({ dtype, batch: [], m: 3, n: 5, k: 4, a: A.spec, b: B.spec, c: { data: Cs, offset: 1, strides: [10, 2] } });
      expect(plan.cPacked).toBe(true);
      gemm({ dtype, batch: [], m: 3, n: 5, k: 4, a: A.spec, b: B.spec, c: { data: Cs, offset: 1, strides: [10, 2] } });
      const pick = (arr: ArrayLike<number>, at: (i: number, j: number) => number) => {
        const out: number[] = [];
        for (let i = 0; i < 3; i++) for (let j = 0; j < 5; j++) for (let l = 0; l < lanes; l++) out.push(arr[at(i, j) * lanes + l]!);
        return out;
      };
      expectGemmClose(pick(Ct, (i, j) => i + 3 * j), want, bound, dtype, 4, `${dtype} column-major c`);
      expectGemmClose(pick(Cs, (i, j) => 1 + 10 * i + 2 * j), want, bound, dtype, 4, `${dtype} column-step c`);
      // Elements between the written columns are untouched.
      for (let i = 0; i < 3; i++) for (let j = 0; j < 5; j++) for (let l = 0; l < lanes; l++) expect(Cs[(10 * i + 2 * j) * lanes + l]).toBe(-5);
    }
  });

  it('plans: transposes become BLAS flags and padded views leading dims, no copies; only non-unit-stride views are copied', () => {
    const plan = (la: Layout, lb: Layout, bcastB = false, conjA = false) => {
      const A = makeOperand('complex128', [3], [false], 5, 7, la, 1);
      const B = makeOperand('complex128', [3], [bcastB], 7, 4, lb, 2);
      return gemmPlan({ dtype: 'complex128', batch: [3], m: 5, n: 4, k: 7, a: { ...A.spec, conj: conjA }, b: B.spec, c: { data: new Float64Array(120), offset: 0, strides: [20, 4, 1] } });
    };
    const p1 = plan('trans', 'padtrans');
    expect(p1).toMatchObject({ order: 'row', a: { packed: false, trans: true, ld: 5 }, b: { packed: false, trans: true, ld: 7 + 3 }, cPacked: false, blasCalls: 3 });
    const p2 = plan('padded', 'row', true); // padded rows do not continue from one batch entry to the next: no fold, 3 calls
    expect(p2).toMatchObject({ a: { packed: false, trans: false, ld: 9 }, b: { packed: false }, blasCalls: 3 });
    const p3 = plan('row', 'trans', true); // contiguous x[t] @ broadcast w: one (3*5) x 7 GEMM
    expect(p3).toMatchObject({ foldedIntoM: 1, m: 15, batch: [], blasCalls: 1, a: { packed: false }, b: { packed: false, trans: true } });
    const p4 = plan('trans', 'row', false, true); // conj(a)^T: ConjTrans, no copy
    expect(p4).toMatchObject({ a: { packed: false, trans: true, conj: true } });
    expect(plan('colstep', 'row').a.packed).toBe(true);
    expect(plan('row', 'negrows').b.packed).toBe(true);
  });

  it('gemmAsync resolves with c after computing it off the main thread; failures reject with the caller\'s stack', async () => {
    for (const dtype of GEMM_DTYPES) {
      const p = prepare({ dtype, batch: [4], bcastA: [false], bcastB: [true], m: 33, n: 17, k: 21, la: 'trans', lb: 'row' });
      const pending = gemmAsync(p.spec);
      const got = await pending;
      expect(got).toBe(p.spec.c.data);
      p.verify();
    }
    // Several in flight at once (the libuv pool runs them concurrently).
    const many = GEMM_DTYPES.flatMap((dtype) => [0, 1, 2].map(() => prepare({ dtype, batch: [2], bcastA: [false], bcastB: [false], m: 40, n: 30, k: 50, la: 'row', lb: 'trans' })));
    await Promise.all(many.map((p) => gemmAsync(p.spec)));
    for (const p of many) p.verify();
    const bad: GemmSpec = { dtype: 'float64', batch: [], m: 2, n: 2, k: 2, a: { data: new Float64Array(4), offset: 0, strides: [2, 1] }, b: { data: new Float64Array(4), offset: 0, strides: [2, 1] }, c: { data: new Float64Array(3), offset: 0, strides: [2, 1] } };
    await expect(gemmAsync(bad)).rejects.toThrow(/c: view of shape \[2, 2\].*array of 3/);
    const err = await gemmAsync(bad).catch((e: unknown) => e);
    expect((err as Error).stack).toMatch(/gemm\.test\.ts/);
    // The addon's own entry point validates too (bypassing the TS checks): a synchronous RangeError.
    expect(() => nativeAddon()!.gemmAsync(bad)).toThrow(/rlx native gemmAsync: c: view/);
  });

  it('setNumThreads: results stay within the bound with 1 thread and with the default', () => {
    const addon = nativeAddon()!;
    const before = addon.blasInfo().threads;
    expect(before).toBeGreaterThanOrEqual(1);
    const c: Case = { dtype: 'float64', batch: [], bcastA: [], bcastB: [], m: 200, n: 150, k: 300, la: 'row', lb: 'row' };
    check(c);
    expect(addon.setNumThreads(1)).toBe(1);
    expect(addon.blasInfo().threads).toBe(1);
    check(c);
    expect(addon.setNumThreads(before)).toBe(before);
  });
});

// --- matmul kernels (src/compiler/kernel.ts) ---------------------------------

const step = (op: ViewStep['op'], attrs: ViewStep['attrs'], inShape: number[], outShape: number[]): ViewStep => ({ op, attrs, inShape, outShape });

describeNative('native matmul kernels (views resolved from the kernel\'s load chains)', () => {
  it.each(GEMM_DTYPES)('%s: a transposed and sliced, b broadcast over the batch', (dtype) => {
    // a: slot 0 holds [2, 6, 5]; view = permute(0, 2, 1) -> [2, 5, 6] then slice columns 1..5 -> [2, 5, 4]
    // b: slot 1 holds [4, 3];    view = reshape [1, 4, 3] -> expand [2, 4, 3]
    const A = makeOperand(dtype, [2], [false], 6, 5, 'row', 7);
    const B = makeOperand(dtype, [], [], 4, 3, 'row', 8);
    const k: MatmulKernel = {
      kind: 'matmul',
      out: 2,
      outDType: dtype,
      outShape: [2, 5, 3],
      fused: ['matmul'],
      a: {
        slot: 0,
        dtype,
        chain: [step('permute', { perm: [0, 2, 1] }, [2, 6, 5], [2, 5, 6]), step('slice', { start: [0, 0, 1], step: [1, 1, 1], size: [2, 5, 4] }, [2, 5, 6], [2, 5, 4])],
      },
      b: { slot: 1, dtype, chain: [step('reshape', { shape: [1, 4, 3] }, [4, 3], [1, 4, 3]), step('expand', { shape: [2, 4, 3] }, [1, 4, 3], [2, 4, 3])] },
      aShape: [2, 5, 4],
      bShape: [2, 4, 3],
    };
    const lanes = isComplexD(dtype) ? 2 : 1;
    const out = new (storageFor(dtype))(30 * lanes);
    const buffers: StorageArray[] = [A.spec.data, B.spec.data, out];
    const slotShapes = [[2, 6, 5], [4, 3], [2, 5, 3]];
    const spec = matmulSpec(k, buffers, slotShapes, new Map());
    expect(spec.a).toMatchObject({ offset: 5, strides: [30, 1, 5] }); // column 1 of the transposed view is row 1 of the slot
    expect(spec.b.strides).toEqual([0, 3, 1]);
    compiledMatmulRun(k, slotShapes)(buffers, new Map());
    const ra = A.ref.swapaxes(-1, -2).slice(rlx.s(rlx.ax(), rlx.ax(), rlx.rg(1, 5)));
    const rb = B.ref;
    expectGemmClose(out, ra.matmul(rb).toArray(), absF64(ra).matmul(absF64(rb)).toArray(), dtype, 4, `${dtype} kernel`);
  });

  it('a kernel compiled from x.T @ y on the js device runs natively with the same result', () => {
    const f = rlx.graph('xty', (g) => g.input('x', [7, 5]).T.matmul(g.input('y', [7, 3])));
    const exe = rlx.compile(f, { device: 'js' });
    const k = exe.report.kernels.find((x): x is MatmulKernel => x.kind === 'matmul')!;
    expect(k?.kind).toBe('matmul');
    const x = makeOperand('float64', [], [], 7, 5, 'row', 11),
      y = makeOperand('float64', [], [], 7, 3, 'row', 12);
    const slots = exe.report.slots;
    const buffers: StorageArray[] = slots.map((s) => new Float64Array(s.shape.reduce<number>((p, d) => p * (d as number), 1)));
    buffers[k.a.slot] = x.spec.data;
    buffers[k.b.slot] = y.spec.data;
    const slotShapes = slots.map((s) => s.shape);
    const spec = matmulSpec(k, buffers, slotShapes, new Map());
    expect(gemmPlan(spec)).toMatchObject({ a: { packed: false, trans: true }, b: { packed: false, trans: false } });
    compiledMatmulRun(k, slotShapes)(buffers, new Map());
    const want = (exe.run({ x: x.ref, y: y.ref }) as rlx.Tensor).toArray();
    expectGemmClose(buffers[k.out]!, want, absF64(x.ref.T).matmul(absF64(y.ref)).toArray(), 'float64', 7, 'compiled x.T @ y');
  });

  it('refuses what is not a plain GEMM: int32, mixed dtypes, an epilogue', () => {
    const base = { kind: 'matmul' as const, out: 2, outShape: [2, 2], fused: ['matmul' as const], aShape: [2, 2], bShape: [2, 2] };
    const load = (slot: number, dtype: 'int32' | 'float32' | 'float64') => ({ slot, dtype, chain: [] });
    const bufs: StorageArray[] = [new Float64Array(4), new Float64Array(4), new Float64Array(4)];
    const shapes = [[2, 2], [2, 2], [2, 2]];
    expect(() => matmulSpec({ ...base, outDType: 'int32', a: load(0, 'int32'), b: load(1, 'int32') }, bufs, shapes, new Map())).toThrow(/int32 @ int32 -> int32 are not supported/);
    expect(() => matmulSpec({ ...base, outDType: 'float64', a: load(0, 'float32'), b: load(1, 'float64') }, bufs, shapes, new Map())).toThrow(rlx.DTypeError);
    const epilogue = { instrs: [{ op: 'acc' as const, dtype: 'float64' as const }], loads: [] };
    expect(() => matmulSpec({ ...base, outDType: 'float64', a: load(0, 'float64'), b: load(1, 'float64'), epilogue }, bufs, shapes, new Map())).toThrow(/epilogue/);
  });
});
