// Roots that are contiguous views: a chain of reshapes and contiguous slices
// over a realized buffer, or over a node whose kernel computes its whole output
// anyway (a registered op's output), is realized as a range of that buffer
// instead of by a compiled copy kernel.
//
// Why: views are how users reshape and slice results (a solve's [n, 1]
// result seen as [n], a row of a realized field), and compiling and running a
// graph whose only work is copying a range out costs a pass over the data plus
// the graph overhead. Realized buffers are never written again (kernels write
// fresh buffers only; a donated input's memory is reused only when no view
// shares it, donation.ts), so a view may share its base's memory. A small view (a
// quarter of its base or less) is copied, so that it does not keep a large
// base alive.

import { DTYPE_INFO } from '../tensor/dtype.js';
import type { Node } from './ir.js';
import { markShared } from './donation.js';

/** A root realized from a range of its base: elements [offset, offset + length) of base's contiguous data. */
export interface ViewRoot {
  root: Node;
  base: Node;
  offset: number;
  length: number;
}

const isStatic = (s: readonly unknown[]): s is number[] => s.every((d) => typeof d === 'number');

/**
 * The element offset of a slice of a contiguous `shape` when the slice is one
 * contiguous range, else -1: the dims after the last partial one are whole,
 * the partial one has step 1, and every dim before it selects one index.
 */
function contiguousSliceOffset(shape: readonly number[], start: readonly number[], step: readonly number[], size: readonly number[]): number {
  let partial = -1;
  for (let i = 0; i < shape.length; i++) {
    if (typeof start[i] !== 'number' || typeof step[i] !== 'number') return -1;
    if (size[i] === 0) return 0; // empty: any offset will do
    if (size[i] !== shape[i] || (size[i]! > 1 && step[i] !== 1)) partial = i;
  }
  for (let i = 0; i < shape.length; i++) {
    if (i < partial && size[i] !== 1) return -1;
    if (i === partial && size[i]! > 1 && step[i] !== 1) return -1;
  }
  let off = 0,
    stride = 1;
  for (let i = shape.length - 1; i >= 0; i--) (off += start[i]! * stride), (stride *= shape[i]!);
  return off;
}

/** Whether realizing n as a view of base beats computing n: base is realized, or a whole-output kernel computes it. */
const viewableBase = (base: Node) => base.op === 'buffer' || base.op === 'registered' || base.op === 'part';

/** How `n` is a contiguous view of another node, or undefined. */
export function viewRootOf(n: Node): ViewRoot | undefined {
  if (n.op !== 'reshape' && n.op !== 'slice') return undefined;
  if (!isStatic(n.shape)) return undefined;
  let offset = 0,
    m = n;
  while (m.op === 'reshape' || m.op === 'slice') {
    const x = m.inputs[0]!;
    if (!isStatic(x.shape) || x.dtype !== n.dtype) return undefined;
    if (m.op === 'slice') {
      const off = contiguousSliceOffset(x.shape, m.attrs['start'] as number[], m.attrs['step'] as number[], m.shape as number[]);
      if (off < 0) return undefined;
      offset += off;
    }
    m = x;
  }
  // A computed base must run where the view would have (same pinned device).
  if (!viewableBase(m) || (m.op !== 'buffer' && m.device !== n.device)) return undefined;
  const length = (n.shape as number[]).reduce((a, b) => a * b, 1);
  return { root: n, base: m, offset, length };
}

/**
 * Splits the roots to realize into views (realized from their bases afterwards)
 * and the nodes to compute: the other roots plus the views' unrealized bases.
 */
export function splitViewRoots(pending: readonly Node[]): { compute: Node[]; views: ViewRoot[] } {
  let views: ViewRoot[] | undefined;
  let compute: Node[] | undefined;
  for (let i = 0; i < pending.length; i++) {
    const v = viewRootOf(pending[i]!);
    if (!v) {
      compute?.push(pending[i]!);
      continue;
    }
    if (!views) (views = []), (compute = pending.slice(0, i));
    views.push(v);
    if (v.base.op !== 'buffer' && !compute!.includes(v.base)) compute!.push(v.base);
  }
  if (!views) return { compute: pending as Node[], views: [] };
  // A base listed as a root after its view was seen once already.
  return { compute: compute!.length < 2 ? compute! : [...new Set(compute)], views };
}

/** Realizes a view root from its (realized) base's data. */
export function realizeView(v: ViewRoot): void {
  const data = v.base.data!;
  const L = DTYPE_INFO[v.root.dtype].lanes;
  const part = data.subarray(v.offset * L, (v.offset + v.length) * L);
  if (4 * v.length > data.length / L) {
    markShared(data); // two nodes see this memory now: never donated (donation.ts)
    v.root.realize(part);
  } else v.root.realize(part.slice());
}
