// random.* as IR ops (issue 14 §3): keys are int32 tensors [..., 2] holding the
// bits of JAX's uint32 key words, and split/foldIn/the samplers are graph nodes,
// so they work inside jit (new key, no recompile), under vmap (a batch of keys)
// and in scan bodies. References: JAX's values (PRNGKey seeds, split, fold_in,
// uniform of key(0), from JAX's tests and docs, the same goldens as
// tests/random-bits.test.ts) and, for the plumbing (batching, dtypes, bodies),
// the host sampler of src/tensor/random-bits.ts, whose bits those goldens check,
// and plain JS loops over it.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import * as host from '../../src/tensor/random-bits.js';
import { DEVICES } from '../harness/devices.js';

const { random } = rlx;
type T = rlx.Tensor;

const arr = (t: T): number[] => Array.from(t.toArray() as ArrayLike<number>);

describe.each(DEVICES)('random IR ops on %s', (device) => {
  const key = (seed: number | bigint): T => random.key(seed).on(device);

  it("key(seed) holds JAX's PRNGKey words as int32 bits", () => {
    // JAX tests/random_test.py test_prng_seeds_and_keys (jax_enable_x64 values).
    const cases: [number | bigint, [number, number]][] = [
      [0, [0, 0]],
      [1, [0, 1]],
      [-1, [4294967295, 4294967295]],
      [-2147483648 - 100, [4294967295, 2147483548]],
      [2 ** 32 + 5, [1, 5]],
      [2n ** 64n - 1n, [4294967295, 4294967295]],
      [-(2n ** 63n), [2147483648, 0]],
    ];
    for (const [seed, want] of cases) {
      const k = key(seed);
      expect(k.dtype).toBe('int32');
      expect(k.shape).toEqual([2]);
      expect(Array.from(random.keyData(k))).toEqual(want);
      expect(arr(k)).toEqual(want.map((w) => w | 0));
    }
  });

  it("split and foldIn give JAX's keys, stacked; batched keys split key by key", () => {
    // jax.random.split(key(0), 3) (partitionable layout, JAX's default).
    const ks = random.split(key(0), 3);
    expect(ks.shape).toEqual([3, 2]);
    expect(Array.from(random.keyData(ks))).toEqual([1797259609, 2579123966, 928981903, 3453687069, 4146024105, 2718843009]);
    expect(random.split(key(0)).shape).toEqual([2, 2]);
    // jax.random.fold_in(PRNGKey(0), 4) (JAX's testPRNGValues; fold_in is the same in both layouts).
    expect(Array.from(random.keyData(random.foldIn(key(0), 4)))).toEqual([2285895361, 433833334]);
    // JAX's split/fold_in symmetry: split(key, n)[i] == fold_in(key, i).
    const k = key(1701);
    const s = random.split(k, 5);
    for (let i = 0; i < 5; i++) expect(arr(s.select(0, i))).toEqual(arr(random.foldIn(k, i)));
    // A data tensor folds in per element, broadcasting against the key's batch dims.
    const f = random.foldIn(k, rlx.tensor(new Int32Array([0, 3, -1])).on(device));
    expect(f.shape).toEqual([3, 2]);
    expect(Array.from(random.keyData(f))).toEqual([...host.foldIn(host.keyData(1701), 0), ...host.foldIn(host.keyData(1701), 3), ...host.foldIn(host.keyData(1701), 0xffffffff)]);
    // A batch of keys [3, 2] splits into [3, 4, 2], each row the split of its key.
    const batch = random.split(key(9), 3);
    const bs = random.split(batch, 4);
    expect(bs.shape).toEqual([3, 4, 2]);
    for (let b = 0; b < 3; b++) expect(arr(bs.select(0, b))).toEqual(arr(random.split(batch.select(0, b), 4)));
  });

  it("uniform(key(0)) is JAX's: the module docstring and the 3 x 3 draw", () => {
    const k = key(0);
    expect(random.uniform(k, [], { dtype: 'float32' }).item()).toBe(((0x6b200159 ^ 0x99ba4efe) >>> 9) / 2 ** 23); // 0.947667
    expect(Math.abs((random.uniform(random.split(k).select(0, 1), [], { dtype: 'float32' }).item() as number) - 0.00729382)).toBeLessThan(5e-9);
    const u = random.uniform(k, [3, 3], { dtype: 'float32' });
    expect(u.shape).toEqual([3, 3]);
    expect(arr(u)).toEqual([0.947667, 0.9785799, 0.33229148, 0.46866846, 0.5698887, 0.16550303, 0.3101946, 0.68948054, 0.74676657].map(Math.fround));
  });

  it('every sampler gives the host sampler’s bits, per dtype', () => {
    for (const seed of [0, 42, -7]) {
      const w = host.keyData(seed);
      const k = key(seed);
      expect(arr(random.uniform(k, [7]))).toEqual(Array.from(host.uniformFloat64(w, 7)));
      expect(arr(random.uniform(k, [2, 3], { dtype: 'float32', minval: -2, maxval: 3 }))).toEqual(Array.from(host.uniformFloat32(w, 6, -2, 3)));
      expect(arr(random.uniform(k, [5], { minval: 10, maxval: 11 }))).toEqual(Array.from(host.uniformFloat64(w, 5, 10, 11)));
      expect(arr(random.normal(k, [7]))).toEqual(Array.from(host.normalFloat64(w, 7)));
      expect(arr(random.normal(k, [7], { dtype: 'float32' }))).toEqual(Array.from(host.normalFloat32(w, 7)));
      expect(arr(random.randint(k, [9], -3, 40))).toEqual(Array.from(host.randint(w, 9, -3, 40)));
      expect(arr(random.bernoulli(k, 0.3, [9]))).toEqual(Array.from(host.bernoulliBits(w, 9, 0.3)));
      // Complex normals: split the key, real parts from the first half, imaginary from the second, each scaled by sqrt(1/2).
      const kk = host.splitKeyData(w, 2);
      const re = host.normalFloat64(kk.subarray(0, 2), 4),
        im = host.normalFloat64(kk.subarray(2, 4), 4);
      const z = random.normal(k, [4], { dtype: 'complex128' });
      expect(Array.from(z.toArray() as Float64Array)).toEqual(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? re[i / 2]! : im[(i - 1) / 2]!) * Math.SQRT1_2));
      // Narrow floats: the float32 draw rounded to the dtype.
      const h = random.uniform(k, [5], { dtype: 'float16' });
      expect(h.dtype).toBe('float16');
      expect(arr(h)).toEqual(arr(rlx.tensor(host.uniformFloat32(w, 5)).cast('float16')));
    }
  });

  it('a batch of keys [..., 2] leads the output: row b is the sample of key b', () => {
    const keys = random.split(key(3), 4); // [4, 2]
    const u = random.uniform(keys, [2, 3], { dtype: 'float32' });
    expect(u.shape).toEqual([4, 2, 3]);
    const ks = random.keyData(keys);
    for (let b = 0; b < 4; b++) expect(arr(u.select(0, b))).toEqual(Array.from(host.uniformFloat32(ks.subarray(2 * b, 2 * b + 2), 6)));
    // Every sampler and storage width: complex (two lanes), float16 (encoded), int32, bool.
    const grid = keys.reshape([2, 2, 2]);
    const draws: [(k: T) => T, string][] = [
      [(k) => random.normal(k, [3], { dtype: 'complex64' }), 'complex64'],
      [(k) => random.uniform(k, [3], { dtype: 'bfloat16' }), 'bfloat16'],
      [(k) => random.randint(k, [3], 0, 1000), 'int32'],
      [(k) => random.bernoulli(k, 0.5, [3]), 'bool'],
    ];
    for (const [draw, dtype] of draws) {
      const all = draw(grid);
      expect(all.shape).toEqual([2, 2, 3]);
      expect(all.dtype).toBe(dtype);
      for (let i = 0; i < 2; i++) for (let j = 0; j < 2; j++) expect(arr(all.select(0, i).select(0, j))).toEqual(arr(draw(grid.select(0, i).select(0, j))));
    }
  });

  it('jit: a new key is a new input value, not a recompile', () => {
    const f = rlx.jit((k: T) => random.normal(k, [6]).mul(2).add(random.uniform(random.foldIn(k, 1), [6])), { device });
    const outs = [11, 12, 13].map((s) => {
      const k = key(s).realize();
      const got = arr(f(k) as T);
      const w = host.keyData(s);
      const n = host.normalFloat64(w, 6),
        u = host.uniformFloat64(host.foldIn(w, 1), 6);
      expect(got).toEqual(Array.from(n, (x, i) => x * 2 + u[i]!));
      return got;
    });
    expect(outs[0]).not.toEqual(outs[1]);
    expect(f.compiles).toBe(1);
    expect(f.hits).toBe(2);
  });

  it('jit: a Monte Carlo estimate of E[U] = 1/2 within 4 standard errors, one compile for every key', () => {
    const N = 100_000;
    const est = rlx.jit((k: T) => random.uniform(k, [N]).mean(), { device });
    // E[x^2] for x ~ N(0, 1) is 1, variance 2.
    const second = rlx.jit((k: T) => random.normal(k, [N]).square().mean(), { device });
    for (const s of [1, 2, 3]) {
      const k = key(s).realize();
      expect(Math.abs(((est(k) as T).item() as number) - 0.5)).toBeLessThan(4 * Math.sqrt(1 / 12 / N));
      expect(Math.abs(((second(k) as T).item() as number) - 1)).toBeLessThan(4 * Math.sqrt(2 / N));
    }
    expect(est.compiles).toBe(1);
    expect(second.compiles).toBe(1);
  });

  it('vmap over a [B, 2] batch of keys: each row is the unbatched call with that key', () => {
    const keys = random.split(key(5), 3).realize();
    const f = (k: T) => random.normal(k, [4]).add(random.uniform(random.split(k).select(0, 1), [4], { dtype: 'float64' }));
    const batched = rlx.vmap(f)(keys) as T;
    expect(batched.shape).toEqual([3, 4]);
    for (let b = 0; b < 3; b++) expect(arr(batched.select(0, b))).toEqual(arr(f(keys.select(0, b))));
    // vmap over the second axis of a [2, B] layout, and under jit.
    const kt = keys.transpose([1, 0]);
    const jv = rlx.jit(rlx.vmap(f, { inAxes: [1] }), { device });
    expect(arr(jv(kt) as T)).toEqual(arr(batched));
    // vmap of split and foldIn with a batched data tensor.
    const data = rlx.tensor(new Int32Array([4, 5, 6])).on(device);
    const fk = rlx.vmap((k: T, d: T) => random.foldIn(k, d))(keys, data) as T;
    for (let b = 0; b < 3; b++) expect(arr(fk.select(0, b))).toEqual(arr(random.foldIn(keys.select(0, b), 4 + b)));
  });

  it('scan: carry a key, split it each step, draw a sample: equals the loop', () => {
    const steps = 5;
    const body = (c: unknown): [T, T] => {
      const ks = random.split(c as T);
      return [ks.select(0, 0), random.uniform(ks.select(0, 1), [3], { dtype: 'float32' })];
    };
    const [kT, ys] = rlx.scan((c) => body(c), key(77), null, { length: steps }) as [T, T];
    expect(ys.shape).toEqual([steps, 3]);
    // The same steps in plain JS on the host functions.
    let w = host.keyData(77);
    const want: number[] = [];
    for (let i = 0; i < steps; i++) {
      const s = host.splitKeyData(w, 2);
      want.push(...host.uniformFloat32(s.subarray(2, 4), 3));
      w = s.slice(0, 2);
    }
    expect(arr(ys)).toEqual(want);
    expect(Array.from(random.keyData(kT))).toEqual(Array.from(w));
    // The same scan under jit compiles once for every key.
    const run = rlx.jit((k0: T) => (rlx.scan((c) => body(c), k0, null, { length: steps }) as [T, T])[1], { device });
    expect(arr(run(key(77).realize()) as T)).toEqual(want);
    expect(arr(run(key(78).realize()) as T)).not.toEqual(want);
    expect(run.compiles).toBe(1);
  });

  it('a sample is a constant for differentiation: d/dx (x * n) = n, and keys carry no tangent', () => {
    const k = key(21);
    const n = random.normal(k, [3]);
    const g = rlx.grad((x: T) => x.mul(random.normal(k, [3])).sum())(rlx.tensor([1, 2, 3]).on(device)) as T;
    expect(arr(g)).toEqual(arr(n));
    // Dropout-style: the mask is a constant, so the gradient is the mask scaled.
    const mask = random.bernoulli(k, 0.5, [3]);
    const gd = rlx.grad((x: T) => rlx.where(random.bernoulli(k, 0.5, [3]), x.mul(2), 0).sum())(rlx.tensor([1, 2, 3]).on(device)) as T;
    expect(arr(gd)).toEqual(arr(mask).map((m) => (m ? 2 : 0)));
    // Dropout in a compiled training step: one compile, the mask follows the key.
    const step = rlx.jit((w: T, kk: T) => rlx.grad((ww: T) => rlx.where(random.bernoulli(kk, 0.5, [8]), ww.mul(2), 0).square().sum())(w), { device });
    const w = rlx.tensor([1, 2, 3, 4, 5, 6, 7, 8]).on(device).realize();
    for (const s of [1, 2]) {
      const m = host.bernoulliBits(host.keyData(s), 8, 0.5);
      expect(arr(step(w, key(s).realize()) as T)).toEqual(Array.from(m, (b, i) => b * 8 * (i + 1)));
    }
    expect(step.compiles).toBe(1);
    const [, t] = rlx.jvp((x: T) => x.mul(random.uniform(k, [3])), [rlx.tensor([1, 1, 1]).on(device)], [rlx.tensor([1, 0, 0]).on(device)]) as [T, T];
    expect(arr(t)).toEqual([arr(random.uniform(k, [3]))[0], 0, 0]);
  });
});

describe('random: typed errors naming the op', () => {
  const k = random.key(0);
  it('keys of the wrong dtype, shape or kind', () => {
    expect(() => random.uniform(rlx.tensor([0, 0]), [2])).toThrow(rlx.DTypeError);
    expect(() => random.uniform(rlx.tensor([0, 0]), [2])).toThrow(/random\.uniform: key must be an int32 tensor of shape \[\.\.\., 2\].*got float64 tensor of shape \[2\]/);
    expect(() => random.normal(rlx.tensor(new Int32Array([1, 2, 3])), [2])).toThrow(rlx.ShapeError);
    expect(() => random.split(rlx.tensor(new Int32Array([1, 2, 3]))) ).toThrow(/random\.split: key must .* got int32 tensor of shape \[3\]/);
    expect(() => random.foldIn(rlx.tensor(3, { dtype: 'int32' }), 1)).toThrow(rlx.ShapeError);
    expect(() => random.randint(new Uint32Array([0, 0]) as unknown as T, [2], 0, 3)).toThrow(rlx.ValueError);
    expect(() => random.keyData(rlx.tensor([1.5, 2]))).toThrow(/random\.keyData/);
  });
  it('bad counts, seeds, shapes, dtypes and parameters', () => {
    expect(() => random.key(1.5)).toThrow(rlx.ValueError);
    expect(() => random.key(2 ** 64)).toThrow(/random\.key: seed/);
    expect(() => random.split(k, 0)).toThrow(rlx.ValueError);
    expect(() => random.foldIn(k, 2 ** 32)).toThrow(rlx.ValueError);
    expect(() => random.foldIn(k, rlx.tensor([1.5]))).toThrow(rlx.DTypeError);
    expect(() => random.uniform(k, [-1])).toThrow(rlx.ShapeError);
    expect(() => random.uniform(k, [2], { dtype: 'int32' })).toThrow(/random\.uniform: dtype must be floating, got int32/);
    expect(() => random.normal(k, [2], { dtype: 'bool' })).toThrow(rlx.DTypeError);
    // Parameters are checked when the op is bound, as typed errors (the host functions throw RangeError).
    expect(() => random.uniform(k, [2], { minval: 1, maxval: 0 })).toThrow(rlx.ValueError);
    expect(() => random.uniform(k, [2], { dtype: 'float32', minval: 0, maxval: 1e-46 })).toThrow(/random\.uniform: need finite minval < maxval/);
    expect(() => random.uniform(k, [2], { minval: rlx.tensor(0) as unknown as number })).toThrow(/random\.uniform: minval must be a number/);
    expect(() => random.randint(k, [2], 3, 3)).toThrow(rlx.ValueError);
    expect(() => random.randint(k, [2], 0.5, 3)).toThrow(/random\.randint: need integers/);
    expect(() => random.bernoulli(k, 1.5)).toThrow(/random\.bernoulli: p must be a probability/);
    expect(() => random.bernoulli(k, Number.NaN)).toThrow(rlx.ValueError);
  });
});
