// fig.show(): a live figure in tslab, an HTML file elsewhere. Placeholder: the
// implementation lands with issue 16's display work.

import { ValueError } from '../tensor/errors.js';

/** What show needs of a figure. */
export interface Showable {
  toJSON(): { data: unknown[]; layout: Record<string, unknown>; frames?: unknown[] };
  toHTML(opts?: { title?: string }): string;
}

/** Shows the figure (tslab: a plotly MIME bundle; a terminal: writes HTML to a temp file and prints its path). */
export function show(fig: Showable): void {
  void fig;
  throw new ValueError('plot: show is not implemented yet');
}
