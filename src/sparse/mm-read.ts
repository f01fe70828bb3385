// Matrix Market reader (https://math.nist.gov/MatrixMarket/formats.html).
//
// Streaming: lines come from a generator over the text, or over a file read in
// 1 MiB chunks, so a file is never held as one string nor split into one giant
// array. Entries go into growable arrays that start small and double, so the
// memory used is bounded by the data actually present, not by the sizes the header
// declares (a header claiming 10⁹ entries followed by nothing allocates nothing).
//
// Strictness: every deviation from the format is a MatrixMarketError naming the
// line — wrong field counts, non-numeric tokens, indices out of range, too many or
// too few entries, entries above the diagonal of symmetric storage, non-real
// diagonals of hermitian matrices. Blank lines are skipped anywhere after the
// header; '%' lines are comments. Duplicate coordinate entries are summed.

import { openSync, readSync, closeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import type { SparseDType } from './contract.js';
import { CsrMatrix } from './csr.js';
import { fromTriplets } from './construct.js';
import { MatrixMarketError } from './errors.js';
import { toSparseDType } from './dtypes.js';

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

interface Line {
  text: string;
  no: number;
}

/** Lines of a string, without splitting it into one array. */
function* stringLines(text: string): Generator<Line> {
  let start = 0, no = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    no++;
    const t = text.charCodeAt(end - 1) === 13 ? text.slice(start, end - 1) : text.slice(start, end);
    if (end === text.length && t === '') return;
    yield { text: t, no };
    start = end + 1;
  }
}

/** Lines of a file, read in chunks. */
function* fileLines(path: string): Generator<Line> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (e) {
    throw new MatrixMarketError(0, `cannot open ${JSON.stringify(path)}: ${(e as Error).message}`);
  }
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    const dec = new StringDecoder('utf8');
    let rest = '', no = 0;
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      const chunk = n > 0 ? rest + dec.write(buf.subarray(0, n)) : rest + dec.end();
      let start = 0;
      for (;;) {
        const end = chunk.indexOf('\n', start);
        if (end < 0) break;
        no++;
        yield { text: chunk.charCodeAt(end - 1) === 13 ? chunk.slice(start, end - 1) : chunk.slice(start, end), no };
        start = end + 1;
      }
      rest = chunk.slice(start);
      if (n === 0) {
        if (rest.length > 0) yield { text: rest, no: no + 1 };
        return;
      }
    }
  } finally {
    closeSync(fd);
  }
}

const isText = (s: string): boolean => /^\s*%%MatrixMarket/i.test(s) || s.includes('\n');

const WS = /\s+/;
const tokens = (s: string): string[] => {
  const t = s.trim();
  return t === '' ? [] : t.split(WS);
};

const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eEdD][+-]?\d+)?$/;
const SPECIAL: Record<string, number> = { nan: NaN, '+nan': NaN, '-nan': NaN, inf: Infinity, '+inf': Infinity, '-inf': -Infinity, infinity: Infinity, '+infinity': Infinity, '-infinity': -Infinity };
function parseReal(tok: string, no: number, what: string): number {
  if (FLOAT.test(tok)) return Number(tok.replace(/[dD]/, 'e'));
  const s = SPECIAL[tok.toLowerCase()];
  if (s !== undefined) return s;
  throw new MatrixMarketError(no, `${what} ${JSON.stringify(tok)} is not a number`);
}
function parseInt32(tok: string, no: number, what: string): number {
  if (!/^[+-]?\d+$/.test(tok)) throw new MatrixMarketError(no, `${what} ${JSON.stringify(tok)} is not an integer`);
  const v = Number(tok);
  if (Math.abs(v) > 2147483647) throw new MatrixMarketError(no, `${what} ${tok} does not fit in int32`);
  return v;
}

/** Parses the banner and the size line; leaves `it` at the first data line. */
function readHeader(it: Iterator<Line>, opts: ReadOptions): { h: MMHeader; lastLine: number } {
  const first = it.next();
  if (first.done) throw new MatrixMarketError(0, 'empty input (expected a %%MatrixMarket header)');
  const { text, no } = first.value;
  const b = tokens(text.replace(/^\uFEFF/, ''));
  if (b.length === 0 || b[0]!.toLowerCase() !== '%%matrixmarket') throw new MatrixMarketError(no, `expected the header '%%MatrixMarket matrix <format> <field> <symmetry>', got ${JSON.stringify(text.slice(0, 80))}`);
  if (b.length !== 5) throw new MatrixMarketError(no, `header needs 5 words (%%MatrixMarket matrix <format> <field> <symmetry>), got ${b.length}`);
  const [obj, fmt, fld, sym] = b.slice(1).map((s) => s.toLowerCase()) as [string, string, string, string];
  if (obj !== 'matrix') throw new MatrixMarketError(no, `object ${JSON.stringify(obj)} is not supported (only 'matrix')`);
  if (fmt !== 'coordinate' && fmt !== 'array') throw new MatrixMarketError(no, `format ${JSON.stringify(fmt)} must be 'coordinate' or 'array'`);
  const field = fld === 'double' ? 'real' : fld;
  if (field !== 'real' && field !== 'integer' && field !== 'complex' && field !== 'pattern') throw new MatrixMarketError(no, `field ${JSON.stringify(fld)} must be real, integer, complex or pattern`);
  if (sym !== 'general' && sym !== 'symmetric' && sym !== 'skew-symmetric' && sym !== 'hermitian') throw new MatrixMarketError(no, `symmetry ${JSON.stringify(sym)} must be general, symmetric, skew-symmetric or hermitian`);
  if (field === 'pattern' && fmt === 'array') throw new MatrixMarketError(no, "field 'pattern' is only valid with format 'coordinate'");
  if (sym === 'hermitian' && field !== 'complex') throw new MatrixMarketError(no, "symmetry 'hermitian' needs field 'complex'");
  if (sym === 'skew-symmetric' && field === 'pattern') throw new MatrixMarketError(no, "symmetry 'skew-symmetric' is not valid with field 'pattern'");
  let size: Line | undefined;
  let seenLine = no;
  for (;;) {
    const r = it.next();
    if (r.done) throw new MatrixMarketError(seenLine + 1, 'missing size line after the header');
    seenLine = r.value.no;
    if (r.value.text.trimStart().startsWith('%') || r.value.text.trim() === '') continue;
    size = r.value;
    break;
  }
  const st = tokens(size.text);
  const want = fmt === 'coordinate' ? 3 : 2;
  if (st.length !== want) throw new MatrixMarketError(size.no, `size line must have ${want} integers (${fmt === 'coordinate' ? 'rows cols entries' : 'rows cols'}), got ${JSON.stringify(size.text.slice(0, 80))}`);
  const [rows, cols, decl] = st.map((t, k) => parseInt32(t, size!.no, ['rows', 'cols', 'entries'][k]!));
  if (rows! < 0 || cols! < 0 || (decl !== undefined && decl < 0)) throw new MatrixMarketError(size.no, `sizes must be non-negative, got ${st.join(' ')}`);
  const maxDim = opts.maxDimension ?? 2 ** 26;
  if (rows! > maxDim || cols! > maxDim) throw new MatrixMarketError(size.no, `size ${rows}×${cols} exceeds maxDimension ${maxDim} (pass {maxDimension} to allow it)`);
  if (sym !== 'general' && rows !== cols) throw new MatrixMarketError(size.no, `${sym} matrix must be square, got ${rows}×${cols}`);
  const n = rows!;
  const stored = sym === 'general' ? rows! * cols! : sym === 'skew-symmetric' ? (n * (n - 1)) / 2 : (n * (n + 1)) / 2;
  const entries = fmt === 'coordinate' ? decl! : stored;
  if (fmt === 'coordinate' && entries > stored) throw new MatrixMarketError(size.no, `${entries} entries declared but a ${sym} ${rows}×${cols} matrix stores at most ${stored}`);
  return { h: { format: fmt, field, symmetry: sym, rows: rows!, cols: cols!, entries }, lastLine: size.no };
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
 */
export function readMatrixMarket(pathOrText: string, opts: ReadOptions = {}): CsrMatrix {
  if (typeof pathOrText !== 'string') throw new MatrixMarketError(0, 'expected a path or the Matrix Market text');
  if (pathOrText.trim() === '') throw new MatrixMarketError(0, 'empty input (expected a path or a %%MatrixMarket header)');
  const it = (isText(pathOrText) ? stringLines(pathOrText) : fileLines(pathOrText))[Symbol.iterator]();
  try {
    return readBody(it, opts);
  } finally {
    it.return?.(undefined);
  }
}

/** The header (format, field, symmetry, sizes) without reading the entries. */
export function readMatrixMarketHeader(pathOrText: string): MMHeader {
  const it = (isText(pathOrText) ? stringLines(pathOrText) : fileLines(pathOrText))[Symbol.iterator]();
  try {
    return readHeader(it, {}).h;
  } finally {
    it.return?.(undefined);
  }
}

function readBody(it: Iterator<Line>, opts: ReadOptions): CsrMatrix {
  const { h, lastLine } = readHeader(it, opts);
  const { format, field, symmetry, rows, cols, entries } = h;
  const cplx = field === 'complex';
  const lanes = cplx ? 2 : 1;
  const nv = field === 'pattern' ? 0 : cplx ? 2 : 1;
  const coord = format === 'coordinate';
  const nt = (coord ? 2 : 0) + nv;
  const mirror = symmetry !== 'general';
  const out = new Triplets(lanes, Math.max(16, Math.min(entries * (mirror ? 2 : 1), 1 << 16)));
  let seen = 0, last = lastLine;
  // Array format walks columns top to bottom; symmetric storage starts each column at the diagonal.
  let ai = symmetry === 'skew-symmetric' ? 1 : 0, aj = 0;
  for (let r = it.next(); !r.done; r = it.next()) {
    const { text, no } = r.value;
    last = no;
    const t = tokens(text);
    if (t.length === 0 || t[0]!.startsWith('%')) continue;
    if (seen === entries) throw new MatrixMarketError(no, `more entries than the ${entries} declared`);
    if (t.length !== nt) throw new MatrixMarketError(no, `expected ${nt} fields (${coord ? 'row col ' : ''}${field === 'pattern' ? '' : cplx ? 're im' : 'value'}), got ${t.length}`);
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
    if (field === 'integer') re = parseInt32(t[o]!, no, 'value');
    else if (field !== 'pattern') {
      re = parseReal(t[o]!, no, 'value');
      if (cplx) im = parseReal(t[o + 1]!, no, 'imaginary part');
    }
    if (mirror) {
      if (j > i || (symmetry === 'skew-symmetric' && i === j)) throw new MatrixMarketError(no, `entry (${i + 1}, ${j + 1}) is not in the ${symmetry === 'skew-symmetric' ? 'strictly ' : ''}lower triangle that ${symmetry} storage holds`);
      if (symmetry === 'hermitian' && i === j && im !== 0) throw new MatrixMarketError(no, `hermitian diagonal entry (${i + 1}, ${i + 1}) has imaginary part ${im}`);
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
  if (seen < entries) throw new MatrixMarketError(last, `found ${seen} entries, the header declared ${entries} (missing entries at end of input)`);
  const dtype = opts.dtype !== undefined ? toSparseDType('readMatrixMarket', opts.dtype) : cplx ? 'complex128' : 'float64';
  const A = fromTriplets(out.r.subarray(0, out.n), out.c.subarray(0, out.n), out.v.subarray(0, out.n * lanes), [rows, cols], { dtype: cplx ? 'complex128' : 'float64' });
  return dtype === A.dtype ? A : A.astype(dtype);
}
