// A file read in 1 MiB chunks, with a line buffer of at most MAX_LINE bytes:
// what the Matrix Market line source (mm-scan.ts) and the Harwell–Boeing one
// (hb-lines.ts) share. Each subclass scans the chunk for its own line rules
// (MM skips comments and leading blanks; HB keeps every byte) and copies the
// part of a line it keeps with keep(); errors are the subclass's own typed
// error (`fail`), with the line number.

import { openSync, readSync, closeSync } from 'node:fs';

/** Longest header or data line accepted (characters of a string, bytes of a file). */
export const MAX_LINE = 1 << 20;

export abstract class ChunkedFile {
  protected readonly fd: number;
  protected readonly chunk = Buffer.allocUnsafe(1 << 20);
  /** Bytes of `chunk` that hold data, and the next unread one. */
  protected len = 0;
  protected pos = 0;
  private eof = false;
  /** The line being kept (grown up to MAX_LINE). */
  protected line = Buffer.allocUnsafe(256);
  /** 1-based number of the line last returned (0 before the first). */
  no = 0;
  constructor(
    path: string,
    protected readonly fail: (line: number, message: string) => Error,
  ) {
    try {
      this.fd = openSync(path, 'r');
    } catch (e) {
      throw fail(0, `cannot open ${JSON.stringify(path.slice(0, 200))}: ${(e as Error).message}`);
    }
  }
  /** Makes unread bytes available; false at the end of the file. */
  protected fill(): boolean {
    if (this.pos < this.len) return true;
    if (this.eof) return false;
    try {
      this.len = readSync(this.fd, this.chunk, 0, this.chunk.length, null);
    } catch (e) {
      // A directory opens on Linux and fails here (EISDIR); so do I/O errors: typed, with the line reached.
      throw this.fail(this.no, `cannot read the file: ${(e as Error).message}`);
    }
    this.pos = 0;
    if (this.len === 0) this.eof = true;
    return this.len > 0;
  }
  /** Appends chunk[from, to) to the line buffer holding `kept` bytes; returns the new length (the caller bounds it by MAX_LINE). */
  protected keep(from: number, to: number, kept: number): number {
    const need = kept + (to - from);
    if (need > this.line.length) {
      const grown = Buffer.allocUnsafe(Math.min(MAX_LINE, Math.max(need, 2 * this.line.length)));
      this.line.copy(grown, 0, 0, kept);
      this.line = grown;
    }
    this.chunk.copy(this.line, kept, from, to);
    return need;
  }
  close(): void {
    closeSync(this.fd);
  }
}
