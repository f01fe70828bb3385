// Matrix Market reader (https://math.nist.gov/MatrixMarket/formats.html).
//
// Streaming: lines come from mm-scan.ts, over the text or over a file read in
// 1 MiB chunks, in bounded memory: comment and blank lines of any length are
// skipped without being held; a header or data line longer than 1 MiB is a
// MatrixMarketError. Numbers are scanned in one pass (no backtracking regular
// expression). Entries go into growable arrays that start small and double, so the
// memory used is bounded by the data actually present, not by the sizes the header
// declares (a header claiming 10⁹ entries followed by nothing allocates nothing).
//
// Compatibility: what SciPy's mmread (and CHOLMOD's cholmod_read) read is read, with
// the same values:
//   - integer fields have no width: values are read as float64 (exact up to 2⁵³,
//     rounded beyond), so values outside int32, −2³¹ included, are accepted (SciPy
//     gives int64 and fails beyond it). Indices and sizes stay int32.
//   - symmetric, skew-symmetric and hermitian files may store entries of either
//     triangle: each off-diagonal entry (i, j) also gives (j, i) (negated, or
//     conjugated), and coinciding entries are summed — SciPy's and CHOLMOD's rule.
//   - pattern files whose lines carry one or two value columns: the values are
//     ignored (entries are 1), as SciPy does.
// Deliberately stricter than both: a hermitian diagonal entry with a nonzero
// imaginary part, and a nonzero diagonal entry of a skew-symmetric file, are a
// MatrixMarketError. SciPy keeps such a value and CHOLMOD ignores it, either way
// returning a matrix that is not what the header says (a Hermitian matrix has a
// real diagonal, a skew-symmetric one a zero diagonal); dropping the offending
// part silently would change the data. An explicit zero diagonal of a
// skew-symmetric file is accepted.
//
// Strictness otherwise: every deviation from the format is a MatrixMarketError
// naming the line — wrong field counts, non-numeric tokens, indices out of range,
// too many or too few entries. Blank lines are skipped anywhere after the header;
// '%' lines are comments. Duplicate coordinate entries are summed.

import type { SparseDType } from './contract.js';
import { CsrMatrix } from './csr.js';
import { fromTriplets } from './construct.js';
import { MatrixMarketError } from './errors.js';
import { toSparseDType } from './dtypes.js';
import { type LineSource, StringLines, FileLines, tokenize, scanInteger, scanReal } from './mm-scan.js';

export type MMFormat = 'coordinate' | 'array';
export type MMField = 'real' | 'integer' | 'complex' | 'pattern';
export type MMSymmetry = 'general' | 'symmetric' | 'skew-symmetric' | 'hermitian';
export interface MMHeader {
  format: MMFormat;
  field: MMField;
  symmetry: MMSymmetry;
  rows: number;
  cols: number;
  /** Declared stored entries (coordinate) or values (array; after symmetry). */
  entries: number;
}
export interface ReadOptions {
  /** Cast the result (default float64, complex128 for complex files). */
  dtype?: SparseDType | string;
  /**
   * Largest accepted row/column count (default 2²⁶ = 67,108,864). The CSR result
   * needs rows + 1 index words whatever the data, so a larger declared size is
   * refused before any allocation unless raised here.
   */
  maxDimension?: number;
}

const isText = (s: string): boolean => /^\s*%%MatrixMarket/i.test(s.slice(0, 256)) || s.includes('\n');

function parseReal(tok: string, no: number, what: string): number {
  const v = scanReal(tok);
  if (v === undefined) throw new MatrixMarketError(no, `${what} ${quote(tok)} is not a number`);
  return v;
}
function parseInt32(tok: string, no: number, what: string): number {
  const v = scanInteger(tok);
  if (Number.isNaN(v)) throw new MatrixMarketError(no, `${what} ${quote(tok)} is not an integer`);
  if (Math.abs(v) > 2147483647) throw new MatrixMarketError(no, `${what} ${quote(tok)} does not fit in int32`);
  return v;
}
/** An integer-field value: any width, as float64. */
function parseIntegerValue(tok: string, no: number): number {
  const v = scanInteger(tok);
  if (Number.isNaN(v)) throw new MatrixMarketError(no, `value ${quote(tok)} is not an integer`);
  return v;
}
/** A token for a message: JSON-quoted, cut to 40 characters. */
const quote = (tok: string): string => (tok.length > 40 ? JSON.stringify(tok.slice(0, 40)) + `… (${tok.length} characters)` : JSON.stringify(tok));

/** Parses the banner and the size line; leaves `it` at the first data line. */
function readHeader(src: LineSource, opts: ReadOptions): MMHeader {
  const text = src.next(true);
  if (text === undefined) throw new MatrixMarketError(0, 'empty input (expected a %%MatrixMarket header)');
  const no = src.no;
  const b = tokenize(text.replace(/^\uFEFF/, ''), 6).toks;
  if (b.length === 0 || b[0]!.toLowerCase() !== '%%matrixmarket') throw new MatrixMarketError(no, `expected the header '%%MatrixMarket matrix <format> <field> <symmetry>', got ${JSON.stringify(text.slice(0, 80))}`);
  if (tokenize(text, 6).count !== 5) throw new MatrixMarketError(no, `header needs 5 words (%%MatrixMarket matrix <format> <field> <symmetry>), got ${tokenize(text, 6).count}`);
  const [obj, fmt, fld, sym] = b.slice(1).map((s) => s.toLowerCase()) as [string, string, string, string];
  if (obj !== 'matrix') throw new MatrixMarketError(no, `object ${JSON.stringify(obj)} is not supported (only 'matrix')`);
  if (fmt !== 'coordinate' && fmt !== 'array') throw new MatrixMarketError(no, `format ${JSON.stringify(fmt)} must be 'coordinate' or 'array'`);
  const field = fld === 'double' ? 'real' : fld;
  if (field !== 'real' && field !== 'integer' && field !== 'complex' && field !== 'pattern') throw new MatrixMarketError(no, `field ${JSON.stringify(fld)} must be real, integer, complex or pattern`);
  if (sym !== 'general' && sym !== 'symmetric' && sym !== 'skew-symmetric' && sym !== 'hermitian') throw new MatrixMarketError(no, `symmetry ${JSON.stringify(sym)} must be general, symmetric, skew-symmetric or hermitian`);
  if (field === 'pattern' && fmt === 'array') throw new MatrixMarketError(no, "field 'pattern' is only valid with format 'coordinate'");
  if (sym === 'hermitian' && field !== 'complex') throw new MatrixMarketError(no, "symmetry 'hermitian' needs field 'complex'");
  if (sym === 'skew-symmetric' && field === 'pattern') throw new MatrixMarketError(no, "symmetry 'skew-symmetric' is not valid with field 'pattern'");
  const sizeText = src.next();
  if (sizeText === undefined) throw new MatrixMarketError(src.lines + 1, 'missing size line after the header');
  const size = { text: sizeText, no: src.no };
  const want = fmt === 'coordinate' ? 3 : 2;
  const { toks: st, count } = tokenize(size.text, want);
  if (count !== want) throw new MatrixMarketError(size.no, `size line must have ${want} integers (${fmt === 'coordinate' ? 'rows cols entries' : 'rows cols'}), got ${JSON.stringify(size.text.slice(0, 80))}`);
  const [rows, cols, decl] = st.map((t, k) => parseInt32(t, size.no, ['rows', 'cols', 'entries'][k]!));
  if (rows! < 0 || cols! < 0 || (decl !== undefined && decl < 0)) throw new MatrixMarketError(size.no, `sizes must be non-negative, got ${st.join(' ')}`);
  const maxDim = opts.maxDimension ?? 2 ** 26;
  if (rows! > maxDim || cols! > maxDim) throw new MatrixMarketError(size.no, `size ${rows}×${cols} exceeds maxDimension ${maxDim} (pass {maxDimension} to allow it)`);
  if (sym !== 'general' && rows !== cols) throw new MatrixMarketError(size.no, `${sym} matrix must be square, got ${rows}×${cols}`);
  const n = rows!;
  const stored = sym === 'general' ? rows! * cols! : sym === 'skew-symmetric' ? (n * (n - 1)) / 2 : (n * (n + 1)) / 2;
  const entries = fmt === 'coordinate' ? decl! : stored;
  // Coordinate files of any symmetry may hold entries of both triangles (see the header): at most rows·cols distinct positions.
  if (fmt === 'coordinate' && entries > rows! * cols!) throw new MatrixMarketError(size.no, `${entries} entries declared but a ${rows}×${cols} matrix stores at most ${rows! * cols!}`);
  return { format: fmt, field, symmetry: sym, rows: rows!, cols: cols!, entries };
}

/** Growable triplet storage (doubling), so allocation follows the data seen. */
class Triplets {
  r = new Int32Array(0);
  c = new Int32Array(0);
  v = new Float64Array(0);
  n = 0;
  constructor(private lanes: number, private cap0: number) {}
  push(i: number, j: number, re: number, im: number): void {
    if (this.n === this.r.length) {
      const cap = Math.max(this.cap0, 2 * this.r.length);
      const r = new Int32Array(cap), c = new Int32Array(cap), v = new Float64Array(cap * this.lanes);
      r.set(this.r), c.set(this.c), v.set(this.v);
      [this.r, this.c, this.v] = [r, c, v];
    }
    this.r[this.n] = i;
    this.c[this.n] = j;
    this.v[this.n * this.lanes] = re;
    if (this.lanes === 2) this.v[this.n * 2 + 1] = im;
    this.n++;
  }
}

/**
 * Reads a Matrix Market matrix from a file path or from the text itself (a string
 * starting with %%MatrixMarket or containing a newline is text). Symmetric,
 * skew-symmetric and hermitian storage is expanded; pattern entries are 1; integer
 * and real fields give float64, complex gives complex128 (unless opts.dtype).
 * Returns canonical CSR (duplicates summed; explicit zeros of coordinate files kept,
 * zeros of array files not stored).
 * @example
 * ```ts
 * // a symmetric file stores one triangle; the reader expands it
 * const text = '%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 4\n2 1 1\n';
 * sparse.readMatrixMarket(text).toDense().tolist();   // [[4, 1], [1, 0]]
 * ```
 */
export function readMatrixMarket(pathOrText: string, opts: ReadOptions = {}): CsrMatrix {
  if (typeof pathOrText !== 'string') throw new MatrixMarketError(0, 'expected a path or the Matrix Market text');
  if (pathOrText.length < 4096 && pathOrText.trim() === '') throw new MatrixMarketError(0, 'empty input (expected a path or a %%MatrixMarket header)');
  const src = open(pathOrText);
  try {
    return readBody(src, opts);
  } finally {
    src.close();
  }
}

/**
 * The header (format, field, symmetry, sizes) without reading the entries.
 * @example
 * ```ts
 * const text = '%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 4\n2 1 1\n';
 * const h = sparse.readMatrixMarketHeader(text);
 * [h.format, h.field, h.symmetry, h.rows, h.entries];   // ['coordinate', 'real', 'symmetric', 2, 2]
 * ```
 */
export function readMatrixMarketHeader(pathOrText: string): MMHeader {
  if (typeof pathOrText !== 'string') throw new MatrixMarketError(0, 'expected a path or the Matrix Market text');
  const src = open(pathOrText);
  try {
    return readHeader(src, {});
  } finally {
    src.close();
  }
}

const open = (pathOrText: string): LineSource => (isText(pathOrText) ? new StringLines(pathOrText) : new FileLines(pathOrText));

function readBody(src: LineSource, opts: ReadOptions): CsrMatrix {
  const h = readHeader(src, opts);
  const { format, field, symmetry, rows, cols, entries } = h;
  const cplx = field === 'complex';
  const lanes = cplx ? 2 : 1;
  const nv = field === 'pattern' ? 0 : cplx ? 2 : 1;
  const coord = format === 'coordinate';
  const nt = (coord ? 2 : 0) + nv;
  // Pattern lines may carry one or two value columns, ignored (SciPy's rule).
  const ntMax = field === 'pattern' ? nt + 2 : nt;
  const mirror = symmetry !== 'general';
  const out = new Triplets(lanes, Math.max(16, Math.min(entries * (mirror ? 2 : 1), 1 << 16)));
  let seen = 0;
  // Array format walks columns top to bottom; symmetric storage starts each column at the diagonal.
  let ai = symmetry === 'skew-symmetric' ? 1 : 0, aj = 0;
  for (let text = src.next(); text !== undefined; text = src.next()) {
    const no = src.no;
    if (seen === entries) throw new MatrixMarketError(no, `more entries than the ${entries} declared`);
    const { toks: t, count } = tokenize(text, nt);
    if (count < nt || count > ntMax) throw new MatrixMarketError(no, `expected ${nt === ntMax ? nt : `${nt} to ${ntMax}`} fields (${coord ? 'row col ' : ''}${field === 'pattern' ? '' : cplx ? 're im' : 'value'}), got ${count}`);
    let i: number, j: number;
    if (coord) {
      i = parseInt32(t[0]!, no, 'row index') - 1;
      j = parseInt32(t[1]!, no, 'column index') - 1;
      if (i < 0 || i >= rows) throw new MatrixMarketError(no, `row index ${i + 1} out of range [1, ${rows}]`);
      if (j < 0 || j >= cols) throw new MatrixMarketError(no, `column index ${j + 1} out of range [1, ${cols}]`);
    } else {
      [i, j] = [ai, aj];
      if (++ai >= rows) {
        aj++;
        ai = symmetry === 'general' ? 0 : symmetry === 'skew-symmetric' ? aj + 1 : aj;
      }
    }
    const o = coord ? 2 : 0;
    let re = 1, im = 0;
    if (field === 'integer') re = parseIntegerValue(t[o]!, no);
    else if (field !== 'pattern') {
      re = parseReal(t[o]!, no, 'value');
      if (cplx) im = parseReal(t[o + 1]!, no, 'imaginary part');
    }
    if (mirror && i === j) {
      if (symmetry === 'skew-symmetric' && (re !== 0 || im !== 0)) throw new MatrixMarketError(no, `entry (${i + 1}, ${i + 1}) = ${im === 0 ? re : `${re} + ${im}i`} is not in the strictly lower triangle that skew-symmetric storage holds (its diagonal is 0)`);
      if (symmetry === 'hermitian' && im !== 0) throw new MatrixMarketError(no, `hermitian diagonal entry (${i + 1}, ${i + 1}) has imaginary part ${im} (a Hermitian matrix has a real diagonal)`);
    }
    seen++;
    if (!coord && re === 0 && im === 0) continue;
    out.push(i, j, re, im);
    if (mirror && i !== j) {
      if (symmetry === 'symmetric') out.push(j, i, re, im);
      else if (symmetry === 'skew-symmetric') out.push(j, i, -re, -im);
      else out.push(j, i, re, -im);
    }
  }
  if (seen < entries) throw new MatrixMarketError(src.lines, `found ${seen} entries, the header declared ${entries} (missing entries at end of input)`);
  const dtype = opts.dtype !== undefined ? toSparseDType('readMatrixMarket', opts.dtype) : cplx ? 'complex128' : 'float64';
  const A = fromTriplets(out.r.subarray(0, out.n), out.c.subarray(0, out.n), out.v.subarray(0, out.n * lanes), [rows, cols], { dtype: cplx ? 'complex128' : 'float64' });
  return dtype === A.dtype ? A : A.astype(dtype);
}
