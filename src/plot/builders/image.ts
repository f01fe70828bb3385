// plot.image: a picture, not a field: an RGB array [H, W, 3] as plotly's
// 'image' trace, or a grayscale array [H, W] as a gray heatmap, both with row 0
// at the top and square pixels.
//
// Values map to intensity through `range` [black, white]: by default [0, 1]
// for float data and [0, 255] for int32/bool data and plain arrays of integers,
// the two usual conventions. Values outside the range are clipped by plotly.

import { Tensor } from '../../tensor/tensor.js';
import { isInexact } from '../../tensor/dtype.js';
import { ShapeError, ValueError } from '../../tensor/errors.js';
import { Figure } from '../figure.js';
import { rowsOf, toValues, fmtShape, type PlotInput, type FloatArray } from '../data.js';
import { layoutOf, traceOf } from '../options.js';
import type { CommonOptions, Trace } from '../types.js';

export interface ImageOptions extends CommonOptions {
  /** Values shown as black and as full intensity (default [0, 1] for float tensors and typed arrays, [0, 255] for integer data). */
  range?: [number, number];
}

function defaultRange(x: PlotInput, data: FloatArray): [number, number] {
  if (x instanceof Tensor) return isInexact(x.dtype) ? [0, 1] : [0, 255];
  if (ArrayBuffer.isView(x)) return x instanceof Float32Array || x instanceof Float64Array ? [0, 1] : [0, 255];
  for (let i = 0; i < data.length; i++) if (!Number.isInteger(data[i]!)) return [0, 1];
  return [0, 255];
}

/**
 * An image: rgb [H, W, 3] or gray [H, W]. Row 0 at the top, square pixels.
 *
 * @example
 * ```ts
 * // a 2×2 rgb image, floats in [0, 1]: red, green / blue, white
 * const rgb = tensor([[[1, 0, 0], [0, 1, 0]], [[0, 0, 1], [1, 1, 1]]]);
 * const fig = plot.image(rgb, { title: 'four pixels' });
 * fig.toJSON().data[0]!.type;   // 'image'
 * fig.toJSON().data[0]!.zmax;   // [1, 1, 1]  (float data: 1 is full intensity; integer data: 255)
 * ```
 */
export function image(img: PlotInput, opts: ImageOptions = {}): Figure {
  const op = 'plot.image';
  const v = toValues(`${op}: image`, img, opts.part);
  const s = v.shape;
  if (!(s.length === 2 || (s.length === 3 && s[2] === 3))) throw new ShapeError(`${op}: expected an rgb image [H, W, 3] or a gray image [H, W], got shape ${fmtShape(s)}`);
  const range = opts.range ?? defaultRange(img, v.data);
  if (!(Array.isArray(range) && range.length === 2 && Number.isFinite(range[0]) && Number.isFinite(range[1]) && range[0] < range[1])) throw new ValueError(`${op}: expected range [lo, hi] with finite lo < hi, got ${JSON.stringify(range)}`);
  const axes = { xaxis: { showgrid: false, zeroline: false }, yaxis: { autorange: 'reversed', scaleanchor: 'x', scaleratio: 1, showgrid: false, zeroline: false } };
  let trace: Trace;
  if (s.length === 3) {
    const [h, w] = s as [number, number, number];
    // [H][W] pixels of 3 channels (views, no copy); plotly's image trace reads z[i][j] = [r, g, b].
    const z = Array.from({ length: h }, (_, i) => Array.from({ length: w }, (_, j) => v.data.subarray((i * w + j) * 3, (i * w + j) * 3 + 3)));
    trace = { type: 'image', z, colormodel: 'rgb', zmin: [range[0], range[0], range[0]], zmax: [range[1], range[1], range[1]] };
  } else {
    trace = { type: 'heatmap', z: rowsOf(v), colorscale: [[0, 'rgb(0,0,0)'], [1, 'rgb(255,255,255)']], zmin: range[0], zmax: range[1], showscale: false };
  }
  return new Figure({ data: [traceOf(trace, opts)], layout: layoutOf(op, opts, axes) });
}
