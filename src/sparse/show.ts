// Printing sparse matrices (SciPy's str(): one "(i, j)\tvalue" line per entry).

import type { SparseDType, ValueArray } from './contract.js';
import { lanesOf } from './dtypes.js';

/** Entries shown before eliding the middle (SciPy shows 50). */
const MAX_LINES = 50;

function fmtValue(data: ValueArray, p: number, lanes: number): string {
  const num = (v: number): string => (Number.isInteger(v) && Math.abs(v) < 1e16 ? v.toFixed(1) : String(v));
  if (lanes === 1) return num(data[p]!);
  const re = data[2 * p]!, im = data[2 * p + 1]!;
  return `(${num(re)}${im < 0 || Object.is(im, -0) ? '-' : '+'}${num(Math.abs(im))}j)`;
}

export function formatSparse(name: string, shape: [number, number], dtype: SparseDType, row: Int32Array, col: Int32Array, data: ValueArray): string {
  const nnz = row.length;
  const lanes = lanesOf(dtype);
  const lines = [`<${name} ${shape[0]}×${shape[1]}, ${dtype}, nnz=${nnz}>`];
  const show = (p: number): string => `  (${row[p]}, ${col[p]})\t${fmtValue(data, p, lanes)}`;
  if (nnz <= MAX_LINES) for (let p = 0; p < nnz; p++) lines.push(show(p));
  else {
    for (let p = 0; p < MAX_LINES / 2; p++) lines.push(show(p));
    lines.push('  :\t:');
    for (let p = nnz - MAX_LINES / 2; p < nnz; p++) lines.push(show(p));
  }
  return lines.join('\n');
}
