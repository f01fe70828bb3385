// Thinning a long line to what a screen can show without changing what it shows.
//
// A line of 10⁶ points is ~1000 times more points than pixels across a plot, and
// plotly (SVG) slows to a crawl long before that. Taking every k-th point would
// drop spikes; instead the series is cut into buckets of consecutive indices and
// each bucket keeps its minimum and its maximum (in index order), so every
// extreme — the global min and max included — survives, and the drawn envelope
// is the original's at screen resolution. The first and last points are always
// kept (the x range does not shrink), and a bucket containing a gap (a
// non-finite y) keeps one gap point, so gaps stay gaps. Points are a subset of
// the original in their original order, so x order is preserved.

import { ValueError } from '../tensor/errors.js';

/** Lines longer than this are decimated unless the builder is given another `maxPoints`. */
export const DEFAULT_MAX_POINTS = 100_000;

/** Checks a maxPoints option: an integer ≥ 4, or Infinity (never decimate). */
export function checkMaxPoints(op: string, maxPoints: number): void {
  if (!(maxPoints === Infinity || (Number.isInteger(maxPoints) && maxPoints >= 4))) throw new ValueError(`${op}: expected maxPoints an integer ≥ 4 or Infinity, got ${String(maxPoints)}`);
}

/**
 * Indices of the points kept from y (length n) for at most maxPoints points
 * (plus one per bucket holding a gap). All indices when n ≤ maxPoints.
 */
export function decimationIndices(y: ArrayLike<number>, maxPoints: number): Int32Array {
  const n = y.length;
  if (n <= maxPoints) {
    const all = new Int32Array(n);
    for (let i = 0; i < n; i++) all[i] = i;
    return all;
  }
  const buckets = Math.floor((maxPoints - 2) / 2);
  const out = new Int32Array(2 + 3 * buckets);
  let m = 0;
  out[m++] = 0;
  // Bucket b covers [1 + floor(b·(n-2)/buckets), 1 + floor((b+1)·(n-2)/buckets)): the interior points.
  for (let b = 0; b < buckets; b++) {
    const lo = 1 + Math.floor((b * (n - 2)) / buckets), hi = 1 + Math.floor(((b + 1) * (n - 2)) / buckets);
    let iMin = -1, iMax = -1, iGap = -1;
    let vMin = Infinity, vMax = -Infinity;
    for (let i = lo; i < hi; i++) {
      const v = y[i]!;
      if (!Number.isFinite(v)) {
        if (iGap < 0) iGap = i;
        continue;
      }
      if (v < vMin) { vMin = v; iMin = i; }
      if (v > vMax) { vMax = v; iMax = i; }
    }
    const keep = [iMin, iMax, iGap].filter((i) => i >= 0).sort((a, b) => a - b);
    let last = -1;
    for (const i of keep) if (i !== last) out[m++] = last = i;
  }
  out[m++] = n - 1;
  return out.slice(0, m);
}

/** a[idx[0]], a[idx[1]], ... in a typed array of a's kind. */
export function gather<A extends Float64Array | Float32Array>(a: A, idx: Int32Array): A {
  if (idx.length === a.length) return a;
  const out = (a instanceof Float32Array ? new Float32Array(idx.length) : new Float64Array(idx.length)) as A;
  for (let i = 0; i < idx.length; i++) out[i] = a[idx[i]!]!;
  return out;
}
