// Figure: what every plot builder returns. It holds plotly's figure object
// ({data, layout, frames}) as plain, mutable objects (users may tweak
// fig.layout before saving, in plotly's vocabulary), and turns it into JSON,
// an offline HTML page, a file, a PNG (browser.ts) or a notebook display (show.ts).
//
// A figure made by plot.subplots(rows, cols) also knows its grid, so
// add(trace, row, col) can put a trace on that cell's axes (subplots.ts says how).

import { writeFile } from 'node:fs/promises';
import { ValueError } from '../tensor/errors.js';
import { figureHtml, type HtmlOptions } from './html.js';
import { plainSpec } from './encode.js';
import { savePng, type PngOptions } from './browser.js';
import { show } from './show.js';
import { placeOnGrid, type Grid } from './grid.js';
import type { Frame, FigureSpec, Layout, Trace } from './types.js';

/**
 * A plotly figure ({data, layout, frames}) returned by every plot builder: toJSON, toHTML, save, savePng, show.
 * @example
 * ```ts
 * const fig = new plot.Figure({ layout: { title: { text: 'two traces' } } });
 * fig.add({ type: 'bar', x: ['a', 'b'], y: [3, 5] }).add(plot.line(tensor([1, 2, 4])));
 * fig.toJSON().data.map((tr) => tr.type);       // ['bar', 'scatter']
 * fig.toHTML().startsWith('<!DOCTYPE html>');   // true  (one page, plotly.js inlined: works offline)
 * ```
 */
export class Figure {
  /** plotly traces. */
  data: Trace[];
  /** plotly layout. */
  layout: Layout;
  /** plotly animation frames (plot.animate). */
  frames?: Frame[];
  /** @internal the subplot grid of plot.subplots (undefined for a single plot). */
  readonly grid?: Grid;

  constructor(spec: Partial<FigureSpec> = {}, grid?: Grid) {
    this.data = spec.data ?? [];
    this.layout = spec.layout ?? {};
    if (spec.frames) this.frames = spec.frames;
    if (grid) this.grid = grid;
  }

  /** plotly's figure object as plain JSON-safe values: typed arrays become arrays, NaN and ±Infinity become null (plotly gaps). */
  toJSON(): FigureSpec {
    const spec: FigureSpec = { data: this.data, layout: this.layout };
    if (this.frames) spec.frames = this.frames;
    return plainSpec(spec);
  }

  /** One self-contained HTML page (plotly.js inlined, works offline) rendering this figure. See HtmlOptions. */
  toHTML(opts: HtmlOptions = {}): string {
    const spec: FigureSpec = { data: this.data, layout: this.layout };
    if (this.frames) spec.frames = this.frames;
    return figureHtml(spec, opts);
  }

  /** Writes toHTML() to `path`. */
  async save(path: string, opts: HtmlOptions = {}): Promise<void> {
    await writeFile(path, this.toHTML(opts), 'utf8');
  }

  /** Renders the figure to a PNG of width×height CSS pixels times scale, through headless Chromium. */
  async savePng(path: string, opts: PngOptions = {}): Promise<void> {
    await savePng(this, path, opts);
  }

  /** Displays the figure: a live plotly figure in a tslab notebook, else an HTML file whose path is printed. */
  show(): string | undefined {
    return show(this);
  }

  /**
   * Adds a trace (a plotly trace object, or every trace of another Figure, with
   * its axis titles and types) and returns this figure. On a figure of
   * plot.subplots, `row` and `col` (1-based, default 1) choose the cell;
   * elsewhere they must be left out.
   */
  add(trace: Trace | Figure, row?: number, col?: number): this {
    const traces = trace instanceof Figure ? trace.data : [trace];
    if (trace !== null && typeof trace === 'object' && !(trace instanceof Figure) && Array.isArray(trace))
      throw new ValueError(`Figure.add: expected one trace object or a Figure, got an array (call add once per trace)`);
    if (!this.grid) {
      if (row !== undefined || col !== undefined) throw new ValueError(`Figure.add: row/col given (${row}, ${col}) but this figure has no subplot grid; make it with plot.subplots(rows, cols)`);
      this.data.push(...traces.map((t) => ({ ...t })));
      return this;
    }
    placeOnGrid(this, this.grid, traces, trace instanceof Figure ? trace.layout : undefined, row ?? 1, col ?? 1);
    return this;
  }
}
