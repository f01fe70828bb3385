// fig.show(): a live figure in a tslab notebook, an HTML file elsewhere.
//
// In tslab the figure goes out as one Jupyter display_data message carrying a
// MIME bundle: `application/vnd.plotly.v1+json` (plotly's figure JSON, which
// JupyterLab with the plotly extension and VS Code draw natively) and a
// `text/html` fallback for every other front end, plus `text/plain`. The
// fallback is the figure's self-contained page inside an <iframe srcdoc>: the
// iframe keeps plotly away from the notebook's own page (classic Jupyter loads
// require.js, under which plotly's UMD bundle registers an AMD module instead
// of window.Plotly, and notebook CSS would restyle the plot).
//
// tslab's public `display` API sends one MIME type per message, so the bundle
// is written through the kernel's own writer (tslab/dist/jupyter.js's
// lastWriteDisplayData, what display.raw calls); see tslabDisplay below.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** What show needs of a figure. */
export interface Showable {
  toJSON(): { data: unknown[]; layout: Record<string, unknown>; frames?: unknown[] };
  toHTML(opts?: { title?: string }): string;
}

/** A Jupyter MIME bundle: MIME type → content (a string, or an object for JSON types). */
export type MimeBundle = Record<string, unknown>;

/** The plotly MIME type that Jupyter front ends with a plotly renderer draw. */
export const PLOTLY_MIME = 'application/vnd.plotly.v1+json';

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/** The figure's height in CSS pixels for the notebook frame: layout.height, else plotly's default 450 plus room. */
function frameHeight(layout: Record<string, unknown>): number {
  const h = layout['height'];
  return typeof h === 'number' && Number.isFinite(h) && h > 0 ? Math.ceil(h) + 20 : 480;
}

/** A one-line text description: the trace types (what a plain-text front end shows). */
function describe(spec: { data: unknown[]; frames?: unknown[] }): string {
  const types = spec.data.map((t) => (t !== null && typeof t === 'object' && typeof (t as { type?: unknown }).type === 'string' ? (t as { type: string }).type : 'scatter'));
  const frames = spec.frames && spec.frames.length > 0 ? `, ${spec.frames.length} frames` : '';
  return `Figure(${spec.data.length} trace${spec.data.length === 1 ? '' : 's'}${types.length ? `: ${[...new Set(types)].join(', ')}` : ''}${frames})`;
}

/** The MIME bundle show() displays in a notebook: plotly JSON, an HTML fallback and a text line. */
export function mimeBundle(fig: Showable): MimeBundle {
  const spec = fig.toJSON();
  const html = `<iframe srcdoc="${escapeAttr(fig.toHTML())}" style="width: 100%; height: ${frameHeight(spec.layout)}px; border: none;" title="${escapeAttr(describe(spec))}"></iframe>`;
  return { [PLOTLY_MIME]: spec, 'text/html': html, 'text/plain': describe(spec) };
}

type WriteDisplayData = (msg: { data: MimeBundle; metadata: Record<string, unknown>; transient: Record<string, unknown> }, update: boolean) => void;

interface TslabGlobal {
  __tslab__?: { require?: (id: string) => unknown };
}

/**
 * The running tslab kernel's display writer, or undefined outside tslab.
 *
 * tslab sets globalThis.__tslab__ (the cell's exports and require) in its
 * kernel, and that require answers require('tslab') with the kernel's own
 * tslab module (not a second copy from rlx's node_modules, whose writer would
 * be unset). The writer lives beside it in dist/jupyter.js, found through
 * Node's module cache (shared by every require in the process). When that
 * layout changes (a tslab other than 1.0.x), the public display.html is the
 * fallback: the HTML part alone.
 */
function tslabDisplay(): ((bundle: MimeBundle) => void) | undefined {
  const tslab = (globalThis as TslabGlobal).__tslab__;
  if (typeof tslab?.require !== 'function') return undefined;
  let pub: unknown;
  try {
    pub = tslab.require('tslab');
  } catch {
    return undefined;
  }
  const cache = createRequire(join(process.cwd(), 'noop.js')).cache;
  for (const [file, mod] of Object.entries(cache)) {
    if (mod?.exports !== pub) continue;
    const write = (cache[join(dirname(file), 'jupyter.js')]?.exports as { lastWriteDisplayData?: unknown } | undefined)?.lastWriteDisplayData;
    if (typeof write === 'function') return (bundle) => (write as WriteDisplayData)({ data: bundle, metadata: {}, transient: {} }, false);
  }
  const display = (pub as { display?: { html?: (s: string) => void } } | undefined)?.display;
  if (typeof display?.html === 'function') return (bundle) => display.html!(bundle['text/html'] as string);
  return undefined;
}

/**
 * Displays a MIME bundle in the running tslab kernel; false (and nothing
 * displayed) outside tslab. Shared by show() and repr.ts's display().
 */
export function displayBundle(bundle: MimeBundle): boolean {
  const display = tslabDisplay();
  if (!display) return false;
  display(bundle);
  return true;
}

/** Whether this process is a tslab notebook kernel (show displays inline there). */
export function inTslab(): boolean {
  return typeof (globalThis as TslabGlobal).__tslab__?.require === 'function';
}

/**
 * Shows the figure. In a tslab notebook: displays it inline (plotly MIME bundle
 * with an HTML fallback) and returns undefined. Elsewhere: writes the figure's
 * HTML page to a new temp file, prints its path on one line and returns it.
 */
export function show(fig: Showable): string | undefined {
  if (inTslab() && displayBundle(mimeBundle(fig))) return undefined;
  const path = join(mkdtempSync(join(tmpdir(), 'rlx-figure-')), 'figure.html');
  writeFileSync(path, fig.toHTML());
  process.stdout.write(`${path}\n`);
  return path;
}
