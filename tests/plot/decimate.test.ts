// Line decimation (src/plot/decimate.ts): a long line keeps its global min and
// max, its first and last points and its gaps, is a subsequence of the input in
// x order, and respects maxPoints. Checked against direct scans of the input.

import { describe, expect, it } from 'vitest';
import { decimationIndices, DEFAULT_MAX_POINTS } from '../../src/plot/decimate.js';
import { plot, tensor, ValueError } from './rlx.js';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('decimationIndices', () => {
  it('keeps every point up to maxPoints', () => {
    expect([...decimationIndices(new Float64Array(10), 10)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('keeps the global min and max, both ends, strictly increasing indices, at most maxPoints', () => {
    const rnd = lcg(7);
    const n = 1_000_003, maxPoints = 1000;
    const y = new Float64Array(n).map(() => rnd() - 0.5);
    y[123_457] = 5; // a one-sample spike
    y[987_654] = -7;
    const idx = decimationIndices(y, maxPoints);
    expect(idx.length).toBeLessThanOrEqual(maxPoints);
    expect(idx.length).toBeGreaterThan(maxPoints / 2);
    expect(idx[0]).toBe(0);
    expect(idx[idx.length - 1]).toBe(n - 1);
    for (let i = 1; i < idx.length; i++) expect(idx[i]! > idx[i - 1]!).toBe(true);
    const kept = [...idx].map((i) => y[i]!);
    expect(Math.max(...kept)).toBe(5);
    expect(Math.min(...kept)).toBe(-7);
  });

  it('keeps a gap point in every bucket that has one', () => {
    const y = new Float64Array(1000).map((_, i) => Math.sin(i));
    y[500] = NaN;
    const idx = decimationIndices(y, 100);
    expect([...idx]).toContain(500);
  });
});

describe('plot.line decimation', () => {
  it('a 10⁶-point line becomes at most DEFAULT_MAX_POINTS points with its extremes and x order', () => {
    const n = 1_000_000;
    const x = new Float64Array(n).map((_, i) => i * 1e-3);
    const y = new Float64Array(n).map((_, i) => Math.sin(i * 1e-3) + (i === 314_159 ? 3 : 0) - (i === 271_828 ? 4 : 0));
    const fig = plot.line({ x, y });
    const t = fig.data[0]!;
    const tx = t.x as Float64Array, ty = t.y as Float64Array;
    expect(tx.length).toBe(ty.length);
    expect(tx.length).toBeLessThanOrEqual(DEFAULT_MAX_POINTS);
    let yMax = -Infinity, yMin = Infinity, iMax = -1;
    for (let i = 0; i < n; i++) {
      if (y[i]! > yMax) { yMax = y[i]!; iMax = i; }
      if (y[i]! < yMin) yMin = y[i]!;
    }
    expect(Math.max(...ty)).toBe(yMax);
    expect(Math.min(...ty)).toBe(yMin);
    expect([...tx]).toContain(x[iMax]);
    for (let i = 1; i < tx.length; i++) expect(tx[i]! > tx[i - 1]!).toBe(true);
    expect([tx[0], tx[tx.length - 1]]).toEqual([x[0], x[n - 1]]);
  });

  it('maxPoints overrides the threshold; Infinity keeps everything; bad values throw ValueError', () => {
    const y = tensor(Array.from({ length: 1000 }, (_, i) => i % 7));
    expect((plot.line(y, { maxPoints: 100 }).data[0]!.y as Float64Array).length).toBeLessThanOrEqual(100);
    expect((plot.line(y, { maxPoints: Infinity }).data[0]!.y as Float64Array).length).toBe(1000);
    expect(() => plot.line(y, { maxPoints: 2 })).toThrow(ValueError);
    expect(() => plot.line(y, { maxPoints: 10.5 })).toThrow(/plot\.line: expected maxPoints/);
  });
});
