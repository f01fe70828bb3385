// JVP rules, one per primitive (forward mode). See rule-types.ts.
//
// A rule gets the primal context and the input tangents (null = symbolic zero;
// the interpreter never calls a rule with only null tangents) and returns the
// output tangent, or null when it is known to be zero. Tangents have the dtype
// of their primal. Rules only bind graph nodes: nothing is computed here.
//
// Conventions (JAX's, see vjp.ts for the complex pairing):
// - floor/ceil/round, real sign, real angle: zero derivative (null).
// - comparisons, logical ops, argmax/argmin: outputs are bool/int32 and carry no
//   tangent; their rules return null (the interpreter does not even call them).
// - abs'(0) = sign(0) = 0; sqrt'(0) = inf; maximum/minimum ties split 0.5/0.5;
//   max/min reductions split the tangent equally among all tied positions
//   (mean of the tangents where x == max).
// - complex sign z/|z| gets its true (non-holomorphic) derivative
//   i·s·Im(conj(s)·t)/|z| with s = sign(z), and 0 at z = 0. (JAX defines
//   sign's derivative as 0 everywhere; for real inputs both agree.)

import type { Tensor } from '../../../tensor/tensor.js';
import { isComplex, isInexact } from '../../../tensor/dtype.js';
import type { AdPrimitive, JvpRule, RulePrimitive } from '../rule-types.js';
import { BINARY_SCALE, UNARY_SCALE } from './ad-elementwise.js';
import { SCALED_BINARY, SCALED_UNARY, type ScaledBinary, type ScaledUnary } from './scaled-ops.js';
import { mulI, prim, recipOrZero, select, sumAxes, zerosOf } from './ad-helpers.js';
import { prodPartials, logsumexpWeights, maxMinWeights } from './ad-reduce.js';

const none: JvpRule = () => null;

const scaled = (op: ScaledUnary): JvpRule => (c, [t]) => UNARY_SCALE[op](c, t!);

const binaryRule = (op: ScaledBinary): JvpRule => (c, [ta, tb]) => {
  const [da, db] = BINARY_SCALE[op];
  const x = ta ? da(c, ta) : null,
    y = tb ? db(c, tb) : null;
  return x && y ? x.add(y) : (x ?? y);
};

/** { op: rule(op) } for every op of a list. */
const byOp = <K extends string>(ops: readonly K[], rule: (op: K) => JvpRule): Record<K, JvpRule> =>
  Object.fromEntries(ops.map((op) => [op, rule(op)])) as Record<K, JvpRule>;

/** A linear op applied to the tangent with the primal's attrs (movement and opaque ops). */
const sameOp = (op: RulePrimitive): JvpRule => ({ attrs }, [t]) => prim(op, [t!], attrs);

const tangentOrZeros = (t: Tensor | null, like: Tensor): Tensor => t ?? zerosOf(like.dtype, like.node.shape);

/** Forward-mode rules: every primitive has one (the type makes a missing rule a compile error). */
export const JVP_RULES: { readonly [P in AdPrimitive]: JvpRule } = {
  // The unary and binary ops whose rule is a scale of the tangent (ad-elementwise.ts): one table serves
  // forward and reverse mode, so an op added there gets both rules.
  ...byOp(SCALED_UNARY, scaled),
  ...byOp(SCALED_BINARY, binaryRule),
  // ---- unary elementwise ----
  neg: (_c, [t]) => t!.neg(),
  abs: ({ inputs: [x] }, [t]) => (isComplex(x!.dtype) ? x!.sign().conj().mul(t!).real() : t!.mul(x!.sign())),
  sign: ({ inputs: [x] }, [t]) => {
    if (!isComplex(x!.dtype)) return null;
    const s = x!.sign();
    return mulI(s).mul(s.conj().mul(t!).imag().mul(recipOrZero(x!.abs())));
  },
  floor: none,
  ceil: none,
  round: none,
  real: (_c, [t]) => t!.real(),
  imag: ({ inputs: [x] }, [t]) => (isComplex(x!.dtype) ? t!.imag() : null),
  conj: (_c, [t]) => t!.conj(),
  // angle(z) = Im(log z): d angle = Im(conj(z)·dz)/|z|² (0 at z = 0); piecewise constant for real x.
  angle: ({ inputs: [x] }, [t]) => {
    if (!isComplex(x!.dtype)) return null;
    const r = x!.abs();
    return x!.conj().mul(t!).imag().mul(recipOrZero(r.mul(r)));
  },
  logicalNot: none,
  // cast: the tangent is cast like the value (complex → real keeps the real part).
  cast: ({ inputs: [x], node }, [t]) => (isInexact(x!.dtype) && isInexact(node.dtype) ? t!.cast(node.dtype) : null),

  // ---- binary elementwise ----
  eq: none,
  ne: none,
  lt: none,
  le: none,
  gt: none,
  ge: none,
  logicalAnd: none,
  logicalOr: none,
  complex: ({ inputs: [a, b] }, [ta, tb]) => prim('complex', [tangentOrZeros(ta, a!), tangentOrZeros(tb, b!)]),
  where: ({ inputs: [c] }, [, tx, ty]) => {
    if (!tx && !ty) return null;
    return select(c!, tx ?? 0, ty ?? 0);
  },

  // ---- reductions ----
  sum: sameOp('sum'),
  prod: (c, [t]) => sumAxes(t!.mul(prodPartials(c)), c.attrs['axes'] as number[]),
  max: (c, [t]) => maxMinTangent(c, t!),
  min: (c, [t]) => maxMinTangent(c, t!),
  argmax: none,
  argmin: none,
  logsumexp: (c, [t]) => sumAxes(t!.mul(logsumexpWeights(c)), c.attrs['axes'] as number[]),

  // ---- movement (linear: the same view of the tangent) ----
  reshape: sameOp('reshape'),
  permute: sameOp('permute'),
  expand: sameOp('expand'),
  slice: sameOp('slice'),

  // ---- opaque ----
  matmul: ({ inputs: [a, b] }, [ta, tb]) => {
    const x = ta ? prim('matmul', [ta, b!]) : null,
      y = tb ? prim('matmul', [a!, tb]) : null;
    return x && y ? x.add(y) : (x ?? y);
  },
  cumsum: sameOp('cumsum'),
  gather: ({ inputs: [, idx], attrs }, [t]) => (t ? prim('gather', [t, idx!], attrs) : null),
  scatterAdd: ({ inputs: [x, idx, upd], attrs }, [tx, , tu]) => {
    if (!tu) return tx;
    return prim('scatterAdd', [tangentOrZeros(tx, x!), idx!, tu], attrs);
  },
  concat: ({ inputs, attrs }, ts) => prim('concat', ts.map((t, i) => tangentOrZeros(t, inputs[i]!)), attrs),
  pad: ({ attrs }, [t]) => prim('pad', [t!], { ...attrs, value: 0 }),
};

function maxMinTangent(c: Parameters<JvpRule>[0], t: Tensor): Tensor {
  const axes = c.attrs['axes'] as number[];
  const { mask, count } = maxMinWeights(c);
  return sumAxes(t.mul(mask), axes).div(count);
}
