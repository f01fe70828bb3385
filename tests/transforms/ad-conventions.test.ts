// Conventions of the JVP/VJP rules at exact points (values checked exactly or
// to a few ulp): the complex pairing (JAX's), non-smooth points and ties, casts,
// symbolic zeros, laziness, every primitive having both rules, higher-order
// derivatives, differentiating through realized intermediates, and the errors.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { TransformError } from '../../src/tensor/errors.js';
import * as P from '../../src/compiler/primitives.js';
import { JVP_RULES } from '../../src/compiler/transforms/rules/jvp.js';
import { VJP_RULES } from '../../src/compiler/transforms/rules/vjp.js';
import { ruleCtx } from '../../src/compiler/transforms/autodiff.js';
import type { AdPrimitive } from '../../src/compiler/transforms/rule-types.js';
import { DEVICES } from '../harness/devices.js';
import { vals } from './ad-harness.js';
import '../harness/allclose.js';

/** Tensor constructors pinned to `device`: every input below lives there. */
const pin = (device: string) => ({
  T: (v: rlx.NestedData, opts: rlx.TensorOptions = {}) => rlx.tensor(v, opts).on(device),
  c: (re: number, im: number) => rlx.tensor({ re, im }).on(device),
});
const g1 = (f: (x: Tensor) => Tensor, x: Tensor) => vals(rlx.grad(f)(x) as Tensor);
const close = (a: ArrayLike<number>, b: number[], rtol = 1e-14) => expect(Float64Array.from(a)).toBeAllclose(b, { rtol, atol: 1e-15 });

describe.each(DEVICES)('complex convention: transpose under Re(sum(u·v)), grad f = ∂f/∂x − i ∂f/∂y on %s', (device) => {
  const { T, c } = pin(device);
  const z = c(3, 4);
  it('grad |z|² at 3+4i is 6−8i (= 2·conj z), by abs and by z·conj(z)', () => {
    close(g1((t) => t.abs().square(), z), [6, -8]);
    close(g1((t) => t.mul(t.conj()).real(), z), [6, -8]);
  });
  it('grad of abs, real, imag, angle at 3+4i', () => {
    close(g1((t) => t.abs(), z), [0.6, -0.8]); // conj(z)/|z|
    close(g1((t) => t.real(), z), [1, 0]);
    close(g1((t) => t.imag(), z), [0, -1]); // -i
    close(g1((t) => t.angle(), z), [-0.16, -0.12]); // -i·conj(z)/|z|²  (∂/∂x = -y/r², ∂/∂y = x/r²)
  });
  it('Re of a holomorphic function: grad Re(z²) = 2z (no conjugation)', () => {
    close(g1((t) => t.mul(t).real(), z), [6, 8]);
  });
  it('vjp of mul is ct·b, of conj is conj(ct), of real(z) is complex(ct, 0), of imag(z) is −i·ct', () => {
    const a = c(1, 2),
      b = c(3, -1),
      ct = c(0.5, 2);
    const [, back] = rlx.vjp((x: Tensor, y: Tensor) => x.mul(y), a, b);
    const [ga, gb] = back(ct) as Tensor[];
    close(vals(ga!), [0.5 * 3 + 2 * 1, 0.5 * -1 + 2 * 3]); // ct·b
    close(vals(gb!), [0.5 * 1 - 2 * 2, 0.5 * 2 + 2 * 1]); // ct·a
    const [, bc] = rlx.vjp((x: Tensor) => x.conj(), a);
    close(vals((bc(ct) as Tensor[])[0]!), [0.5, -2]);
    const [, br] = rlx.vjp((x: Tensor) => x.real(), a);
    close(vals((br(T(2)) as Tensor[])[0]!), [2, 0]);
    const [, bi] = rlx.vjp((x: Tensor) => x.imag(), a);
    close(vals((bi(T(2)) as Tensor[])[0]!), [0, -2]);
  });
  it('complex sign: the true derivative of z/|z| away from 0 (tangential only), and 0 at z = 0', () => {
    // d sign(z)[t] = i·s·Im(conj(s)·t)/|z|; at z = 3+4i (s = 0.6+0.8i, |z| = 5) along t = i:
    // Im(conj(s)·i) = 0.6 → i·s·0.6/5 = (-0.8 + 0.6i)·0.12
    const [, t] = rlx.jvp((x: Tensor) => x.sign(), [z], [c(0, 1)]) as Tensor[];
    close(vals(t!), [-0.096, 0.072]);
    const [, t0] = rlx.jvp((x: Tensor) => x.sign(), [c(0, 0)], [c(1, 1)]) as Tensor[];
    expect(vals(t0!)).toEqual(Float64Array.from([0, 0]));
  });
  it('abs and angle of complex 0 have gradient 0 (not NaN)', () => {
    close(g1((t) => t.abs(), c(0, 0)), [0, 0]);
    close(g1((t) => t.angle(), c(0, 0)), [0, 0]);
  });
  it('casts: real → complex transposes to real(ct); complex → real to complex(ct, 0)', () => {
    const [, b1] = rlx.vjp((x: Tensor) => x.cast('complex128'), T(1.5));
    close(vals((b1(c(1, 2)) as Tensor[])[0]!), [1]);
    const [, b2] = rlx.vjp((x: Tensor) => x.cast('float64'), c(1, 2));
    close(vals((b2(T(2)) as Tensor[])[0]!), [2, 0]);
    const [, t] = rlx.jvp((x: Tensor) => x.cast('float64'), [c(1, 2)], [c(3, 4)]) as Tensor[];
    close(vals(t!), [3]);
  });
  it('complex(a, b) transposes to [real(ct), −imag(ct)]', () => {
    const [, back] = rlx.vjp((a: Tensor, b: Tensor) => rlx.complex(a, b), T(1), T(2));
    const [ga, gb] = back(c(5, 7)) as Tensor[];
    close(vals(ga!), [5]);
    close(vals(gb!), [-7]);
  });
});

describe.each(DEVICES)('real non-smooth points and ties (JAX conventions) on %s', (device) => {
  const { T } = pin(device);
  it("abs'(0) = 0 (sign), also at -0", () => {
    expect(g1((t) => t.abs(), T(0))).toEqual(Float64Array.from([0]));
    expect(g1((t) => t.abs(), T(-0))).toEqual(Float64Array.from([0]));
  });
  it("sqrt'(0) = inf", () => {
    expect(g1((t) => t.sqrt(), T(0))[0]).toBe(Infinity);
  });
  it('maximum/minimum ties split 0.5/0.5; relu (its own rule, like PyTorch and jax.nn.relu) has 0 at 0', () => {
    const [, back] = rlx.vjp((a: Tensor, b: Tensor) => a.maximum(b), T([1, 2, 3]), T([1, 5, 0]));
    const [ga, gb] = back(T([1, 1, 1])) as Tensor[];
    expect(vals(ga!)).toEqual(Float64Array.from([0.5, 0, 1]));
    expect(vals(gb!)).toEqual(Float64Array.from([0.5, 1, 0]));
    const [, bm] = rlx.vjp((a: Tensor, b: Tensor) => a.minimum(b), T([1, 2]), T([1, 5]));
    expect(vals((bm(T([1, 1])) as Tensor[])[0]!)).toEqual(Float64Array.from([0.5, 1]));
    expect(g1((t) => t.maximum(0).sum(), T([-1, 0, 2]))).toEqual(Float64Array.from([0, 0.5, 1]));
    expect(g1((t) => t.relu().sum(), T([-1, 0, 2]))).toEqual(Float64Array.from([0, 0, 1]));
    expect(Number.isNaN(T([NaN]).relu().item() as number)).toBe(true);
  });
  it('max/min reductions share the gradient equally among tied positions', () => {
    expect(g1((t) => t.max(), T([1, 3, 3, 2]))).toEqual(Float64Array.from([0, 0.5, 0.5, 0]));
    expect(g1((t) => t.min(1).sum(), T([[0, 0, 0], [4, 1, 2]]))).toBeAllclose([1 / 3, 1 / 3, 1 / 3, 0, 1, 0]);
    const [, t] = rlx.jvp((x: Tensor) => x.max(), [T([1, 3, 3])], [T([5, 1, 2])]) as Tensor[];
    expect(vals(t!)).toEqual(Float64Array.from([1.5]));
  });
  it('floor/ceil/round/sign have zero derivative', () => {
    for (const op of ['floor', 'ceil', 'round', 'sign'] as const) expect(g1((t) => t[op]().sum(), T([-1.5, 0.3, 2]))).toEqual(Float64Array.from([0, 0, 0]));
  });
  it('pow: ∂/∂y at x = 0 is 0 (0·log 0), ∂/∂x of x^0 is 0, ∂/∂x of x² at 0 is 0', () => {
    const [, back] = rlx.vjp((x: Tensor, y: Tensor) => x.pow(y), T([0, 0, 2]), T([2, 0, 3]));
    const [gx, gy] = back(T([1, 1, 1])) as Tensor[];
    expect(vals(gx!)).toEqual(Float64Array.from([0, 0, 12]));
    expect(vals(gy!)).toBeAllclose([0, 0, 8 * Math.log(2)], { rtol: 1e-15 });
  });
  it('where: the cotangent is masked to each branch', () => {
    const [, back] = rlx.vjp((x: Tensor, y: Tensor) => rlx.where(x.gt(0), x, y), T([1, -1]), T([5, 6]));
    const [gx, gy] = back(T([2, 3])) as Tensor[];
    expect(vals(gx!)).toEqual(Float64Array.from([2, 0]));
    expect(vals(gy!)).toEqual(Float64Array.from([0, 3]));
  });
});

describe.each(DEVICES)('dtypes on %s', (device) => {
  const { T } = pin(device);
  it('float32: tangents and cotangents keep float32; a float64 → float32 → float64 round trip casts them', () => {
    const x = T([0.5, 1.5], { dtype: 'float32' });
    const [, t] = rlx.jvp((a: Tensor) => a.exp().matmul(a.reshape([2, 1])), [x], [T([1, 0], { dtype: 'float32' })]) as Tensor[];
    expect(t!.dtype).toBe('float32');
    expect(vals(t!)).toBeAllclose([Math.exp(0.5) * 0.5 + Math.exp(0.5)], { rtol: 1e-6 });
    const g = rlx.grad((a: Tensor) => a.cast('float32').mul(3).cast('float64').sum())(T([1, 2])) as Tensor;
    expect(g.dtype).toBe('float64');
    expect(vals(g)).toEqual(Float64Array.from([3, 3]));
  });
  it('int and bool values never get tangents; their rules return null', () => {
    const x = T([1.5, -2]);
    const [, t] = rlx.jvp((a: Tensor) => a.gt(0), [x], [T([1, 1])]) as Tensor[];
    expect(t!.dtype).toBe('bool');
    expect(Array.from(vals(t!))).toEqual([0, 0]);
    // through an int32 cast: no derivative flows
    expect(g1((a) => a.cast('int32').cast('float64').mul(a).sum(), x)).toEqual(Float64Array.from([1, -2]));
  });
});

describe.each(DEVICES)('rule tables on %s', (device) => {
  const { T } = pin(device);
  // Leaves, custom/stopGradient and control flow are handled by the interpreters (rule-types.ts), and so
  // are registered calls and their parts (several outputs: autodiff.ts with each op's own rules).
  const control = ((P as Record<string, unknown>)['CONTROL_OPS'] as readonly string[] | undefined) ?? [];
  const structural = new Set<string>(['buffer', 'const', 'input', 'custom', 'stopGradient', 'registered', 'part', ...control]);
  const ops = (Object.keys(P.PRIMITIVES) as P.Primitive[]).filter((p) => !structural.has(p)) as AdPrimitive[];
  it('every primitive has a JVP and a VJP rule', () => {
    expect(ops.length).toBeGreaterThan(60);
    for (const p of ops) {
      expect(typeof JVP_RULES[p], p).toBe('function');
      expect(typeof VJP_RULES[p], p).toBe('function');
    }
  });
  it('comparisons, logical ops, argmax/argmin, floor/ceil/round: null tangents and cotangents (symbolic zeros)', () => {
    const a = T([1, 2]),
      b = T([2, 1]);
    const cases: [AdPrimitive, Tensor][] = [
      ...(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr'] as const).map((op): [AdPrimitive, Tensor] => [op, (a as unknown as Record<string, (o: Tensor) => Tensor>)[op]!(b)]),
      ['logicalNot', a.logicalNot()],
      ['argmax', a.argmax()],
      ['argmin', a.argmin()],
      ['floor', a.floor()],
      ['ceil', a.ceil()],
      ['round', a.round()],
    ];
    for (const [op, y] of cases) {
      expect(y.node.op).toBe(op);
      const ctx = ruleCtx(y.node);
      expect(JVP_RULES[op](ctx, ctx.inputs.map((x) => x)), op).toBeNull();
      expect(VJP_RULES[op](ctx, y.cast('float64')).every((g) => g === null), op).toBe(true);
    }
  });
  it('rules build lazy graphs: computing nothing until the result is read', () => {
    const f = (x: Tensor, y: Tensor) =>
      rlx.cat([x.matmul(y).cumsum(1).slice(rlx.s(rlx.rg(null, null, -2))).pad([[1, 0], [0, 2]]).max(0), x.prod(1).logsumexp().reshape([1])], 0)
        .gather([0, 1, 1], 0).scatterAdd([0], x.sum().reshape([1])).mul(x.sum().abs().sqrt()).tanh().sum();
    const x = T([[1, 2], [3, -4]]),
      y = T([[0.5, 1, 2], [-1, 2, 0.25]]);
    const before = rlx.cacheStats();
    const [, t] = rlx.jvp(f, [x, y], [rlx.onesLike(x).on(device), rlx.onesLike(y).on(device)]) as Tensor[];
    const g = rlx.grad(f, { argnums: [0, 1] })(x, y) as Tensor[];
    const after = rlx.cacheStats();
    expect(after.hits + after.misses).toBe(before.hits + before.misses);
    expect(t!.isRealized || g.some((u) => u.isRealized)).toBe(false);
    // Inputs pinned to the device: the derivative graphs run there.
    for (const u of [t!, ...g]) {
      expect(u.device).toBe(device);
      expect(rlx.explain(u, { print: false }).device).toBe(device);
    }
    // and the two agree: <grad, v> = jvp along v
    expect(vals(t!)[0]).toBeCloseTo(vals(g[0]!).reduce((p, q) => p + q) + vals(g[1]!).reduce((p, q) => p + q), 10);
  });
  it('an output that does not depend on the input has a zero tangent and a zero gradient', () => {
    const k = T([1, 2]);
    const [, t] = rlx.jvp(() => k.exp(), [T(1)], [T(1)]) as Tensor[];
    expect(vals(t!)).toEqual(Float64Array.from([0, 0]));
    expect(g1(() => k.sum(), T(3))).toEqual(Float64Array.from([0]));
  });
});

describe.each(DEVICES)('higher order on %s', (device) => {
  const { T, c } = pin(device);
  it('grad of grad: f = sin(x)·x³ → f″ = −sin(x)x³ + 6cos(x)x² + 6sin(x)x', () => {
    const f = (x: Tensor) => x.sin().mul(x.pow(3));
    const d2 = rlx.grad(rlx.grad(f) as (x: Tensor) => Tensor);
    for (const x of [-1.3, 0.4, 2.1]) {
      const want = -Math.sin(x) * x ** 3 + 6 * Math.cos(x) * x ** 2 + 6 * Math.sin(x) * x;
      close(vals(d2(T(x)) as Tensor), [want], 1e-13);
    }
  });
  it('third derivative of sin is −cos; of exp(tanh) against a closed form', () => {
    const d3 = rlx.grad(rlx.grad(rlx.grad((x: Tensor) => x.sin()) as (x: Tensor) => Tensor) as (x: Tensor) => Tensor);
    close(vals(d3(T(0.7)) as Tensor), [-Math.cos(0.7)], 1e-14);
    const x = 0.3,
      th = Math.tanh(x),
      s = 1 - th * th;
    // f = exp(tanh x): f' = f·s, f'' = f·(s² − 2·th·s)
    const want = Math.exp(th) * (s * s - 2 * th * s);
    close(vals(rlx.grad(rlx.grad((t: Tensor) => t.tanh().exp()) as (x: Tensor) => Tensor)(T(x)) as Tensor), [want], 1e-13);
  });
  it('Hessian-vector products: logsumexp (diag(p) − p pᵀ) and prod', () => {
    const xs = [0.2, -1, 0.7],
      v = [1, -2, 0.5];
    const m = Math.max(...xs);
    const e = xs.map((q) => Math.exp(q - m));
    const p = e.map((q) => q / e.reduce((a, b) => a + b));
    const pv = p.reduce((a, q, i) => a + q * v[i]!, 0);
    const hv = rlx.hvp((t: Tensor) => t.logsumexp(), [T(xs)], [T(v)]) as Tensor;
    expect(vals(hv)).toBeAllclose(p.map((q, i) => q * v[i]! - q * pv), { rtol: 1e-13, atol: 1e-15 });
    // prod(x): H_ij = prod_{k≠i,j} x_k (i ≠ j), 0 on the diagonal
    const hp = rlx.hvp((t: Tensor) => t.prod(), [T([2, 3, 5])], [T(v)]) as Tensor;
    expect(vals(hp)).toBeAllclose([5 * -2 + 3 * 0.5, 5 * 1 + 2 * 0.5, 3 * 1 + 2 * -2], { rtol: 1e-14 });
  });
  it('second derivative of a complex-input real function: Hessian of |z|⁴ along real and imaginary directions', () => {
    // f = (x² + y²)²: ∇f = 4r²(x, y) → grad = 4r²·conj(z); along t: jvp of grad
    const f = (z: Tensor) => z.abs().square().square();
    const g = rlx.grad(f) as (z: Tensor) => Tensor;
    const [, h] = rlx.jvp(g, [c(1, 2)], [c(1, 0)]) as Tensor[];
    // ∂/∂x of (4r²x, −4r²y) = (4r² + 8x², −8xy) at (1, 2): (28, −16)
    close(vals(h!), [28, -16], 1e-13);
  });
});

describe.each(DEVICES)('realized intermediates inside f (tracked history) on %s', (device) => {
  const { T } = pin(device);
  it('y = exp(x); y.toArray(); sum(y) still differentiates to exp(x)', () => {
    const xs = [0.1, -0.5, 2];
    const g = rlx.grad((x: Tensor) => {
      const y = x.exp();
      y.toArray();
      return y.sum();
    })(T(xs)) as Tensor;
    expect(vals(g)).toBeAllclose(xs.map(Math.exp), { rtol: 1e-15 });
  });
  it('a chain of realized steps, in forward and reverse mode', () => {
    const f = (x: Tensor) => {
      const y = x.mul(x).realize();
      const z = y.sin();
      z.toArray();
      return z.mul(x).sum();
    };
    const xs = [0.3, 1.1];
    const want = xs.map((x) => Math.cos(x * x) * 2 * x * x + Math.sin(x * x));
    expect(vals(rlx.grad(f)(T(xs)) as Tensor)).toBeAllclose(want, { rtol: 1e-14 });
    const [, t] = rlx.jvp(f, [T(xs)], [T([1, 1])]) as Tensor[];
    expect(vals(t!)).toBeAllclose([want[0]! + want[1]!], { rtol: 1e-14 });
  });
});

describe.each(DEVICES)('errors on %s', (device) => {
  const { T, c } = pin(device);
  it('grad of a non-scalar output', () => {
    expect(() => rlx.grad((x: Tensor) => x.exp())(T([1, 2]))).toThrow(TransformError);
  });
  it('grad of an integer output', () => {
    expect(() => rlx.grad((x: Tensor) => x.argmax())(T([1, 2]))).toThrow(TransformError);
  });
  it('grad with respect to an integer input', () => {
    expect(() => rlx.grad((x: Tensor) => x.cast('float64').sum())(T([1, 2], { dtype: 'int32' }))).toThrow(TransformError);
  });
  it('grad of a complex output', () => {
    expect(() => rlx.grad((x: Tensor) => x.sum())(c(1, 2))).toThrow(TransformError);
  });
});

describe.each(DEVICES)('symbolic shapes: jit(grad(f)) with a dynamic axis on %s', (device) => {
  const { T } = pin(device);
  // The rules see dims that are symbols here (reductions, expand, reverse cumsum
  // over a dynamic axis, slices of static axes of a dynamic tensor).
  const fs: [string, (x: Tensor) => Tensor][] = [
    ['sum/exp', (x) => x.exp().sum()],
    ['max over the dynamic axis', (x) => x.max(0).sum()],
    ['cumsum over the dynamic axis', (x) => x.cumsum(0).sin().sum()],
    ['expand along a static axis', (x) => x.reshape([x.symbolicShape[0]!, 2, 1]).broadcastTo([x.symbolicShape[0]!, 2, 3]).mul(T([1, 2, 3])).sum()],
    ['prod', (x) => x.prod(1).sum()],
    ['logsumexp', (x) => x.logsumexp(0).sum()],
    ['matmul', (x) => x.T.matmul(x).sum()],
    ['negative-step slice of a static axis', (x) => x.slice(rlx.s(rlx.ax(), rlx.rg(null, null, -1))).mul(T([1, 2])).sum()],
  ];
  for (const [name, f] of fs) {
    it(name, () => {
      const jf = rlx.jit(rlx.grad(f), { dynamicAxes: { 0: [0] }, device });
      for (const n of [3, 5]) {
        const x = rlx.arange(n * 2).reshape([n, 2]).mul(0.1).on(device);
        expect(vals(jf(x) as Tensor)).toBeAllclose(vals(rlx.grad(f)(x) as Tensor), { rtol: 1e-14, atol: 1e-14 });
      }
      expect(jf.compiles).toBe(1);
    });
  }
});
