// Small statistics and formatting helpers shared by the harness.

/** Sorted copy (numeric). */
function sorted(xs) {
  return [...xs].sort((a, b) => a - b);
}

/** Quantile q in [0, 1] with linear interpolation (numpy's default method). */
export function quantile(xs, q) {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export const median = (xs) => quantile(xs, 0.5);
export const min = (xs) => (xs.length ? Math.min(...xs) : NaN);
export const max = (xs) => (xs.length ? Math.max(...xs) : NaN);

/**
 * Summary of one implementation over several runs (each run = a list of
 * per-call samples in seconds). The headline `median` is the median of the
 * per-run medians (robust to one disturbed run); min and p90 pool all samples.
 */
export function summarize(runs) {
  const all = runs.flatMap((r) => r.samples);
  const runMedians = runs.map((r) => median(r.samples));
  const m = median(runMedians);
  return {
    median: m,
    min: min(all),
    p90: quantile(all, 0.9),
    runMedians,
    /** (max - min) / median of the per-run medians: how much the runs disagree. */
    runSpread: runMedians.length > 1 ? (max(runMedians) - min(runMedians)) / m : 0,
    samples: all.length,
  };
}

/** Seconds → human string with 3 significant digits (ns, µs, ms, s). */
export function fmtTime(sec) {
  if (!Number.isFinite(sec)) return '–';
  const units = [
    [1, 's'],
    [1e-3, 'ms'],
    [1e-6, 'µs'],
    [1e-9, 'ns'],
  ];
  for (const [scale, u] of units) {
    if (sec >= scale || scale === 1e-9) {
      const v = sec / scale;
      return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${u}`;
    }
  }
  return String(sec);
}

export function fmtRatio(r) {
  if (!Number.isFinite(r)) return '–';
  return `${r >= 10 ? r.toFixed(1) : r.toFixed(2)}×`;
}

export function fmtPct(x) {
  return `${(x * 100).toFixed(x < 0.1 ? 1 : 0)}%`;
}
