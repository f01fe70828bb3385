// ONNX elementwise operators: arithmetic and comparisons with multidirectional
// broadcasting, unary math, Where, Cast, Clip. Each folds on the host when all
// its inputs are host constants and the host has the function (shape
// arithmetic), and otherwise runs as rlx tensor ops, with host constants
// converted to the tensor operand's dtype (ONNX requires one type).

import type { Tensor } from '../../tensor/tensor.js';
import { gelu } from '../../nn/functional/activations.js';
import type { NodeCtx, OpImpl } from './registry.js';
import { ELEM, type Host, type Val, host, isHost, isIntElem, elemOfVal, roundTo, rlxDType, toTensor, elemName } from './values.js';
import { hostMap } from './host-ops.js';

/** The rlx dtype all tensor operands take: the first tensor operand's. */
function operands(vals: readonly Val[], ctx: NodeCtx, like?: Tensor): Tensor[] {
  const first = like ?? (vals.find((v) => !isHost(v)) as Tensor | undefined);
  return vals.map((v) => toTensor(v, ctx.label, first?.dtype));
}

type HostFn = (...xs: number[]) => number;

/** An arithmetic operator: `h` on the host (numbers of the output type), `t` on tensors. */
function arithmetic(h: HostFn, t: (a: Tensor, b: Tensor) => Tensor, intH?: HostFn): OpImpl {
  return (ins, ctx) => {
    const a = ctx.input(ins, 0, 'A'),
      b = ctx.input(ins, 1, 'B');
    const elem = elemOfVal(a);
    if (isHost(a) && isHost(b)) {
      const f = isIntElem(elem) && intH !== undefined ? intH : h;
      return [hostMap([a, b], (x, y) => roundTo(elem, f(x!, y!)), elem, ctx.label)];
    }
    const [x, y] = operands([a, b], ctx);
    return [t(x!, y!)];
  };
}

/** Integer division truncates toward zero on the host; on tensors it truncates the float quotient. */
const truncDiv = (a: Tensor, b: Tensor): Tensor => {
  if (a.dtype !== 'int32') return a.div(b);
  const q = a.cast('float64').div(b.cast('float64'));
  return q.abs().floor().mul(q.sign()).cast('int32');
};

/** A comparison: bool output. */
function comparison(h: (a: number, b: number) => boolean, t: (a: Tensor, b: Tensor) => Tensor): OpImpl {
  return (ins, ctx) => {
    const a = ctx.input(ins, 0, 'A'),
      b = ctx.input(ins, 1, 'B');
    if (isHost(a) && isHost(b)) return [hostMap([a, b], (x, y) => (h(x!, y!) ? 1 : 0), ELEM.BOOL, ctx.label)];
    const [x, y] = operands([a, b], ctx);
    return [t(x!, y!)];
  };
}

/** A unary operator: `h` on the host when given (else host inputs become tensors), `t` on tensors. */
function unary(t: (x: Tensor, ctx: NodeCtx) => Tensor, h?: HostFn): OpImpl {
  return (ins, ctx) => {
    const x = ctx.input(ins, 0, 'X');
    if (isHost(x) && h !== undefined) return [hostMap([x], (v) => roundTo(x.elem, h(v!)), x.elem, ctx.label)];
    return [t(toTensor(x, ctx.label), ctx)];
  };
}

/** A variadic operator (Max, Min, Sum, Mean): folded pairwise. */
function variadic(t: (a: Tensor, b: Tensor) => Tensor, h: HostFn, finish?: (x: Tensor, n: number) => Tensor): OpImpl {
  return (ins, ctx) => {
    const vals = ins.filter((v): v is Val => v !== undefined);
    if (vals.length === 0) ctx.fail('needs at least one input');
    if (vals.every(isHost) && finish === undefined) return [hostMap(vals as Host[], (...xs) => roundTo(vals[0]!.elem, xs.reduce((p, q) => h(p, q))), (vals[0] as Host).elem, ctx.label)];
    const ts = operands(vals, ctx);
    const r = ts.reduce((p, q) => t(p, q));
    return [finish ? finish(r, ts.length) : r];
  };
}

function floatOnly(x: Tensor, ctx: NodeCtx): Tensor {
  if (x.dtype === 'int32' || x.dtype === 'bool') ctx.fail(`needs a floating-point input, got ${x.dtype}`);
  return x;
}

export const ELEMENTWISE_OPS: Record<string, OpImpl> = {
  Add: arithmetic((a, b) => a + b, (a, b) => a.add(b)),
  Sub: arithmetic((a, b) => a - b, (a, b) => a.sub(b)),
  Mul: arithmetic((a, b) => a * b, (a, b) => a.mul(b)),
  Div: arithmetic((a, b) => a / b, truncDiv, (a, b) => (b === 0 ? 0 : Math.trunc(a / b))),
  Pow: (ins, ctx) => {
    // The exponent may have another type than the base (Pow(float, int64)); the output has the base's.
    const a = ctx.input(ins, 0, 'X'),
      b = ctx.input(ins, 1, 'Y');
    if (isHost(a) && isHost(b)) return [hostMap([a, b], (x, y) => roundTo(a.elem, x! ** y!), a.elem, ctx.label)];
    const x = toTensor(a, ctx.label, isHost(a) ? (rlxDType(a.elem) ?? undefined) : undefined);
    return [x.pow(toTensor(b, ctx.label, x.dtype))];
  },
  Equal: comparison((a, b) => a === b, (a, b) => a.eq(b)),
  Less: comparison((a, b) => a < b, (a, b) => a.lt(b)),
  LessOrEqual: comparison((a, b) => a <= b, (a, b) => a.le(b)),
  Greater: comparison((a, b) => a > b, (a, b) => a.gt(b)),
  GreaterOrEqual: comparison((a, b) => a >= b, (a, b) => a.ge(b)),
  And: comparison((a, b) => a !== 0 && b !== 0, (a, b) => a.logicalAnd(b)),
  Or: comparison((a, b) => a !== 0 || b !== 0, (a, b) => a.logicalOr(b)),
  Not: unary((x) => x.logicalNot(), (v) => (v === 0 ? 1 : 0)),
  Max: variadic((a, b) => a.maximum(b), Math.max),
  Min: variadic((a, b) => a.minimum(b), Math.min),
  Sum: variadic((a, b) => a.add(b), (a, b) => a + b),
  Mean: variadic((a, b) => a.add(b), (a, b) => a + b, (x, n) => x.div(n)),

  Neg: unary((x) => x.neg(), (v) => -v),
  Abs: unary((x) => x.abs(), Math.abs),
  Sign: unary((x) => x.sign(), Math.sign),
  Sqrt: unary((x) => x.sqrt(), Math.sqrt),
  Reciprocal: unary((x, ctx) => toTensor(host(ELEM.FLOAT, [], [1]), ctx.label, x.dtype).div(x)),
  Exp: unary((x) => x.exp(), Math.exp),
  Log: unary((x) => x.log(), Math.log),
  Floor: unary((x) => x.floor(), Math.floor),
  Ceil: unary((x) => x.ceil(), Math.ceil),
  Sin: unary((x) => x.sin(), Math.sin),
  Cos: unary((x) => x.cos(), Math.cos),
  Tanh: unary((x) => x.tanh(), Math.tanh),
  Erf: unary((x, ctx) => floatOnly(x, ctx).erf()),
  Sigmoid: unary((x, ctx) => floatOnly(x, ctx).sigmoid()),
  Relu: unary((x) => x.relu(), (v) => Math.max(v, 0)),
  LeakyRelu: unary((x, ctx) => {
    const alpha = ctx.float('alpha', 0.01);
    return x.where(x.ge(0), x.mul(alpha));
  }),
  Softplus: unary((x, ctx) => floatOnly(x, ctx).softplus()),
  Gelu: unary((x, ctx) => {
    const approximate = ctx.string('approximate', 'none');
    if (approximate !== 'none' && approximate !== 'tanh') ctx.fail(`approximate must be 'none' or 'tanh', got '${approximate}'`);
    return gelu(floatOnly(x, ctx), { approximate: approximate as 'none' | 'tanh' });
  }),

  Where: (ins, ctx) => {
    const c = ctx.input(ins, 0, 'condition'),
      x = ctx.input(ins, 1, 'X'),
      y = ctx.input(ins, 2, 'Y');
    if (isHost(c) && isHost(x) && isHost(y)) return [hostMap([c, x, y], (p, a, b) => (p !== 0 ? a! : b!), x.elem, ctx.label)];
    const [a, b] = operands([x, y], ctx);
    return [a!.where(toTensor(c, ctx.label, 'bool'), b!)];
  },

  Cast: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'input');
    const to = ctx.int('to');
    const dtype = rlxDType(to);
    if (dtype === undefined) return ctx.fail(`cannot cast to ${elemName(to)}`);
    if (isHost(x)) return [hostMap([x], (v) => roundTo(to, v!), to, ctx.label)];
    if (x.dtype !== 'int32' && x.dtype !== 'bool' && dtype === 'int32') {
      // ONNX (like C) truncates floats toward zero.
      return [x.abs().floor().mul(x.sign()).cast('int32')];
    }
    return [x.cast(dtype)];
  },

  Clip: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'input');
    // opset < 11: min/max attributes; later: optional inputs.
    const lo = ctx.opset < 11 ? (ctx.has('min') ? ctx.float('min', 0) : undefined) : ins[1];
    const hi = ctx.opset < 11 ? (ctx.has('max') ? ctx.float('max', 0) : undefined) : ins[2];
    const t = toTensor(x, ctx.label);
    const bound = (v: Val | number | undefined): Tensor | null => (v === undefined ? null : typeof v === 'number' ? toTensor(host(elemOfVal(x), [], [v]), ctx.label, t.dtype) : toTensor(v, ctx.label, t.dtype));
    return [t.clip(bound(lo), bound(hi))];
  },
};
