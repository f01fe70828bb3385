// plot.spy: the sparsity pattern of a sparse matrix (CSR, CSC or COO of
// rlx.sparse), one square marker per nonzero at (column, row), laid out like
// the matrix: row 0 at the top, columns labelled above, square cells.
//
// Which entries: the stored entries whose value is nonzero (like matplotlib's
// spy with its default precision 0); `explicitZeros: true` shows every stored
// entry. Above maxPoints markers (default 100 000) the pattern is drawn as a
// heatmap of nonzero counts per block of rows and columns (at most 512×512
// blocks), since SVG markers stop being drawable there; the title says so.

import { ValueError } from '../../tensor/errors.js';
import { isSparse, type SparseMatrix } from '../../sparse/base.js';
import { Figure } from '../figure.js';
import { DEFAULT_MAX_POINTS, checkMaxPoints } from '../decimate.js';
import { layoutOf, traceOf } from '../options.js';
import type { CommonOptions, Trace } from '../types.js';

export interface SpyOptions extends CommonOptions {
  /** Show stored zeros too (default false: nonzero values only). */
  explicitZeros?: boolean;
  /** Marker size in pixels (default: from the matrix size, 1 to 8). */
  markerSize?: number;
  /** Above this many entries, draw block counts instead of markers (default 100 000). */
  maxPoints?: number;
}

/** Blocks per axis of the density view. */
const DENSITY_BLOCKS = 512;

/**
 * The sparsity pattern of A (rows down, columns across).
 *
 * @example
 * ```ts
 * const fig = plot.spy(sparse.poisson2d(4), { title: '2-D Laplacian' });   // 16×16, 5-point stencil
 * (fig.toJSON().data[0]!.x as number[]).length;   // 64  (one marker per nonzero: 16 + 2·24 neighbours)
 * ```
 */
export function spy(A: SparseMatrix, opts: SpyOptions = {}): Figure {
  const op = 'plot.spy';
  if (!isSparse(A)) throw new ValueError(`${op}: expected a sparse matrix (CsrMatrix, CscMatrix or CooMatrix of rlx.sparse), got ${A === null ? 'null' : typeof A === 'object' ? ((A as object).constructor?.name ?? 'object') : typeof A}`);
  const maxPoints = opts.maxPoints ?? DEFAULT_MAX_POINTS;
  checkMaxPoints(op, maxPoints);
  const coo = A.tocoo();
  const [m, n] = A.shape;
  const lanes = coo.dtype === 'complex64' || coo.dtype === 'complex128' ? 2 : 1;
  const vals = coo.data;
  const rows: number[] = [], cols: number[] = [];
  for (let p = 0; p < coo.nnz; p++) {
    if (!opts.explicitZeros && vals[lanes * p] === 0 && (lanes === 1 || vals[lanes * p + 1] === 0)) continue;
    rows.push(coo.row[p]!);
    cols.push(coo.col[p]!);
  }
  const base = {
    xaxis: { side: 'top', range: [-0.5, n - 0.5], showgrid: false, zeroline: false, constrain: 'domain' },
    yaxis: { range: [m - 0.5, -0.5], scaleanchor: 'x', scaleratio: 1, showgrid: false, zeroline: false, constrain: 'domain' },
    title: { text: `${m}×${n}, ${rows.length} nonzeros` },
  };
  let trace: Trace;
  if (rows.length <= maxPoints) {
    const size = opts.markerSize ?? Math.min(8, Math.max(1, 600 / Math.max(m, n)));
    if (!(Number.isFinite(size) && size > 0)) throw new ValueError(`${op}: expected markerSize a positive number, got ${String(size)}`);
    trace = { type: 'scatter', mode: 'markers', x: Float64Array.from(cols), y: Float64Array.from(rows), marker: { symbol: 'square', size, color: '#1f3b73' }, hovertemplate: 'row %{y}, col %{x}<extra></extra>' };
  } else {
    const bm = Math.min(m, DENSITY_BLOCKS), bn = Math.min(n, DENSITY_BLOCKS);
    const counts = new Float64Array(bm * bn);
    for (let p = 0; p < rows.length; p++) counts[Math.floor((rows[p]! * bm) / m) * bn + Math.floor((cols[p]! * bn) / n)]! += 1;
    for (let i = 0; i < counts.length; i++) if (counts[i] === 0) counts[i] = NaN; // empty blocks blank
    const centers = (b: number, size: number): Float64Array => Float64Array.from({ length: b }, (_, i) => ((i + 0.5) * size) / b - 0.5);
    trace = { type: 'heatmap', z: Array.from({ length: bm }, (_, i) => counts.subarray(i * bn, (i + 1) * bn)), x: centers(bn, n), y: centers(bm, m), colorscale: 'Blues', colorbar: { title: { text: 'nonzeros' } } };
    base.title.text += ` (nonzeros per ${(m / bm).toPrecision(3)}×${(n / bn).toPrecision(3)} block)`;
  }
  return new Figure({ data: [traceOf(trace, opts)], layout: layoutOf(op, opts, base) });
}
