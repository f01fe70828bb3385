// Headless Chromium for the plot module: rendering a figure's HTML to PNG and
// checking that plotly rendered it. Placeholder: the implementation lands with
// issue 16's browser work.

import { ValueError } from '../tensor/errors.js';

/** What the browser needs of a figure. */
export interface Renderable {
  toHTML(opts?: { title?: string }): string;
}

export interface PngOptions {
  width?: number;
  height?: number;
  scale?: number;
}

/** Writes the figure as a PNG of width×height CSS pixels times scale. */
export async function savePng(fig: Renderable, path: string, opts: PngOptions = {}): Promise<void> {
  void [fig, path, opts];
  throw new ValueError('plot: savePng is not implemented yet');
}
