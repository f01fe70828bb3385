// Packing several results into the one flat tensor a control node produces,
// and unpacking them as views (slice + reshape + cast back).

import { Tensor } from '../../tensor/tensor.js';
import { type DType, promoteTypes } from '../../tensor/dtype.js';
import { bind } from '../primitives.js';
import type { Node } from '../ir.js';
import type { Aval } from '../bodies.js';

const sizeOf = (s: readonly (number | string)[]) => s.reduce<number>((a, d) => a * (d as number), 1);

/** The dtype every packed result is stored in. */
export function commonDType(avals: readonly Aval[]): DType {
  return avals.reduce<DType>((d, a) => promoteTypes(d, a.dtype), avals[0]?.dtype ?? 'float64');
}

/** Offsets of each result in the packed buffer and the total length. */
export function layout(avals: readonly Aval[]): { offsets: number[]; total: number } {
  const offsets: number[] = [];
  let total = 0;
  for (const a of avals) offsets.push(total), (total += sizeOf(a.shape));
  return { offsets, total };
}

/** Views of a packed control node: result i reshaped to its shape and cast back to its dtype. */
export function unpack(packed: Node, avals: readonly Aval[]): Tensor[] {
  const { offsets } = layout(avals);
  return avals.map((a, i) => {
    const n = sizeOf(a.shape);
    const s = bind('slice', [packed], { start: [offsets[i]!], step: [1], size: [n] });
    const r = bind('reshape', [s], { shape: [...a.shape] });
    const t = new Tensor(r);
    return t.dtype === a.dtype ? t : t.cast(a.dtype);
  });
}
