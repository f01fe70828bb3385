// plot.quiver: a 2-D vector field (u, v) on a grid as arrows, drawn as one
// plotly line trace of segments (shaft, then a two-stroke head) separated by
// gaps, the way plotly's own figure_factory.create_quiver does it; plotly has
// no arrow trace for cartesian axes.
//
// Arrow length = scale · |(u, v)|. The default scale makes the longest arrow
// 0.9 grid spacings, so arrows do not overlap. A dense field is subsampled
// (`stride`), since a million arrows are neither readable nor drawable: the
// default keeps at most about 50 arrows along each axis. The axes are
// equal-aspect by default, or arrow directions would be distorted.

import { ShapeError, ValueError } from '../../tensor/errors.js';
import { Figure } from '../figure.js';
import { fmtShape, indices, valuesOfRank, type FloatArray, type PlotInput } from '../data.js';
import { layoutOf, traceOf } from '../options.js';
import type { CommonOptions } from '../types.js';

export interface QuiverOptions extends CommonOptions {
  /** Coordinates of the columns (length W; default 0..W-1). */
  x?: PlotInput;
  /** Coordinates of the rows (length H; default 0..H-1). */
  y?: PlotInput;
  /** Arrow length per unit of |(u, v)| (default: the longest arrow is 0.9 grid spacings). */
  scale?: number;
  /** Draw every stride-th row and column (default: 1 up to 50 per axis, else ceil(max(H, W) / 50)). */
  stride?: number;
  /** Head length as a fraction of the arrow (default 0.3). */
  headSize?: number;
  /** x and y scaled alike (default true). */
  equalAspect?: boolean;
}

/** Largest value of the dense/default stride. */
const ARROWS_PER_AXIS = 50;
/** Angle of each head stroke to the shaft. */
const HEAD_ANGLE = (25 * Math.PI) / 180;

const spacing = (c: FloatArray): number => (c.length > 1 ? Math.abs(c[c.length - 1]! - c[0]!) / (c.length - 1) : 1) || 1;

/**
 * Arrows (u[i, j], v[i, j]) at (x[j], y[i]) for u, v of shape [H, W].
 *
 * @example
 * ```ts
 * // a uniform flow to the right on a 2×3 grid
 * const fig = plot.quiver(ones([2, 3]), zeros([2, 3]), { x: [0, 1, 2], y: [0, 1], title: 'velocity' });
 * fig.toJSON().data[0]!.type;   // 'scatter'  (the 6 arrows as line segments in one trace)
 * fig.toJSON().layout.title;    // { text: 'velocity' }
 * ```
 */
export function quiver(u: PlotInput, v: PlotInput, opts: QuiverOptions = {}): Figure {
  const op = 'plot.quiver';
  const U = valuesOfRank(op, 'u', u, [2], opts.part), V = valuesOfRank(op, 'v', v, [2], opts.part);
  if (U.shape.join() !== V.shape.join()) throw new ShapeError(`${op}: expected u and v of the same shape, got ${fmtShape(U.shape)} and ${fmtShape(V.shape)}`);
  const [h, w] = U.shape as [number, number];
  const coord = (arg: 'x' | 'y', n: number): FloatArray => {
    const c = opts[arg];
    if (c === undefined) return indices(n);
    const d = valuesOfRank(op, arg, c, [1]).data;
    if (d.length !== n) throw new ShapeError(`${op}: expected ${arg} of length ${n} for u, v of shape ${fmtShape(U.shape)}, got length ${d.length}`);
    return d;
  };
  const xs = coord('x', w), ys = coord('y', h);
  const stride = opts.stride ?? Math.max(1, Math.ceil(Math.max(h, w) / ARROWS_PER_AXIS));
  if (!(Number.isInteger(stride) && stride >= 1)) throw new ValueError(`${op}: expected stride a positive integer, got ${String(stride)}`);
  const headSize = opts.headSize ?? 0.3;
  if (!(headSize >= 0 && headSize <= 1)) throw new ValueError(`${op}: expected headSize in [0, 1], got ${String(headSize)}`);
  let scale = opts.scale;
  if (scale === undefined) {
    let maxLen = 0;
    for (let i = 0; i < h; i += stride) for (let j = 0; j < w; j += stride) {
      const len = Math.hypot(U.data[i * w + j]!, V.data[i * w + j]!);
      if (Number.isFinite(len) && len > maxLen) maxLen = len;
    }
    scale = maxLen > 0 ? (0.9 * Math.min(spacing(xs) * stride, spacing(ys) * stride)) / maxLen : 1;
  } else if (!(Number.isFinite(scale) && scale > 0)) throw new ValueError(`${op}: expected scale a positive number, got ${String(scale)}`);

  // 7 values per arrow: x0, x1, gap, left, tip, right, gap.
  const px: number[] = [], py: number[] = [];
  const cos = Math.cos(HEAD_ANGLE), sin = Math.sin(HEAD_ANGLE);
  for (let i = 0; i < h; i += stride)
    for (let j = 0; j < w; j += stride) {
      const du = U.data[i * w + j]! * scale, dv = V.data[i * w + j]! * scale;
      if (!Number.isFinite(du) || !Number.isFinite(dv) || (du === 0 && dv === 0)) continue;
      const x0 = xs[j]!, y0 = ys[i]!, x1 = x0 + du, y1 = y0 + dv;
      // Head strokes: the reversed shaft direction rotated by ±HEAD_ANGLE, headSize of its length.
      const bx = -du * headSize, by = -dv * headSize;
      px.push(x0, x1, NaN, x1 + bx * cos - by * sin, x1, x1 + bx * cos + by * sin, NaN);
      py.push(y0, y1, NaN, y1 + bx * sin + by * cos, y1, y1 - bx * sin + by * cos, NaN);
    }
  const trace = traceOf({ type: 'scatter', mode: 'lines', x: Float64Array.from(px), y: Float64Array.from(py), hoverinfo: 'skip', line: { width: 1.5 } }, opts);
  const axes = opts.equalAspect === false ? {} : { yaxis: { scaleanchor: 'x', scaleratio: 1 } };
  return new Figure({ data: [trace], layout: layoutOf(op, opts, axes) });
}
