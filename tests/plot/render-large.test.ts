// Issue 16's "large data stays usable": a 1024×1024 heatmap and a line of 10⁶
// points, each as the real toHTML() page a user saves, render in headless
// Chromium without errors (the heatmap through plotly's base64 typed-array
// encoding; the line decimated to DEFAULT_MAX_POINTS, extremes kept), and the
// pages stay of a usable size.

import { describe, expect, it } from 'vitest';
import * as plot from '../../src/plot/index.js';
import { renderCheck } from '../../src/plot/browser.js';
import { tensor } from '../../src/index.js';
import { browserMissing, browserRequired, hasBrowser } from './browser-env.js';

describe('large figures render', () => {
  it.runIf(browserRequired && !hasBrowser)('a browser is installed (RLX_REQUIRE_BROWSER=1)', () => {
    expect(browserMissing).toBeUndefined();
  });

  it.runIf(hasBrowser)('a 1024×1024 float64 heatmap: an offline page under 20 MB that plotly draws', async () => {
    const n = 1024;
    const z = new Float64Array(n * n);
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) z[i * n + j] = Math.sin(i / 40) * Math.cos(j / 25);
    const html = plot.heatmap(tensor(z).reshape([n, n]), { colorscale: 'RdBu' }).toHTML();
    expect(html.length).toBeLessThan(20e6);
    const r = await renderCheck(html, { timeoutMs: 90_000 });
    expect(r.errors).toEqual([]);
    expect(r.rendered).toBe(true);
  }, 120_000);

  it.runIf(hasBrowser)('a line of 10⁶ points: decimated to DEFAULT_MAX_POINTS, keeping its extremes, and drawn', async () => {
    const n = 1_000_000;
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) y[i] = Math.sin(i / 5000) + (i === 777_777 ? 5 : 0) - (i === 123_457 ? 4 : 0);
    const fig = plot.line(tensor(y));
    const ys = fig.toJSON().data[0]!['y'] as number[];
    expect(ys.length).toBeLessThanOrEqual(plot.DEFAULT_MAX_POINTS);
    const extremes = (v: ArrayLike<number>): [number, number] => {
      let lo = Infinity,
        hi = -Infinity;
      for (let i = 0; i < v.length; i++) (lo = Math.min(lo, v[i]!)), (hi = Math.max(hi, v[i]!));
      return [lo, hi];
    };
    expect(extremes(ys)).toEqual(extremes(y)); // the spike at 777 777 and the dip at 123 457 survive
    const r = await renderCheck(fig.toHTML(), { timeoutMs: 90_000 });
    expect(r.errors).toEqual([]);
    expect(r.rendered).toBe(true);
  }, 120_000);
});
