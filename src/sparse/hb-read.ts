// Harwell–Boeing and Rutherford–Boeing reader (Duff, Grimes & Lewis: the HB users'
// guide, 1992, and the RB format, 1997). Both store a matrix by columns: a header of
// four lines (five when HB right-hand sides follow), then the column pointers, the
// row indices and the values, each written with the Fortran format the header
// names (fortran-format.ts cuts the fields by width).
//
//   line 1  TITLE (A72) KEY (A8)
//   line 2  TOTCRD PTRCRD INDCRD VALCRD [RHSCRD]       (I14 each; RB has no RHSCRD)
//   line 3  MXTYPE (A3), 11 blanks, NROW NCOL NNZERO NELTVL        (I14 each)
//   line 4  PTRFMT INDFMT (A16 each) VALFMT [RHSFMT] (A20 each)
//   line 5  RHSTYP NRHS NRHSIX                       (HB, only when RHSCRD > 0)
//
// MXTYPE, in either case (RB writes 'rua'): values R real, C complex (re, im pairs),
// I integer, P pattern (entries are 1), Q pattern whose values are in another file
// (read as P); structure U unsymmetric, R rectangular, S symmetric, H Hermitian, Z
// skew-symmetric; storage A assembled, E elemental. SciPy's hb_read reads RUA and
// IUA only; this reads every assembled type. Elemental ('..E') files are a
// HarwellBoeingError (their layout is element lists, not columns); readHeader reads
// their header. Right-hand sides after the values are not read (ignored).
//
// Symmetric storage is expanded as the Matrix Market reader does (mm-read.ts): each
// stored off-diagonal entry (i, j) also gives (j, i) — negated for Z, conjugated for
// complex H — so a file that stores the upper triangle reads right, and coinciding
// entries are summed. As there, a Hermitian diagonal entry with an imaginary part and
// a nonzero skew-symmetric diagonal entry are errors, not a matrix that contradicts
// its header. A real 'H' matrix is symmetric.
//
// Strictness: every count is checked against the others before anything is
// allocated — the card counts of line 2 against what the formats need for
// NCOL + 1 pointers, NNZERO indices and values — and every datum as it is read:
// pointers start at 1, never decrease and end at NNZERO + 1, row indices lie in
// [1, NROW], integer matrices hold integers, no data after the last declared line.
// A violation is a HarwellBoeingError naming the line. Memory follows the data
// actually read (arrays grow by doubling up to the declared counts), lines are
// bounded (hb-lines.ts) and each is scanned a bounded number of times, so reading is
// linear in the input and a header declaring 10⁹ entries followed by nothing
// allocates nothing.

import type { SparseDType } from './contract.js';
import { CsrMatrix } from './csr.js';
import { fromTriplets } from './construct.js';
import { HarwellBoeingError } from './errors.js';
import { toSparseDType } from './dtypes.js';
import { type FortranFormat, parseFortranFormat, readRecord, quote } from './fortran-format.js';
import { type RawLines, StringRawLines, FileRawLines } from './hb-lines.js';
import { scanInteger } from './mm-scan.js';

export type HBValueType = 'real' | 'complex' | 'integer' | 'pattern';
export type HBStructure = 'unsymmetric' | 'rectangular' | 'symmetric' | 'hermitian' | 'skew-symmetric';
export interface HBHeader {
  title: string;
  key: string;
  /** MXTYPE in upper case, e.g. 'RUA', 'CSA', 'PUA'. */
  type: string;
  valueType: HBValueType;
  structure: HBStructure;
  storage: 'assembled' | 'elemental';
  rows: number;
  cols: number;
  /** NNZERO: stored entries (one triangle for symmetric structures). */
  nnz: number;
  /** NELTVL: elemental values (0 for assembled matrices). */
  elementals: number;
  /** Line counts of line 2 (rhs is 0 for RB files). */
  cards: { total: number; pointer: number; index: number; value: number; rhs: number };
  /** The Fortran formats as written ('' where absent). */
  formats: { pointer: string; index: string; value: string; rhs: string };
}
export interface HBReadOptions {
  /** Cast the result (default float64, complex128 for complex files). */
  dtype?: SparseDType | string;
  /** Largest accepted row/column count (default 2²⁶), checked before any allocation. */
  maxDimension?: number;
}

const VALUE: Record<string, HBValueType> = { R: 'real', C: 'complex', I: 'integer', P: 'pattern', Q: 'pattern' };
const STRUCTURE: Record<string, HBStructure> = { U: 'unsymmetric', R: 'rectangular', S: 'symmetric', H: 'hermitian', Z: 'skew-symmetric' };
const INT32_MAX = 2147483647;

/** The header and the parsed formats the body is read with. */
interface Parsed {
  h: HBHeader;
  ptr: FortranFormat;
  ind: FortranFormat;
  val: FortranFormat | undefined;
}

const isBlankText = (s: string): boolean => /^[ \t\r]*$/.test(s);

function need(src: RawLines, what: string): string {
  const l = src.next();
  if (l === undefined) throw new HarwellBoeingError(src.no, `the input ends before ${what}`);
  return l;
}

/**
 * n integer fields of width 14 starting at column `at` (the first `required`
 * non-blank, the others blank = 0), Fortran's layout; or else n or fewer (at least
 * `required`) blank-separated integers after column `from` — a hand-written header.
 */
function intFields(line: string, at: number, from: number, n: number, required: number, no: number, names: string[]): number[] {
  const fixed = ((): number[] | undefined => {
    if (!isBlankText(line.slice(from, at)) || !isBlankText(line.slice(at + 14 * n))) return undefined;
    const out: number[] = [];
    for (let q = 0; q < n; q++) {
      const tok = line.slice(at + 14 * q, at + 14 * q + 14).trim();
      if (tok === '' && q >= required) out.push(0);
      else if (Number.isNaN(scanInteger(tok))) return undefined;
      else out.push(scanInteger(tok));
    }
    return out;
  })();
  const toks = line.slice(from).trim().split(/[ \t\r]+/).filter((t) => t !== '');
  const vals = fixed ?? (toks.length >= required && toks.length <= n && toks.every((t) => !Number.isNaN(scanInteger(t))) ? toks.map(scanInteger) : undefined);
  const list = names.slice(0, required).join(' ') + (n > required ? ` [${names.slice(required).join(' ')}]` : '');
  if (vals === undefined) throw new HarwellBoeingError(no, `expected the integers ${list} (I14 each), got ${quote(line.trim())}`);
  vals.forEach((v, q) => {
    if (v < 0 || v > INT32_MAX) throw new HarwellBoeingError(no, `${names[q]} = ${v} is not a count in [0, ${INT32_MAX}]`);
  });
  while (vals.length < n) vals.push(0);
  return vals;
}

/** Lines a section of `count` fields takes in format f. */
const cardsFor = (count: number, f: FortranFormat | undefined): number => (count === 0 || f === undefined ? 0 : Math.ceil(count / f.perLine));

function readHeader(src: RawLines, opts: HBReadOptions): Parsed {
  const l1 = src.next();
  if (l1 === undefined) throw new HarwellBoeingError(0, 'empty input (expected a Harwell–Boeing header)');
  const t1 = l1.replace(/^\uFEFF/, '');
  // RBio writes '|' in column 72 to separate the title from the key.
  const title = t1.slice(0, 72).trimEnd().replace(/\|$/, '').trimEnd(), key = t1.slice(72, 80).trim();

  const l2 = need(src, 'line 2 (the line counts TOTCRD PTRCRD INDCRD VALCRD [RHSCRD])');
  const no2 = src.no;
  const [total, pointer, index, value, rhs] = intFields(l2, 0, 0, 5, 4, no2, ['TOTCRD', 'PTRCRD', 'INDCRD', 'VALCRD', 'RHSCRD']) as [number, number, number, number, number];

  const l3 = need(src, 'line 3 (MXTYPE NROW NCOL NNZERO NELTVL)');
  const no3 = src.no;
  const type = l3.slice(0, 3).toUpperCase();
  const valueType = VALUE[type[0] ?? ''], structure = STRUCTURE[type[1] ?? ''], storage = type[2] === 'A' ? 'assembled' : type[2] === 'E' ? 'elemental' : undefined;
  if (type.length < 3 || !valueType || !structure || !storage)
    throw new HarwellBoeingError(no3, `matrix type ${quote(l3.slice(0, 3))} is not valid: expected R, C, I, P or Q, then U, R, S, H or Z, then A or E (e.g. 'RUA')`);
  const [rows, cols, nnz, elementals] = intFields(l3, 14, 3, 4, 3, no3, ['NROW', 'NCOL', 'NNZERO', 'NELTVL']) as [number, number, number, number];
  const maxDim = opts.maxDimension ?? 2 ** 26;
  if (rows > maxDim || cols > maxDim) throw new HarwellBoeingError(no3, `size ${rows}×${cols} exceeds maxDimension ${maxDim} (pass {maxDimension} to allow it)`);
  const mirrored = structure === 'symmetric' || structure === 'hermitian' || structure === 'skew-symmetric';
  if (mirrored && rows !== cols) throw new HarwellBoeingError(no3, `a ${structure} matrix ('${type}') must be square, got ${rows}×${cols}`);
  if (structure === 'skew-symmetric' && valueType === 'pattern') throw new HarwellBoeingError(no3, `type '${type}': a pattern matrix cannot be skew-symmetric`);
  if (storage === 'assembled') {
    if (elementals !== 0) throw new HarwellBoeingError(no3, `NELTVL = ${elementals} must be 0 for an assembled matrix ('${type}')`);
    if (nnz > rows * cols) throw new HarwellBoeingError(no3, `NNZERO = ${nnz} entries declared but a ${rows}×${cols} matrix has ${rows * cols} positions`);
  }

  const l4 = need(src, 'line 4 (the Fortran formats PTRFMT INDFMT VALFMT)');
  const no4 = src.no;
  const groups = l4.match(/\([^()]*\)/g) ?? [];
  const pattern = valueType === 'pattern';
  if (groups.length < (pattern ? 2 : 3)) throw new HarwellBoeingError(no4, `expected the formats PTRFMT INDFMT${pattern ? '' : ' VALFMT'} in parentheses, e.g. (8I10) (8I10) (3E26.18), got ${quote(l4.trim())}`);
  const fmt = (text: string, what: string, int: boolean): FortranFormat => {
    const f = parseFortranFormat(text);
    if (typeof f === 'string') throw new HarwellBoeingError(no4, `${what}: ${f}`);
    if (int && f.kind !== 'I') throw new HarwellBoeingError(no4, `${what} ${f.text} must be an integer format (Iw)`);
    return f;
  };
  const ptr = fmt(groups[0]!, 'pointer format', true), ind = fmt(groups[1]!, 'row index format', true);
  const val = pattern ? undefined : fmt(groups[2]!, 'value format', false);
  const h: HBHeader = {
    title, key, type, valueType, structure, storage, rows, cols, nnz, elementals,
    cards: { total, pointer, index, value, rhs },
    formats: { pointer: ptr.text, index: ind.text, value: groups[2] ?? '', rhs: groups[3] ?? '' },
  };
  if (storage === 'assembled') {
    // The line counts must be those the formats need: they say where each section ends.
    const lanes = valueType === 'complex' ? 2 : 1;
    const want: [string, number, number, string][] = [
      ['PTRCRD', pointer, cardsFor(cols + 1, ptr), `${cols + 1} column pointers in ${ptr.text}`],
      ['INDCRD', index, cardsFor(nnz, ind), `${nnz} row indices in ${ind.text}`],
      ['VALCRD', value, cardsFor(nnz * lanes, val), pattern ? `a pattern matrix, which has no values,` : `${nnz * lanes} values in ${val!.text}`],
    ];
    for (const [name, got, exp, what] of want) if (got !== exp) throw new HarwellBoeingError(no2, `${name} = ${got}, but ${what} take ${exp} line${exp === 1 ? '' : 's'}`);
    if (total !== pointer + index + value + rhs) throw new HarwellBoeingError(no2, `TOTCRD = ${total} is not PTRCRD + INDCRD + VALCRD + RHSCRD = ${pointer + index + value + rhs}`);
  }
  return { h, ptr, ind, val };
}

/** Grows a typed array by doubling, never past `max` elements. */
function room<A extends Int32Array | Float64Array>(a: A, n: number, max: number): A {
  if (n < a.length) return a;
  const b = (a instanceof Int32Array ? new Int32Array(Math.min(max, Math.max(1024, 2 * a.length))) : new Float64Array(Math.min(max, Math.max(1024, 2 * a.length)))) as A;
  b.set(a);
  return b;
}

/** Reads `count` fields of format f, line by line, handing each to `each(value, index)`. */
function readSection(src: RawLines, f: FortranFormat, count: number, what: string, each: (v: number, k: number) => void): void {
  const scratch = new Float64Array(Math.min(f.perLine, count));
  for (let done = 0; done < count; ) {
    const k = Math.min(f.perLine, count - done);
    const line = src.next();
    if (line === undefined) throw new HarwellBoeingError(src.no, `the input ends in the ${what} section after ${done} of ${count} ${what}`);
    const bad = readRecord(line, f, k, scratch);
    if (bad !== undefined) throw new HarwellBoeingError(src.no, `${what}: ${bad}`);
    for (let q = 0; q < k; q++) each(scratch[q]!, done + q);
    done += k;
  }
}

function readBody(src: RawLines, opts: HBReadOptions): CsrMatrix {
  const { h, ptr, ind, val } = readHeader(src, opts);
  const { rows, cols, nnz, type, valueType, structure } = h;
  if (h.storage === 'elemental') throw new HarwellBoeingError(3, `elemental matrices ('${type}') are not supported, only assembled ones (a type ending in A)`);
  const dtype = opts.dtype !== undefined ? toSparseDType('readHarwellBoeing', opts.dtype) : undefined;
  if (h.cards.rhs > 0) need(src, 'line 5 (the right-hand side header)');

  let colptr = new Int32Array(0);
  readSection(src, ptr, cols + 1, 'column pointers', (v, k) => {
    const prev = k > 0 ? colptr[k - 1]! + 1 : 1; // colptr holds 0-based pointers
    if (k === 0 && v !== 1) throw new HarwellBoeingError(src.no, `the first column pointer must be 1, got ${v}`);
    if (v < prev) throw new HarwellBoeingError(src.no, `column pointer ${k + 1} = ${v} is less than the one before (${prev}): pointers must not decrease`);
    if (v > nnz + 1 || (k === cols && v !== nnz + 1)) throw new HarwellBoeingError(src.no, `column pointer ${k + 1} = ${v}, but the ${k === cols ? 'last one must be' : 'pointers end at'} NNZERO + 1 = ${nnz + 1}`);
    colptr = room(colptr, k, cols + 1);
    colptr[k] = v - 1;
  });

  let rowind = new Int32Array(0);
  readSection(src, ind, nnz, 'row indices', (v, k) => {
    if (v < 1 || v > rows) throw new HarwellBoeingError(src.no, `row index ${v} (entry ${k + 1}) is out of range [1, ${rows}]`);
    rowind = room(rowind, k, nnz);
    rowind[k] = v - 1;
  });

  const lanes = valueType === 'complex' ? 2 : 1;
  let values = new Float64Array(0);
  if (val !== undefined) {
    let col = 0; // column of the entry being read, found by walking colptr
    readSection(src, val, nnz * lanes, 'values', (v, k) => {
      const e = lanes === 2 ? k >> 1 : k;
      if (valueType === 'integer' && !Number.isInteger(v)) throw new HarwellBoeingError(src.no, `value ${v} (entry ${e + 1}) is not an integer in an integer matrix ('${type}')`);
      values = room(values, k, nnz * lanes);
      values[k] = v;
      if (k % lanes !== lanes - 1) return;
      while (colptr[col + 1]! <= e) col++;
      if (rowind[e] !== col) return;
      const [re, im] = lanes === 2 ? [values[k - 1]!, v] : [v, 0];
      if (structure === 'skew-symmetric' && (re !== 0 || im !== 0)) throw new HarwellBoeingError(src.no, `diagonal entry (${col + 1}, ${col + 1}) = ${lanes === 2 ? `${re} + ${im}i` : re} of a skew-symmetric matrix must be 0`);
      if (structure === 'hermitian' && im !== 0) throw new HarwellBoeingError(src.no, `Hermitian diagonal entry (${col + 1}, ${col + 1}) has imaginary part ${im} (a Hermitian matrix has a real diagonal)`);
    });
  }

  if (h.cards.rhs === 0)
    for (let l = src.next(); l !== undefined; l = src.next())
      if (!isBlankText(l)) throw new HarwellBoeingError(src.no, `data after the ${h.cards.total} lines the header declares (TOTCRD): ${quote(l.trim())}`);

  // Triplets in file order, each stored off-diagonal entry mirrored for symmetric structures.
  const mirror = structure === 'symmetric' || structure === 'hermitian' || structure === 'skew-symmetric';
  const cap = mirror ? 2 * nnz : nnz;
  const r = new Int32Array(cap), c = new Int32Array(cap), v = new Float64Array(cap * lanes);
  const sign = structure === 'skew-symmetric' ? -1 : 1, conj = structure === 'hermitian' ? -1 : 1;
  let n = 0;
  for (let j = 0; j < cols; j++)
    for (let p = colptr[j]!; p < colptr[j + 1]!; p++) {
      const i = rowind[p]!;
      const re = val === undefined ? 1 : values[p * lanes]!, im = lanes === 2 ? values[p * 2 + 1]! : 0;
      [r[n], c[n]] = [i, j];
      v[n * lanes] = re;
      if (lanes === 2) v[n * 2 + 1] = im;
      n++;
      if (mirror && i !== j) {
        [r[n], c[n]] = [j, i];
        v[n * lanes] = sign * re;
        if (lanes === 2) v[n * 2 + 1] = sign * conj * im;
        n++;
      }
    }
  const A = fromTriplets(r.subarray(0, n), c.subarray(0, n), v.subarray(0, n * lanes), [rows, cols], { dtype: lanes === 2 ? 'complex128' : 'float64' });
  return dtype === undefined || dtype === A.dtype ? A : A.astype(dtype);
}

const open = (pathOrText: string, op: string): RawLines => {
  if (typeof pathOrText !== 'string') throw new HarwellBoeingError(0, `${op}: expected a path or the Harwell–Boeing text, got ${typeof pathOrText}`);
  if (pathOrText.length === 0) throw new HarwellBoeingError(0, `${op}: empty input (expected a path or the Harwell–Boeing text)`);
  // The text has at least four header lines; a path has no newline.
  return pathOrText.includes('\n') ? new StringRawLines(pathOrText) : new FileRawLines(pathOrText);
};

/**
 * Reads a Harwell–Boeing (.rua, .rsa, .cua, …) or Rutherford–Boeing (.rb) matrix from
 * a file path or from the text itself (a string with a newline is text). Symmetric,
 * Hermitian and skew-symmetric storage is expanded; pattern entries are 1; real and
 * integer values give float64, complex gives complex128 (unless opts.dtype).
 * Returns canonical CSR (duplicates summed, explicit zeros kept). Right-hand sides
 * are ignored; elemental matrices and malformed input are a HarwellBoeingError.
 * @example
 * ```ts
 * // [[4, 1], [1, 5]] as an RSA file: the lower triangle by columns
 * const text = ['2x2 example', '3 1 1 1', 'RSA 2 2 3 0', '(3I3) (3I3) (3E10.2)', '  1  3  4', '  1  2  2', '  4.00E+00  1.00E+00  5.00E+00', ''].join('\n');
 * sparse.readHarwellBoeing(text).toDense().tolist();   // [[4, 1], [1, 5]]
 * ```
 */
export function readHarwellBoeing(pathOrText: string, opts: HBReadOptions = {}): CsrMatrix {
  const src = open(pathOrText, 'readHarwellBoeing');
  try {
    return readBody(src, opts);
  } finally {
    src.close();
  }
}

/**
 * The header (title, key, type, sizes, line counts, formats), checked, without reading the data.
 * @example
 * ```ts
 * const text = ['2x2 example', '3 1 1 1', 'RSA 2 2 3 0', '(3I3) (3I3) (3E10.2)', '  1  3  4', '  1  2  2', '  4.00E+00  1.00E+00  5.00E+00', ''].join('\n');
 * const h = sparse.readHarwellBoeingHeader(text);
 * [h.type, h.structure, h.rows, h.nnz];   // ['RSA', 'symmetric', 2, 3]
 * ```
 */
export function readHarwellBoeingHeader(pathOrText: string, opts: Pick<HBReadOptions, 'maxDimension'> = {}): HBHeader {
  const src = open(pathOrText, 'readHarwellBoeingHeader');
  try {
    return readHeader(src, opts).h;
  } finally {
    src.close();
  }
}
