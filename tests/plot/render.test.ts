// renderCheck and renderCheckFigures (src/plot/browser.ts): a page is loaded in
// headless Chromium and must report plotly's failures, page errors and
// console errors, so that the builder render tests (render-builders.test.ts)
// can fail. Hand-made pages here, independent of the Figure class.

import { describe, expect, it } from 'vitest';
import { renderCheck, renderCheckFigures } from '../../src/plot/browser.js';
import { ValueError } from '../../src/tensor/errors.js';
import { browserMissing, browserRequired, hasBrowser, plotlyPage } from './browser-env.js';

const spec = (data: unknown[], layout: Record<string, unknown> = {}) => ({ toJSON: () => ({ data, layout }) });

describe('renderCheck', () => {
  it.runIf(browserRequired && !hasBrowser)('a browser is installed (RLX_REQUIRE_BROWSER=1)', () => {
    expect.fail(`RLX_REQUIRE_BROWSER=1 but ${browserMissing}`);
  });

  it('rejects an empty figure list with a ValueError', async () => {
    await expect(renderCheckFigures([])).rejects.toThrow(ValueError);
  });

  it.runIf(hasBrowser)('a valid page renders with no errors', async () => {
    const r = await renderCheck(plotlyPage(`Plotly.newPlot('g', [{y: [1, 3, 2]}], {title: {text: 'ok'}})`));
    expect(r.errors).toEqual([]);
    expect(r.invalid).toEqual([]);
    expect(r.rendered).toBe(true);
    expect(r.report).toMatchObject({ plotly: true, calls: 1, settled: 1, failed: 0, divs: 1, drawn: 1 });
  });

  it.runIf(hasBrowser)('a script error and a console.error after a good plot make it not rendered', async () => {
    const r = await renderCheck(plotlyPage(`Plotly.newPlot('g', [{y: [1, 2]}]); console.error('boom', 42); notAFunction();`));
    expect(r.rendered).toBe(false);
    expect(r.errors.some((e) => e.includes('console.error: boom 42'))).toBe(true);
    expect(r.errors.some((e) => /notAFunction is not defined/.test(e))).toBe(true);
  });

  it.runIf(hasBrowser)('a page that never plots, or never loads plotly, is not rendered', async () => {
    const r = await renderCheck(plotlyPage('document.title = "no plot";'));
    expect(r.rendered).toBe(false);
    expect(r.errors).toContain('the page never called Plotly.newPlot or Plotly.react');
    const bare = await renderCheck('<!DOCTYPE html><html><head></head><body>text</body></html>');
    expect(bare.rendered).toBe(false);
    expect(bare.errors).toContain('plotly.js was never loaded (no window.Plotly)');
  });

  it.runIf(hasBrowser)('one broken figure among several is reported by index; schema problems land in `invalid`', async () => {
    const r = await renderCheckFigures([
      spec([{ type: 'scatter', y: [1, 2, 3] }]),
      spec([{ type: 'heatmap', z: [[1, 2], [3, 4]] }]),
      spec([null]), // plotly throws on a null trace
      spec([{ type: 'scatter', y: [1, 2], mode: 'linez' }]), // drawn, but not plotly's vocabulary
    ]);
    expect(r.rendered).toBe(false);
    expect(r.errors.some((e) => e.startsWith('console.error: figure 2: TypeError'))).toBe(true);
    expect(r.errors).toContain('1 of 4 plot divs have no SVG drawn');
    expect(r.report).toMatchObject({ calls: 4, settled: 3, failed: 1 });
    expect(r.invalid.some((m) => /mode/.test(m) && /linez/.test(m))).toBe(true);
  });
});
