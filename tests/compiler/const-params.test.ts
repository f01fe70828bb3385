// Literals as parameters of compiled graphs (issue 13): a scalar's value is an
// argument of the executable, not part of the compile-cache key, so a loop
// over distinct scalars compiles once and keeps memory flat; folding of
// all-literal expressions still gives the js scalar kernels' bits (also on
// native, whose libm could differ); complex literals generate valid code.

import { describe, expect, it } from 'vitest';
import * as v8 from 'node:v8';
import * as vm from 'node:vm';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const compiles = () => rlx.cacheStats().compiles;

describe.each(DEVICES)('literal parameters on %s', (dev) => {
  it('20k calls with distinct scalars compile once and keep the heap flat', () => {
    const x = rlx.tensor([1, 2, 3, 4]).on(dev);
    x.mul(0.3).toArray(); // warm: the one compile
    gc();
    const c0 = compiles();
    const h0 = process.memoryUsage().heapUsed;
    let bad = 0;
    for (let i = 0; i < 20000; i++) {
      const r = Math.random();
      const got = x.mul(r).toArray();
      if (got[3] !== 4 * r || got[1] !== 2 * r) bad++;
    }
    gc();
    const grown = process.memoryUsage().heapUsed - h0;
    expect(bad).toBe(0);
    expect(compiles() - c0).toBe(0);
    // Before: one executable per value (2048 kept) and one js evaluator per folded value: tens of MB.
    expect(grown).toBeLessThan(4e6);
  });

  it('a literal expression is folded with the js kernels bits, and compiles once for every value', () => {
    const x = rlx.tensor([0, 1]).on(dev);
    const xf = rlx.tensor([0, 1], { dtype: 'float32' }).on(dev);
    let c0 = -1;
    for (const r of [0.1, 0.37, -1.3, 2.75, 1e-3]) {
      const y = x.add(rlx.full([2], r).on(dev).mul(3).exp()).toArray();
      const e = Math.exp(r * 3);
      expect(Array.from(y)).toEqual([e, 1 + e]);
      const yf = xf.add(rlx.full([2], r, { dtype: 'float32' }).on(dev).mul(3).sin()).toArray();
      const ef = Math.fround(Math.sin(Math.fround(Math.fround(r) * 3)));
      expect(Array.from(yf)).toEqual([ef, Math.fround(1 + ef)]);
      if (c0 < 0) c0 = compiles();
      else expect(compiles()).toBe(c0);
    }
  });

  it('float16 literal arithmetic (folded after legalization, replayed per run) compiles once', () => {
    const x = rlx.tensor([1, 2, -3], { dtype: 'float16' }).on(dev);
    let c0 = -1;
    for (let k = 5; k < 40; k++) {
      if (k === 8) continue; // 2 is a value passes rewrite on (keyed by value: its own compile)
      const r = k / 4; // r + 1 and x (r + 1) are exact in float16
      const y = x.mul(rlx.full([], r, { dtype: 'float16' }).on(dev).add(1)).toArray();
      expect(Array.from(rlx.tensor(y, { dtype: 'float16' }).astype('float64').toArray())).toEqual([r + 1, 2 * (r + 1), -3 * (r + 1)]);
      if (c0 < 0) c0 = compiles();
      else expect(compiles()).toBe(c0);
    }
  });

  it('complex literals as parameters', () => {
    const x = rlx.tensor([1, -2]).on(dev);
    let c0 = -1;
    for (let k = 1; k < 20; k++) {
      if (k === 8 || k === 16) continue; // 1 and 2 are values passes rewrite on (keyed by value)
      const r = k / 8;
      const y = x.mul(rlx.complex(r, -3 * r)).toArray();
      expect(Array.from(y)).toEqual([r, -3 * r, -2 * r, 6 * r]);
      if (c0 < 0) c0 = compiles();
      else expect(compiles()).toBe(c0);
    }
  });

  it('a loop body closing over distinct scalars compiles once (the literal is lifted into an operand)', () => {
    const x = rlx.tensor([1, -2]).on(dev);
    let c0 = -1;
    for (let i = 0; i < 6; i++) {
      const r = 0.1 * i + 0.013;
      const got = (rlx.forLoop(0, 3, (_k: rlx.Tensor, c: rlx.PyTree) => (c as rlx.Tensor).mul(r), x) as rlx.Tensor).toArray();
      expect(Array.from(got)).toEqual([r * r * r, -2 * r * r * r]); // the carry times r, three times
      if (c0 < 0) c0 = compiles();
      else expect(compiles()).toBe(c0);
    }
  });

  it('a fold whose value is one a pass rewrites on is keyed by it: x * (2 * 0.5) is x', () => {
    const x = rlx.tensor([-0, 3]).on(dev);
    const y = x.mul(rlx.full([2], 2).on(dev).mul(0.5));
    expect(rlx.explain(y, { print: false }).kernels.flatMap((k) => k.ops)).not.toContain('mul');
    const got = y.toArray();
    expect(Object.is(got[0], -0)).toBe(true);
    // The same structure with a fold that is not 1 multiplies.
    expect(Array.from(x.mul(rlx.full([2], 2).on(dev).mul(0.75)).toArray())).toEqual([-0, 4.5]);
  });
});

// Complex literals used to be spliced into the generated JS as bare numbers,
// so a negative part under a prefix '-' (neg, conj) made '--1': SyntaxError.
describe.each(DEVICES)('complex literals in generated code on %s', (dev) => {
  it('conj of complex(1, -1) is 1 + 1i', () => {
    expect(Array.from(rlx.complex(1, -1).on(dev).conj().toArray())).toEqual([1, 1]);
  });

  it('a negated complex full', () => {
    const got = rlx.full([2], -3, { dtype: 'complex128' }).on(dev).neg().toArray();
    expect(Array.from(got)).toEqual([3, -0, 3, -0]);
    expect(Object.is(got[1], -0)).toBe(true);
    const got64 = rlx.full([1], -0.5, { dtype: 'complex64' }).on(dev).neg().toArray();
    expect(Array.from(got64)).toEqual([0.5, -0]);
  });

  it('grad of inv(a).imag().sum() for complex a matches central differences', () => {
    const re = [2, 1, 0.5, 3],
      im = [1, 0, -0.5, 0.2];
    // Closed-form 2x2 inverse in plain JS: f(a) = sum Im(inv(a)).
    const f = (r: number[], i: number[]) => {
      const mul = (a: number, b: number, c: number, d: number) => [a * c - b * d, a * d + b * c];
      const [dr, di] = ((p, q) => [p[0]! - q[0]!, p[1]! - q[1]!])(mul(r[0]!, i[0]!, r[3]!, i[3]!), mul(r[1]!, i[1]!, r[2]!, i[2]!));
      const den = dr! * dr! + di! * di!;
      // 1/det = conj(det)/|det|^2; inv = [[d, -b], [-c, a]] / det
      const entries = [[r[3]!, i[3]!], [-r[1]!, -i[1]!], [-r[2]!, -i[2]!], [r[0]!, i[0]!]];
      return entries.reduce((s, [er, ei]) => s + mul(er!, ei!, dr! / den, -di! / den)[1]!, 0);
    };
    const a = rlx.complex(rlx.tensor([[2, 1], [0.5, 3]]), rlx.tensor([[1, 0], [-0.5, 0.2]])).on(dev);
    const g = (rlx.grad((t: rlx.Tensor) => rlx.linalg.inv(t).imag().sum())(a) as rlx.Tensor).toArray();
    const h = 1e-6;
    for (let k = 0; k < 4; k++) {
      const at = (arr: number[], d: number) => arr.map((v, j) => (j === k ? v + d : v));
      const dx = (f(at(re, h), im) - f(at(re, -h), im)) / (2 * h);
      const dy = (f(re, at(im, h)) - f(re, at(im, -h))) / (2 * h);
      // JAX's convention: grad = df/dx - i df/dy.
      expect(g[2 * k]!).toBeCloseTo(dx, 8);
      expect(g[2 * k + 1]!).toBeCloseTo(-dy, 8);
    }
  });
});
