// plot.subplots: an empty figure with a rows × cols grid of axes, filled with
// fig.add(traceOrFigure, row, col) (grid.ts places the traces and carries a
// source figure's axis titles, log scales and title over).

import { Figure } from '../figure.js';
import { gridLayout, makeGrid, titleAnnotation } from '../grid.js';
import { layoutOf } from '../options.js';
import { ShapeError } from '../../tensor/errors.js';
import type { CommonOptions } from '../types.js';

export interface SubplotsOptions extends Pick<CommonOptions, 'title' | 'width' | 'height' | 'layout'> {
  /** Titles of the cells, row by row (null or '' leaves a cell untitled; a figure added to an untitled cell brings its own title). */
  titles?: readonly (string | null)[];
  /** Gap between columns, as a fraction of the width (default 0.2 / cols, plotly.py's). */
  horizontalSpacing?: number;
  /** Gap between rows, as a fraction of the height (default 0.3 / rows). */
  verticalSpacing?: number;
}

/**
 * A figure with a grid of rows × cols subplots; cell (row, col), counted from
 * 1 with row 1 at the top, uses the axes x{k}/y{k}, k = (row-1)·cols + col
 * (plain x/y for k = 1), or scene{k} for 3-D traces.
 *
 * @example
 * ```ts
 * const fig = plot.subplots(1, 2, { titles: ['solution', 'residual'] });
 * fig.add(plot.heatmap(tensor([[1, 2], [3, 4]])), 1, 1).add(plot.line(tensor([1, 0.1, 0.01]), { logY: true }), 1, 2);
 * fig.toJSON().data.map((tr) => tr.xaxis);   // ['x', 'x2']  (cell (1, 2) is axes 2)
 * fig.toJSON().layout.yaxis2;               // { domain: [0, 1], anchor: 'x2', type: 'log' }
 * ```
 */
export function subplots(rows: number, cols: number, opts: SubplotsOptions = {}): Figure {
  const op = 'plot.subplots';
  const grid = makeGrid(op, rows, cols, { ...(opts.horizontalSpacing !== undefined ? { horizontal: opts.horizontalSpacing } : {}), ...(opts.verticalSpacing !== undefined ? { vertical: opts.verticalSpacing } : {}) });
  const layout = { ...gridLayout(grid), showlegend: false };
  const titles = opts.titles ?? [];
  if (titles.length > rows * cols) throw new ShapeError(`${op}: expected at most ${rows * cols} titles for a ${rows}×${cols} grid, got ${titles.length}`);
  const annotations = titles.flatMap((t, i) => {
    if (!t) return [];
    grid.titled.add(i + 1);
    return [titleAnnotation(grid, Math.floor(i / cols) + 1, (i % cols) + 1, t)];
  });
  if (annotations.length) Object.assign(layout, { annotations });
  return new Figure({ data: [], layout: layoutOf(op, opts, layout) }, grid);
}
