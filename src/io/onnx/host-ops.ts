// Folding on the host: the few array operations ONNX shape arithmetic uses
// (broadcast elementwise, gather, concat, slice, transpose, expand), on row-
// major JS number arrays. They run when every input of a node is a host
// constant, so an exported graph's shape computations become JS numbers
// before any tensor is built (values.ts explains why).

import { ShapeError, ValueError } from '../../tensor/errors.js';
import { type Host, HOST_LIMIT, host, sizeOf } from './values.js';

function checkSize(shape: readonly number[], op: string): void {
  if (sizeOf(shape) > HOST_LIMIT) throw new ValueError(`${op}: a constant of shape [${shape}] has more than ${HOST_LIMIT} elements`);
}

const stridesOf = (shape: readonly number[]): number[] => {
  const s = new Array<number>(shape.length).fill(1);
  for (let i = shape.length - 2; i >= 0; i--) s[i] = s[i + 1]! * shape[i + 1]!;
  return s;
};

/** NumPy/ONNX multidirectional broadcasting of two shapes. */
export function broadcastShapes(a: readonly number[], b: readonly number[], op: string): number[] {
  const n = Math.max(a.length, b.length);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = a[a.length - n + i] ?? 1,
      y = b[b.length - n + i] ?? 1;
    if (x !== y && x !== 1 && y !== 1) throw new ShapeError(`${op}: shapes [${a}] and [${b}] do not broadcast`);
    out.push(x === 1 ? y : x);
  }
  return out;
}

/** The flat index into `shape` (broadcast to `out`) of each element of `out`. */
function broadcastIndex(shape: readonly number[], out: readonly number[]): Int32Array {
  const n = sizeOf(out);
  const idx = new Int32Array(n);
  const st = stridesOf(shape);
  const off = out.length - shape.length;
  const ost = stridesOf(out);
  for (let k = 0; k < n; k++) {
    let rem = k,
      flat = 0;
    for (let d = 0; d < out.length; d++) {
      const c = Math.floor(rem / ost[d]!);
      rem -= c * ost[d]!;
      const sd = d - off;
      if (sd >= 0 && shape[sd] !== 1) flat += c * st[sd]!;
    }
    idx[k] = flat;
  }
  return idx;
}

/** f applied elementwise over broadcast inputs; the result has element type `elem`. */
export function hostMap(vals: readonly Host[], f: (...xs: number[]) => number, elem: number, op: string): Host {
  const shape = vals.map((v) => v.shape).reduce((a, b) => broadcastShapes(a, b, op));
  checkSize(shape, op);
  const idx = vals.map((v) => broadcastIndex(v.shape, shape));
  const n = sizeOf(shape);
  const data = new Array<number>(n);
  for (let k = 0; k < n; k++) data[k] = f(...vals.map((v, j) => v.data[idx[j]![k]!]!));
  return host(elem, shape, data);
}

/** ONNX Gather on the host: indices (negative counts from the end) along `axis`. */
export function hostGather(x: Host, indices: Host, axis: number): Host {
  const outer = sizeOf(x.shape.slice(0, axis)),
    inner = sizeOf(x.shape.slice(axis + 1)),
    n = x.shape[axis]!;
  checkSize([outer, inner, indices.data.length], 'Gather');
  const data: number[] = [];
  for (let o = 0; o < outer; o++)
    for (const i of indices.data) {
      const j = i < 0 ? i + n : i;
      if (j < 0 || j >= n) throw new ShapeError(`Gather: index ${i} is out of range for an axis of ${n}`);
      for (let k = 0; k < inner; k++) data.push(x.data[(o * n + j) * inner + k]!);
    }
  return host(x.elem, [...x.shape.slice(0, axis), ...indices.shape, ...x.shape.slice(axis + 1)], data);
}

/** Concatenation along `axis`. */
export function hostConcat(xs: readonly Host[], axis: number): Host {
  const outer = sizeOf(xs[0]!.shape.slice(0, axis));
  const data: number[] = [];
  for (let o = 0; o < outer; o++)
    for (const x of xs) {
      const chunk = sizeOf(x.shape.slice(axis));
      for (let k = 0; k < chunk; k++) data.push(x.data[o * chunk + k]!);
    }
  const shape = [...xs[0]!.shape];
  shape[axis] = xs.reduce((s, x) => s + x.shape[axis]!, 0);
  return host(xs[0]!.elem, shape, data);
}

/** Gathers along each axis by explicit index lists (slices and transposes reduce to this). */
function hostPick(x: Host, perAxis: readonly number[][], order: readonly number[] = perAxis.map((_, i) => i)): Host {
  const st = stridesOf(x.shape);
  const outShape = order.map((a) => perAxis[a]!.length);
  const data: number[] = [];
  const n = sizeOf(outShape);
  const ost = stridesOf(outShape);
  for (let k = 0; k < n; k++) {
    let rem = k,
      flat = 0;
    for (let d = 0; d < order.length; d++) {
      const c = Math.floor(rem / ost[d]!);
      rem -= c * ost[d]!;
      flat += perAxis[order[d]!]![c]! * st[order[d]!]!;
    }
    data.push(x.data[flat]!);
  }
  return host(x.elem, outShape, data);
}

/** Per-axis {start, step, count} (ONNX Slice's clamping, which is NumPy's) → the selected index lists. */
export function hostSlice(x: Host, ranges: readonly { start: number; step: number; size: number }[]): Host {
  return hostPick(
    x,
    ranges.map((r) => Array.from({ length: r.size }, (_, i) => r.start + i * r.step)),
  );
}

export function hostTranspose(x: Host, perm: readonly number[]): Host {
  return hostPick(
    x,
    x.shape.map((n) => Array.from({ length: n }, (_, i) => i)),
    perm,
  );
}

/** x broadcast to `shape` (the caller has checked the shapes broadcast). */
export function hostBroadcast(x: Host, shape: readonly number[]): Host {
  checkSize(shape, 'Expand');
  const idx = broadcastIndex(x.shape, shape);
  return host(x.elem, [...shape], Array.from(idx, (i) => x.data[i]!));
}
