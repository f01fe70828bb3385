// Every plot builder's output renders in headless Chromium without errors and
// passes plotly's schema check (Plotly.validate): issue 16's "real check, run in
// CI". One browser launch checks all builders (renderCheckFigures on one page),
// both as toJSON() gives them and in the base64 typed-array encoding that
// toHTML() writes; one more launch loads a real toHTML() page (an animation,
// whose frames go through Plotly.addFrames). A deliberately broken figure in
// the batch shows the check fails when plotly does.

import { describe, expect, it } from 'vitest';
import * as plot from '../../src/plot/index.js';
import { renderCheck, renderCheckFigures, type FigureJSON } from '../../src/plot/browser.js';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePng, distinctColours, pngSize } from './browser-png-decode.js';
import { binaryValue } from '../../src/plot/encode.js';
import { linspace, tensor } from '../../src/index.js';
import { poisson2d } from '../../src/sparse/index.js';
import { browserMissing, browserRequired, hasBrowser } from './browser-env.js';

function figures(): [string, plot.Figure][] {
  const t = linspace(0, 2 * Math.PI, 50, { dtype: 'float64' });
  const z = Array.from({ length: 20 }, (_, i) => Array.from({ length: 30 }, (_, j) => Math.sin(i / 3) * Math.cos(j / 4)));
  const rgb = Array.from({ length: 8 }, (_, i) => Array.from({ length: 8 }, (_, j) => [i * 30, j * 30, 128]));
  const u = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, (_, j) => -(j - 2.5) + 0 * i));
  const v = Array.from({ length: 6 }, (_, i) => Array.from({ length: 6 }, () => i - 2.5));
  const grid = plot.subplots(1, 2, { titles: ['line', 'heatmap'] });
  grid.add(plot.line(t.sin(), { logY: false, xlabel: 'x' }), 1, 1).add(plot.heatmap(z), 1, 2);
  return [
    ['line', plot.line({ x: t, y: t.sin() }, { title: 'sin', xlabel: 't', ylabel: 'y', logX: false })],
    ['line (complex, float32)', plot.line(tensor([[1, 2], [3, -1], [0, 1]], { dtype: 'complex64' }).reshape([6]))],
    ['scatter', plot.scatter({ x: [1, 2, 3], y: [3, 1, 2] })],
    ['heatmap', plot.heatmap(tensor(z, { dtype: 'float32' }), { colorscale: 'Viridis' })],
    ['surface', plot.surface(z)],
    ['contour', plot.contour(z)],
    ['image rgb', plot.image(tensor(rgb, { dtype: 'float64' }))],
    ['image gray', plot.image(z)],
    ['histogram', plot.histogram(t.cos())],
    ['quiver', plot.quiver(u, v)],
    ['spy', plot.spy(poisson2d(6))],
    ['animate', plot.animate([t.sin(), t.cos(), t.sin().neg()])],
    ['subplots', grid],
  ];
}

describe('plot builders render in headless Chromium', () => {
  it.runIf(browserRequired && !hasBrowser)('a browser is installed (RLX_REQUIRE_BROWSER=1)', () => {
    expect.fail(`RLX_REQUIRE_BROWSER=1 but ${browserMissing}`);
  });

  it.runIf(hasBrowser)('every builder, as JSON and as binary-encoded spec, renders without errors or schema complaints', async () => {
    const figs = figures();
    const asJson: FigureJSON[] = figs.map(([, f]) => f);
    const asBinary: FigureJSON[] = figs.map(([, f]) => ({ toJSON: () => binaryValue({ data: f.data, layout: f.layout }) as ReturnType<FigureJSON['toJSON']> }));
    const good = await renderCheckFigures([...asJson, ...asBinary]);
    // attribute messages to builders: the probe numbers plotly calls from 1, in page order
    const names = [...figs.map(([n]) => n), ...figs.map(([n]) => `${n} (binary)`)];
    const named = (m: string) => m.replace(/^call (\d+):/, (_, k: string) => `${names[Number(k) - 1]}:`);
    expect(good.errors).toEqual([]);
    expect(good.invalid.map(named)).toEqual([]);
    expect(good.rendered).toBe(true);
    expect(good.report.drawn).toBe(2 * figs.length);
  }, 60_000);

  it.runIf(hasBrowser)('the check fails when plotly cannot draw one of the figures', async () => {
    const broken = plot.line([1, 2, 3]);
    broken.data.push({ type: 'heatmap', z: null, transforms: 7 } as never, null as never);
    const r = await renderCheckFigures([plot.scatter({ x: [1], y: [2] }), broken]);
    expect(r.rendered).toBe(false);
    expect(r.errors.some((e) => e.includes('figure 1'))).toBe(true);
  }, 60_000);

  it.runIf(hasBrowser)('a Figure.toHTML() page (an animation with frames) renders', async () => {
    const t = linspace(0, 1, 20, { dtype: 'float64' });
    const fig = plot.animate([t, t.mul(2), t.mul(3)], { title: 'frames' });
    const r = await renderCheck(fig.toHTML());
    expect(r.errors).toEqual([]);
    expect(r.invalid).toEqual([]);
    expect(r.rendered).toBe(true);
  }, 60_000);

  it.runIf(hasBrowser)('fig.savePng draws a heatmap from its binary-encoded data (Viridis fills the plot area)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlx-render-builders-'));
    try {
      // a 64×64 ramp: every column a different value, so the plot area shows many Viridis colours
      const z = Array.from({ length: 64 }, (_, i) => Array.from({ length: 64 }, (_, j) => i + j));
      const fig = plot.heatmap(tensor(z, { dtype: 'float32' }), { colorscale: 'Viridis' });
      await fig.savePng(join(dir, 'h.png'), { width: 400, height: 300 });
      const png = readFileSync(join(dir, 'h.png'));
      expect(pngSize(png)).toEqual({ width: 400, height: 300 });
      const img = decodePng(png);
      expect(distinctColours(img)).toBeGreaterThan(60);
      // the centre pixel is a Viridis colour (blue-green-yellow: green channel high, not grey/white)
      const c = (150 * 400 + 200) * img.channels;
      const [r, g, b] = [img.pixels[c]!, img.pixels[c + 1]!, img.pixels[c + 2]!];
      expect(g).toBeGreaterThan(r);
      expect(Math.max(r, g, b) - Math.min(r, g, b)).toBeGreaterThan(40);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
