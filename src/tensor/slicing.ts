// Slice specs: s(ax(), rg(0, 64), ix(3), tail(2)) picks per axis what NumPy's
// a[:, 0:64, 3:4, 2:] picks. Every slice is a view in the IR (no copy).

/** Whole axis (NumPy `:`). */
export interface AxSpec { readonly kind: 'ax' }
/** Range start..end (exclusive) with step; negative bounds count from the end. */
export interface RangeSpec { readonly kind: 'rg'; readonly start: number | undefined; readonly end: number | undefined; readonly step: number }
/** A single index that keeps the axis with size 1 (NumPy `i:i+1`). */
export interface IndexSpec { readonly kind: 'ix'; readonly index: number }
export type AxisSpec = AxSpec | RangeSpec | IndexSpec;
/** A full slice: one entry per leading axis; missing trailing axes are whole. */
export interface SliceSpec { readonly kind: 'slice'; readonly axes: readonly AxisSpec[] }

/**
 * Whole axis.
 * @example
 * ```ts
 * arange(6).reshape([2, 3]).slice(s(ax(), ix(2))).tolist();   // [[2], [5]]  (NumPy a[:, 2:3])
 * ```
 */
export const ax = (): AxSpec => ({ kind: 'ax' });
/**
 * Range [start, end) with optional step (may be negative, like NumPy).
 * @example
 * ```ts
 * const a = arange(6);
 * a.slice(s(rg(1, 4))).tolist();            // [1, 2, 3]     (a[1:4])
 * a.slice(s(rg(4, 0, -2))).tolist();        // [4, 2]        (a[4:0:-2])
 * a.slice(s(rg(null, null, -1))).tolist();  // [5, 4, 3, 2, 1, 0]  (a[::-1])
 * ```
 */
export const rg = (start?: number | null, end?: number | null, step: number | null = 1): RangeSpec => ({ kind: 'rg', start: start ?? undefined, end: end ?? undefined, step: step ?? 1 });
/**
 * Single index; the axis is kept with size 1.
 * @example
 * ```ts
 * const a = arange(6).reshape([2, 3]);
 * a.slice(s(ix(1))).tolist();    // [[3, 4, 5]]  (a[1:2]: the axis stays, size 1)
 * a.slice(s(ix(-1))).tolist();   // [[3, 4, 5]]  (negative counts from the end)
 * ```
 */
export const ix = (index: number): IndexSpec => ({ kind: 'ix', index });
/**
 * From start to the end of the axis.
 * @example
 * ```ts
 * arange(5).slice(s(tail(2))).tolist();    // [2, 3, 4]  (a[2:])
 * arange(5).slice(s(tail(-2))).tolist();   // [3, 4]     (a[-2:])
 * ```
 */
export const tail = (start: number): RangeSpec => ({ kind: 'rg', start, end: undefined, step: 1 });
/**
 * Builds a slice spec from per-axis specs; a number n means ix(n).
 * @example
 * ```ts
 * const a = arange(12).reshape([3, 4]);
 * a.slice(s(ax(), rg(1, 3))).tolist();   // [[1, 2], [5, 6], [9, 10]]  (a[:, 1:3])
 * a.slice(s(2)).tolist();                // [[8, 9, 10, 11]]           (a[2:3]: a number is ix(n))
 * ```
 */
export const s = (...axes: (AxisSpec | number)[]): SliceSpec => ({
  kind: 'slice',
  axes: axes.map((a) => (typeof a === 'number' ? ix(a) : a)),
});

/** NumPy's slice.indices: normalized start, step and count for an axis of length n. */
export function sliceIndices(start: number | undefined, end: number | undefined, step: number, n: number): { start: number; step: number; size: number } {
  let lo: number, hi: number;
  if (step > 0) {
    lo = start === undefined ? 0 : start < 0 ? Math.max(0, start + n) : Math.min(start, n);
    hi = end === undefined ? n : end < 0 ? Math.max(0, end + n) : Math.min(end, n);
    return { start: lo, step, size: Math.max(0, Math.ceil((hi - lo) / step)) };
  }
  lo = start === undefined ? n - 1 : start < 0 ? Math.max(-1, start + n) : Math.min(start, n - 1);
  hi = end === undefined ? -1 : end < 0 ? Math.max(-1, end + n) : Math.min(end, n - 1);
  return { start: lo, step, size: Math.max(0, Math.ceil((hi - lo) / step)) };
}
