// The plot builders produce valid plotly specs: trace type, array lengths and
// shapes, axis settings, frames and slider, subplot axis anchors; and typed
// errors naming the builder. Expected values are the inputs themselves (the
// builders reshape, they do not compute) or plotly's documented vocabulary.

import { describe, expect, it } from 'vitest';
import { plot, tensor, cast, complex, ShapeError, DTypeError, ValueError, IndexError, sparse } from './rlx.js';

const arr = (v: unknown): number[] => Array.from(v as ArrayLike<number>);

describe('line and scatter', () => {
  it('line(y) plots y against its index; options become plotly layout', () => {
    const fig = plot.line(tensor([3, 1, 2]), { title: 'T', xlabel: 'n', ylabel: 'r', logY: true, name: 'res', xaxis: { range: [0, 5] } });
    const t = fig.data[0]!;
    expect([t.type, t.mode, t.name]).toEqual(['scatter', 'lines', 'res']);
    expect(arr(t.x)).toEqual([0, 1, 2]);
    expect(arr(t.y)).toEqual([3, 1, 2]);
    expect(fig.layout).toMatchObject({ title: { text: 'T' }, xaxis: { title: { text: 'n' }, range: [0, 5] }, yaxis: { title: { text: 'r' }, type: 'log' } });
  });

  it('line({x, y}) with arrays, typed arrays and float32/int32 tensors', () => {
    const fig = plot.line({ x: [0, 0.5, 1], y: new Float32Array([1, 2, 4]) }, { logX: true });
    expect(arr(fig.data[0]!.x)).toEqual([0, 0.5, 1]);
    expect(fig.data[0]!.y).toBeInstanceOf(Float32Array);
    expect(fig.layout).toMatchObject({ xaxis: { type: 'log' } });
    expect(arr(plot.line(cast(tensor([1.5, 2.5]), 'float32')).data[0]!.y)).toEqual([1.5, 2.5]);
    expect(arr(plot.line(tensor([1, 2], { dtype: 'int32' })).data[0]!.y)).toEqual([1, 2]);
  });

  it("complex data shows |z| by default, or opts.part", () => {
    const z = complex(tensor([3, 0]), tensor([4, -2]));
    expect(arr(plot.line(z).data[0]!.y)).toEqual([5, 2]);
    expect(arr(plot.line(z, { part: 'real' }).data[0]!.y)).toEqual([3, 0]);
    expect(arr(plot.line(z, { part: 'imag' }).data[0]!.y)).toEqual([4, -2]);
    expect(arr(plot.line(z, { part: 'angle' }).data[0]!.y)).toEqual([Math.atan2(4, 3), -Math.PI / 2]);
    expect(() => plot.line(z, { part: 'phase' as 'abs' })).toThrow(ValueError);
  });

  it('scatter uses markers; trace options merge over the builder\'s', () => {
    const t = plot.scatter({ x: [1, 2], y: [3, 4] }, { trace: { marker: { size: 3 } } }).data[0]!;
    expect([t.type, t.mode, t.marker]).toEqual(['scatter', 'markers', { size: 3 }]);
  });

  it('typed errors naming the builder', () => {
    expect(() => plot.line(tensor([[1, 2]]))).toThrow(ShapeError);
    expect(() => plot.line(tensor([[1, 2]]))).toThrow(/plot\.line: expected y with 1 dimension/);
    expect(() => plot.line({ x: [1, 2, 3], y: [1, 2] })).toThrow(/plot\.line: expected x and y of the same length/);
    expect(() => plot.scatter('abc' as unknown as number[])).toThrow(DTypeError);
    expect(() => plot.line([1, 'a'] as unknown as number[])).toThrow(ValueError);
    expect(() => plot.line([[1, 2], [3]] as unknown as number[])).toThrow(ShapeError);
    expect(() => plot.line([1, 2], { width: -1 })).toThrow(ValueError);
  });
});

describe('heatmap, contour, surface', () => {
  const z = tensor([[1, 2, 3], [4, 5, 6]]);

  it('heatmap z is H rows of W values, coordinates and colorscale pass through', () => {
    const fig = plot.heatmap(z, { x: [10, 20, 30], y: [0, 1], colorscale: 'Viridis', zmin: 0, zmax: 9, origin: 'upper', equalAspect: true });
    const t = fig.data[0]!;
    expect(t.type).toBe('heatmap');
    expect((t.z as ArrayLike<number>[]).map(arr)).toEqual([[1, 2, 3], [4, 5, 6]]);
    expect([arr(t.x), arr(t.y), t.colorscale, t.zmin, t.zmax]).toEqual([[10, 20, 30], [0, 1], 'Viridis', 0, 9]);
    expect(fig.layout).toMatchObject({ yaxis: { autorange: 'reversed', scaleanchor: 'x' } });
    expect(plot.heatmap(z).layout['yaxis']).toBeUndefined(); // origin 'lower': plotly's default
  });

  it('non-finite values become null (plotly gaps) in toJSON', () => {
    const spec = plot.heatmap([[1, NaN], [Infinity, null]]).toJSON();
    expect(spec.data[0]!.z).toEqual([[1, null], [null, null]]);
  });

  it('contour and surface; surface axis shortcuts go to the scene', () => {
    expect(plot.contour(z).data[0]!.type).toBe('contour');
    const s = plot.surface(z, { xlabel: 'x', zlabel: 'u', logY: true });
    expect(s.data[0]!.type).toBe('surface');
    expect(s.layout).toMatchObject({ scene: { xaxis: { title: { text: 'x' } }, yaxis: { type: 'log' }, zaxis: { title: { text: 'u' } } } });
  });

  it('shape errors', () => {
    expect(() => plot.heatmap(tensor([1, 2]))).toThrow(/plot\.heatmap: expected z with 2 dimension/);
    expect(() => plot.heatmap(z, { x: [1, 2] })).toThrow(/plot\.heatmap: expected x of length 3/);
    expect(() => plot.surface(z, { y: [1, 2, 3] })).toThrow(ShapeError);
    expect(() => plot.heatmap(z, { origin: 'top' as 'upper' })).toThrow(ValueError);
  });
});

describe('image and histogram', () => {
  it('rgb [H, W, 3] is an image trace of pixels [r, g, b], floats in [0, 1]', () => {
    const img = tensor([[[1, 0, 0], [0, 1, 0]]]);
    const fig = plot.image(img);
    const t = fig.toJSON().data[0]!;
    expect(t).toMatchObject({ type: 'image', colormodel: 'rgb', z: [[[1, 0, 0], [0, 1, 0]]], zmin: [0, 0, 0], zmax: [1, 1, 1] });
    expect(fig.layout).toMatchObject({ yaxis: { autorange: 'reversed', scaleanchor: 'x' } });
    expect(plot.image(tensor([[[255, 0, 0]]], { dtype: 'int32' })).data[0]!.zmax).toEqual([255, 255, 255]);
  });

  it('gray [H, W] is a gray heatmap with row 0 on top', () => {
    const t = plot.image([[0, 128], [255, 64]]).data[0]!;
    expect([t.type, t.zmin, t.zmax, t.showscale]).toEqual(['heatmap', 0, 255, false]);
    expect(() => plot.image(tensor([[[1, 2]]]))).toThrow(/plot\.image: expected an rgb image \[H, W, 3\] or a gray image \[H, W\], got shape \[1, 1, 2\]/);
    expect(() => plot.image([[0]], { range: [1, 0] })).toThrow(ValueError);
  });

  it('histogram of every element', () => {
    const t = plot.histogram(tensor([[1, 2], [3, 4]]), { nbins: 10, histnorm: 'probability' }).data[0]!;
    expect([t.type, arr(t.x), t.nbinsx, t.histnorm]).toEqual(['histogram', [1, 2, 3, 4], 10, 'probability']);
    expect(() => plot.histogram([1], { nbins: 0 })).toThrow(ValueError);
  });
});

describe('quiver', () => {
  it('one arrow per grid point: shaft then head, separated by gaps, pointing along (u, v)', () => {
    const fig = plot.quiver([[1, 0]], [[0, 2]], { scale: 0.5, headSize: 0.2 });
    const t = fig.data[0]!;
    const x = arr(t.x), y = arr(t.y);
    expect(t.type).toBe('scatter');
    expect(x.length).toBe(14);
    // Arrow 1 at (0, 0), u = 1, v = 0: tip at (0.5, 0). Arrow 2 at (1, 0), u = 0, v = 2: tip at (1, 1).
    expect([x[0], y[0], x[1], y[1], x[4], y[4]]).toEqual([0, 0, 0.5, 0, 0.5, 0]);
    expect([x[7], y[7], x[8], y[8]]).toEqual([1, 0, 1, 1]);
    expect([x[2], x[6], x[9], x[13]].every(Number.isNaN)).toBe(true);
    // The head strokes end 0.2 · 0.5 back from the tip, symmetric about the shaft.
    expect(Math.hypot(x[3]! - 0.5, y[3]!)).toBeCloseTo(0.1, 12);
    expect(y[3]).toBeCloseTo(-y[5]!, 12);
    expect(fig.layout).toMatchObject({ yaxis: { scaleanchor: 'x' } });
  });

  it('default scale: the longest arrow is 0.9 grid spacings; dense fields are subsampled', () => {
    const t = plot.quiver([[3, 0], [0, 0]], [[4, 0], [0, 1]]).data[0]!;
    const x = arr(t.x), y = arr(t.y);
    expect(Math.hypot(x[1]! - x[0]!, y[1]! - y[0]!)).toBeCloseTo(0.9, 12);
    const big = plot.quiver(new Array(200).fill(0).map(() => new Array(200).fill(1)), new Array(200).fill(0).map(() => new Array(200).fill(0))).data[0]!;
    expect(arr(big.x).length / 7).toBe(50 * 50);
  });

  it('errors', () => {
    expect(() => plot.quiver([[1, 2]], [[1], [2]])).toThrow(/plot\.quiver: expected u and v of the same shape/);
    expect(() => plot.quiver([[1]], [[1]], { stride: 0 })).toThrow(ValueError);
  });
});

describe('spy', () => {
  it('one marker per nonzero at (col, row), y reversed like a matrix, for CSR, CSC and COO', () => {
    const A = sparse.coo({ row: [0, 1, 2, 2], col: [2, 0, 1, 2], data: [1, 0, 3, 4], shape: [3, 4] });
    for (const M of [A, A.tocsr(), A.tocsc()]) {
      const fig = plot.spy(M);
      const t = fig.data[0]!;
      const pts = arr(t.x).map((c, i) => `${arr(t.y)[i]},${c}`).sort();
      expect(pts).toEqual(['0,2', '2,1', '2,2']); // the stored zero at (1, 0) is hidden
      expect(fig.layout).toMatchObject({ yaxis: { range: [2.5, -0.5], scaleanchor: 'x' }, xaxis: { range: [-0.5, 3.5], side: 'top' } });
    }
    expect(arr(plot.spy(A, { explicitZeros: true }).data[0]!.x).length).toBe(4);
  });

  it('beyond maxPoints: counts per block as a heatmap', () => {
    const A = sparse.eye(1000);
    const t = plot.spy(A, { maxPoints: 100 }).data[0]!;
    expect(t.type).toBe('heatmap');
    const z = (t.z as Float64Array[]).map(arr);
    expect(z.length).toBe(512);
    let total = 0;
    for (const r of z) for (const v of r) if (!Number.isNaN(v)) total += v;
    expect(total).toBe(1000);
  });

  it('a non-sparse argument is a typed error', () => {
    expect(() => plot.spy(tensor([[1]]) as never)).toThrow(/plot\.spy: expected a sparse matrix/);
  });
});

describe('animate', () => {
  it('heatmap frames: one plotly frame per snapshot, slider steps, play/pause, a fixed color range', () => {
    const frames = [tensor([[0, 1], [2, 3]]), tensor([[4, 5], [6, -1]])];
    const fig = plot.animate(frames, { labels: ['t=0', 't=1'], duration: 50 });
    expect(fig.data[0]!.type).toBe('heatmap');
    expect(fig.frames!.map((f) => f.name)).toEqual(['0', '1']);
    expect(fig.frames!.map((f) => (f.data[0]!.z as ArrayLike<number>[]).map(arr))).toEqual([[[0, 1], [2, 3]], [[4, 5], [6, -1]]]);
    expect(fig.frames!.every((f) => f.data[0]!.zmin === -1 && f.data[0]!.zmax === 6)).toBe(true);
    const slider = (fig.layout['sliders'] as { steps: { label: string; method: string; args: unknown[] }[] }[])[0]!;
    expect(slider.steps.map((s) => [s.label, s.method, (s.args[0] as string[])[0]])).toEqual([['t=0', 'animate', '0'], ['t=1', 'animate', '1']]);
    const buttons = (fig.layout['updatemenus'] as { buttons: { label: string; args: unknown[] }[] }[])[0]!.buttons;
    expect(buttons.map((b) => b.label)).toEqual(['Play', 'Pause']);
    expect(buttons[0]!.args[1]).toMatchObject({ frame: { duration: 50 } });
    expect(fig.toJSON().frames!.length).toBe(2);
  });

  it('line frames from one tensor [T, n], y range fixed over all frames', () => {
    const fig = plot.animate(tensor([[0, 1, 2], [0, 10, 0]]));
    expect(fig.data[0]!.type).toBe('scatter');
    expect(fig.frames!.length).toBe(2);
    expect(arr(fig.frames![1]!.data[0]!.y)).toEqual([0, 10, 0]);
    expect(fig.layout).toMatchObject({ yaxis: { range: [-0.5, 10.5] } });
  });

  it('errors', () => {
    expect(() => plot.animate([tensor([1, 2]), tensor([1, 2, 3])])).toThrow(/plot\.animate: expected every frame of shape \[2\]/);
    expect(() => plot.animate([])).toThrow(ValueError);
    expect(() => plot.animate([tensor([1])], { labels: ['a', 'b'] })).toThrow(ShapeError);
    expect(() => plot.animate(tensor([1, 2]))).toThrow(ShapeError);
  });
});

describe('subplots', () => {
  it('cells get their own anchored axes and domains; add places traces and carries axis settings and titles', () => {
    const fig = plot.subplots(2, 2, { titles: ['a'] });
    expect(fig.layout).toMatchObject({ xaxis: { anchor: 'y' }, yaxis: { anchor: 'x' }, xaxis4: { anchor: 'y4' }, yaxis4: { anchor: 'x4' } });
    const dx = (fig.layout['xaxis'] as { domain: number[] }).domain, dx2 = (fig.layout['xaxis2'] as { domain: number[] }).domain;
    const dy = (fig.layout['yaxis'] as { domain: number[] }).domain, dy3 = (fig.layout['yaxis3'] as { domain: number[] }).domain;
    expect(dx[1]! < dx2[0]! && dy3[1]! < dy[0]!).toBe(true); // column 2 right of column 1; row 2 below row 1
    fig.add(plot.line([1, 2], { logY: true, title: 'res' }), 1, 2).add(plot.heatmap([[1]]), 2, 1).add({ type: 'scatter', x: [0], y: [0] });
    expect(fig.data.map((t) => [t.xaxis, t.yaxis])).toEqual([['x2', 'y2'], ['x3', 'y3'], ['x', 'y']]);
    expect(fig.layout).toMatchObject({ yaxis2: { type: 'log', anchor: 'x2' } });
    expect((fig.layout['annotations'] as { text: string }[]).map((a) => a.text)).toEqual(['a', 'res']);
    expect((fig.data[1]!.colorbar as { x: number }).x).toBeGreaterThan((fig.layout['xaxis'] as { domain: number[] }).domain[1]!);
  });

  it('3-D traces go to a scene with the cell domain', () => {
    const fig = plot.subplots(1, 2).add(plot.surface([[1, 2], [3, 4]]), 1, 2);
    expect(fig.data[0]!.scene).toBe('scene2');
    expect(fig.layout).toMatchObject({ scene2: { domain: { x: (fig.layout['xaxis2'] as { domain: number[] }).domain } } });
  });

  it('errors', () => {
    expect(() => plot.subplots(0, 1)).toThrow(ValueError);
    expect(() => plot.subplots(1, 2).add({ type: 'scatter' }, 2, 1)).toThrow(IndexError);
    expect(() => plot.line([1]).add({ type: 'scatter' }, 1, 1)).toThrow(/no subplot grid/);
  });
});
