// Matrix Market writer: coordinate or array, real/integer/complex/pattern fields,
// general or symmetric/skew-symmetric/hermitian storage (lower triangle, after
// checking that the matrix really has that symmetry). Numbers are written in JS's
// shortest round-trip form, so reading the text back gives the same values.

import { openSync, writeSync, closeSync } from 'node:fs';
import type { SparseMatrix } from './base.js';
import type { CsrMatrix } from './csr.js';
import { isComplexDType } from './dtypes.js';
import type { MMField, MMFormat, MMSymmetry } from './mm-read.js';
import { ValueError } from '../tensor/errors.js';

export interface WriteOptions {
  format?: MMFormat;
  /** Default: complex for complex dtypes, else real. */
  field?: MMField;
  symmetry?: MMSymmetry;
  /** Comment lines (without the leading %) written after the header. */
  comment?: string;
}

const num = (v: number): string => (Number.isNaN(v) ? 'nan' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : Object.is(v, -0) ? '-0' : String(v));

/** Buffered output: chunks to a file descriptor, or collected into a string. */
class Sink {
  private parts: string[] = [];
  private size = 0;
  constructor(private fd: number | undefined) {}
  line(s: string): void {
    this.parts.push(s);
    this.size += s.length + 1;
    if (this.fd !== undefined && this.size > 1 << 20) this.flush();
  }
  flush(): void {
    if (this.fd !== undefined && this.parts.length) {
      try {
        writeSync(this.fd, this.parts.join('\n') + '\n');
      } catch (e) {
        throw new ValueError(`writeMatrixMarket: cannot write: ${(e as Error).message}`);
      }
    }
    if (this.fd !== undefined) [this.parts, this.size] = [[], 0];
  }
  text(): string {
    return this.parts.length ? this.parts.join('\n') + '\n' : '';
  }
}

/** Whether A equals σ·op(A)ᵀ exactly (op = conj for hermitian). */
function hasSymmetry(A: CsrMatrix, sym: MMSymmetry): boolean {
  if (sym === 'general') return true;
  if (A.shape[0] !== A.shape[1]) return false;
  const B = sym === 'hermitian' ? A.conjTranspose() : A.transpose();
  const D = sym === 'skew-symmetric' ? A.add(B) : A.sub(B);
  return D.eliminateZeros().nnz === 0;
}

/**
 * Writes A in Matrix Market format. Without a path the text is returned; with a
 * path it is written (in 1 MiB chunks) and nothing is returned.
 * @example
 * ```ts
 * const text = sparse.writeMatrixMarket(sparse.fromDense([[1, 0], [0, 2]]));   // no path: the text
 * text.split('\n')[0];                                // '%%MatrixMarket matrix coordinate real general'
 * sparse.readMatrixMarket(text).toDense().tolist();   // [[1, 0], [0, 2]]
 * ```
 */
export function writeMatrixMarket(A: SparseMatrix, path?: undefined, opts?: WriteOptions): string;
export function writeMatrixMarket(A: SparseMatrix, path: string, opts?: WriteOptions): void;
export function writeMatrixMarket(A: SparseMatrix, path?: string, opts: WriteOptions = {}): string | void {
  const format = opts.format ?? 'coordinate';
  const cplx = isComplexDType(A.dtype);
  const field = opts.field ?? (cplx ? 'complex' : 'real');
  const sym = opts.symmetry ?? 'general';
  if (format !== 'coordinate' && format !== 'array') throw new ValueError(`writeMatrixMarket: format must be 'coordinate' or 'array', got ${JSON.stringify(format)}`);
  if (!['real', 'integer', 'complex', 'pattern'].includes(field)) throw new ValueError(`writeMatrixMarket: unknown field ${JSON.stringify(field)}`);
  if (!['general', 'symmetric', 'skew-symmetric', 'hermitian'].includes(sym)) throw new ValueError(`writeMatrixMarket: unknown symmetry ${JSON.stringify(sym)}`);
  if (cplx && field !== 'complex' && field !== 'pattern') throw new ValueError(`writeMatrixMarket: a ${A.dtype} matrix cannot be written with field '${field}'`);
  if (field === 'pattern' && format === 'array') throw new ValueError("writeMatrixMarket: field 'pattern' needs format 'coordinate'");
  if (sym === 'hermitian' && field !== 'complex') throw new ValueError("writeMatrixMarket: symmetry 'hermitian' needs field 'complex'");
  if (sym === 'skew-symmetric' && field === 'pattern') throw new ValueError("writeMatrixMarket: 'skew-symmetric' is not valid with 'pattern'");
  const M = A.tocsr().sumDuplicates();
  if (!hasSymmetry(M, sym)) throw new ValueError(`writeMatrixMarket: the matrix is not ${sym}`);
  const [m, n] = M.shape;
  const lanes = cplx ? 2 : 1;
  const val = (p: number): string => {
    const re = M.data[p * lanes]!, im = cplx ? M.data[2 * p + 1]! : 0;
    if (field === 'pattern') return '';
    if (field === 'integer') {
      if (!Number.isInteger(re)) throw new ValueError(`writeMatrixMarket: field 'integer' but value ${re} is not an integer`);
      return ` ${re}`;
    }
    return field === 'complex' ? ` ${num(re)} ${num(im)}` : ` ${num(re)}`;
  };
  const keep = (i: number, j: number): boolean => sym === 'general' || j < i || (j === i && sym !== 'skew-symmetric');
  let fd: number | undefined;
  try {
    fd = path === undefined ? undefined : openSync(path, 'w');
  } catch (e) {
    throw new ValueError(`writeMatrixMarket: cannot open ${JSON.stringify(path)} for writing: ${(e as Error).message}`);
  }
  try {
    const out = new Sink(fd);
    out.line(`%%MatrixMarket matrix ${format} ${field} ${sym}`);
    for (const c of (opts.comment ?? '').split('\n')) if (opts.comment !== undefined) out.line(`%${c}`);
    if (format === 'coordinate') {
      let count = 0;
      for (let i = 0; i < m; i++) for (let p = M.indptr[i]!; p < M.indptr[i + 1]!; p++) if (keep(i, M.indices[p]!)) count++;
      out.line(`${m} ${n} ${count}`);
      for (let i = 0; i < m; i++) for (let p = M.indptr[i]!; p < M.indptr[i + 1]!; p++) if (keep(i, M.indices[p]!)) out.line(`${i + 1} ${M.indices[p]! + 1}${val(p)}`);
    } else {
      out.line(`${m} ${n}`);
      // Column-major walk over a CSC copy; absent entries are written as zeros.
      const C = M.tocsc();
      const zero = field === 'complex' ? ' 0 0' : ' 0';
      for (let j = 0; j < n; j++) {
        let p = C.indptr[j]!;
        const e = C.indptr[j + 1]!;
        for (let i = sym === 'general' ? 0 : sym === 'skew-symmetric' ? j + 1 : j; i < m; i++) {
          while (p < e && C.indices[p]! < i) p++;
          if (p < e && C.indices[p] === i) {
            const re = C.data[p * lanes]!, im = cplx ? C.data[2 * p + 1]! : 0;
            if (field === 'integer' && !Number.isInteger(re)) throw new ValueError(`writeMatrixMarket: field 'integer' but value ${re} is not an integer`);
            out.line(field === 'complex' ? `${num(re)} ${num(im)}` : num(re));
          } else out.line(zero.slice(1));
        }
      }
    }
    if (fd === undefined) return out.text();
    out.flush();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
