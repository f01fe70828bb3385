// plot.histogram: the distribution of a tensor's values (all elements, any
// shape), binned by plotly in the page.

import { ValueError } from '../../tensor/errors.js';
import { Figure } from '../figure.js';
import { toValues, type PlotInput } from '../data.js';
import { layoutOf, traceOf } from '../options.js';
import type { CommonOptions, Trace } from '../types.js';

export interface HistogramOptions extends CommonOptions {
  /** Maximum number of bins (plotly's nbinsx; default: plotly chooses). */
  nbins?: number;
  /** plotly's histnorm: '' (counts, default), 'percent', 'probability', 'density', 'probability density'. */
  histnorm?: '' | 'percent' | 'probability' | 'density' | 'probability density';
  /** Cumulative histogram. */
  cumulative?: boolean;
}

/**
 * A histogram of every element of x (flattened; non-finite values are not counted).
 *
 * @example
 * ```ts
 * const samples = random.normal(random.key(0), [1000]);
 * const fig = plot.histogram(samples, { nbins: 50, histnorm: 'probability density' });
 * fig.toJSON().data[0]!.nbinsx;                   // 50
 * (fig.toJSON().data[0]!.x as number[]).length;   // 1000  (every sample; plotly bins them)
 * ```
 */
export function histogram(x: PlotInput, opts: HistogramOptions = {}): Figure {
  const op = 'plot.histogram';
  const v = toValues(`${op}: x`, x, opts.part);
  const t: Trace = { type: 'histogram', x: v.data };
  if (opts.nbins !== undefined) {
    if (!(Number.isInteger(opts.nbins) && opts.nbins >= 1)) throw new ValueError(`${op}: expected nbins a positive integer, got ${String(opts.nbins)}`);
    t.nbinsx = opts.nbins;
  }
  if (opts.histnorm !== undefined) t.histnorm = opts.histnorm;
  if (opts.cumulative) t.cumulative = { enabled: true };
  return new Figure({ data: [traceOf(t, opts)], layout: layoutOf(op, opts, { bargap: 0.02 }) });
}
