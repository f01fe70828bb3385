// The native data-movement kernels (native/src/opaque: cumsum, gather,
// scatterAdd, concat, pad) against the js kernels (src/backends/js/opaque.ts),
// storage bit for bit: every dtype (f16/bf16 as their Uint16 bits, complex
// interleaved), odd shapes, negative axes, size-0 axes, single elements, the
// thread-split path, out-of-range indices (IndexError, nothing written, the
// process lives on) and the addon's own argument checks.
//
// Values include -0, ±Infinity, NaN and int32 values near ±2^31 (wrap-around
// in cumsum / scatterAdd). Storage is compared with Object.is per scalar
// (NaN equals NaN whatever its payload; -0 differs from +0); Uint16 storage
// (float16/bfloat16 bits) and integers are compared exactly.

import { afterEach, expect, it, vi } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import type { OpaqueAddon } from '../../src/backends/native/opaque.js';
import { DTYPES, DTYPE_INFO, type DType, type StorageArray } from '../../src/tensor/dtype.js';
import { describeNative, rng } from './native-harness.js';

const addon = () => nativeAddon() as unknown as OpaqueAddon;

/** Storage for n elements of dtype d with awkward values. */
function storage(d: DType, n: number, seed: number): StorageArray {
  const next = rng(seed);
  const out = new DTYPE_INFO[d].storage(n * DTYPE_INFO[d].lanes);
  const special = [-0, Infinity, -Infinity, NaN, 1e30, -1e-30];
  for (let i = 0; i < out.length; i++) {
    const r = next();
    switch (d) {
      case 'bool': out[i] = r > 0 ? 1 : 0; break;
      case 'int32': out[i] = r > 0.8 ? 2 ** 31 - 1 - i : r < -0.8 ? -(2 ** 31) + i : Math.round(r * 1000); break;
      case 'float16':
      case 'bfloat16': out[i] = Math.floor((r + 1) * 32768) & 0x7bff; break; // finite bit patterns
      default: out[i] = r > 0.9 ? special[i % special.length]! : r * 100;
    }
  }
  return out;
}

/** Raw storage of t on device dev (realized). */
function raw(t: rlx.Tensor): StorageArray {
  t.realize();
  return t.node.data! as StorageArray;
}

function expectSameStorage(got: StorageArray, want: StorageArray, what: string): void {
  expect(got.constructor.name, what).toBe(want.constructor.name);
  expect(got.length, what).toBe(want.length);
  for (let i = 0; i < want.length; i++) {
    if (!Object.is(got[i], want[i])) throw new Error(`${what}: scalar ${i} is ${got[i]}, js gives ${want[i]}`);
  }
}

/** Runs f on 'js' and 'native' over the same inputs and compares the result's storage. */
function parity(what: string, inputs: { d: DType; shape: number[]; seed: number }[], f: (xs: rlx.Tensor[], dev: string) => rlx.Tensor): void {
  const data = inputs.map((x) => storage(x.d, x.shape.reduce((a, b) => a * b, 1), x.seed));
  const on = (dev: string) => raw(f(inputs.map((x, i) => rlx.fromStorage(data[i]!.slice(), x.shape, x.d, dev)), dev));
  expectSameStorage(on('native'), on('js'), what);
}

const SHAPES: [number[], number[]][] = [
  // shape, axes (negative included)
  [[1], [0, -1]],
  [[7], [0]],
  [[3, 5], [0, 1, -1, -2]],
  [[2, 0, 3], [0, 1, 2]],
  [[4, 1, 3], [1, -1]],
  [[2, 3, 2, 5], [0, 2, -1]],
  [[0], [0]],
];

describeNative('native data-movement kernels', () => {
  afterEach(() => {
    addon().opaqueSetThreshold(1 << 20);
    vi.restoreAllMocks();
  });

  it('run on the addon (not the js loops)', () => {
    const a = addon() as unknown as Record<string, (...args: unknown[]) => unknown>;
    const spies = ['opaqueCumsum', 'opaqueGather', 'opaqueScatterAdd', 'opaqueConcat', 'opaquePad'].map((n) => vi.spyOn(a, n));
    const x = rlx.tensor([[1, 2, 3], [4, 5, 6]]).on('native');
    expect(x.cumsum(1).tolist()).toEqual([[1, 3, 6], [4, 9, 15]]);
    expect(x.gather([2, -3], 1).tolist()).toEqual([[3, 1], [6, 4]]);
    expect(x.scatterAdd([0, 0], rlx.tensor([[10, 20], [30, 40]]).on('native'), 1).tolist()).toEqual([[31, 2, 3], [74, 5, 6]]);
    expect(rlx.cat([x, x.mul(2)], -1).tolist()).toEqual([[1, 2, 3, 2, 4, 6], [4, 5, 6, 8, 10, 12]]);
    expect(x.pad([[1, 0], [0, 1]], 9).tolist()).toEqual([[9, 9, 9, 9], [1, 2, 3, 9], [4, 5, 6, 9]]);
    for (const s of spies) expect(s).toHaveBeenCalledTimes(1);
  });

  it('cumsum: every dtype, axis and odd shape, bit for bit', () => {
    for (const d of DTYPES) {
      for (const [shape, axes] of SHAPES) {
        for (const ax of axes) parity(`cumsum ${d} [${shape}] axis ${ax}`, [{ d, shape, seed: 1 }], ([x]) => x!.cumsum(ax));
      }
      parity(`cumsum ${d} flattened`, [{ d, shape: [3, 4], seed: 2 }], ([x]) => x!.cumsum());
    }
  });

  it('cumsum accumulates at the storage precision (float32 and int32 wrap-around like js)', () => {
    const f = rlx.tensor(new Float32Array([1, 1e-8, 1e-8, 1e-8])).on('native').cumsum(0).toArray();
    expect(Array.from(f)).toEqual([1, 1, 1, 1]);
    const i = rlx.tensor(new Int32Array([2 ** 31 - 1, 1, 1])).on('native').cumsum(0).toArray();
    expect(Array.from(i)).toEqual([2 ** 31 - 1, -(2 ** 31), -(2 ** 31) + 1]);
    expect(Array.from(rlx.tensor(new Float64Array([-0, -0])).on('native').cumsum(0).toArray()).map((v) => Object.is(v, 0))).toEqual([true, true]);
  });

  it('gather: every dtype, repeated / negative / empty indices, bit for bit', () => {
    for (const d of DTYPES) {
      for (const [shape, axes] of SHAPES) {
        for (const ax of axes) {
          const n = shape[ax < 0 ? ax + shape.length : ax]!;
          const sets = n === 0 ? [[]] : [[0], [n - 1, -n, 0, -1, n - 1], []];
          for (const idx of sets) parity(`gather ${d} [${shape}] axis ${ax} [${idx}]`, [{ d, shape, seed: 3 }], ([x]) => x!.gather(idx, ax));
        }
      }
      // Indices of rank 2 (np.take) and rank 0.
      parity(`gather ${d} 2-d indices`, [{ d, shape: [3, 4], seed: 4 }], ([x], dev) => x!.gather(rlx.tensor(new Int32Array([1, -1, 0, 2, 2, -3]), { shape: [2, 3] }).on(dev), 0));
      parity(`gather ${d} scalar index`, [{ d, shape: [3, 4], seed: 5 }], ([x], dev) => x!.gather(rlx.tensor(new Int32Array([-2]), { shape: [] }).on(dev), 1));
    }
  });

  it('scatterAdd: every dtype, repeats and negative indices, bit for bit', () => {
    for (const d of DTYPES) {
      for (const [shape, axes] of SHAPES) {
        for (const ax of axes) {
          const a = ax < 0 ? ax + shape.length : ax;
          const n = shape[a]!;
          for (const idx of n === 0 ? [[]] : [[0, 0, -1], [n - 1], []]) {
            const ushape = [...shape.slice(0, a), idx.length, ...shape.slice(a + 1)];
            parity(`scatterAdd ${d} [${shape}] axis ${ax} [${idx}]`, [{ d, shape, seed: 6 }, { d, shape: ushape, seed: 7 }], ([x, u]) => x!.scatterAdd(idx, u!, ax));
          }
        }
      }
    }
    // bool: any true update makes true; int32 wraps.
    const b = rlx.tensor(new Uint8Array([0, 1, 0]), { dtype: 'bool' }).on('native').scatterAdd([0, 0, 1], rlx.tensor(new Uint8Array([1, 1, 1]), { dtype: 'bool' }).on('native'));
    expect(Array.from(b.toArray())).toEqual([1, 1, 0]);
    const i = rlx.tensor(new Int32Array([2 ** 31 - 1])).on('native').scatterAdd([0, -1], rlx.tensor(new Int32Array([1, 1])).on('native'));
    expect(Array.from(i.toArray())).toEqual([-(2 ** 31) + 1]);
  });

  it('concat: every dtype, axes, zero-width pieces, bit for bit', () => {
    for (const d of DTYPES) {
      for (const ax of [0, 1, -1, 2]) {
        const shapes = [0, 1, 2].map((k) => {
          const s = [2, 3, 4];
          s[ax < 0 ? ax + 3 : ax] = [2, 0, 3][k]!;
          return s;
        });
        parity(`concat ${d} axis ${ax}`, shapes.map((shape, k) => ({ d, shape, seed: 10 + k })), (xs) => rlx.cat(xs, ax));
      }
      parity(`concat ${d} rank 1`, [{ d, shape: [1], seed: 13 }, { d, shape: [5], seed: 14 }], (xs) => rlx.cat(xs, 0));
      parity(`stack ${d}`, [{ d, shape: [2, 3], seed: 15 }, { d, shape: [2, 3], seed: 16 }], (xs) => rlx.stack(xs, 1));
    }
  });

  it('pad: every dtype, widths and fill values, bit for bit', () => {
    const widths: [number, number][][] = [[[1, 2]], [[0, 0], [2, 1]], [[3, 0], [0, 3]], [[1, 1], [0, 2], [2, 0]]];
    for (const d of DTYPES) {
      for (const w of widths) {
        for (const value of [0, -0, 2.5, -7]) {
          const shape = [[5], [3, 4], [2, 3], [2, 0, 3]][w.length === 1 ? 0 : w.length === 3 ? 3 : w[0]![0] === 3 ? 2 : 1]!;
          parity(`pad ${d} [${shape}] ${JSON.stringify(w)} ${value}`, [{ d, shape, seed: 20 }], ([x]) => x!.pad(w, value));
        }
      }
      parity(`pad ${d} single element`, [{ d, shape: [1, 1], seed: 21 }], ([x]) => x!.pad(1, 3));
      parity(`pad ${d} empty axis`, [{ d, shape: [0, 2], seed: 22 }], ([x]) => x!.pad([[1, 1], [0, 0]], 1));
    }
  });

  it('the thread-split path (threshold 0, several threads) gives the same bits', () => {
    const before = rlx.numThreads();
    rlx.setNumThreads(4);
    try {
      for (const threshold of [0, 1 << 20]) {
        addon().opaqueSetThreshold(threshold);
        for (const d of ['float64', 'float32', 'int32', 'complex64', 'float16'] as DType[]) {
          // Long rows and few of them (column split), and many short rows (row split).
          parity(`cumsum ${d} long rows`, [{ d, shape: [2, 3000], seed: 30 }], ([x]) => x!.cumsum(0));
          parity(`cumsum ${d} many rows`, [{ d, shape: [500, 7, 3], seed: 31 }], ([x]) => x!.cumsum(1));
          parity(`gather ${d}`, [{ d, shape: [40, 300], seed: 32 }], ([x]) => x!.gather([5, -1, 5, 0, 39], 0));
          parity(`gather ${d} inner axis`, [{ d, shape: [300, 40], seed: 33 }], ([x]) => x!.gather([5, -1, 5, 0, 39], 1));
          parity(`scatterAdd ${d}`, [{ d, shape: [3, 50, 400], seed: 34 }, { d, shape: [3, 4, 400], seed: 35 }], ([x, u]) => x!.scatterAdd([1, 1, -1, 0], u!, 1));
          parity(`concat ${d}`, [{ d, shape: [300, 7], seed: 36 }, { d, shape: [300, 1000], seed: 37 }], (xs) => rlx.cat(xs, 1));
          parity(`concat ${d} axis 0`, [{ d, shape: [1, 5000], seed: 38 }, { d, shape: [2, 5000], seed: 39 }], (xs) => rlx.cat(xs, 0));
          parity(`pad ${d}`, [{ d, shape: [60, 70, 5], seed: 40 }], ([x]) => x!.pad([[2, 1], [0, 3], [4, 4]], 1.5));
          parity(`pad ${d} one long row`, [{ d, shape: [20000], seed: 41 }], ([x]) => x!.pad([3, 5000], -1));
        }
      }
    } finally {
      rlx.setNumThreads(before);
    }
  });

  it('out-of-range indices throw IndexError with the js message; the process lives on', () => {
    const x = rlx.tensor([[1, 2, 3], [4, 5, 6]]);
    for (const dev of ['js', 'native']) {
      const t = x.on(dev);
      expect(() => t.gather([0, 3], 1).toArray()).toThrow(rlx.IndexError);
      expect(() => t.gather([0, 3], 1).toArray()).toThrow('gather: index 3 is out of range for an axis of size 3');
      expect(() => t.gather([-4, 7], 1).toArray()).toThrow('gather: index -4 is out of range for an axis of size 3');
      expect(() => t.gather([2], 0).toArray()).toThrow('gather: index 2 is out of range for an axis of size 2');
      expect(() => t.scatterAdd([1, -3], rlx.ones([2, 3]).on(dev), 0).toArray()).toThrow(rlx.IndexError);
      expect(() => t.scatterAdd([1, -3], rlx.ones([2, 3]).on(dev), 0).toArray()).toThrow('scatterAdd: index -3 is out of range for an axis of size 2');
      // An empty axis has no valid index.
      expect(() => rlx.zeros([2, 0]).on(dev).gather([0], 1).toArray()).toThrow('gather: index 0 is out of range for an axis of size 0');
    }
    expect(x.on('native').gather([1], 1).tolist()).toEqual([[2], [5]]);
  });

  it('the addon writes nothing on a bad index and checks its arguments itself', () => {
    const a = addon();
    const x = new Float64Array([1, 2, 3, 4, 5, 6]);
    const out = new Float64Array(4);
    expect(a.opaqueGather(x, new Int32Array([0, 3]), out, 2, 3, 1)).toBe(1);
    expect(Array.from(out)).toEqual([0, 0, 0, 0]);
    expect(a.opaqueGather(x, new Int32Array([0, -1]), out, 2, 3, 1)).toBe(-1);
    expect(Array.from(out)).toEqual([1, 3, 4, 6]);
    const sOut = new Float64Array(6);
    expect(a.opaqueScatterAdd(x, new Int32Array([-4]), new Float64Array(2), sOut, 2, 3, 1)).toBe(0);
    expect(Array.from(sOut)).toEqual([0, 0, 0, 0, 0, 0]);

    const bad: [string, () => unknown, RegExp][] = [
      ['length', () => a.opaqueCumsum(x, new Float64Array(5), 2, 3, 1), /out has 5 scalars, expected 6/],
      ['storage', () => a.opaqueCumsum(x, new Float32Array(6), 2, 3, 1), /must be a Float64Array/],
      ['not typed', () => a.opaqueCumsum([1, 2] as unknown as Float64Array, x, 1, 2, 1), /storage TypedArray/],
      ['negative size', () => a.opaqueCumsum(x, new Float64Array(6), -2, -3, 1), /outer must be in/],
      ['fraction', () => a.opaqueCumsum(x, new Float64Array(6), 1.5, 4, 1), /outer must be an integer/],
      ['overlap', () => a.opaqueGather(x, new Int32Array([0]), x.subarray(0, 2), 2, 3, 1), /overlap/],
      ['cumsum partial overlap', () => a.opaqueCumsum(x.subarray(0, 3), x.subarray(1, 4), 1, 3, 1), /overlap/],
      ['idx type', () => a.opaqueGather(x, new Float64Array([0]) as unknown as Int32Array, out, 2, 3, 1), /Int32Array/],
      ['huge', () => a.opaqueGather(x, new Int32Array(1), out, 2 ** 40, 2 ** 40, 1), /too large/],
      ['upd length', () => a.opaqueScatterAdd(x, new Int32Array([0]), new Float64Array(3), new Float64Array(6), 2, 3, 1), /upd has 3 scalars, expected 2/],
      ['concat widths', () => a.opaqueConcat([x, x], [3], new Float64Array(12), 2), /widths must be an Array of 2/],
      ['concat length', () => a.opaqueConcat([x, x], [3, 2], new Float64Array(10), 2), /ins\[1\] has 6 scalars, expected 4/],
      ['concat empty', () => a.opaqueConcat([], [], new Float64Array(0), 2), /must not be empty/],
      ['pad fill', () => a.opaquePad(x, new Float64Array(8), [6], [1], [1], new Float64Array(3)), /fill must hold one element/],
      ['pad out', () => a.opaquePad(x, new Float64Array(7), [6], [1], [1], new Float64Array(1)), /out has 7 scalars, expected 8/],
      ['pad rank', () => a.opaquePad(x, new Float64Array(8), [6], [1, 0], [1], new Float64Array(1)), /before must have length 1/],
      ['arity', () => (a.opaquePad as unknown as () => void)(), /expected \(x, out, shape, before, after, fill\)/],
    ];
    for (const [what, f, msg] of bad) {
      let err: unknown;
      try {
        f();
      } catch (e) {
        err = e;
      }
      expect(err, what).toBeInstanceOf(Error);
      expect((err as Error).message, what).toMatch(msg);
      expect((err as Error).message, what).toMatch(/^rlx native opaque/);
    }
    // The addon still works.
    const c = new Float64Array(6);
    a.opaqueCumsum(x, c, 1, 6, 1);
    expect(Array.from(c)).toEqual([1, 3, 6, 10, 15, 21]);
  });

  it('cumsum and scatterAdd may write in place (out === x)', () => {
    const a = addon();
    const x = new Float32Array([1, 2, 3, 4]);
    a.opaqueCumsum(x, x, 1, 4, 1);
    expect(Array.from(x)).toEqual([1, 3, 6, 10]);
    const y = new Int32Array([1, 2, 3]);
    expect(a.opaqueScatterAdd(y, new Int32Array([2, 2]), new Int32Array([5, 6]), y, 1, 3, 1)).toBe(-1);
    expect(Array.from(y)).toEqual([1, 2, 14]);
  });
});
