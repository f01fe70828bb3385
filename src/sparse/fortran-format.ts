// Fortran edit descriptors and fixed-width records, as Harwell–Boeing and
// Rutherford–Boeing files use them (hb-read.ts): a format such as (8I10),
// (3E26.18), (1P,4D20.12) or (5F16.8) says how many fields a line holds and how
// wide each is. Fields are cut by width, not by blanks, because Fortran writers let
// values run into each other: an E9.1 field holds -1.0E+100 in all nine columns.
//
// A line is read in up to three ways, the first that gives every field as a number:
//   1. fixed-width fields (Fortran's reading);
//   2. blank-separated tokens, exactly as many as the line should hold — SciPy's
//      hb_read reads this way, and its hb_write writes E fields one character
//      narrower than the width it declares, so a negative value slides into the
//      field before it and (1) fails on its sign;
//   3. for E formats, fields one character narrower than declared, each a whole
//      d.dddE±xx (SciPy's writer again, when a three-digit exponent leaves no blank
//      between values; the shape check keeps a value cut in two from passing).
// The readings cannot disagree silently: a field that holds parts of two values has
// an inner blank or an invalid tail, so (1) fails whenever the columns are shifted.
//
// Numbers: an optional sign, digits with an optional point, an exponent with E, D
// (1.0D+01) or no letter at all (1.0-101: Fortran's E output drops the letter when
// the exponent needs three digits), or nan/inf. As in SciPy (which splits on
// blanks), a field's text is its value: Fortran's implied decimal point (a field
// without '.' under Ew.d) and its input scale factor (kP without an exponent) are
// not applied — the writers put the point and the exponent in.

import { scanInteger, scanReal } from './mm-scan.js';
import { MAX_LINE } from './chunked-file.js';

export type FieldKind = 'I' | 'E' | 'D' | 'F' | 'G';

export interface FortranFormat {
  /** The format as written, e.g. "(1P,4E20.12)". */
  text: string;
  /** I: integers; E, D, F, G: reals. */
  kind: FieldKind;
  /** Fields in one line (the repeat count). */
  perLine: number;
  /** Characters per field. */
  width: number;
  /** d of Ew.d (0 for I). */
  decimals: number;
}

/**
 * Parses one parenthesized edit descriptor: ( [kP[,]] [r] Iw[.m] | Ew.d[Ee] |
 * ESw.d | ENw.d | Dw.d | Fw.d | Gw.d[Ee] ), any case, blanks ignored (as Fortran
 * ignores them in formats). Returns the format or a message saying what is wrong.
 */
export function parseFortranFormat(text: string): FortranFormat | string {
  const s = text.replace(/[ \t]/g, '').toUpperCase();
  let i = 0;
  const num = (): number | undefined => {
    const st = i;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    // Nine digits at most: the width and repeat count are bounded below anyway.
    return i > st && i - st <= 9 ? Number(s.slice(st, i)) : undefined;
  };
  const bad = (why: string): string => `format ${JSON.stringify(text.slice(0, 40))} ${why}`;
  if (s[i++] !== '(') return bad("does not start with '('");
  // A leading scale factor kP (optionally signed, optionally followed by a comma).
  const save = i;
  if (s[i] === '-' || s[i] === '+') i++;
  if (num() !== undefined && s[i] === 'P') {
    i++;
    if (s[i] === ',') i++;
  } else i = save;
  const r0 = i;
  const repeat = num() ?? (i === r0 ? 1 : undefined);
  if (repeat === undefined || repeat < 1) return bad('has no valid repeat count');
  let kind: FieldKind;
  const c = s[i++];
  if (c === 'I' || c === 'D' || c === 'F' || c === 'G') kind = c;
  else if (c === 'E') {
    kind = 'E';
    if (s[i] === 'S' || s[i] === 'N') i++; // ES, EN read like E
  } else return bad(`has no I, E, D, F or G edit descriptor${c === undefined ? '' : ` (found ${JSON.stringify(c)})`}`);
  const width = num();
  if (width === undefined || width < 1) return bad('has no field width');
  let decimals = 0;
  if (s[i] === '.') {
    i++;
    const d = num();
    if (d === undefined) return bad("has no digits after '.'");
    decimals = d;
  } else if (kind !== 'I') return bad(`needs ${kind}w.d (the number of decimals)`);
  if ((kind === 'E' || kind === 'G') && s[i] === 'E') {
    i++;
    if (num() === undefined) return bad("has no exponent width after 'E'");
  }
  if (s[i++] !== ')' || i !== s.length) return bad("does not end after one edit descriptor and ')'");
  if (repeat * width > MAX_LINE) return bad(`describes lines of ${repeat * width} characters (at most ${MAX_LINE})`);
  return { text: text.trim(), kind, perLine: repeat, width, decimals };
}

const isBlank = (c: number): boolean => c === 32 || c === 9 || c === 13;

/**
 * A real field: scanReal's syntax (D exponents, nan/inf included), plus an
 * exponent without its letter (1.0-101, 2.5+07). Undefined for anything else. Linear.
 */
export function scanFortranReal(tok: string): number | undefined {
  const v = scanReal(tok);
  if (v !== undefined) return v;
  const p = Math.max(tok.lastIndexOf('+'), tok.lastIndexOf('-'));
  if (p < 1 || p === tok.length - 1) return undefined;
  // Mantissa: [sign] digits [. digits] with at least one digit, nothing else.
  let k = tok.charCodeAt(0) === 43 || tok.charCodeAt(0) === 45 ? 1 : 0, digits = 0, points = 0;
  for (; k < p; k++) {
    const c = tok.charCodeAt(k);
    if (c >= 48 && c <= 57) digits++;
    else if (c === 46 && points === 0) points++;
    else return undefined;
  }
  for (k = p + 1; k < tok.length; k++) if (tok.charCodeAt(k) < 48 || tok.charCodeAt(k) > 57) return undefined;
  return digits === 0 ? undefined : Number(tok.slice(0, p) + 'e' + tok.slice(p));
}

const scanField = (kind: FieldKind, tok: string): number | undefined => {
  if (kind !== 'I') return scanFortranReal(tok);
  const v = scanInteger(tok);
  return Number.isNaN(v) ? undefined : v;
};

/** A token for a message: JSON-quoted, cut to 40 characters. */
export const quote = (tok: string): string => (tok.length > 40 ? JSON.stringify(tok.slice(0, 40)) + `… (${tok.length} characters)` : JSON.stringify(tok));

/** Fixed-width fields of `width`; undefined when all k parse, else what is wrong. */
function fixedFields(line: string, f: FortranFormat, width: number, k: number, out: Float64Array, sciPy = false): string | undefined {
  const n = line.length;
  const what = f.kind === 'I' ? 'an integer' : 'a number';
  for (let q = 0; q < k; q++) {
    let s = q * width, e = Math.min(n, s + width);
    const cols = `columns ${q * width + 1}-${q * width + width}`;
    while (s < e && isBlank(line.charCodeAt(s))) s++;
    while (e > s && isBlank(line.charCodeAt(e - 1))) e--;
    if (s === e) return `field ${q + 1} of ${k} (${cols} of ${f.text}) is ${q * width >= n ? 'missing: the line ends before it' : 'blank'}`;
    const tok = line.slice(s, e);
    // SciPy's narrower fields always hold d.dddE±xx: a field cut from another value would lack the point or the E.
    const v = sciPy && !/^[-+]?\d\.\d+E[-+]\d+$/.test(tok) ? undefined : scanField(f.kind, tok);
    if (v === undefined) return `field ${q + 1} of ${k} (${cols} of ${f.text}) ${quote(tok)} is not ${what}`;
    out[q] = v;
  }
  for (let p = k * width; p < n; p++) if (!isBlank(line.charCodeAt(p))) return `characters after the ${k} field${k > 1 ? 's' : ''} of ${f.text}: ${quote(line.slice(p).trim())}`;
  return undefined;
}

/** Exactly k blank-separated tokens, all numbers of the format's kind. */
function separatedFields(line: string, f: FortranFormat, k: number, out: Float64Array): boolean {
  const n = line.length;
  let q = 0, i = 0;
  while (i < n) {
    while (i < n && isBlank(line.charCodeAt(i))) i++;
    if (i === n) break;
    const s = i;
    while (i < n && !isBlank(line.charCodeAt(i))) i++;
    if (q === k) return false;
    const v = scanField(f.kind, line.slice(s, i));
    if (v === undefined) return false;
    out[q++] = v;
  }
  return q === k;
}

/**
 * Reads the k fields of one line (record) of format f into out[0..k): undefined on
 * success, else a message naming the first bad field of the fixed-width reading.
 */
export function readRecord(line: string, f: FortranFormat, k: number, out: Float64Array): string | undefined {
  const bad = fixedFields(line, f, f.width, k, out);
  if (bad === undefined || separatedFields(line, f, k, out)) return undefined;
  if (f.kind === 'E' && f.width > 1 && fixedFields(line, f, f.width - 1, k, out, true) === undefined) return undefined;
  return bad;
}
