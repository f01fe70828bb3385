// plot.heatmap, plot.contour and plot.surface: a scalar field z of shape [H, W]
// (row i is y = y[i], column j is x = x[j]) drawn as colored cells, contour
// lines or a 3-D surface.
//
// z goes to plotly as H typed-array rows (views of one buffer, no copy), which
// toHTML ships as one base64 block (encode.ts): a 1024×1024 field stays a few MB.
// Row 0 is at the bottom (plotly's and the mathematical convention: y grows
// upward); `origin: 'upper'` puts it at the top, like a matrix or an image.

import { ShapeError, ValueError } from '../../tensor/errors.js';
import { Figure } from '../figure.js';
import { fmtShape, rowsOf, valuesOfRank, type FloatArray, type PlotInput, type Values } from '../data.js';
import { layoutOf, traceOf } from '../options.js';
import type { ColorOptions, CommonOptions, Trace } from '../types.js';

export interface FieldOptions extends CommonOptions, ColorOptions {
  /** Coordinates of the columns (length W; default 0..W-1). */
  x?: PlotInput;
  /** Coordinates of the rows (length H; default 0..H-1). */
  y?: PlotInput;
}

export interface HeatmapOptions extends FieldOptions {
  /** Where row 0 goes: 'lower' (default, y grows upward) or 'upper' (matrix / image order). */
  origin?: 'lower' | 'upper';
  /** Square cells (x and y scaled alike: `yaxis.scaleanchor = 'x'`). Default false. */
  equalAspect?: boolean;
}

export interface SurfaceOptions extends FieldOptions {
  /** z axis title (scene.zaxis.title). */
  zlabel?: string;
}

/** z [H, W] and its optional coordinates, checked. */
function fieldOf(op: string, z: PlotInput, opts: FieldOptions): { zv: Values; x?: FloatArray; y?: FloatArray } {
  const zv = valuesOfRank(op, 'z', z, [2], opts.part);
  const [h, w] = zv.shape as [number, number];
  const coord = (arg: 'x' | 'y', n: number): FloatArray | undefined => {
    const c = opts[arg];
    if (c === undefined) return undefined;
    const v = valuesOfRank(op, arg, c, [1]).data;
    if (v.length !== n) throw new ShapeError(`${op}: expected ${arg} of length ${n} for z of shape ${fmtShape(zv.shape)}, got length ${v.length}`);
    return v;
  };
  const x = coord('x', w), y = coord('y', h);
  return { zv, ...(x ? { x } : {}), ...(y ? { y } : {}) };
}

function fieldTrace(type: string, f: ReturnType<typeof fieldOf>, opts: FieldOptions): Trace {
  const t: Trace = { type, z: rowsOf(f.zv) };
  if (f.x) t.x = f.x;
  if (f.y) t.y = f.y;
  for (const k of ['colorscale', 'reversescale', 'zmin', 'zmax'] as const) if (opts[k] !== undefined) t[k] = opts[k];
  return traceOf(t, opts);
}

/**
 * A heatmap of z [H, W]: one colored cell per element, with a colorbar.
 * Non-finite values are blank cells. Complex z shows `opts.part` (default 'abs').
 *
 * @example
 * ```ts
 * const u = tensor([[1, 2, 3], [4, 5, 6]]);
 * const fig = plot.heatmap(u, { colorscale: 'RdBu', title: 'u(x, y)', equalAspect: true });
 * fig.toJSON().data[0]!.type;   // 'heatmap'
 * fig.toJSON().data[0]!.z;      // [[1, 2, 3], [4, 5, 6]]  (row i drawn at y = i)
 * ```
 */
export function heatmap(z: PlotInput, opts: HeatmapOptions = {}): Figure {
  const op = 'plot.heatmap';
  const f = fieldOf(op, z, opts);
  const yaxis: Record<string, unknown> = {};
  if (opts.origin === 'upper') yaxis.autorange = 'reversed';
  else if (opts.origin !== undefined && opts.origin !== 'lower') throw new ValueError(`${op}: expected origin 'lower' or 'upper', got '${String(opts.origin)}'`);
  if (opts.equalAspect) Object.assign(yaxis, { scaleanchor: 'x', scaleratio: 1 });
  return new Figure({ data: [fieldTrace('heatmap', f, opts)], layout: layoutOf(op, opts, Object.keys(yaxis).length ? { yaxis } : {}) });
}

/**
 * Contour lines of z [H, W] (filled by default, plotly's `contours.coloring`).
 *
 * @example
 * ```ts
 * const x = linspace(-1, 1, 21);
 * const psi = x.reshape([1, 21]).square().add(x.reshape([21, 1]).square());   // x² + y² on a 21×21 grid
 * const fig = plot.contour(psi, { colorscale: 'Viridis', trace: { ncontours: 10 } });
 * fig.toJSON().data[0]!.type;        // 'contour'
 * fig.toJSON().data[0]!.ncontours;   // 10
 * ```
 */
export function contour(z: PlotInput, opts: FieldOptions = {}): Figure {
  const op = 'plot.contour';
  return new Figure({ data: [fieldTrace('contour', fieldOf(op, z, opts), opts)], layout: layoutOf(op, opts) });
}

/**
 * z [H, W] as a 3-D surface over the (x, y) grid. The axis shortcuts (xlabel,
 * logX, xaxis...) apply to the scene's axes (layout.scene.xaxis ...).
 *
 * @example
 * ```ts
 * const u = tensor([[0, 1], [1, 2]]);   // u = x + y on a 2×2 grid
 * const fig = plot.surface(u, { zlabel: 'u', colorscale: 'Viridis' });
 * fig.toJSON().data[0]!.type;   // 'surface'
 * fig.toJSON().layout.scene;    // { zaxis: { title: { text: 'u' } } }
 * ```
 */
export function surface(z: PlotInput, opts: SurfaceOptions = {}): Figure {
  const op = 'plot.surface';
  const scene = opts.zlabel !== undefined ? { scene: { zaxis: { title: { text: opts.zlabel } } } } : {};
  return new Figure({ data: [fieldTrace('surface', fieldOf(op, z, opts), opts)], layout: layoutOf(op, opts, scene, { x: 'scene.xaxis', y: 'scene.yaxis' }) });
}
