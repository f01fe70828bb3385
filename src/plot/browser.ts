// Headless Chromium for the plot module: a figure's HTML page rendered to PNG
// (fig.savePng) and the check that plotly rendered a page without errors
// (renderCheck: issue 16's "real check", which the tests and CI run on every
// builder's output). Launching the browser lives in browser-launch.ts, the
// script injected into the page in browser-probe.ts.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ValueError } from '../tensor/errors.js';
import { BrowserError, runChromium, type RunOptions } from './browser-launch.js';
import { injectProbe, isRendered, readReport, type ProbeReport } from './browser-probe.js';
import { plotlySource } from './plotly-source.js';

export { BrowserError, findChromium } from './browser-launch.js';

/** What the browser needs of a figure. */
export interface Renderable {
  toHTML(opts?: { title?: string }): string;
}

export interface PngOptions {
  /** CSS pixels (default 800). */
  width?: number;
  /** CSS pixels (default 600). */
  height?: number;
  /** Device pixel ratio: the PNG is width·scale × height·scale pixels (default 1). */
  scale?: number;
  /** Wall-clock limit for the browser in milliseconds (default 60000): a BrowserError after it. */
  timeoutMs?: number;
}

const MAX_PIXELS = 16384; // Chromium's own limit on a screenshot side

function checkSize(name: string, v: number, max: number): void {
  if (!Number.isFinite(v) || v <= 0 || v > max) throw new ValueError(`plot.savePng: ${name} must be a positive number up to ${max}, got ${v}`);
}

/**
 * Writes the figure as a PNG of width·scale × height·scale pixels: the
 * figure's HTML page loaded in headless Chromium with the plot sized to the
 * window, plotly's mode bar hidden. Throws BrowserError when no browser is
 * installed, the page raised errors, or the browser did not finish in time.
 */
export async function savePng(fig: Renderable, path: string, opts: PngOptions = {}): Promise<void> {
  const { width = 800, height = 600, scale = 1 } = opts;
  checkSize('width', width, MAX_PIXELS);
  checkSize('height', height, MAX_PIXELS);
  checkSize('scale', scale, 16);
  if (!Number.isInteger(width) || !Number.isInteger(height)) throw new ValueError(`plot.savePng: width and height must be whole CSS pixels, got ${width}×${height}`);
  const pxW = Math.round(width * scale);
  const pxH = Math.round(height * scale);
  if (pxW > MAX_PIXELS || pxH > MAX_PIXELS) throw new ValueError(`plot.savePng: ${width}×${height} at scale ${scale} is ${pxW}×${pxH} pixels, over the ${MAX_PIXELS}-pixel limit per side`);
  const html = injectProbe(fig.toHTML(), { kind: 'png', width, height });
  // --dump-dom beside --screenshot: the same run reports whether plotly drew,
  // so a figure that failed to render is an error rather than a blank PNG.
  const { png, dom } = await runChromium(
    'savePng',
    html,
    (dir) => [`--screenshot=${join(dir, 'shot.png')}`, '--dump-dom', `--window-size=${width},${height}`, `--force-device-scale-factor=${scale}`, '--hide-scrollbars'],
    ({ dir, stdout }) => {
      try {
        return { png: readFileSync(join(dir, 'shot.png')), dom: stdout };
      } catch {
        throw new BrowserError('plot.savePng: the browser exited without writing a screenshot');
      }
    },
    runOptions(opts),
  );
  const failure = renderFailure(dom);
  if (failure !== undefined) throw new BrowserError(`plot.savePng: the figure did not render, so no PNG was written: ${failure}`);
  writeFileSync(path, png);
}

function runOptions(opts: { timeoutMs?: number }): RunOptions {
  return opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs };
}

/** The outcome of loading a page in the browser. */
export interface RenderResult {
  /** plotly loaded, every Plotly.newPlot/react call finished with its SVG drawn, and nothing raised an error. */
  rendered: boolean;
  /** Window errors, unhandled rejections, console.error calls and failed plotly calls, in order. */
  errors: string[];
  /**
   * Plotly.validate's messages for every plotted spec: unknown trace types, misspelt or
   * mistyped attributes. Plotly draws such a figure anyway (ignoring them), so they do
   * not make `rendered` false; a figure builder's test asserts this is empty too.
   */
  invalid: string[];
  /** The probe's counts (plotly calls, drawn plot divs), for messages. */
  report: ProbeReport;
}

/**
 * Loads an HTML page in headless Chromium and reports whether plotly rendered
 * it without errors (see RenderResult). Throws BrowserError when no browser is
 * installed or it fails; a page that renders badly is a result, not an error.
 * @example
 * ```ts
 * const html = plot.line({ x: [0, 1, 2], y: [0, 1, 4] }).toHTML();
 * const r = await plot.renderCheck(html);   // headless Chromium, about 2 s (BrowserError when none is installed)
 * r.rendered;   // true
 * r.errors;     // []
 * ```
 */
export async function renderCheck(html: string, opts: { timeoutMs?: number } = {}): Promise<RenderResult> {
  const dom = await runChromium('renderCheck', injectProbe(html, { kind: 'check' }), () => ['--dump-dom'], ({ stdout }) => stdout, runOptions(opts));
  const { report, errors } = interpret('renderCheck', dom);
  return { rendered: isRendered(report), errors, invalid: report.invalid, report };
}

/** The probe's report from a dumped DOM, with the reasons it did not render added to its errors. */
function interpret(what: string, dom: string): { report: ProbeReport; errors: string[] } {
  const report = readReport(dom);
  if (report === undefined) throw new BrowserError(`plot.${what}: the page loaded but the render probe never reported (the browser printed no DOM with its marker)`);
  const errors = [...report.errors];
  if (!report.plotly) errors.push('plotly.js was never loaded (no window.Plotly)');
  else if (report.calls === 0) errors.push('the page never called Plotly.newPlot or Plotly.react');
  else if (report.settled + report.failed < report.calls) errors.push(`${report.calls - report.settled - report.failed} of ${report.calls} plotly calls never finished`);
  if (report.drawn < report.divs) errors.push(`${report.divs - report.drawn} of ${report.divs} plot divs have no SVG drawn`);
  return { report, errors };
}

/** Why a page did not render (its first three errors), or undefined when it did. */
function renderFailure(dom: string): string | undefined {
  const { report, errors } = interpret('savePng', dom);
  if (isRendered(report)) return undefined;
  return errors.slice(0, 3).join('; ') + (errors.length > 3 ? ` (and ${errors.length - 3} more)` : '');
}

/** What renderCheckFigures needs of a figure. */
export interface FigureJSON {
  toJSON(): { data: unknown[]; layout: Record<string, unknown>; frames?: unknown[] };
}

/** JSON safe inside a <script> element: no `</script>` or `<!--` can close or confuse it. */
function scriptJSON(v: unknown): string {
  return JSON.stringify(v).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * Renders several figures' plotly specs on one page (one browser launch, one
 * plotly parse, so a test suite can check every builder in about a second) and
 * reports as renderCheck does. An error names the figure's index when plotly
 * rejects its spec.
 * @example
 * ```ts
 * const figs = [plot.line(tensor([1, 4, 9])), plot.heatmap(tensor([[1, 2], [3, 4]]))];
 * const r = await plot.renderCheckFigures(figs);   // one Chromium launch for all (BrowserError when none is installed)
 * r.rendered;      // true
 * r.report.drawn;  // 2  (both plot divs have plotly's SVG)
 * ```
 */
export async function renderCheckFigures(figs: FigureJSON[], opts: { timeoutMs?: number } = {}): Promise<RenderResult> {
  if (figs.length === 0) throw new ValueError('plot.renderCheckFigures: expected at least one figure, got none');
  const divs = figs.map((_, i) => `<div id="fig${i}"></div>`).join('\n');
  const calls = figs
    .map((f, i) => `Plotly.newPlot('fig${i}', ${scriptJSON(f.toJSON())}).catch(function (e) { console.error('figure ${i}: ' + e); });`)
    .join('\n');
  // Each call in its own try: one figure throwing must not hide the others.
  const guarded = calls
    .split('\n')
    .map((c, i) => `try { ${c} } catch (e) { console.error('figure ${i}: ' + (e && e.stack ? e.stack.split('\\n')[0] : e)); }`)
    .join('\n');
  const html = `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><script>${plotlySource().replace(/<\/script/gi, '<\\/script')}</script></head>\n<body>\n${divs}\n<script>\n${guarded}\n</script>\n</body></html>\n`;
  return renderCheck(html, opts);
}
