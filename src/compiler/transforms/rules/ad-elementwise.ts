// Derivatives of the elementwise primitives that act on a tangent by an
// elementwise product with the derivative (holomorphic or real-differentiable
// ops). Multiplication by a field f'(x) is its own transpose under the bilinear
// pairing <u, v> = Re(sum(u * v)) that the VJP rules use (no conjugation), so
// the JVP rule applies the map to the tangent and the VJP rule to the cotangent.
// Non-holomorphic ops (abs, sign, angle, real, imag, conj of complex values)
// have their own rules in jvp.ts / vjp.ts.

import type { Tensor } from '../../../tensor/tensor.js';
import type { RuleCtx } from '../rule-types.js';
import type { ScaledBinary, ScaledUnary } from './scaled-ops.js';

export type { ScaledBinary, ScaledUnary };
import { litLike, rsub, select } from './ad-helpers.js';

/** t ↦ f'(x) · t for one input (the same map serves as JVP and VJP). */
export type Scale = (c: RuleCtx, t: Tensor) => Tensor;

const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);
const INV_SQRT_2PI = 1 / Math.sqrt(2 * Math.PI);

/** Unary ops whose derivative is an elementwise factor: f'(z) for complex z (principal branches). */
export const UNARY_SCALE = {
  exp: ({ out }, t) => t.mul(out),
  log: ({ inputs: [x] }, t) => t.div(x!),
  log1p: ({ inputs: [x] }, t) => t.div(x!.add(1)),
  expm1: ({ out }, t) => t.mul(out.add(1)),
  // sqrt'(0) = inf, as in JAX (g * 0.5 / sqrt(x)).
  sqrt: ({ out }, t) => t.div(out.mul(2)),
  rsqrt: ({ inputs: [x], out }, t) => t.mul(out.div(x!)).mul(-0.5),
  sin: ({ inputs: [x] }, t) => t.mul(x!.cos()),
  cos: ({ inputs: [x] }, t) => t.mul(x!.sin()).neg(),
  tan: ({ out }, t) => t.mul(out.mul(out).add(1)),
  tanh: ({ out }, t) => t.mul(rsub(1, out.mul(out))),
  sinh: ({ inputs: [x] }, t) => t.mul(x!.cosh()),
  cosh: ({ inputs: [x] }, t) => t.mul(x!.sinh()),
  asin: ({ inputs: [x] }, t) => t.mul(rsub(1, x!.mul(x!)).rsqrt()),
  acos: ({ inputs: [x] }, t) => t.mul(rsub(1, x!.mul(x!)).rsqrt()).neg(),
  atan: ({ inputs: [x] }, t) => t.div(x!.mul(x!).add(1)),
  erf: ({ inputs: [x] }, t) => t.mul(x!.mul(x!).neg().exp().mul(TWO_OVER_SQRT_PI)),
  sigmoid: ({ out }, t) => t.mul(out.mul(rsub(1, out))),
  softplus: ({ inputs: [x] }, t) => t.mul(x!.sigmoid()),
  // gelu(x) = x Φ(x) (exact erf form): gelu' = Φ(x) + x φ(x), whose x φ(x) is 0 at ±∞ (not ∞·0 = NaN).
  gelu: ({ inputs: [x] }, t) => {
    const cdf = x!.mul(Math.SQRT1_2).erf().add(1).mul(0.5);
    const pdf = x!.mul(x!).mul(-0.5).exp().mul(INV_SQRT_2PI);
    return t.mul(cdf.add(select(x!.abs().lt(Infinity), x!.mul(pdf), 0)));
  },
} satisfies Record<ScaledUnary, Scale>;

/**
 * Mask of the positions where `a` is the result of maximum/minimum(a, b): 1 where
 * a alone attains it, 0.5 on ties (JAX's balanced rule), 0 elsewhere (and at NaN).
 */
function balanced(a: Tensor, b: Tensor, out: Tensor): Tensor {
  return select(a.eq(out), select(b.eq(out), litLike(a, 0.5), 1), 0);
}

/** Binary ops: [t ↦ ∂f/∂a · t, t ↦ ∂f/∂b · t]. */
export const BINARY_SCALE = {
  add: [(_c, t) => t, (_c, t) => t],
  sub: [(_c, t) => t, (_c, t) => t.neg()],
  mul: [({ inputs: [, b] }, t) => t.mul(b!), ({ inputs: [a] }, t) => t.mul(a!)],
  div: [({ inputs: [, b] }, t) => t.div(b!), ({ inputs: [, b], out }, t) => t.mul(out).div(b!).neg()],
  // ∂/∂x x^y = y x^(y-1), 0 where y == 0 (so 0^0 has derivative 0 like JAX);
  // ∂/∂y x^y = x^y log x, with log x read as 0 where x == 0 (the term is 0 · log 0).
  pow: [
    ({ inputs: [x, y] }, t) => t.mul(select(y!.eq(0), 0, y!.mul(x!.pow(y!.sub(1))))),
    ({ inputs: [x], out }, t) => t.mul(out.mul(select(x!.eq(0), 1, x!).log())),
  ],
  maximum: [({ inputs: [a, b], out }, t) => t.mul(balanced(a!, b!, out)), ({ inputs: [a, b], out }, t) => t.mul(balanced(b!, a!, out))],
  minimum: [({ inputs: [a, b], out }, t) => t.mul(balanced(a!, b!, out)), ({ inputs: [a, b], out }, t) => t.mul(balanced(b!, a!, out))],
  // atan2(a, b) = angle of (b, a): ∂/∂a = b / (a² + b²), ∂/∂b = -a / (a² + b²) (NaN at the origin, like JAX).
  atan2: [
    ({ inputs: [a, b] }, t) => t.mul(b!).div(a!.mul(a!).add(b!.mul(b!))),
    ({ inputs: [a, b] }, t) => t.mul(a!).div(a!.mul(a!).add(b!.mul(b!))).neg(),
  ],
} satisfies Record<ScaledBinary, readonly [Scale, Scale]>;
