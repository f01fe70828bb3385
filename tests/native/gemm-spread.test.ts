// How the native GEMM spreads its products over threads (native/src/gemm_spread.h):
// every mode ('serial', 'batch', 'blas') is
// reached by the shapes below, as gemmPlan reports, and gives js matmul's
// result (the reference) for every dtype, operand layout and output order
// (row-major, column-major, packed); OpenBLAS's thread count is what it was
// afterwards; sync and async GEMMs in flight together stay right; one thread
// configured leaves every product to OpenBLAS ('blas').

import { afterAll, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { gemm, gemmAsync, gemmPlan, type GemmDType, type GemmSpec } from '../../src/backends/native/gemm.js';
import { absF64, describeNative, expectGemmClose, isComplexD, makeOperand, storageFor, type Layout } from './native-harness.js';

type COrder = 'row' | 'col' | 'packed';

interface Case {
  dtype: GemmDType;
  batch: number[];
  m: number;
  n: number;
  k: number;
  la: Layout;
  lb: Layout;
  c: COrder;
}

let seed = 7;
const caseName = (c: Case) => `${c.dtype} [${c.batch}] ${c.m}x${c.k}@${c.k}x${c.n} ${c.la}@${c.lb} c:${c.c}`;

/** The spec of one case (c filled with NaN in the requested order) and its check against js. */
function prepare(c: Case): { spec: GemmSpec; verify: () => void } {
  const A = makeOperand(c.dtype, c.batch, c.batch.map(() => false), c.m, c.k, c.la, seed++);
  const B = makeOperand(c.dtype, c.batch, c.batch.map(() => false), c.k, c.n, c.lb, seed++);
  const lanes = isComplexD(c.dtype) ? 2 : 1;
  const per = c.m * c.n;
  const batchSize = c.batch.reduce((x, y) => x * y, 1);
  // packed: every other column of a matrix twice as wide, which BLAS cannot write (gemm.cc copies it out).
  const width = c.c === 'packed' ? 2 * c.n : c.n;
  const C = new (storageFor(c.dtype))(batchSize * c.m * width * lanes).fill(NaN);
  const batchStrides = c.batch.map((_, i) => c.batch.slice(i + 1).reduce((x, y) => x * y, 1) * c.m * width);
  const mat = c.c === 'row' ? [c.n, 1] : c.c === 'col' ? [1, c.m] : [width, 2];
  const spec: GemmSpec = { dtype: c.dtype, batch: c.batch, m: c.m, n: c.n, k: c.k, a: A.spec, b: B.spec, c: { data: C, offset: 0, strides: [...batchStrides, ...mat] } };
  const verify = () => {
    const want = A.ref.matmul(B.ref).toArray() as Float32Array | Float64Array;
    const bound = absF64(A.ref).matmul(absF64(B.ref)).toArray() as Float64Array;
    // Read c back in [...batch, m, n] row-major order from its strides.
    const got = new Float64Array(batchSize * per * lanes);
    for (let t = 0; t < batchSize; t++)
      for (let i = 0; i < c.m; i++)
        for (let j = 0; j < c.n; j++) {
          let off = i * mat[0]! + j * mat[1]!;
          let rest = t;
          for (let d = c.batch.length - 1; d >= 0; d--) (off += (rest % c.batch[d]!) * batchStrides[d]!), (rest = Math.floor(rest / c.batch[d]!));
          for (let l = 0; l < lanes; l++) got[(t * per + i * c.n + j) * lanes + l] = C[off * lanes + l]!;
        }
    expectGemmClose(got, want, bound, c.dtype, c.k, caseName(c));
  };
  return { spec, verify };
}

const blasThreads = () => nativeAddon()!.blasInfo().threads as number;

describeNative('GEMM spread over threads (gemm_spread.h)', () => {
  const before = rlx.numThreads();
  afterAll(() => void rlx.setNumThreads(before));

  // [label, m, n, k, batch, mode on 2 threads]
  const SHAPES: [string, number, number, number, number[], string][] = [
    ['small: one thread', 40, 50, 60, [], 'serial'],
    ['MLP logits (128x10x256)', 128, 10, 256, [], 'serial'],
    ['mid-size: OpenBLAS threads it', 211, 45, 301, [], 'blas'],
    ['MLP forward (128x256x784)', 128, 256, 784, [], 'blas'],
    ['batch of small products', 30, 40, 50, [2, 3], 'batch'],
    ['batch of 8 mid-size products', 70, 60, 520, [8], 'batch'],
    ['batch of 3 mid-size products: too few to balance', 70, 60, 520, [3], 'blas'],
    ['large: OpenBLAS threads it', 520, 520, 520, [], 'blas'],
    ['matrix-vector: OpenBLAS gemv', 600, 1, 700, [], 'blas'],
  ];

  it.each(SHAPES)('%s: gemmPlan reports the mode; every dtype, layout and output order matches js', (_label, m, n, k, batch, mode) => {
    rlx.setNumThreads(2);
    const threads = blasThreads();
    const big = m * n * k > 2 ** 22;
    for (const dtype of ['float32', 'float64', 'complex64', 'complex128'] as const) {
      const layouts: [Layout, Layout][] = big ? [['row', 'trans']] : [['row', 'row'], ['trans', 'trans'], ['padded', 'trans'], ['trans', 'padtrans']];
      for (const [la, lb] of layouts)
        for (const c of (big ? ['row'] : ['row', 'col', 'packed']) as COrder[]) {
          const p = prepare({ dtype, batch, m, n, k, la, lb, c });
          const plan = gemmPlan(p.spec);
          // Batch dims may fold into m (a plain batch of row-major products): then it is one product.
          const wantMode = batch.length > 0 && plan.batch.length === 0 ? plan.spread : mode;
          expect(plan.spread, caseName({ dtype, batch, m, n, k, la, lb, c })).toBe(wantMode);
          expect(gemm(p.spec)).toBe(p.spec.c.data);
          p.verify();
          expect(blasThreads()).toBe(threads); // restored after a serial/batch run
        }
    }
  });

  it('the batch mode is reached when the batch cannot fold (column-major output per entry)', () => {
    rlx.setNumThreads(2);
    const p = prepare({ dtype: 'float64', batch: [4], m: 33, n: 29, k: 41, la: 'row', lb: 'trans', c: 'col' });
    expect(gemmPlan(p.spec)).toMatchObject({ spread: 'batch', batch: [4] });
    gemm(p.spec);
    p.verify();
  });

  it('one thread configured: every product is left to OpenBLAS', () => {
    rlx.setNumThreads(1);
    for (const [m, n, k, batch] of [[40, 50, 60, []], [128, 10, 256, []], [33, 29, 41, [4]]] as [number, number, number, number[]][]) {
      const p = prepare({ dtype: 'float32', batch, m, n, k, la: 'row', lb: 'row', c: batch.length ? 'col' : 'row' });
      expect(gemmPlan(p.spec).spread).toBe('blas');
      gemm(p.spec);
      p.verify();
    }
    expect(blasThreads()).toBe(1);
    rlx.setNumThreads(2);
  });

  it('sync and async GEMMs of every mode in flight together all give the right products', async () => {
    rlx.setNumThreads(2);
    const cases: Case[] = [
      { dtype: 'float32', batch: [], m: 128, n: 256, k: 784, la: 'row', lb: 'trans', c: 'row' },
      { dtype: 'float64', batch: [8], m: 70, n: 60, k: 520, la: 'trans', lb: 'row', c: 'col' },
      { dtype: 'float64', batch: [3], m: 30, n: 40, k: 50, la: 'row', lb: 'row', c: 'col' },
      { dtype: 'complex128', batch: [], m: 40, n: 50, k: 60, la: 'row', lb: 'row', c: 'row' },
    ];
    const prepared = Array.from({ length: 3 }, () => cases.map(prepare)).flat();
    const pending = prepared.map((p, i) => (i % 2 === 0 ? gemmAsync(p.spec) : Promise.resolve(gemm(p.spec))));
    await Promise.all(pending);
    prepared.forEach((p) => p.verify());
    expect(blasThreads()).toBe(2);
  });

  it('the MLP training step through the public API (serial logits and gradient GEMMs) gives the same loss as on the js device', () => {
    rlx.setNumThreads(2);
    const { nn, optim } = rlx;
    const x = rlx.tensor(Float32Array.from({ length: 128 * 784 }, (_, i) => Math.sin(i) * 0.5 + 0.5), { shape: [128, 784] });
    const y = rlx.tensor(Int32Array.from({ length: 128 }, (_, i) => (i * 7) % 10));
    const losses = (device: 'js' | 'native') => {
      let model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10));
      const dict = Object.fromEntries(Object.entries(model.stateDict()).map(([k, p], i) => [k, rlx.tensor(Float32Array.from({ length: p.size }, (_, j) => Math.cos(j * (i + 3)) * 0.05), { shape: p.shape })]));
      model.loadStateDict(dict);
      model = rlx.tree.map((t: rlx.Tensor) => t.on(device), model);
      const opt = optim.adam({ lr: 1e-3 });
      let state = opt.init(model);
      const step = rlx.jit((m: typeof model, s: typeof state, xs: rlx.Tensor, ys: rlx.Tensor) => {
        const [loss, g] = rlx.valueAndGrad((mm: typeof model) => nn.functional.crossEntropy(mm.forward(xs), ys))(m);
        const r = opt.step(m, g, s);
        return [loss, r.params, r.state] as const;
      });
      const out: number[] = [];
      for (let i = 0; i < 3; i++) {
        const [loss, m2, s2] = step(model, state, x.on(device), y.on(device));
        out.push(loss.item() as number);
        model = m2 as typeof model;
        state = s2 as typeof state;
      }
      return out;
    };
    const js = losses('js'),
      native = losses('native');
    native.forEach((l, i) => expect(Math.abs(l - js[i]!)).toBeLessThan(1e-4 * Math.abs(js[i]!)));
  });
});
