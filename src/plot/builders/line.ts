// plot.line and plot.scatter: y against x (or against its index), as plotly
// 'scatter' traces drawn with lines or with markers.
//
// Lines longer than maxPoints (DEFAULT_MAX_POINTS = 100 000) are decimated
// (decimate.ts: min and max per bucket, extremes and order kept); scatter
// plots are not, since each marker is a datum. For very many points pass
// `trace: {type: 'scattergl'}` (WebGL) or decimate yourself.

import { Tensor } from '../../tensor/tensor.js';
import { ShapeError } from '../../tensor/errors.js';
import { Figure } from '../figure.js';
import { indices, valuesOfRank, type FloatArray, type PlotInput } from '../data.js';
import { DEFAULT_MAX_POINTS, checkMaxPoints, decimationIndices, gather } from '../decimate.js';
import { layoutOf, traceOf } from '../options.js';
import type { CommonOptions } from '../types.js';

/** y alone, or x and y of the same length. */
export type XY = PlotInput | { x?: PlotInput; y: PlotInput };

export interface LineOptions extends CommonOptions {
  /** plotly scatter mode (default 'lines'). */
  mode?: 'lines' | 'markers' | 'lines+markers';
  /** Lines longer than this are decimated, keeping each bucket's min and max (default DEFAULT_MAX_POINTS = 100 000; Infinity: never). */
  maxPoints?: number;
}

export interface ScatterOptions extends CommonOptions {
  /** plotly scatter mode (default 'markers'). */
  mode?: 'lines' | 'markers' | 'lines+markers';
}

const isXY = (v: XY): v is { x?: PlotInput; y: PlotInput } => v !== null && typeof v === 'object' && !(v instanceof Tensor) && !Array.isArray(v) && !ArrayBuffer.isView(v);

/** The x and y arrays of a line or scatter, checked: 1-D, equal lengths. */
export function xyOf(op: string, v: XY, part: CommonOptions['part']): { x: FloatArray; y: FloatArray } {
  const { x: xIn, y: yIn } = isXY(v) ? v : { x: undefined, y: v };
  const y = valuesOfRank(op, 'y', yIn, [1], part).data;
  if (xIn === undefined) return { x: indices(y.length), y };
  const x = valuesOfRank(op, 'x', xIn, [1], part).data;
  if (x.length !== y.length) throw new ShapeError(`${op}: expected x and y of the same length, got x of length ${x.length} and y of length ${y.length}`);
  return { x, y };
}

/**
 * A line plot of y (1-D: a Tensor, typed array or number array) against its
 * index, or of `{x, y}`. Non-finite values are gaps in the line. Complex data
 * shows `opts.part` (default 'abs'). Long lines are decimated (LineOptions.maxPoints).
 *
 * @example
 * ```ts
 * const t = linspace(0, 1, 5);
 * const fig = plot.line({ x: t, y: t.square() }, { title: 'u(t) = t²', xlabel: 't' });
 * fig.toJSON().data[0]!.mode;   // 'lines'
 * fig.toJSON().data[0]!.y;      // [0, 0.0625, 0.25, 0.5625, 1]
 * ```
 */
export function line(v: XY, opts: LineOptions = {}): Figure {
  const op = 'plot.line';
  const maxPoints = opts.maxPoints ?? DEFAULT_MAX_POINTS;
  checkMaxPoints(op, maxPoints);
  const { x, y } = xyOf(op, v, opts.part);
  const keep = decimationIndices(y, maxPoints);
  const trace = traceOf({ type: 'scatter', mode: opts.mode ?? 'lines', x: gather(x, keep), y: gather(y, keep) }, opts);
  return new Figure({ data: [trace], layout: layoutOf(op, opts) });
}

/**
 * A scatter plot (markers) of y against its index, or of `{x, y}`; every point
 * is drawn (no decimation). Marker style through `trace: {marker: {size: 4}}`.
 *
 * @example
 * ```ts
 * const fig = plot.scatter({ x: [1, 2, 3], y: [2, 4, 6] }, { xlabel: 'PC 1', ylabel: 'PC 2', trace: { marker: { size: 4 } } });
 * fig.toJSON().data[0]!.mode;   // 'markers'
 * fig.toJSON().layout.xaxis;    // { title: { text: 'PC 1' } }
 * ```
 */
export function scatter(v: XY, opts: ScatterOptions = {}): Figure {
  const op = 'plot.scatter';
  const { x, y } = xyOf(op, v, opts.part);
  const trace = traceOf({ type: 'scatter', mode: opts.mode ?? 'markers', x, y }, opts);
  return new Figure({ data: [trace], layout: layoutOf(op, opts) });
}
