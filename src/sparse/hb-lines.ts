// Every line of a Harwell–Boeing / Rutherford–Boeing input, in bounded memory, for
// hb-read.ts. Unlike the Matrix Market line source (mm-scan.ts) nothing is skipped
// and leading blanks are kept: the format is column-based (fixed-width fields), so
// a line's first blank is data. A file is read in 1 MiB chunks and a line gathered
// in a buffer of at most MAX_LINE bytes; a longer line is a HarwellBoeingError (the
// widest record a format may describe is MAX_LINE, see fortran-format.ts), so
// memory stays bounded by the chunk and that limit and each byte is visited once.

import { HarwellBoeingError } from './errors.js';
import { ChunkedFile, MAX_LINE } from './chunked-file.js';

export interface RawLines {
  /** The next line, without its '\n' or a trailing '\r'; undefined at the end. */
  next(): string | undefined;
  /** 1-based number of the line last returned (0 before the first). */
  readonly no: number;
  close(): void;
}

const overlong = (no: number, len: number): HarwellBoeingError => new HarwellBoeingError(no, `line longer than ${MAX_LINE} characters (got at least ${len})`);
const dropCr = (s: string): string => (s.charCodeAt(s.length - 1) === 13 ? s.slice(0, -1) : s);

/** Lines of a string (found with indexOf). */
export class StringRawLines implements RawLines {
  private pos = 0;
  no = 0;
  constructor(private readonly text: string) {}
  next(): string | undefined {
    const t = this.text;
    if (this.pos >= t.length) return undefined;
    let end = t.indexOf('\n', this.pos);
    if (end < 0) end = t.length;
    this.no++;
    if (end - this.pos > MAX_LINE) throw overlong(this.no, end - this.pos);
    const s = t.slice(this.pos, end);
    this.pos = end + 1;
    return dropCr(s);
  }
  close(): void {}
}

/** Lines of a file read in 1 MiB chunks. */
export class FileRawLines extends ChunkedFile implements RawLines {
  constructor(path: string) {
    super(path, (line, message) => new HarwellBoeingError(line, message));
  }
  next(): string | undefined {
    if (!this.fill()) return undefined;
    this.no++;
    let kept = 0;
    while (this.fill()) {
      const nl = this.chunk.subarray(0, this.len).indexOf(10, this.pos);
      const end = nl >= 0 ? nl : this.len;
      if (kept + (end - this.pos) > MAX_LINE) throw overlong(this.no, kept + (end - this.pos));
      kept = this.keep(this.pos, end, kept);
      this.pos = end;
      if (nl >= 0) {
        this.pos = end + 1; // past the newline
        break;
      }
    }
    return dropCr(this.line.toString('utf8', 0, kept));
  }
}
