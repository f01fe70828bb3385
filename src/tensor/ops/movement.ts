// Shape and movement ops. reshape/transpose/expand/slice are views in the IR;
// pad, concat, gather and scatterAdd are kernels of their own.

import { bind } from '../../compiler/primitives.js';
import { type DType, promoteTypes } from '../dtype.js';
import { IndexError, ShapeError, ValueError, DeviceError } from '../errors.js';
import { type Dim, fmtShape, normAxes, normAxis, broadcastShapes, staticSize, shapesEqual } from '../shape.js';
import { type SliceSpec, sliceIndices } from '../slicing.js';
import { Tensor, type Axis, type Operand } from '../tensor.js';
import { broadcastNode, castNode } from './elementwise.js';
import { toTensor, toTensors } from './operand.js';
import { indexTensor } from './indices.js';
import { deviceNames, ensureDevice, unavailableReason } from '../../backends/registry.js';

/** reshape with at most one -1 (inferred); dynamic dims pass through by name. */
export function reshape(x: Tensor, shape: Dim[]): Tensor {
  const src = x.node.shape;
  // Plain loops (no filter callbacks): reshapes sit on the per-call path of small ops.
  let neg = 0;
  let bad: number | undefined;
  for (let i = 0; i < shape.length; i++) {
    const d = shape[i]!;
    if (d === -1) neg++;
    else if (bad === undefined && typeof d === 'number' && (!Number.isInteger(d) || d < -1)) bad = d;
  }
  if (neg > 1) throw new ShapeError(`reshape: at most one -1 allowed, got ${fmtShape(shape)}`);
  if (bad !== undefined) throw new ShapeError(`reshape: invalid dim ${bad} in ${fmtShape(shape)}`);
  const total = staticSize(src);
  let out = shape;
  if (neg === 1) {
    const known = staticSize(shape.filter((d) => d !== -1));
    if (total === undefined || known === undefined) {
      throw new ShapeError(`reshape: cannot infer -1 for ${fmtShape(shape)} from dynamic shape ${fmtShape(src)}`);
    }
    if (known === 0 || total % known !== 0) throw new ShapeError(`reshape: cannot reshape ${fmtShape(src)} (${total} elements) into ${fmtShape(shape)}`);
    out = shape.map((d) => (d === -1 ? total / known : d));
  }
  if (total === undefined) {
    // Dynamic: only unit dims may be inserted or removed; the symbols must stay in order.
    const strip = (s: readonly Dim[]) => s.filter((d) => d !== 1);
    if (!shapesEqual(strip(src), strip(out))) throw new ShapeError(`reshape: with dynamic dims only size-1 axes may be added or removed, got ${fmtShape(src)} -> ${fmtShape(out)}`);
  }
  if (shapesEqual(src, out)) return x;
  return new Tensor(bind('reshape', [x.node], { shape: [...out] }));
}

/** Permutes axes (reverses them by default, like NumPy). */
export function transpose(x: Tensor, perm?: readonly number[]): Tensor {
  const r = x.ndim;
  const p = perm ? perm.map((a) => normAxis('transpose', a, r)) : [...Array(r).keys()].reverse();
  if (p.length !== r || new Set(p).size !== r) throw new ShapeError(`transpose: perm ${JSON.stringify(perm)} is not a permutation of ${r} axes`);
  if (p.every((v, i) => v === i)) return x;
  return new Tensor(bind('permute', [x.node], { perm: p }));
}

export function swapaxes(x: Tensor, a: number, b: number): Tensor {
  const r = x.ndim;
  const p = [...Array(r).keys()];
  const i = normAxis('swapaxes', a, r),
    j = normAxis('swapaxes', b, r);
  [p[i], p[j]] = [p[j]!, p[i]!];
  return transpose(x, p);
}

/** Inserts size-1 axes at the given positions of the result. */
export function expandDims(x: Tensor, axis: number | readonly number[]): Tensor {
  const axes = typeof axis === 'number' ? [axis] : [...axis];
  const r = x.ndim + axes.length;
  const norm = normAxes('expandDims', axes, r);
  const out: Dim[] = [];
  let k = 0;
  for (let i = 0; i < r; i++) out.push(norm.includes(i) ? 1 : x.node.shape[k++]!);
  return new Tensor(bind('reshape', [x.node], { shape: out }));
}

/** Removes size-1 axes (all of them, or the given ones, which must have size 1). */
export function squeeze(x: Tensor, axis?: number | readonly number[]): Tensor {
  const s = x.node.shape;
  const axes = axis === undefined ? s.flatMap((d, i) => (d === 1 ? [i] : [])) : normAxes('squeeze', axis, s.length);
  for (const a of axes) if (s[a] !== 1) throw new ShapeError(`squeeze: axis ${a} of shape ${fmtShape(s)} has size ${s[a]}, expected 1`);
  if (axes.length === 0) return x;
  return new Tensor(bind('reshape', [x.node], { shape: s.filter((_, i) => !axes.includes(i)) }));
}

export function broadcastTo(x: Tensor, shape: readonly Dim[]): Tensor {
  // Symbolic dims pass by name; concrete ones must be sizes (a -1 or 2.5 would be taken as is).
  if (!Array.isArray(shape) || shape.some((d) => typeof d !== 'string' && !(Number.isInteger(d) && d >= 0))) {
    throw new ShapeError(`broadcastTo: target shape must be an array of non-negative integers (or dynamic dim names), got ${Array.isArray(shape) ? fmtShape(shape) : String(shape)}`);
  }
  const b = broadcastShapes('broadcastTo', x.node.shape, shape);
  if (!shapesEqual(b, shape)) throw new ShapeError(`broadcastTo: cannot broadcast ${fmtShape(x.node.shape)} to ${fmtShape(shape)}`);
  return new Tensor(broadcastNode(x.node, shape));
}

/** Reverses the order of elements along axes (all by default): a negative-step view. */
export function flip(x: Tensor, axis: Axis): Tensor {
  const axes = normAxes('flip', axis, x.ndim);
  const shape = x.shape;
  const start = shape.map((d, i) => (axes.includes(i) ? d - 1 : 0));
  const step = shape.map((_, i) => (axes.includes(i) ? -1 : 1));
  return new Tensor(bind('slice', [x.node], { start, step, size: shape }));
}

/** Applies a slice spec s(...) as a strided view. */
export function slice(x: Tensor, spec: SliceSpec): Tensor {
  const src = x.node.shape;
  // From JS, anything can arrive here: only a spec made by s(...) is one.
  if (spec === null || typeof spec !== 'object' || (spec as { kind?: unknown }).kind !== 'slice' || !Array.isArray(spec.axes)) {
    throw new ValueError(`slice: expects a slice spec made by s(...) (e.g. x.slice(s(ax(), rg(2, 4)))), got ${Array.isArray(spec) ? 'an array' : typeof spec === 'object' && spec !== null ? 'an object without kind: \'slice\'' : String(spec)}`);
  }
  if (spec.axes.length > src.length) throw new ShapeError(`slice: ${spec.axes.length} axis specs for a tensor of rank ${src.length} (shape ${fmtShape(src)})`);
  const start: number[] = [],
    step: number[] = [],
    size: Dim[] = [];
  let trivial = true;
  src.forEach((d, i) => {
    const a = spec.axes[i] ?? { kind: 'ax' as const };
    if (a.kind === 'ax') {
      start.push(0), step.push(1), size.push(d);
      return;
    }
    if (typeof d !== 'number') throw new ShapeError(`slice: axis ${i} has dynamic size '${d}'; only ax() is supported on dynamic axes`);
    trivial = false;
    if (a.kind === 'ix') {
      const k = a.index < 0 ? a.index + d : a.index;
      if (!Number.isInteger(a.index) || k < 0 || k >= d) throw new IndexError(`slice: index ${a.index} is out of range for axis ${i} of size ${d}`);
      start.push(k), step.push(1), size.push(1);
      return;
    }
    if (a.kind !== 'rg') throw new ValueError(`slice: axis ${i} spec must be ax(), rg(...) or ix(...), got ${JSON.stringify(a)}`);
    if (!Number.isInteger(a.step) || a.step === 0) throw new ValueError(`slice: step must be a non-zero integer, got ${a.step} on axis ${i}`);
    for (const [what, v] of [['start', a.start], ['end', a.end]] as const) {
      if (v !== undefined && !Number.isInteger(v)) throw new ValueError(`slice: ${what} must be an integer (or omitted), got ${v} on axis ${i}`);
    }
    const r = sliceIndices(a.start, a.end, a.step, d);
    start.push(r.size === 0 ? 0 : r.start), step.push(a.step), size.push(r.size);
  });
  if (trivial) return x;
  return new Tensor(bind('slice', [x.node], { start, step, size }));
}

/** x[..., index, ...] along axis: the axis is removed. */
export function select(x: Tensor, axis: number, index: number): Tensor {
  const a = normAxis('select', axis, x.ndim);
  const d = x.node.shape[a]!;
  if (typeof d !== 'number') throw new ShapeError(`select: axis ${a} is dynamic`);
  const k = index < 0 ? index + d : index;
  if (!Number.isInteger(index) || k < 0 || k >= d) throw new IndexError(`select: index ${index} is out of range for axis ${a} of size ${d}`);
  const spec = { kind: 'slice' as const, axes: x.node.shape.map((_, i) => (i === a ? { kind: 'ix' as const, index: k } : { kind: 'ax' as const })) };
  return squeeze(slice(x, spec), a);
}

type PadWidths = number | readonly (readonly [number, number])[] | readonly [number, number];

/** Constant padding: widths as n, [before, after], or one pair per axis. */
export function pad(x: Tensor, widths: PadWidths, value: number): Tensor {
  const r = x.ndim;
  let w: [number, number][];
  if (typeof widths === 'number') w = Array.from({ length: r }, () => [widths, widths]);
  else if (widths.length === 2 && typeof widths[0] === 'number') w = Array.from({ length: r }, () => [widths[0] as number, widths[1] as number]);
  else w = (widths as readonly (readonly [number, number])[]).map((p) => [p[0], p[1]]);
  if (w.length !== r || w.some((p) => p.length !== 2 || p.some((v) => !Number.isInteger(v) || v < 0))) {
    throw new ShapeError(`pad: widths ${JSON.stringify(widths)} do not give non-negative integer (before, after) pairs for ${r} axes`);
  }
  if (w.every((p) => p[0] === 0 && p[1] === 0)) return x;
  return new Tensor(bind('pad', [x.node], { widths: w, value }));
}

/** np.take(x, indices, axis): negative indices count from the end; out of range throws IndexError. */
export function gather(x: Tensor, indices: Operand, axis: number): Tensor {
  const a = normAxis('gather', axis, x.ndim);
  return new Tensor(bind('gather', [x.node, indexTensor('gather', indices, x.node.shape[a]!).node], { axis: a }));
}

/** Returns x with updates added at indices along axis (repeated indices accumulate). */
export function scatterAdd(x: Tensor, indices: Operand, updates: Operand, axis: number): Tensor {
  const a = normAxis('scatterAdd', axis, x.ndim);
  const idx = indexTensor('scatterAdd', indices, x.node.shape[a]!);
  const want = [...x.node.shape.slice(0, a), ...idx.node.shape, ...x.node.shape.slice(a + 1)];
  const upd = broadcastTo(toTensor('scatterAdd', updates, 'updates').cast(x.dtype), want);
  return new Tensor(bind('scatterAdd', [x.node, idx.node, upd.node], { axis: a }));
}

/**
 * Concatenates along an existing axis; dtypes promote.
 * @example
 * ```ts
 * const a = tensor([[1], [2]]), b = tensor([[3], [4]]);
 * cat([a, b]).tolist();      // [[1], [2], [3], [4]]
 * cat([a, b], 1).tolist();   // [[1, 3], [2, 4]]
 * ```
 */
export function cat(items: readonly Operand[], axis = 0): Tensor {
  const tensors = toTensors('cat', items);
  if (tensors.length === 0) throw new ValueError('cat: need at least one tensor');
  const r = tensors[0]!.ndim;
  const a = normAxis('cat', axis, r);
  let dt: DType = tensors[0]!.dtype;
  for (const t of tensors) {
    dt = promoteTypes(dt, t.dtype);
    const ok = t.ndim === r && t.node.shape.every((d, i) => i === a || d === tensors[0]!.node.shape[i]);
    if (!ok) throw new ShapeError(`cat: shapes ${tensors.map((u) => fmtShape(u.node.shape)).join(', ')} differ outside axis ${a}`);
  }
  if (tensors.length === 1) return tensors[0]!.cast(dt);
  return new Tensor(bind('concat', tensors.map((t) => castNode(t.node, dt)), { axis: a }));
}

/**
 * Stacks along a new axis.
 * @example
 * ```ts
 * const a = tensor([1, 2]), b = tensor([3, 4]);
 * stack([a, b]).tolist();      // [[1, 2], [3, 4]]
 * stack([a, b], 1).tolist();   // [[1, 3], [2, 4]]
 * ```
 */
export function stack(items: readonly Operand[], axis = 0): Tensor {
  const tensors = toTensors('stack', items);
  if (tensors.length === 0) throw new ValueError('stack: need at least one tensor');
  const s0 = tensors[0]!.node.shape;
  for (const t of tensors) if (!shapesEqual(t.node.shape, s0)) throw new ShapeError(`stack: all shapes must be equal, got ${tensors.map((u) => fmtShape(u.node.shape)).join(', ')}`);
  const a = normAxis('stack', axis, s0.length + 1);
  return cat(tensors.map((t) => expandDims(t, a)), a);
}

/** Pins the computation that produces x to a device. */
export function onDevice(x: Tensor, device: string): Tensor {
  if (!ensureDevice(device)) throw new DeviceError(`on: unknown or unavailable device '${device}'${unavailableReason(device)}; available: ${deviceNames().join(', ')}`);
  const n = bind('reshape', [x.node], { shape: [...x.node.shape] });
  n.device = device;
  return new Tensor(n);
}
