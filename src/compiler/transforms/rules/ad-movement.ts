// Transposes of the movement and opaque-linear primitives, as lazy views,
// pads and slices (used by the VJP rules).

import type { Tensor } from '../../../tensor/tensor.js';
import type { Dim } from '../../../tensor/shape.js';
import { prim, reshapeTo } from './ad-helpers.js';

/** Transpose of expand: sums over the broadcast axes (and new leading axes), then reshapes to `inShape`. */
export function unexpand(g: Tensor, inShape: readonly Dim[]): Tensor {
  const out = g.node.shape;
  const lead = out.length - inShape.length;
  const axes: number[] = [];
  out.forEach((d, i) => {
    if (i < lead || inShape[i - lead] !== d) axes.push(i);
  });
  const s = axes.length ? prim('sum', [g], { axes }) : g;
  return reshapeTo(s, inShape);
}

/**
 * Transpose of a strided slice (attrs start/step/size per axis, negative steps
 * walking backwards): places g into zeros of `inShape` at the sliced positions.
 * Built lazily from views and pads: flip the negative-step axes, dilate strided
 * axes (a unit axis padded to |step| and merged back), trim, then pad to the
 * input's extent. Returns null when the slice is empty (zero cotangent).
 */
export function unslice(g: Tensor, inShape: readonly Dim[], attrs: Readonly<Record<string, unknown>>): Tensor | null {
  const start = attrs['start'] as number[],
    step = attrs['step'] as number[],
    size = attrs['size'] as Dim[];
  if (size.some((d) => d === 0)) return null;
  const r = inShape.length;
  let y = g;
  // 1. negative steps: reverse those axes so that the data runs forwards.
  if (step.some((s) => s < 0)) {
    y = prim('slice', [y], {
      start: size.map((d, i) => (step[i]! < 0 ? (d as number) - 1 : 0)),
      step: step.map((s) => (s < 0 ? -1 : 1)),
      size: [...size],
    });
  }
  // 2. dilation by |step| on axes with more than one element.
  const strided = (i: number) => Math.abs(step[i]!) > 1 && size[i] !== 1;
  const span = size.map((d, i) => (strided(i) ? ((d as number) - 1) * Math.abs(step[i]!) + 1 : d));
  if (size.some((_, i) => strided(i))) {
    const withUnits: Dim[] = [],
      widths: [number, number][] = [];
    size.forEach((d, i) => {
      withUnits.push(d), widths.push([0, 0]);
      if (strided(i)) withUnits.push(1), widths.push([0, Math.abs(step[i]!) - 1]);
    });
    y = prim('reshape', [y], { shape: withUnits });
    y = prim('pad', [y], { widths, value: 0 });
    const dilated = size.map((d, i) => (strided(i) ? (d as number) * Math.abs(step[i]!) : d));
    y = prim('reshape', [y], { shape: dilated });
    y = prim('slice', [y], { start: size.map(() => 0), step: size.map(() => 1), size: span });
  }
  // 3. pad to the input extent: lo is the smallest input index the slice reads.
  const widths: [number, number][] = [];
  for (let i = 0; i < r; i++) {
    const n = inShape[i]!;
    if (typeof n !== 'number') {
      widths.push([0, 0]); // a dynamic axis is only ever sliced whole
      continue;
    }
    const lo = step[i]! > 0 ? start[i]! : start[i]! + ((size[i] as number) - 1) * step[i]!;
    widths.push([lo, n - lo - (span[i] as number)]);
  }
  if (widths.some(([a, b]) => a !== 0 || b !== 0)) y = prim('pad', [y], { widths, value: 0 });
  return y;
}

/** Transpose of pad: the slice of g that holds the input. */
export function unpad(g: Tensor, inShape: readonly Dim[], widths: readonly (readonly [number, number])[]): Tensor {
  if (widths.every(([a, b]) => a === 0 && b === 0)) return g;
  return prim('slice', [g], { start: widths.map((w) => w[0]), step: inShape.map(() => 1), size: [...inShape] });
}

/** Transpose of concat: the pieces of g along `axis`, one per input shape. */
export function unconcat(g: Tensor, inShapes: readonly (readonly Dim[])[], axis: number): Tensor[] {
  let at = 0;
  return inShapes.map((s) => {
    const start = s.map((_, i) => (i === axis ? at : 0));
    at += s[axis] as number;
    return prim('slice', [g], { start, step: s.map(() => 1), size: [...s] });
  });
}
