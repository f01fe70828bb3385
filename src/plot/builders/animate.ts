// plot.animate: a sequence of snapshots (a simulation's states) as one plotly
// figure with frames, a slider (one step per frame) and Play / Pause buttons.
// 1-D snapshots animate a line, 2-D snapshots a heatmap.
//
// The color range (heatmaps) or the y range (lines) is fixed to the range of
// all frames, so that frames are comparable and the axes do not jump; pass
// zmin/zmax or yaxis.range to choose another.

import { Tensor } from '../../tensor/tensor.js';
import { ShapeError, ValueError } from '../../tensor/errors.js';
import { Figure } from '../figure.js';
import { finiteRange, fmtShape, indices, rowsOf, toValues, valuesOfRank, type FloatArray, type PlotInput, type Values } from '../data.js';
import { DEFAULT_MAX_POINTS, checkMaxPoints, decimationIndices, gather } from '../decimate.js';
import { layoutOf, traceOf } from '../options.js';
import type { ColorOptions, CommonOptions, Frame, Trace } from '../types.js';

export interface AnimateOptions extends CommonOptions, ColorOptions {
  /** Slider label of each frame (e.g. the simulation times; default 0, 1, ...). */
  labels?: readonly (string | number)[];
  /** Milliseconds per frame when playing (default 100). */
  duration?: number;
  /** Line frames: x coordinates (length n). Heatmap frames: column coordinates (length W). */
  x?: PlotInput;
  /** Heatmap frames: row coordinates (length H). */
  y?: PlotInput;
  /** Line frames longer than this are decimated (see plot.line; default 100 000). */
  maxPoints?: number;
}

function snapshots(op: string, frames: readonly PlotInput[] | Tensor, part: CommonOptions['part']): Values[] {
  if (frames instanceof Tensor) {
    if (frames.ndim < 2 || frames.ndim > 3) throw new ShapeError(`${op}: expected a tensor of snapshots [T, n] or [T, H, W], got shape ${fmtShape(frames.shape)}`);
    const all = toValues(op, frames, part);
    const [t, ...rest] = all.shape as [number, ...number[]];
    const size = rest.reduce((a, b) => a * b, 1);
    return Array.from({ length: t }, (_, i) => ({ data: all.data.subarray(i * size, (i + 1) * size), shape: rest }));
  }
  if (!Array.isArray(frames)) throw new ValueError(`${op}: expected an array of snapshots or a tensor [T, ...], got ${typeof frames}`);
  return frames.map((f, i) => valuesOfRank(op, `frame ${i}`, f, [1, 2], part));
}

/**
 * An animation of snapshots: an array of T tensors (all [n] or all [H, W]), or
 * one tensor [T, n] / [T, H, W].
 *
 * @example
 * ```ts
 * const times = [0, 0.5, 1];
 * const states = times.map((t) => linspace(0, 1, 5).mul(t));   // three [5] snapshots
 * const fig = plot.animate(states, { labels: times.map((t) => `t = ${t.toFixed(2)}`) });
 * fig.toJSON().frames!.length;            // 3
 * fig.toJSON().frames![1]!.data[0]!.y;    // [0, 0.125, 0.25, 0.375, 0.5]  (0.5 · linspace(0, 1, 5))
 * ```
 */
export function animate(frames: readonly PlotInput[] | Tensor, opts: AnimateOptions = {}): Figure {
  const op = 'plot.animate';
  const snaps = snapshots(op, frames, opts.part);
  if (snaps.length === 0) throw new ValueError(`${op}: expected at least one frame, got none`);
  const shape = snaps[0]!.shape;
  snaps.forEach((s, i) => {
    if (s.shape.join() !== shape.join()) throw new ShapeError(`${op}: expected every frame of shape ${fmtShape(shape)} (frame 0's), got ${fmtShape(s.shape)} for frame ${i}`);
  });
  const labels = opts.labels ?? snaps.map((_, i) => i);
  if (labels.length !== snaps.length) throw new ShapeError(`${op}: expected ${snaps.length} labels (one per frame), got ${labels.length}`);
  const duration = opts.duration ?? 100;
  if (!(Number.isFinite(duration) && duration >= 0)) throw new ValueError(`${op}: expected duration a non-negative number of milliseconds, got ${String(duration)}`);

  // Global range over all frames.
  let lo = Infinity, hi = -Infinity;
  for (const s of snaps) {
    const [a, b] = finiteRange(s.data);
    if (a < lo) lo = a;
    if (b > hi) hi = b;
  }
  const coord = (arg: 'x' | 'y', n: number): FloatArray | undefined => {
    const c = opts[arg];
    if (c === undefined) return undefined;
    const d = valuesOfRank(op, arg, c, [1]).data;
    if (d.length !== n) throw new ShapeError(`${op}: expected ${arg} of length ${n} for frames of shape ${fmtShape(shape)}, got length ${d.length}`);
    return d;
  };

  let traceOfFrame: (s: Values) => Trace;
  const base: Record<string, unknown> = {};
  if (shape.length === 2) {
    const x = coord('x', shape[1]!), y = coord('y', shape[0]!);
    const zmin = opts.zmin ?? lo, zmax = opts.zmax ?? hi;
    traceOfFrame = (s) => {
      const t: Trace = { type: 'heatmap', z: rowsOf(s), zmin, zmax };
      if (x) t.x = x;
      if (y) t.y = y;
      if (opts.colorscale !== undefined) t.colorscale = opts.colorscale;
      if (opts.reversescale !== undefined) t.reversescale = opts.reversescale;
      return traceOf(t, opts);
    };
  } else {
    const maxPoints = opts.maxPoints ?? DEFAULT_MAX_POINTS;
    checkMaxPoints(op, maxPoints);
    const x = coord('x', shape[0]!) ?? indices(shape[0]!);
    traceOfFrame = (s) => {
      const keep = decimationIndices(s.data, maxPoints);
      return traceOf({ type: 'scatter', mode: 'lines', x: gather(x, keep), y: gather(s.data, keep) }, opts);
    };
    if (lo <= hi) {
      const pad = (hi - lo) * 0.05 || 1;
      base.yaxis = { range: [lo - pad, hi + pad] };
    }
  }

  const names = snaps.map((_, i) => String(i));
  const plotlyFrames: Frame[] = snaps.map((s, i) => ({ name: names[i]!, data: [traceOfFrame(s)] }));
  const step = (name: string, label: string | number) => ({
    method: 'animate',
    label: String(label),
    args: [[name], { mode: 'immediate', frame: { duration, redraw: true }, transition: { duration: 0 } }],
  });
  base.sliders = [{ active: 0, x: 0.1, len: 0.9, pad: { t: 50, b: 10 }, currentvalue: { prefix: '' }, steps: names.map((nm, i) => step(nm, labels[i]!)) }];
  base.updatemenus = [
    {
      type: 'buttons',
      direction: 'left',
      showactive: false,
      x: 0.1,
      y: 0,
      xanchor: 'right',
      yanchor: 'top',
      pad: { t: 60, r: 10 },
      buttons: [
        { label: 'Play', method: 'animate', args: [null, { frame: { duration, redraw: true }, transition: { duration: 0 }, fromcurrent: true, mode: 'immediate' }] },
        { label: 'Pause', method: 'animate', args: [[null], { frame: { duration: 0, redraw: false }, transition: { duration: 0 }, mode: 'immediate' }] },
      ],
    },
  ];
  return new Figure({ data: [plotlyFrames[0]!.data[0]!], layout: layoutOf(op, opts, base), frames: plotlyFrames });
}
