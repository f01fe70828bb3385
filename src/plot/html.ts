// One self-contained HTML page showing a figure: plotly.js inlined (no CDN, so
// the file works offline and in archived results), the figure as JSON, and a
// script calling Plotly.newPlot(div, data, layout, {responsive: true}) and
// adding the animation frames, if any.
//
// Escaping: the figure JSON and plotly's own text go inside <script> elements,
// which end at the first "</script" whatever the JavaScript around it means. In
// the JSON every '<' becomes \u003c (same string to JSON.parse and to JS); in
// plotly's text "</script" is broken as "<\/script" (same meaning inside JS
// strings, regexes and comments, the only places it can occur).

import { plotlySource } from './plotly-source.js';
import { binaryValue, plainSpec } from './encode.js';
import type { FigureSpec } from './types.js';

export interface HtmlOptions {
  /** The page title (document.title). Default: the figure's title, else 'rlx figure'. */
  title?: string;
  /**
   * How data arrays are written: `'binary'` (default) ships typed arrays as
   * plotly's base64 typed-array specs (compact, fast to load); `'json'` writes
   * every number as text (what toJSON() gives).
   */
  encoding?: 'binary' | 'json';
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const scriptSafeJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** The figure's title text, if it has one (layout.title is a string or {text}). */
function figureTitle(spec: FigureSpec): string | undefined {
  const t = spec.layout['title'];
  if (typeof t === 'string') return t;
  if (t !== null && typeof t === 'object' && typeof (t as { text?: unknown }).text === 'string') return (t as { text: string }).text;
  return undefined;
}

/** The page for a figure. */
export function figureHtml(spec: FigureSpec, opts: HtmlOptions = {}): string {
  const title = opts.title ?? figureTitle(spec) ?? 'rlx figure';
  const payload = opts.encoding === 'json' ? plainSpec(spec) : (binaryValue(spec) as FigureSpec);
  const fig = scriptSafeJson(payload);
  const plotly = plotlySource().replace(/<\/script/gi, '<\\/script');
  return `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>html, body { margin: 0; height: 100%; } #rlx-figure { width: 100%; height: 100vh; }</style>
<script>${plotly}</script>
</head>
<body>
<div id="rlx-figure"></div>
<script>
(function () {
  var fig = ${fig};
  document.title = ${scriptSafeJson(title)};
  var div = document.getElementById('rlx-figure');
  Plotly.newPlot(div, fig.data, fig.layout, { responsive: true }).then(function () {
    if (fig.frames && fig.frames.length) return Plotly.addFrames(div, fig.frames);
  });
})();
</script>
</body>
</html>
`;
}
