// Bounded-memory line reading and a linear number scanner for the Matrix Market
// reader (mm-read.ts).
//
// Why not split on '\n' and parse with regular expressions: a file read in chunks
// and re-concatenated until the next newline is quadratic in the line length (a
// 300 MB comment line took 31 s) and a 200 MB line exhausted the heap; the real-number
// regular expression backtracked quadratically on a 100k-digit malformed token.
// Here a line is scanned once: comment and blank lines are skipped without being
// held, whatever their length; a header or data line longer than MAX_LINE is a
// MatrixMarketError naming it (a data line holds at most four numbers). Files are
// read in 1 MiB chunks of bytes and a kept line is gathered in a buffer of at most
// MAX_LINE bytes, so memory is bounded by the chunk and that limit. Numbers are
// recognized by a hand-written scanner, one pass per token, then converted by
// Number() (correctly rounded, linear).

import { MatrixMarketError } from './errors.js';
import { ChunkedFile, MAX_LINE } from './chunked-file.js';

/** Separators inside a line: space, \t, \r (CRLF files), \v, \f. */
const isWs = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/** Lines of the input that matter: the banner (first line) and then non-blank, non-comment lines. */
export interface LineSource {
  /** The next line with its leading whitespace removed; `raw` also returns blank and comment lines. */
  next(raw?: boolean): string | undefined;
  /** 1-based number of the line last returned. */
  readonly no: number;
  /** Lines consumed so far, skipped ones included. */
  readonly lines: number;
  close(): void;
}

const overlong = (no: number, len: number): MatrixMarketError => new MatrixMarketError(no, `line longer than ${MAX_LINE} characters (got at least ${len}); only comment lines may be that long`);

/** Lines of a string, found with indexOf (no copy of skipped lines). */
export class StringLines implements LineSource {
  private pos = 0;
  no = 0;
  lines = 0;
  constructor(private readonly text: string) {}
  next(raw = false): string | undefined {
    const t = this.text;
    while (this.pos < t.length) {
      const start = this.pos;
      let end = t.indexOf('\n', start);
      if (end < 0) end = t.length;
      this.pos = end + 1;
      this.lines++;
      let s = start;
      while (s < end && isWs(t.charCodeAt(s))) s++;
      if (!raw && (s === end || t.charCodeAt(s) === 37)) continue; // blank or '%' comment
      if (end - start > MAX_LINE) throw overlong(this.lines, end - start);
      this.no = this.lines;
      return t.slice(s, end);
    }
    return undefined;
  }
  close(): void {}
}

/** Lines of a file read in 1 MiB chunks; a kept line is gathered in a buffer of at most MAX_LINE bytes. */
export class FileLines extends ChunkedFile implements LineSource {
  lines = 0;
  constructor(path: string) {
    super(path, (line, message) => new MatrixMarketError(line, message));
  }
  next(raw = false): string | undefined {
    for (;;) {
      if (!this.fill()) return undefined;
      this.lines++;
      // 0: only whitespace so far; 1: keeping the line; 2: skipping a comment.
      let mode = raw ? 1 : 0, length = 0, kept = 0;
      for (;;) {
        if (!this.fill()) break; // the last line has no newline
        const c = this.chunk, nl = c.indexOf(10, this.pos);
        const end = nl >= 0 && nl < this.len ? nl : this.len;
        let p = this.pos;
        if (mode === 0) {
          while (p < end && isWs(c[p]!)) p++;
          if (p < end) mode = c[p] === 37 ? 2 : 1;
        }
        if (mode === 1) {
          if (length + (end - this.pos) > MAX_LINE) throw overlong(this.lines, length + (end - this.pos));
          kept = this.keep(p, end, kept);
        }
        length += end - this.pos;
        this.pos = end;
        if (end < this.len) {
          this.pos = end + 1; // past the newline
          break;
        }
      }
      if (mode === 1) {
        this.no = this.lines;
        return this.line.toString('utf8', 0, kept);
      }
    }
  }
}

/**
 * Whitespace-separated tokens of a line, at most `max` of them (more are counted,
 * not kept, so `count` can be reported). Linear in the line length.
 */
export function tokenize(line: string, max: number): { toks: string[]; count: number } {
  const toks: string[] = [];
  let count = 0, i = 0;
  const n = line.length;
  while (i < n) {
    while (i < n && isWs(line.charCodeAt(i))) i++;
    if (i === n) break;
    const s = i;
    while (i < n && !isWs(line.charCodeAt(i))) i++;
    if (count++ < max) toks.push(line.slice(s, i));
  }
  return { toks, count };
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/** End of a run of digits starting at i. */
function digits(s: string, i: number): number {
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return i;
}

/** An optionally signed run of decimal digits, or NaN when the token is anything else. */
export function scanInteger(tok: string): number {
  const c = tok.charCodeAt(0);
  const i = c === 43 || c === 45 ? 1 : 0;
  if (i === tok.length || digits(tok, i) !== tok.length) return NaN;
  return Number(tok);
}

const SPECIAL = new Map<string, number>([['nan', NaN], ['inf', Infinity], ['infinity', Infinity]]);

/**
 * A real number of the format: [+-] digits [. digits] | [+-] . digits, with an
 * optional exponent [eEdD][+-]digits (Fortran's D), or nan / inf / infinity in any
 * case with an optional sign. Returns undefined for anything else. One pass.
 */
export function scanReal(tok: string): number | undefined {
  const n = tok.length;
  let i = 0;
  const c0 = tok.charCodeAt(0);
  if (c0 === 43 || c0 === 45) i = 1;
  const intEnd = digits(tok, i);
  let j = intEnd, fracDigits = 0;
  if (j < n && tok.charCodeAt(j) === 46) {
    const fe = digits(tok, j + 1);
    fracDigits = fe - (j + 1);
    j = fe;
  }
  if (intEnd - i + fracDigits === 0) {
    if (n > 9) return undefined;
    const s = SPECIAL.get(tok.slice(i).toLowerCase());
    return s === undefined ? undefined : c0 === 45 ? -s : s;
  }
  if (j === n) return Number(tok);
  const e = tok.charCodeAt(j) | 32; // lower case
  if (e !== 101 && e !== 100) return undefined; // e, d
  let k = j + 1;
  const ck = tok.charCodeAt(k);
  if (ck === 43 || ck === 45) k++;
  if (k === n || digits(tok, k) !== n) return undefined;
  return Number(e === 101 ? tok : tok.slice(0, j) + 'e' + tok.slice(j + 1));
}
