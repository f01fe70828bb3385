// ONNX operators that move data or compute shapes: Shape, Reshape, Flatten,
// Transpose, (Un)squeeze, Concat, Slice, Gather, Split, Expand, Constant,
// ConstantOfShape, Range, Identity, Dropout (inference: identity). Shape
// arguments (Reshape's shape, Slice's starts, axes inputs) must be host
// constants, which they are in exported graphs run at concrete shapes.

import type { Tensor } from '../../tensor/tensor.js';
import { cat } from '../../tensor/ops/movement.js';
import { s, rg, ax, sliceIndices } from '../../tensor/slicing.js';
import type { NodeCtx, OpImpl } from './registry.js';
import { ELEM, EXPAND_LIMIT, HOST_LIMIT, type Host, type Val, host, isHost, roundTo, shapeOf, sizeOf, toTensor } from './values.js';
import { broadcastShapes, hostBroadcast, hostConcat, hostGather, hostSlice, hostTranspose } from './host-ops.js';

const reshapeVal = (v: Val, shape: number[]): Val => (isHost(v) ? host(v.elem, shape, v.data) : v.reshape(shape));

/** Reshape's target: 0 copies the input's dim (unless allowzero), one -1 is inferred. */
function reshapeTarget(from: number[], spec: number[], allowzero: boolean, ctx: NodeCtx): number[] {
  const out = spec.map((d, i) => (d === 0 && !allowzero ? (from[i] ?? ctx.fail(`shape [${spec}] copies dim ${i} of an input of rank ${from.length}`)) : d));
  const unknown = out.filter((d) => d === -1).length;
  if (unknown > 1 || out.some((d) => d < -1)) ctx.fail(`invalid shape [${spec}]`);
  const known = sizeOf(out.filter((d) => d !== -1));
  const total = sizeOf(from);
  if (unknown === 1) {
    if (known === 0 || total % known !== 0) ctx.fail(`cannot reshape [${from}] to [${spec}]`);
    out[out.indexOf(-1)] = total / known;
  } else if (known !== total) ctx.fail(`cannot reshape [${from}] (${total} elements) to [${out}]`);
  return out;
}

/** The axes of (Un)squeeze: an attribute before opset 13, an input from 13 on. */
function axesArg(ins: readonly (Val | undefined)[], ctx: NodeCtx, since: number): number[] | undefined {
  if (ctx.opset < since) return ctx.has('axes') ? ctx.ints('axes') : undefined;
  return ins[1] === undefined ? undefined : ctx.hostInts(ins, 1, 'axes');
}

function concat(vals: readonly Val[], axis: number, ctx: NodeCtx): Val {
  if (vals.every(isHost)) return hostConcat(vals, axis);
  const first = vals.find((v) => !isHost(v)) as Tensor;
  return cat(
    vals.map((v) => toTensor(v, ctx.label, first.dtype)),
    axis,
  );
}

function sliceVal(x: Val, ranges: { start: number; step: number; size: number }[]): Val {
  if (isHost(x)) return hostSlice(x, ranges);
  // Normalised ranges back to NumPy slices; a negative step that runs to the front needs an open end.
  return x.slice(s(...ranges.map((r) => (r.size === 0 ? rg(0, 0) : rg(r.start, r.start + r.size * r.step < 0 ? null : r.start + r.size * r.step, r.step)))));
}

const fullRanges = (shape: number[]) => shape.map((n) => ({ start: 0, step: 1, size: n }));

export const SHAPE_OPS: Record<string, OpImpl> = {
  Identity: (ins, ctx) => [ctx.input(ins, 0, 'input')],
  Dropout: (ins, ctx) => [ctx.input(ins, 0, 'data')],

  Constant: (_ins, ctx) => {
    const t = ctx.tensor('value');
    if (t !== undefined) return [t];
    if (ctx.has('value_float')) return [host(ELEM.FLOAT, [], [Math.fround(ctx.float('value_float', 0))])];
    const fs = ctx.floats('value_floats');
    if (fs !== undefined) return [host(ELEM.FLOAT, [fs.length], fs.map(Math.fround))];
    if (ctx.has('value_int')) return [host(ELEM.INT64, [], [ctx.int('value_int')])];
    if (ctx.has('value_ints')) {
      const is = ctx.ints('value_ints');
      return [host(ELEM.INT64, [is.length], is)];
    }
    return ctx.fail('has no value attribute rlx reads (value, value_float(s), value_int(s))');
  },

  ConstantOfShape: (ins, ctx) => {
    const shape = ctx.hostInts(ins, 0, 'shape');
    const v = ctx.tensor('value') ?? host(ELEM.FLOAT, [1], [0]);
    if (v.data.length !== 1) ctx.fail(`value must hold one element, got ${v.data.length}`);
    if (shape.some((d) => !Number.isSafeInteger(d) || d < 0) || sizeOf(shape) > HOST_LIMIT) ctx.fail(`invalid shape [${shape}] (at most ${HOST_LIMIT} elements)`);
    return [host(v.elem, shape, new Array<number>(sizeOf(shape)).fill(v.data[0]!))];
  },

  Range: (ins, ctx) => {
    const scalar = (i: number, what: string): Host => {
      const v = ctx.input(ins, i, what);
      if (!isHost(v) || v.data.length !== 1) return ctx.fail(`${what} must be a scalar constant`);
      return v;
    };
    const start = scalar(0, 'start'),
      limit = scalar(1, 'limit').data[0]!,
      delta = scalar(2, 'delta').data[0]!;
    const n = Math.max(Math.ceil((limit - start.data[0]!) / delta), 0);
    if (delta === 0 || !Number.isFinite(n) || n > HOST_LIMIT) ctx.fail(`cannot make a range from ${start.data[0]} to ${limit} by ${delta}`);
    return [host(start.elem, [n], Array.from({ length: n }, (_, i) => roundTo(start.elem, start.data[0]! + i * delta)))];
  },

  Shape: (ins, ctx) => {
    const shape = shapeOf(ctx.input(ins, 0, 'data'), ctx.label);
    const r = shape.length;
    const clamp = (a: number) => Math.min(Math.max(a < 0 ? a + r : a, 0), r);
    const lo = clamp(ctx.int('start', 0)),
      hi = ctx.has('end') ? clamp(ctx.int('end')) : r;
    const dims = shape.slice(lo, Math.max(lo, hi));
    return [host(ELEM.INT64, [dims.length], dims)];
  },

  Size: (ins, ctx) => [host(ELEM.INT64, [], [sizeOf(shapeOf(ctx.input(ins, 0, 'data'), ctx.label))])],

  Reshape: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'data');
    return [reshapeVal(x, reshapeTarget(shapeOf(x, ctx.label), ctx.hostInts(ins, 1, 'shape'), ctx.int('allowzero', 0) === 1, ctx))];
  },

  Flatten: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'input');
    const shape = shapeOf(x, ctx.label);
    const a = ctx.axis(ctx.int('axis', 1), shape.length + 1);
    return [reshapeVal(x, [sizeOf(shape.slice(0, a)), sizeOf(shape.slice(a))])];
  },

  Transpose: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'data');
    const r = shapeOf(x, ctx.label).length;
    const perm = ctx.ints('perm', [...Array(r).keys()].reverse());
    if (perm.length !== r || [...perm].sort((a, b) => a - b).some((p, i) => p !== i)) ctx.fail(`perm [${perm}] is not a permutation of ${r} axes`);
    return [isHost(x) ? hostTranspose(x, perm) : x.transpose(perm)];
  },

  Unsqueeze: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'data');
    const shape = shapeOf(x, ctx.label);
    const axes = axesArg(ins, ctx, 13) ?? ctx.fail('axes are required');
    const r = shape.length + axes.length;
    const norm = axes.map((a) => ctx.axis(a, r, 'axes entry'));
    if (new Set(norm).size !== norm.length) ctx.fail(`axes [${axes}] repeat an axis`);
    const out: number[] = [];
    for (let i = 0, j = 0; i < r; i++) out.push(norm.includes(i) ? 1 : shape[j++]!);
    return [reshapeVal(x, out)];
  },

  Squeeze: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'data');
    const shape = shapeOf(x, ctx.label);
    const given = axesArg(ins, ctx, 13);
    const axes = given === undefined ? shape.flatMap((d, i) => (d === 1 ? [i] : [])) : given.map((a) => ctx.axis(a, shape.length, 'axes entry'));
    for (const a of axes) if (shape[a] !== 1) ctx.fail(`cannot squeeze axis ${a} of size ${shape[a]} (shape [${shape}])`);
    return [reshapeVal(x, shape.filter((_, i) => !axes.includes(i)))];
  },

  Concat: (ins, ctx) => {
    const vals = ins.filter((v): v is Val => v !== undefined);
    if (vals.length === 0) ctx.fail('needs at least one input');
    const shapes = vals.map((v) => shapeOf(v, ctx.label));
    const a = ctx.axis(ctx.int('axis'), shapes[0]!.length);
    for (const sh of shapes)
      if (sh.length !== shapes[0]!.length || sh.some((d, i) => i !== a && d !== shapes[0]![i])) ctx.fail(`inputs of shapes ${shapes.map((q) => `[${q}]`).join(', ')} do not concatenate on axis ${a}`);
    return [concat(vals, a, ctx)];
  },

  Slice: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'data');
    const shape = shapeOf(x, ctx.label);
    const old = ctx.opset < 10;
    const starts = old ? ctx.ints('starts') : ctx.hostInts(ins, 1, 'starts');
    const ends = old ? ctx.ints('ends') : ctx.hostInts(ins, 2, 'ends');
    const axes = old ? ctx.ints('axes', starts.map((_, i) => i)) : ins[3] !== undefined ? ctx.hostInts(ins, 3, 'axes') : starts.map((_, i) => i);
    const steps = !old && ins[4] !== undefined ? ctx.hostInts(ins, 4, 'steps') : starts.map(() => 1);
    if (ends.length !== starts.length || axes.length !== starts.length || steps.length !== starts.length) ctx.fail(`starts, ends, axes and steps differ in length (${starts.length}, ${ends.length}, ${axes.length}, ${steps.length})`);
    const ranges = fullRanges(shape);
    axes.forEach((a, i) => {
      const k = ctx.axis(a, shape.length, 'axes entry');
      if (steps[i] === 0) ctx.fail('a step is 0');
      ranges[k] = sliceIndices(starts[i], ends[i], steps[i]!, shape[k]!);
    });
    return [sliceVal(x, ranges)];
  },

  Gather: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'data'),
      idx = ctx.input(ins, 1, 'indices');
    const shape = shapeOf(x, ctx.label);
    const a = ctx.axis(ctx.int('axis', 0), shape.length);
    const n = shape[a]!;
    if (isHost(idx)) {
      for (const i of idx.data) if (!Number.isInteger(i) || i < -n || i >= n) ctx.fail(`index ${i} is out of range for axis ${a} of size ${n}`);
      if (isHost(x)) return [hostGather(x, idx, a)];
      return [x.gather(toTensor(host(idx.elem, idx.shape, idx.data.map((i) => (i < 0 ? i + n : i))), ctx.label, 'int32'), a)];
    }
    // Indices from the model's inputs (token ids): negative ones count from the end, as in ONNX.
    const i32 = idx.dtype === 'int32' ? idx : idx.cast('int32');
    return [toTensor(x, ctx.label).gather(i32.add(n).where(i32.lt(0), i32), a)];
  },

  Split: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'input');
    const shape = shapeOf(x, ctx.label);
    const a = ctx.axis(ctx.int('axis', 0), shape.length);
    const outputs = ctx.node.outputs.length;
    const given = ctx.opset < 13 ? (ctx.has('split') ? ctx.ints('split') : undefined) : ins[1] !== undefined ? ctx.hostInts(ins, 1, 'split') : undefined;
    let sizes: number[];
    if (given !== undefined) sizes = given;
    else {
      const parts = ctx.opset >= 18 && ctx.has('num_outputs') ? ctx.int('num_outputs') : outputs;
      const each = Math.ceil(shape[a]! / parts);
      sizes = Array.from({ length: parts }, (_, i) => Math.max(0, Math.min(each, shape[a]! - i * each)));
    }
    if (sizes.reduce((p, q) => p + q, 0) !== shape[a] || sizes.some((q) => q < 0)) ctx.fail(`split sizes [${sizes}] do not add up to axis ${a} of size ${shape[a]}`);
    let at = 0;
    return sizes.map((size) => {
      const ranges = fullRanges(shape);
      ranges[a] = { start: at, step: 1, size };
      at += size;
      return sliceVal(x, ranges);
    });
  },

  Expand: (ins, ctx) => {
    const x = ctx.input(ins, 0, 'input');
    const target = broadcastShapes(shapeOf(x, ctx.label), ctx.hostInts(ins, 1, 'shape'), ctx.label);
    if (target.some((d) => !Number.isSafeInteger(d) || d < 0) || sizeOf(target) > EXPAND_LIMIT) ctx.fail(`invalid target shape [${target}] (at most ${EXPAND_LIMIT} elements)`);
    return [isHost(x) ? hostBroadcast(x, target) : x.broadcastTo(target)];
  },
};
