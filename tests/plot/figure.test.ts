// Figure output: toJSON is plain JSON-safe plotly; toHTML is one offline page
// (plotly.js inlined from plotly.js-dist-min, read only at the first toHTML,
// the figure as JSON with '<' escaped, Plotly.newPlot, document.title);
// typed arrays go to the page as plotly's base64 typed-array specs, which
// decode back to the same numbers; save writes the page; savePng and show
// delegate to browser.ts / show.ts (mocked here: the browser tests are elsewhere).

import { describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const calls = vi.hoisted(() => ({ png: [] as unknown[][], show: [] as unknown[] }));
vi.mock('../../src/plot/browser.js', () => ({ savePng: async (...a: unknown[]) => void calls.png.push(a) }));
vi.mock('../../src/plot/show.js', () => ({ show: (f: unknown) => void calls.show.push(f) }));

import { plotlyLoaded } from '../../src/plot/plotly-source.js';
import { plot, tensor } from './rlx.js';

const PLOTLY_PATH = createRequire(import.meta.url).resolve('plotly.js-dist-min');

/** The figure object embedded in a page (the `var fig = ...;` line). */
function embedded(html: string): { data: Record<string, unknown>[]; layout: Record<string, unknown>; frames?: unknown[] } {
  const m = /\n  var fig = (.*);\n/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}

function decode(spec: { dtype: string; bdata: string; shape?: string }): number[] {
  const b = Buffer.from(spec.bdata, 'base64');
  const a = spec.dtype === 'f8' ? new Float64Array(b.buffer, b.byteOffset, b.byteLength / 8) : new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  return [...a];
}

describe('Figure output', () => {
  it('building figures does not read plotly.js; the first toHTML does', () => {
    plot.line([1, 2]).toJSON();
    expect(plotlyLoaded()).toBe(false);
    plot.line([1, 2]).toHTML();
    expect(plotlyLoaded()).toBe(true);
  });

  it('toJSON is plain JSON: typed arrays as arrays, non-finite as null, frames kept', () => {
    const fig = plot.line({ x: new Float64Array([0, 1, 2]), y: [1, NaN, -Infinity] });
    const spec = fig.toJSON();
    expect(spec.data[0]!.x).toEqual([0, 1, 2]);
    expect(spec.data[0]!.y).toEqual([1, null, null]);
    expect(JSON.parse(JSON.stringify(fig))).toEqual(spec);
    expect(spec.frames).toBeUndefined();
  });

  it('toHTML inlines plotly.js, embeds the figure and renders it with Plotly.newPlot', () => {
    const fig = plot.heatmap([[1, 2], [3, 4]], { title: 'Field <b>&</b>' });
    const html = fig.toHTML();
    const plotly = readFileSync(PLOTLY_PATH, 'utf8');
    expect(html.includes(plotly)).toBe(true);
    expect(html).toContain("Plotly.newPlot(div, fig.data, fig.layout, { responsive: true })");
    expect(html).toContain('<title>Field &#60;b&#62;&#38;&#60;/b&#62;</title>');
    expect(html).toContain('document.title = "Field \\u003cb>&\\u003c/b>"');
    const fig2 = embedded(html);
    expect(fig2.layout).toEqual(fig.toJSON().layout);
    // No external resources: nothing loaded by src=, and outside plotly's own text no CDN address at all.
    expect(html).not.toMatch(/<script[^>]+src=/i);
    expect(html.replace(plotly, '')).not.toMatch(/https?:\/\//);
  });

  it('"</script>" in the figure cannot end the script', () => {
    const html = plot.line([1], { title: '</script><script>alert(1)</script>' }).toHTML({ title: 'x' });
    const scripts = html.split('<script>');
    expect(scripts.length).toBe(3); // plotly's and the figure's, none injected
    expect(embedded(html).layout).toEqual({ title: { text: '</script><script>alert(1)</script>' } });
  });

  it('binary encoding: 1-D and 2-D typed arrays as base64 specs that decode to the data; encoding json writes numbers', () => {
    const z = [[1, 2.5, NaN], [4, Infinity, -6]];
    const fig = plot.heatmap(tensor(z), { x: [0, 1, 2] });
    const t = embedded(fig.toHTML()).data[0]! as Record<string, { dtype: string; bdata: string; shape?: string }>;
    expect(t.z!.shape).toBe('2,3');
    expect(t.z!.dtype).toBe('f8');
    expect(decode(t.z!)).toEqual([1, 2.5, NaN, 4, NaN, -6]); // ±Infinity are gaps (NaN) in binary
    expect(decode(t.x!)).toEqual([0, 1, 2]);
    const f32 = embedded(plot.line(new Float32Array([0.1, 0.2])).toHTML()).data[0]! as Record<string, { dtype: string; bdata: string }>;
    expect(f32.y!.dtype).toBe('f4');
    expect(decode(f32.y!)).toEqual([Math.fround(0.1), Math.fround(0.2)]);
    expect(embedded(fig.toHTML({ encoding: 'json' })).data[0]!.z).toEqual([[1, 2.5, null], [4, null, -6]]);
  });

  it('animation frames reach the page and are added after newPlot', () => {
    const html = plot.animate([tensor([1, 2]), tensor([3, 4])]).toHTML();
    expect(embedded(html).frames!.length).toBe(2);
    expect(html).toContain('Plotly.addFrames(div, fig.frames)');
  });

  it('save writes the page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlx-plot-'));
    try {
      const fig = plot.scatter([1, 2, 3]);
      await fig.save(join(dir, 'f.html'));
      expect(readFileSync(join(dir, 'f.html'), 'utf8')).toBe(fig.toHTML());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('savePng and show delegate to browser.ts and show.ts with the figure', async () => {
    const fig = plot.line([1, 2]);
    await fig.savePng('out.png', { width: 300, height: 200, scale: 2 });
    expect(calls.png).toEqual([[fig, 'out.png', { width: 300, height: 200, scale: 2 }]]);
    fig.show();
    expect(calls.show).toEqual([fig]);
  });

  it('add to a plain figure appends traces (or another figure\'s)', () => {
    const fig = plot.line([1, 2]).add(plot.line([3, 4], { name: 'b' })).add({ type: 'bar', x: [1], y: [2] });
    expect(fig.data.map((t) => t.type)).toEqual(['scatter', 'scatter', 'bar']);
    expect(fig.data[1]!.name).toBe('b');
  });
});
