// Whole-op kernels of the js backend that are not fused loops: cumsum, gather
// (np.take), scatterAdd, concat and constant pad. Inputs are contiguous buffers.

import { type DType, type StorageArray, DTYPE_INFO } from '../../tensor/dtype.js';
import { DTypeError, IndexError } from '../../tensor/errors.js';
import type { Attrs } from '../../compiler/ir.js';
import { encodeValues } from '../../tensor/storage.js';
import { scanKernel, whileKernel, condKernel } from './control-flow.js';
import { runOp } from '../../compiler/op-registry.js';

export interface OpaqueArgs {
  out: StorageArray;
  ins: StorageArray[];
  inShapes: number[][];
  outShape: number[];
  dtype: DType;
  inDTypes: DType[];
  attrs: Attrs;
  /** A registered call's further outputs by index (OpaqueKernel.parts; undefined where unused). */
  parts?: (StorageArray | undefined)[];
}

const prod = (s: readonly number[], a = 0, b = s.length) => s.slice(a, b).reduce((x, y) => x * y, 1);

/** Running sum along attrs.axis (complex sums both lanes). */
function cumsum({ out, ins, inShapes, dtype, attrs }: OpaqueArgs): void {
  const x = ins[0]!,
    s = inShapes[0]!,
    ax = attrs['axis'] as number;
  const L = DTYPE_INFO[dtype].lanes;
  const outer = prod(s, 0, ax),
    n = s[ax]!,
    inner = prod(s, ax + 1) * L;
  for (let o = 0; o < outer; o++) {
    const base = o * n * inner;
    for (let j = 0; j < inner; j++) {
      let acc = 0;
      for (let i = 0; i < n; i++) {
        const k = base + i * inner + j;
        acc += x[k]!;
        out[k] = acc;
        if (dtype !== 'float64' && dtype !== 'complex128') acc = out[k]!; // accumulate at the storage precision, like NumPy
      }
    }
  }
}

function normIndex(op: string, i: number, n: number): number {
  const k = i < 0 ? i + n : i;
  if (k < 0 || k >= n) throw new IndexError(`${op}: index ${i} is out of range for an axis of size ${n}`);
  return k;
}

/**
 * The rows idx selects along an axis of size n. Indices must be an Int32Array,
 * as the native kernels require too: from a float buffer 1.5 or NaN would
 * pass the range test and be truncated to a wrong row by the Int32Array.
 */
function indexRows(op: string, idx: StorageArray, n: number): Int32Array {
  if (!(idx instanceof Int32Array)) throw new DTypeError(`${op}: indices must be an Int32Array buffer (int32), got ${idx.constructor.name}`);
  return Int32Array.from(idx, (i) => normIndex(op, i, n));
}

/** out[pre, j, post] = x[pre, idx[j], post] */
function gather({ out, ins, inShapes, dtype, attrs }: OpaqueArgs): void {
  const [x, idx] = ins as [StorageArray, StorageArray];
  const s = inShapes[0]!,
    ax = attrs['axis'] as number;
  const L = DTYPE_INFO[dtype].lanes;
  const outer = prod(s, 0, ax),
    n = s[ax]!,
    inner = prod(s, ax + 1) * L,
    m = idx.length;
  const rows = indexRows('gather', idx, n);
  for (let o = 0; o < outer; o++) {
    for (let j = 0; j < m; j++) {
      const src = (o * n + rows[j]!) * inner,
        dst = (o * m + j) * inner;
      out.set(x.subarray(src, src + inner), dst);
    }
  }
}

/** out = x; out[pre, idx[j], post] += upd[pre, j, post] (repeats accumulate). */
function scatterAdd({ out, ins, inShapes, dtype, attrs }: OpaqueArgs): void {
  const [x, idx, upd] = ins as [StorageArray, StorageArray, StorageArray];
  const s = inShapes[0]!,
    ax = attrs['axis'] as number;
  const L = DTYPE_INFO[dtype].lanes;
  const outer = prod(s, 0, ax),
    n = s[ax]!,
    inner = prod(s, ax + 1) * L,
    m = idx.length;
  const rows = indexRows('scatterAdd', idx, n);
  out.set(x);
  for (let o = 0; o < outer; o++) {
    for (let j = 0; j < m; j++) {
      const dst = (o * n + rows[j]!) * inner,
        src = (o * m + j) * inner;
      for (let t = 0; t < inner; t++) out[dst + t] = out[dst + t]! + upd[src + t]!;
    }
  }
  if (dtype === 'bool') for (let i = 0; i < out.length; i++) out[i] = out[i] ? 1 : 0;
}

function concat({ out, ins, inShapes, dtype, attrs }: OpaqueArgs): void {
  const ax = attrs['axis'] as number;
  const L = DTYPE_INFO[dtype].lanes;
  const outer = prod(inShapes[0]!, 0, ax);
  const widths = inShapes.map((s) => prod(s, ax) * L);
  const total = widths.reduce((a, b) => a + b, 0);
  for (let o = 0; o < outer; o++) {
    let at = o * total;
    ins.forEach((x, i) => {
      const w = widths[i]!;
      out.set(x.subarray(o * w, o * w + w), at);
      at += w;
    });
  }
}

function pad({ out, ins, inShapes, outShape, dtype, attrs }: OpaqueArgs): void {
  const x = ins[0]!,
    s = inShapes[0]!;
  const w = attrs['widths'] as [number, number][];
  const L = DTYPE_INFO[dtype].lanes;
  const fill = encodeValues(L === 2 ? [attrs['value'] as number, 0] : [attrs['value'] as number], dtype);
  for (let i = 0; i < out.length; i += L) for (let l = 0; l < L; l++) out[i + l] = fill[l]!;
  const r = s.length;
  if (prod(s) === 0) return;
  const ost = new Array<number>(r);
  let acc = L;
  for (let i = r - 1; i >= 0; i--) ost[i] = acc, (acc *= outShape[i]!);
  const rowLen = (s[r - 1] ?? 1) * L;
  const rows = prod(s, 0, r - 1);
  const idx = new Array<number>(Math.max(r - 1, 0)).fill(0);
  for (let row = 0; row < rows; row++) {
    let dst = r > 0 ? w[r - 1]![0] * L : 0;
    for (let i = 0; i < r - 1; i++) dst += (idx[i]! + w[i]![0]) * ost[i]!;
    out.set(x.subarray(row * rowLen, row * rowLen + rowLen), dst);
    for (let i = r - 2; i >= 0; i--) {
      if (++idx[i]! < s[i]!) break;
      idx[i] = 0;
    }
  }
}

export const OPAQUE_KERNELS: Record<string, (a: OpaqueArgs) => void> = {
  cumsum,
  gather,
  scatterAdd,
  concat,
  pad,
  scan: scanKernel,
  while: whileKernel,
  cond: condKernel,
  registered: (a) => runOp('js', a),
};
