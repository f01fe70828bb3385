// ONNX operators of dense networks: MatMul, Gemm, Softmax/LogSoftmax,
// LayerNormalization, and the Reduce* family, as rlx tensor ops (host
// constants among their inputs become tensors of the data's dtype).

import type { Tensor } from '../../tensor/tensor.js';
import { softmax, logSoftmax } from '../../nn/functional/activations.js';
import type { NodeCtx, OpImpl } from './registry.js';
import { type Val, isHost, shapeOf, sizeOf, toTensor } from './values.js';

/** Both operands as tensors of one dtype (the first tensor's). */
function pair(a: Val, b: Val, ctx: NodeCtx): [Tensor, Tensor] {
  const like = !isHost(a) ? a.dtype : !isHost(b) ? b.dtype : undefined;
  return [toTensor(a, ctx.label, like), toTensor(b, ctx.label, like)];
}

/** Softmax-like ops: from opset 13 along `axis` (default -1); before, over the input flattened to 2-D at `axis` (default 1). */
function softmaxLike(f: (x: Tensor, axis: number) => Tensor): OpImpl {
  return (ins, ctx) => {
    const x = toTensor(ctx.input(ins, 0, 'input'), ctx.label);
    const shape = shapeOf(x, ctx.label);
    if (ctx.opset >= 13) return [f(x, ctx.axis(ctx.int('axis', -1), shape.length))];
    const a = ctx.axis(ctx.int('axis', 1), shape.length);
    return [f(x.reshape([sizeOf(shape.slice(0, a)), sizeOf(shape.slice(a))]), 1).reshape(shape)];
  };
}

/** A Reduce* op; `axesInputSince` is the opset from which axes come as an input instead of an attribute. */
function reduction(f: (x: Tensor, axes: number[], keepdims: boolean) => Tensor, axesInputSince: number): OpImpl {
  return (ins, ctx) => {
    const x = toTensor(ctx.input(ins, 0, 'data'), ctx.label);
    const r = shapeOf(x, ctx.label).length;
    const given = ctx.opset >= axesInputSince ? (ins[1] !== undefined ? ctx.hostInts(ins, 1, 'axes') : undefined) : ctx.has('axes') ? ctx.ints('axes') : undefined;
    const keepdims = ctx.int('keepdims', 1) === 1;
    if ((given === undefined || given.length === 0) && ctx.int('noop_with_empty_axes', 0) === 1) return [x];
    const axes = given === undefined || given.length === 0 ? [...Array(r).keys()] : given.map((a) => ctx.axis(a, r, 'axes entry'));
    return [f(x, axes, keepdims)];
  };
}

export const NN_OPS: Record<string, OpImpl> = {
  MatMul: (ins, ctx) => {
    const [a, b] = pair(ctx.input(ins, 0, 'A'), ctx.input(ins, 1, 'B'), ctx);
    return [a.matmul(b)];
  },

  Gemm: (ins, ctx) => {
    // Y = alpha · A' · B' + beta · C, A' = transA ? Aᵀ : A (2-D operands).
    let [a, b] = pair(ctx.input(ins, 0, 'A'), ctx.input(ins, 1, 'B'), ctx);
    if (a.ndim !== 2 || b.ndim !== 2) ctx.fail(`A and B must be 2-D, got [${a.shape}] and [${b.shape}]`);
    if (ctx.int('transA', 0) === 1) a = a.transpose();
    if (ctx.int('transB', 0) === 1) b = b.transpose();
    const alpha = ctx.float('alpha', 1),
      beta = ctx.float('beta', 1);
    let y = a.matmul(b);
    if (alpha !== 1) y = y.mul(alpha);
    const c = ins[2];
    if (c !== undefined && beta !== 0) {
      const ct = toTensor(c, ctx.label, y.dtype);
      y = y.add(beta === 1 ? ct : ct.mul(beta));
    }
    return [y];
  },

  Softmax: softmaxLike(softmax),
  LogSoftmax: softmaxLike(logSoftmax),

  LayerNormalization: (ins, ctx) => {
    // Normalises over axes [axis, rank): (x - mean) / √(var + epsilon) · Scale + B; outputs Y, Mean, InvStdDev.
    const x = toTensor(ctx.input(ins, 0, 'X'), ctx.label);
    const r = shapeOf(x, ctx.label).length;
    const a = ctx.axis(ctx.int('axis', -1), r);
    const axes = Array.from({ length: r - a }, (_, i) => a + i);
    const eps = ctx.float('epsilon', 1e-5);
    const mean = x.mean(axes, true);
    const centered = x.sub(mean);
    const invStd = centered.square().mean(axes, true).add(eps).rsqrt();
    let y = centered.mul(invStd).mul(toTensor(ctx.input(ins, 1, 'Scale'), ctx.label, x.dtype));
    if (ins[2] !== undefined) y = y.add(toTensor(ins[2], ctx.label, x.dtype));
    return [y, mean, invStd];
  },

  ReduceMean: reduction((x, axes, k) => x.mean(axes, k), 18),
  ReduceSum: reduction((x, axes, k) => x.sum(axes, k), 13),
  ReduceMax: reduction((x, axes, k) => x.max(axes, k), 18),
  ReduceMin: reduction((x, axes, k) => x.min(axes, k), 18),
  ReduceProd: reduction((x, axes, k) => x.prod(axes, k), 18),
  ReduceSumSquare: reduction((x, axes, k) => x.square().sum(axes, k), 18),
  ReduceL2: reduction((x, axes, k) => x.square().sum(axes, k).sqrt(), 18),
};
