// Matrix Market files as the CLI reads and writes them: through rlx's own
// reader and writer (sparse.readMatrixMarket / writeMatrixMarket), with every
// problem turned into a one-line CliFailure that names the file, the way a
// user wants to read it ("rlx solve: A.mtx: matrix market: line 7: ...").

import { statSync } from 'node:fs';
import { readMatrixMarket } from '../sparse/mm-read.js';
import { writeMatrixMarket } from '../sparse/mm-write.js';
import { fromTriplets } from '../sparse/construct.js';
import type { CsrMatrix } from '../sparse/csr.js';
import { CliFailure } from './errors.js';

/** The first line of an error's message (library messages are one line; system errors sometimes are not). */
export function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0]!;
}

/** Checks that `path` is an existing file; CliFailure naming it otherwise. */
export function requireFile(path: string): void {
  let isFile: boolean;
  try {
    isFile = statSync(path).isFile();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliFailure(`${path}: ${code === 'ENOENT' ? 'no such file' : firstLine(e)}`);
  }
  if (!isFile) throw new CliFailure(`${path}: not a file`);
}

/** Reads a Matrix Market file; CliFailure naming the file when it is missing, not a file, or malformed. */
export function readMatrixFile(path: string): CsrMatrix {
  requireFile(path);
  try {
    return readMatrixMarket(path);
  } catch (e) {
    throw new CliFailure(`${path}: ${firstLine(e)}`);
  }
}

/**
 * Writes a vector as an n×1 Matrix Market array (every entry, zeros included:
 * the dense format for a dense solution). `values` is interleaved re, im when complex.
 */
export function writeVectorFile(path: string, values: Float64Array, complex: boolean, comment?: string): void {
  const n = complex ? values.length / 2 : values.length;
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const V = fromTriplets(rows, new Int32Array(n), values, [n, 1], { dtype: complex ? 'complex128' : 'float64' });
  try {
    writeMatrixMarket(V, path, comment === undefined ? { format: 'array' } : { format: 'array', comment });
  } catch (e) {
    throw new CliFailure(`${path}: cannot write: ${firstLine(e)}`);
  }
}
