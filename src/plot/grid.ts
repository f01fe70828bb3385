// Subplot grids: which axes a cell of plot.subplots(rows, cols) uses and where
// they sit on the page, and how Figure.add(trace, row, col) puts a trace there.
//
// Plotly's vocabulary: cell k = (row-1)·cols + col (row 1 at the top) uses the
// axes 'x{k}'/'y{k}' (plain 'x'/'y' for k = 1), declared as layout.xaxis{k} /
// yaxis{k} with a `domain` (their extent in page fractions) and an `anchor`
// (the other axis of the cell). 3-D traces use a scene{k} with the same domain
// instead. The domains are computed here, like plotly.py's make_subplots (its
// default spacings), rather than by layout.grid, so that subplot titles
// (annotations) and colorbars can be placed beside their cell.

import { IndexError, ValueError } from '../tensor/errors.js';
import { merge } from './options.js';
import type { Layout, Trace } from './types.js';

export interface Grid {
  rows: number;
  cols: number;
  /** x domain of each column, y domain of each row (row 1 first). */
  xDomains: [number, number][];
  yDomains: [number, number][];
  /** Cells that already have a title annotation. */
  titled: Set<number>;
}

/** Trace types drawn in a 3-D scene rather than on x/y axes. */
const SCENE_TYPES = new Set(['surface', 'scatter3d', 'mesh3d', 'cone', 'streamtube', 'isosurface', 'volume']);
/** Trace types with a colorbar, which goes beside its cell rather than at the page's right edge. */
const COLORBAR_TYPES = new Set(['heatmap', 'contour', 'surface', 'histogram2d', 'histogram2dcontour']);

const round = (v: number): number => Math.round(v * 1e9) / 1e9;

function domains(n: number, spacing: number): [number, number][] {
  const size = (1 - spacing * (n - 1)) / n;
  return Array.from({ length: n }, (_, i) => [round(i * (size + spacing)), round(i * (size + spacing) + size)]);
}

export function makeGrid(op: string, rows: number, cols: number, spacing: { horizontal?: number; vertical?: number } = {}): Grid {
  for (const [name, v] of [['rows', rows], ['cols', cols]] as const)
    if (!Number.isInteger(v) || v < 1) throw new ValueError(`${op}: expected ${name} a positive integer, got ${String(v)}`);
  const h = spacing.horizontal ?? 0.2 / cols, vsp = spacing.vertical ?? 0.3 / rows;
  for (const [name, v, n] of [['horizontalSpacing', h, cols], ['verticalSpacing', vsp, rows]] as const)
    if (!(v >= 0 && v * (n - 1) < 1)) throw new ValueError(`${op}: expected ${name} in [0, 1/${Math.max(n - 1, 1)}), got ${v}`);
  const y = domains(rows, vsp).reverse(); // row 1 at the top
  return { rows, cols, xDomains: domains(cols, h), yDomains: y, titled: new Set() };
}

/** Cell k's axis ids ('x', 'x2', ...) and layout keys ('xaxis', 'xaxis2', ...). */
export function cellAxes(k: number): { x: string; y: string; xaxis: string; yaxis: string; scene: string } {
  const s = k === 1 ? '' : String(k);
  return { x: `x${s}`, y: `y${s}`, xaxis: `xaxis${s}`, yaxis: `yaxis${s}`, scene: `scene${s}` };
}

/** Declares every cell's axes in the layout (domain + anchor). */
export function gridLayout(grid: Grid): Layout {
  const layout: Layout = {};
  for (let r = 1; r <= grid.rows; r++)
    for (let c = 1; c <= grid.cols; c++) {
      const a = cellAxes((r - 1) * grid.cols + c);
      layout[a.xaxis] = { domain: grid.xDomains[c - 1], anchor: a.y };
      layout[a.yaxis] = { domain: grid.yDomains[r - 1], anchor: a.x };
    }
  return layout;
}

/** A title annotation above cell (row, col). */
export function titleAnnotation(grid: Grid, row: number, col: number, text: string): Record<string, unknown> {
  const [x0, x1] = grid.xDomains[col - 1]!, [, y1] = grid.yDomains[row - 1]!;
  return { text, x: round((x0 + x1) / 2), y: y1, xref: 'paper', yref: 'paper', xanchor: 'center', yanchor: 'bottom', showarrow: false, font: { size: 14 } };
}

/** Axis attributes of a source figure worth carrying to a cell (titles, log type, ranges, reversed, equal aspect). */
function axisAttrs(src: unknown, a: { x: string; y: string }): Record<string, unknown> {
  if (src === null || typeof src !== 'object') return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(src)) {
    if (k === 'domain' || k === 'anchor' || k === 'overlaying') continue;
    out[k] = k === 'scaleanchor' && typeof v === 'string' ? (v.startsWith('x') ? a.x : a.y) : v;
  }
  return out;
}

interface Placeable {
  data: Trace[];
  layout: Layout;
}

/** Adds traces (and, from a source figure, its axis settings and title) to cell (row, col). */
export function placeOnGrid(fig: Placeable, grid: Grid, traces: readonly Trace[], src: Layout | undefined, row: number, col: number): void {
  if (!Number.isInteger(row) || row < 1 || row > grid.rows || !Number.isInteger(col) || col < 1 || col > grid.cols)
    throw new IndexError(`Figure.add: cell (row ${row}, col ${col}) is outside the ${grid.rows}×${grid.cols} grid (rows and cols count from 1)`);
  const k = (row - 1) * grid.cols + col;
  const a = cellAxes(k);
  const xd = grid.xDomains[col - 1]!, yd = grid.yDomains[row - 1]!;
  for (const t of traces) {
    const placed: Trace = { ...t };
    if (SCENE_TYPES.has(String(t.type))) {
      placed.scene = a.scene;
      fig.layout[a.scene] = merge((fig.layout[a.scene] as Record<string, unknown>) ?? {}, { domain: { x: xd, y: yd } });
    } else {
      placed.xaxis = a.x;
      placed.yaxis = a.y;
    }
    if (COLORBAR_TYPES.has(String(t.type)) && t.showscale !== false)
      placed.colorbar = merge({ x: round(xd[1] + 0.01), xanchor: 'left', y: round((yd[0] + yd[1]) / 2), yanchor: 'middle', len: round(yd[1] - yd[0]) }, t.colorbar as Record<string, unknown> | undefined);
    fig.data.push(placed);
  }
  if (!src) return;
  const sceneSrc = src['scene'];
  if (traces.some((t) => SCENE_TYPES.has(String(t.type))) && sceneSrc && typeof sceneSrc === 'object') fig.layout[a.scene] = merge(fig.layout[a.scene] as Record<string, unknown>, sceneSrc as Record<string, unknown>);
  fig.layout[a.xaxis] = merge((fig.layout[a.xaxis] as Record<string, unknown>) ?? {}, axisAttrs(src['xaxis'], a));
  fig.layout[a.yaxis] = merge((fig.layout[a.yaxis] as Record<string, unknown>) ?? {}, axisAttrs(src['yaxis'], a));
  const t = src['title'];
  const text = typeof t === 'string' ? t : t && typeof t === 'object' ? (t as { text?: unknown }).text : undefined;
  if (typeof text === 'string' && !grid.titled.has(k)) {
    grid.titled.add(k);
    fig.layout['annotations'] = [...((fig.layout['annotations'] as unknown[]) ?? []), titleAnnotation(grid, row, col, text)];
  }
}
