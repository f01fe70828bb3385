// Fused kernels from the real compiler on the interpreter vs the js backend:
// random graphs (elementwise chains, broadcasting, transposed / sliced /
// stepped / flipped / broadcast views, casts, where, reductions with prologues
// and epilogues), reductions over every axis subset, argmax/argmin with ties
// and NaN, float16/bfloat16 storage, sizes spanning many blocks, threads,
// dynamic dims.
//
// The 'interp' test device is the js backend with every elementwise and reduce
// kernel running on the interpreter, so both sides run the same kernels.
//
// Tolerances: graphs built from exactly-rounded operations (arithmetic,
// comparisons, where, casts, sqrt, abs, floor/ceil/round, reductions: the
// interpreter accumulates in the js order, in double) must match bit for bit,
// float32 included (both round per op). Graphs with libm functions (exp, sin,
// ...) use continuous ops only and must agree to 1e-9 of the largest output
// magnitude, with NaN in the same places: the libms differ by an ulp or two
// per call (see interp-ops.test.ts) and a chain of such calls adds them up.

import { afterAll, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { type DType, isComplex } from '../../src/tensor/dtype.js';
import { describeInterp, EXACT, expectMatch, rng, useInterpDevice } from './interp-harness.js';

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

const DTYPES_IN: DType[] = ['float64', 'float64', 'float32', 'int32', 'bool', 'complex128', 'complex64', 'float16', 'bfloat16'];
const VIEWS = ['plain', 'plain', 'T', 'step', 'flip', 'bcast', 'offset'] as const;
type View = (typeof VIEWS)[number];

const EXACT_UNARY = ['neg', 'abs', 'sign', 'floor', 'ceil', 'round', 'sqrt', 'real', 'imag', 'conj', 'logicalNot', 'square', 'relu'] as const;
const EXACT_BINARY = ['add', 'sub', 'mul', 'div', 'maximum', 'minimum', 'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr'] as const;
const SMOOTH_UNARY = ['neg', 'abs', 'exp', 'log1p', 'expm1', 'sin', 'cos', 'tanh', 'atan', 'sigmoid', 'softplus', 'gelu', 'erf', 'sqrt', 'square', 'conj'] as const;
const SMOOTH_BINARY = ['add', 'sub', 'mul'] as const;
const REDUCE = ['sum', 'prod', 'max', 'min', 'argmax', 'argmin', 'mean', 'var'] as const;

type Step =
  | { k: 'input'; dtype: DType; shape: number[]; view: View; data: number[] }
  | { k: 'unary'; op: string; a: number }
  | { k: 'binary'; op: string; a: number; b: number }
  | { k: 'scalar'; op: string; a: number; v: number }
  | { k: 'where'; c: number; a: number; b: number }
  | { k: 'cast'; a: number; dtype: DType }
  | { k: 'reduce'; op: string; a: number; axes: number[] | undefined; keepdims: boolean };

function values(r: Rand, dtype: DType, n: number, specials: boolean): number[] {
  const lanes = isComplex(dtype) ? 2 : 1;
  const out: number[] = [];
  for (let i = 0; i < n * lanes; i++) {
    if (dtype === 'bool') out.push(r() < 0.5 ? 0 : 1);
    else if (dtype === 'int32') out.push(Math.floor(r() * 11) - 5);
    else if (specials && r() < 0.04) out.push(pick(r, [NaN, Infinity, -Infinity, -0, 0]));
    else out.push(r() < 0.2 ? Math.round(r() * 8 - 4) : (r() * 6 - 3) * (r() < 0.1 ? 1e3 : 1));
  }
  return out;
}

/** Storage for values: f16/bf16 data is given as float64 and cast (so the input tensor is a cast node, realized first). */
function makeInput(s: Extract<Step, { k: 'input' }>, device: string): rlx.Tensor {
  const shape = s.shape;
  const store: DType = s.dtype === 'float16' || s.dtype === 'bfloat16' ? 'float32' : s.dtype;
  const baseShape = (() => {
    switch (s.view) {
      case 'T': return [...shape].reverse();
      case 'step': return shape.length ? [...shape.slice(0, -1), 2 * shape[shape.length - 1]!] : shape;
      case 'offset': return shape.length ? [shape[0]! + 1, ...shape.slice(1)] : shape;
      case 'bcast': return shape.map((d, i) => (i % 2 === 0 ? 1 : d));
      default: return shape;
    }
  })();
  const n = baseShape.reduce((a, b) => a * b, 1);
  const lanes = isComplex(store) ? 2 : 1;
  const data = s.data.slice(0, n * lanes);
  while (data.length < n * lanes) data.push(0);
  const ctor = store === 'float64' || store === 'complex128' ? Float64Array : store === 'float32' || store === 'complex64' ? Float32Array : store === 'int32' ? Int32Array : Uint8Array;
  let t = rlx.fromStorage(ctor.from(data), baseShape, store, device);
  if (store !== s.dtype) t = t.cast(s.dtype).realize();
  const whole = shape.map(() => rlx.ax());
  switch (s.view) {
    case 'T': return t.transpose();
    case 'step': return shape.length ? t.slice(rlx.s(...whole.slice(1), rlx.rg(0, 2 * shape[shape.length - 1]!, 2))) : t;
    case 'offset': return shape.length ? t.slice(rlx.s(rlx.rg(1, shape[0]! + 1))) : t;
    case 'flip': return shape.length ? t.flip(0) : t;
    case 'bcast': return t.broadcastTo(shape);
    default: return t;
  }
}

function apply(step: Step, vals: rlx.Tensor[], device: string): rlx.Tensor {
  const T = (i: number) => vals[i]!;
  const call = (t: rlx.Tensor, op: string, ...a: unknown[]) => (t as unknown as Record<string, (...x: unknown[]) => rlx.Tensor>)[op]!(...a);
  switch (step.k) {
    case 'input': return makeInput(step, device);
    case 'unary': return call(T(step.a), step.op);
    case 'binary': return call(T(step.a), step.op, T(step.b));
    case 'scalar': return call(T(step.a), step.op, step.v);
    case 'where': return rlx.where(T(step.c), T(step.a), T(step.b));
    case 'cast': return T(step.a).cast(step.dtype);
    case 'reduce':
      if (step.op === 'argmax' || step.op === 'argmin') return call(T(step.a), step.op, step.axes?.[0], step.keepdims);
      return call(T(step.a), step.op, step.axes, step.keepdims);
  }
}

function evaluate(steps: Step[], device: string): rlx.Tensor {
  const vals: rlx.Tensor[] = [];
  for (const s of steps) vals.push(apply(s, vals, device));
  return vals[vals.length - 1]!;
}

/** A random graph built against js tensors (ops that do not bind for the dtypes/shapes at hand are redrawn). */
function randomGraph(seed: number, exact: boolean): Step[] {
  const r = rng(seed);
  const rank = Math.floor(r() * 5);
  const big = r() < 0.25;
  const target = Array.from({ length: rank }, (_, i) => (big && i === rank - 1 ? 300 + Math.floor(r() * 40) : pick(r, [1, 2, 3, 4, 5, 7])));
  const steps: Step[] = [];
  const vals: rlx.Tensor[] = [];
  const push = (s: Step): boolean => {
    try {
      vals.push(apply(s, vals, 'js'));
      steps.push(s);
      return true;
    } catch {
      return false;
    }
  };
  const nInputs = 2 + Math.floor(r() * 3);
  for (let i = 0; i < nInputs; i++) {
    const dtype = exact ? pick(r, DTYPES_IN) : pick(r, ['float64', 'float64', 'float32', 'complex128'] as DType[]);
    const drop = Math.floor(r() * (rank + 1) * 0.5);
    const shape = target.slice(drop).map((d) => (r() < 0.25 ? 1 : d));
    const n = Math.max(1, shape.reduce((a, b) => a * b, 1)) * 2 + 8;
    push({ k: 'input', dtype, shape, view: pick(r, VIEWS), data: values(r, dtype, n, exact) });
  }
  const nOps = 3 + Math.floor(r() * 8);
  let reduced = false;
  for (let i = 0, tries = 0; i < nOps && tries < 200; tries++) {
    const a = Math.floor(r() * vals.length),
      b = Math.floor(r() * vals.length);
    const u = r();
    let s: Step;
    if (u < 0.3) s = { k: 'unary', op: pick(r, exact ? EXACT_UNARY : SMOOTH_UNARY), a };
    else if (u < 0.6) s = { k: 'binary', op: pick(r, exact ? EXACT_BINARY : SMOOTH_BINARY), a, b };
    else if (u < 0.7) s = { k: 'scalar', op: pick(r, exact ? ['add', 'mul', 'sub', 'maximum', 'div'] : ['add', 'mul']), a, v: pick(r, [2, -1, 0.5, 3, 0.1]) };
    else if (u < 0.78 && exact) s = { k: 'where', c: Math.floor(r() * vals.length), a, b };
    else if (u < 0.86 && exact) s = { k: 'cast', a, dtype: pick(r, ['float64', 'float32', 'int32', 'bool', 'complex128', 'float16', 'bfloat16'] as DType[]) };
    else if (!reduced || r() < 0.3) {
      const rk = vals[a]!.shape.length;
      const axes = [...Array(rk).keys()].filter(() => r() < 0.5);
      const op = pick(r, exact ? REDUCE : (['sum', 'mean', 'max'] as const));
      s = { k: 'reduce', op, a, axes: axes.length && r() < 0.85 ? (op.startsWith('arg') ? [axes[0]!] : axes) : undefined, keepdims: r() < 0.4 };
    } else continue;
    if (s.k === 'where' && vals[s.c]!.dtype !== 'bool') continue;
    if (push(s)) {
      i++;
      if (s.k === 'reduce') reduced = true;
    }
  }
  return steps;
}

/** |got - want| <= tol * max|want| elementwise, NaN in the same places (complex: both parts). */
function expectNormwise(got: ArrayLike<number>, want: ArrayLike<number>, tol: number, what: string): void {
  expect(got.length, what).toBe(want.length);
  let scale = 0;
  for (let i = 0; i < want.length; i++) if (Number.isFinite(want[i]!)) scale = Math.max(scale, Math.abs(want[i]!));
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!,
      w = want[i]!;
    if (Object.is(g, w) || (g !== g && w !== w)) continue;
    if (!Number.isFinite(g) || !Number.isFinite(w) || Math.abs(g - w) > tol * scale) expect.fail(`${what}: [${i}] got ${g} want ${w} (scale ${scale})`);
  }
}

const stats = { exact: 0, smooth: 0, skipped: 0, kernels: 0 };
afterAll(() => {
  if (process.env['RLX_INTERP_REPORT'] === '1') console.log(`random graphs: ${stats.exact} exact, ${stats.smooth} libm, ${stats.skipped} skipped (js could not run them), ${stats.kernels} kernels`);
});

describeInterp('interpreter on compiled graphs vs the js backend', (addon) => {
  const dev = useInterpDevice(addon);

  /** Runs the same steps on both devices; returns false when js itself rejects the graph. */
  function compare(steps: Step[], exact: boolean, what: string): boolean {
    let want: ArrayLike<number>, wantT: rlx.Tensor;
    try {
      wantT = evaluate(steps, 'js');
      want = wantT.toArray();
    } catch {
      stats.skipped++;
      return false;
    }
    const gotT = evaluate(steps, dev);
    stats.kernels += rlx.explain(gotT, { print: false }).kernels.length;
    const got = gotT.toArray();
    expect(gotT.dtype, what).toBe(wantT.dtype);
    expect(gotT.shape, what).toEqual(wantT.shape);
    if (exact) expectMatch(got, want, EXACT, what, isComplex(wantT.dtype));
    else expectNormwise(got, want, 1e-9, what);
    return true;
  }

  it('random graphs of exactly-rounded ops match bit for bit (every dtype, views, casts, where, reductions)', () => {
    let ran = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const steps = randomGraph(seed, true);
      if (compare(steps, true, `exact graph seed ${seed}: ${JSON.stringify(steps.map((s) => (s.k === 'input' ? { ...s, data: `${s.data.length} values` } : s)))}`)) ran++;
    }
    stats.exact += ran;
    expect(ran).toBeGreaterThan(300);
  });

  it('random graphs with libm functions agree to 1e-9 normwise', () => {
    let ran = 0;
    for (let seed = 1001; seed <= 1200; seed++) {
      const steps = randomGraph(seed, false);
      if (compare(steps, false, `libm graph seed ${seed}: ${JSON.stringify(steps.map((s) => (s.k === 'input' ? { ...s, data: `${s.data.length} values` } : s)))}`)) ran++;
    }
    stats.smooth += ran;
    expect(ran).toBeGreaterThan(150);
  });

  it('reductions over every axis subset, with prologue and epilogue, on strided inputs', () => {
    const r = rng(77);
    for (const shape of [[3, 4, 5], [2, 260, 3], [1, 6, 1]]) {
      for (const dtype of ['float64', 'float32', 'int32', 'complex128', 'complex64'] as DType[]) {
        const n = shape.reduce((a, b) => a * b, 1);
        const xs = values(r, dtype, n, false),
          ys = values(r, dtype, n, false);
        for (let mask = 1; mask < 1 << shape.length; mask++) {
          const axes = [...shape.keys()].filter((i) => mask & (1 << i));
          for (const op of ['sum', 'prod', 'max', 'min', 'mean'] as const) {
            if (isComplex(dtype) && (op === 'max' || op === 'min')) continue;
            const build = (device: string) => {
              const x = makeInput({ k: 'input', dtype, shape, view: 'T', data: xs }, device);
              const y = makeInput({ k: 'input', dtype, shape, view: 'plain', data: ys }, device);
              const red = (x.mul(y).add(1) as unknown as Record<string, (a: number[], k: boolean) => rlx.Tensor>)[op]!(axes, mask % 2 === 0);
              return op === 'prod' ? red : red.mul(2).sub(1).abs();
            };
            const want = build('js'),
              got = build(dev);
            expectMatch(got.toArray(), want.toArray(), EXACT, `${op} over [${axes}] of ${dtype}[${shape}]`, isComplex(got.dtype));
          }
        }
      }
    }
  });

  it('argmax / argmin: first occurrence, NaN wins (first NaN), over each axis and all', () => {
    const data = [1, 3, 3, NaN, 2, NaN, -1, -1, 0, 5, 5, -Infinity, Infinity, 2, 2, 0, NaN, 1, 4, 4, 4, -2, -2, 7];
    for (const op of ['argmax', 'argmin'] as const)
      for (const axis of [undefined, 0, 1, 2]) {
        const build = (device: string) => (rlx.tensor(Float64Array.from(data), { device }).reshape([2, 3, 4]) as unknown as Record<string, (a?: number) => rlx.Tensor>)[op]!(axis);
        expectMatch(build(dev).toArray(), build('js').toArray(), EXACT, `${op} axis ${axis}`);
      }
  });

  it('max/min/argmax/argmin on long rows: ±0 order, NaN in a later block, ties across blocks', () => {
    const row = 700; // spans several blocks of 256
    const rows: number[][] = [
      Array.from({ length: row }, (_, i) => (i === 5 ? -0 : i === 400 ? 0 : -1 - (i % 3))), // max is -0 (first), then 0
      Array.from({ length: row }, (_, i) => (i === 5 ? 0 : i === 400 ? -0 : -1)), // max is +0
      ...[[5, 6], [6, 5], [4, 6], [7, 4], [300, 301]].map(([nz, pz]) => Array.from({ length: row }, (_, i) => (i === nz ? -0 : i === pz ? 0 : -2))), // both zeros in one block
      Array.from({ length: row }, (_, i) => (i === 300 ? NaN : i === 600 ? NaN : Math.sin(i))), // NaN in the second block
      Array.from({ length: row }, (_, i) => (i % 250 === 7 ? 3 : i % 5)), // ties at 7, 257, 507
      Array.from({ length: row }, (_, i) => (i === 699 ? Infinity : i === 698 ? -Infinity : 0.5 * Math.cos(i))),
      Array.from({ length: row }, (_, i) => (i < 256 ? 1 : i === 256 ? 2 : 2)),
    ];
    const neg = rows.map((r) => r.map((v) => -v));
    const data = Float64Array.from([...rows, ...neg].flat());
    for (const op of ['max', 'min', 'argmax', 'argmin'] as const)
      for (const d of ['float64', 'float32', 'int32'] as DType[]) {
        const build = (device: string) => (rlx.tensor(data, { device }).reshape([rows.length * 2, row]).cast(d) as unknown as Record<string, (a: number) => rlx.Tensor>)[op]!(1);
        expectMatch(build(dev).toArray(), build('js').toArray(), EXACT, `${op} over rows of ${d}`);
      }
  });

  it('empty tensors and empty reductions (sum 0, prod 1)', () => {
    for (const op of ['sum', 'prod'] as const) {
      const build = (device: string) => (rlx.zeros([3, 0], { device }) as unknown as Record<string, (a: number) => rlx.Tensor>)[op]!(1);
      expectMatch(build(dev).toArray(), build('js').toArray(), EXACT, `${op} over an empty axis`);
    }
    const e = (device: string) => rlx.zeros([0, 4], { device }).add(1).sum(0);
    expectMatch(e(dev).toArray(), e('js').toArray(), EXACT, 'sum over an empty axis of a fused expression');
    expect(rlx.zeros([0, 3], { device: dev }).exp().toArray()).toHaveLength(0);
  });

  it('float16 and bfloat16 storage: rewritten ops load, compute in float32, store encoded', () => {
    const r = rng(5);
    for (const dtype of ['float16', 'bfloat16'] as DType[]) {
      const xs = values(r, 'float64', 200, true),
        ys = values(r, 'float64', 200, true);
      const build = (device: string) => {
        const x = rlx.tensor(Float64Array.from(xs), { device }).cast(dtype);
        const y = rlx.tensor(Float64Array.from(ys), { device }).cast(dtype);
        return rlx.where(x.gt(y), x.mul(y).add(0.1), y.sqrt()).sum(0, true).add(x.reshape([200]));
      };
      expectMatch(build(dev).toArray(), build('js').toArray(), EXACT, `${dtype} graph`);
    }
  });

  it('threads: a large kernel gives the same bits on 1, 2 and 4 threads (forced below the work threshold)', () => {
    const n = 300_006;
    const r = rng(9);
    const a = Float64Array.from({ length: n }, () => r() * 4 - 2),
      b = Float32Array.from({ length: n }, () => r() * 4 - 2);
    const build = (device: string) => {
      const x = rlx.tensor(a, { device }),
        y = rlx.tensor(b, { device });
      const e = x.mul(x).add(y.cast('float64').mul(y.cast('float64'))).sqrt().mul(x.sin()).add(1);
      return [e, e.reshape([50_001, 6]).sum(1), x.reshape([6, 50_001]).max(0)];
    };
    const want = build('js').map((t) => t.toArray());
    const threads0 = addon.interpGetThreads(),
      thr0 = addon.interpGetThreshold();
    try {
      addon.interpSetThreshold(0);
      for (const t of [1, 2, 4]) {
        expect(addon.interpSetThreads(t)).toBe(t);
        const got = build(dev).map((x) => x.toArray());
        got.forEach((g, i) => expectMatch(g, want[i]!, i === 0 ? { rtol: 2 ** -50, atol: 2 ** -51 } : i === 1 ? { rtol: 1e-14, atol: 1e-14 } : EXACT, `threads ${t}, output ${i}`));
        // Across thread counts: bit-identical.
        const again = build(dev).map((x) => x.toArray());
        again.forEach((g, i) => expectMatch(g, got[i]!, EXACT, `threads ${t}, rerun ${i}`));
      }
    } finally {
      addon.interpSetThreads(threads0);
      addon.interpSetThreshold(thr0);
    }
  });

  it('dynamic dims: one compiled kernel, the loop re-resolved per binding', () => {
    const f = rlx.jit((x: rlx.Tensor) => x.mul(2).add(x.sum(0, true)).max(1), { dynamicAxes: { 0: [0] }, device: dev });
    for (const n of [1, 5, 9, 700]) {
      const x = rlx.tensor(Float64Array.from({ length: n * 3 }, (_, i) => Math.sin(i)), { device: dev }).reshape([n, 3]);
      const want = x.on('js').mul(2).add(x.on('js').sum(0, true)).max(1);
      expectMatch((f(x) as rlx.Tensor).toArray(), want.toArray(), EXACT, `n = ${n}`);
    }
    expect(f.compiles).toBe(1);
  });
});
