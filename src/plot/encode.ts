// Serializing a figure's data for plotly.
//
// toJSON (plainSpec): plain JSON that any plotly consumer accepts (Jupyter's
// plotly MIME renderer, plotly.py): typed arrays become number arrays and
// non-finite numbers become null, which plotly draws as a gap (JSON has no NaN).
//
// toHTML (binarySpec): plotly.js (since 2.28) also reads typed arrays as
// `{dtype: 'f8', bdata: <base64>, shape: 'H,W'}`. A float64 is 8 bytes, 10.7
// characters of base64, against ~18-20 characters of decimal text, and the page
// decodes it without parsing a million numbers, so large heatmaps and lines go
// that way: a flat typed array is 1-D, an array of equal-length typed-array rows
// of one type is 2-D (heatmap z), one more level is 3-D (image z). Everything
// else stays JSON. ±Infinity become NaN in the binary (a gap, as null in JSON).

import type { FigureSpec } from './types.js';

type Float = Float64Array | Float32Array;
const isFloatArray = (v: unknown): v is Float => v instanceof Float64Array || v instanceof Float32Array;

/** Numbers and typed arrays as JSON-safe plain values (non-finite -> null). */
export function plainValue(v: unknown): unknown {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
    const a = v as unknown as ArrayLike<number>;
    const out: (number | null)[] = new Array(a.length);
    for (let i = 0; i < a.length; i++) {
      const x = a[i]!;
      out[i] = Number.isFinite(x) ? x : null;
    }
    return out;
  }
  if (Array.isArray(v)) return v.map(plainValue);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = plainValue(x);
    return out;
  }
  return v;
}

/** The figure as plain JSON-safe objects. */
export function plainSpec(spec: FigureSpec): FigureSpec {
  return plainValue(spec) as FigureSpec;
}

function base64(parts: Float[], kind: 'f4' | 'f8'): string {
  const n = parts.reduce((s, p) => s + p.length, 0);
  const all = kind === 'f4' ? new Float32Array(n) : new Float64Array(n);
  let k = 0;
  for (const p of parts) {
    all.set(p, k);
    k += p.length;
  }
  for (let i = 0; i < n; i++) if (all[i] === Infinity || all[i] === -Infinity) all[i] = NaN;
  return Buffer.from(all.buffer, all.byteOffset, all.byteLength).toString('base64');
}

/** The leaves of a uniform nest of float typed arrays ([[row, row], ...]), with its shape, or undefined. */
function uniformLeaves(v: readonly unknown[], depth: number): { leaves: Float[]; shape: number[] } | undefined {
  if (v.length === 0) return undefined;
  if (depth === 1) {
    const first = v[0];
    if (!isFloatArray(first)) return undefined;
    const C = first.constructor;
    for (const r of v) if (!isFloatArray(r) || r.constructor !== C || r.length !== first.length) return undefined;
    return { leaves: v as Float[], shape: [v.length, first.length] };
  }
  const subs: Float[] = [];
  let inner: number[] | undefined;
  for (const e of v) {
    if (!Array.isArray(e)) return undefined;
    const u = uniformLeaves(e, depth - 1);
    if (!u || (inner && u.shape.join() !== inner.join()) || (subs.length && u.leaves[0]!.constructor !== subs[0]!.constructor)) return undefined;
    inner = u.shape;
    subs.push(...u.leaves);
  }
  return { leaves: subs, shape: [v.length, ...inner!] };
}

/** Typed arrays (and uniform nests of them) as plotly's base64 typed-array specs; the rest as plainValue. */
export function binaryValue(v: unknown): unknown {
  if (isFloatArray(v)) return { dtype: v instanceof Float32Array ? 'f4' : 'f8', bdata: base64([v], v instanceof Float32Array ? 'f4' : 'f8') };
  if (Array.isArray(v)) {
    const u = uniformLeaves(v, 1) ?? uniformLeaves(v, 2);
    if (u) {
      const kind = u.leaves[0] instanceof Float32Array ? 'f4' : 'f8';
      return { dtype: kind, bdata: base64(u.leaves, kind), shape: u.shape.join(',') };
    }
    return v.map(binaryValue);
  }
  if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = binaryValue(x);
    return out;
  }
  return plainValue(v);
}
