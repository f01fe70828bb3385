// Random-access reading of a file given as bytes or as a path, without a
// second full copy: a Uint8Array is read through subarray views, a path
// through fs.readSync into one reusable buffer (grown to the largest window
// asked for). The readers (ply.ts, splat-file.ts) ask for windows of a few
// MiB, so a file of millions of Gaussians is never held whole in memory.

import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { SplatFileError } from './errors.js';

/** Windows of a file: `read(pos, len)` returns a view valid until the next read. */
export interface ByteSource {
  readonly size: number;
  read(pos: number, len: number): Uint8Array;
  close(): void;
}

/** Bytes in memory: views, no copies. */
class MemorySource implements ByteSource {
  constructor(private readonly bytes: Uint8Array) {}
  get size(): number {
    return this.bytes.length;
  }
  read(pos: number, len: number): Uint8Array {
    return this.bytes.subarray(pos, Math.min(this.bytes.length, pos + len));
  }
  close(): void {}
}

/** A file read window by window through one buffer. */
class FileSource implements ByteSource {
  private buffer = new Uint8Array(0);
  constructor(
    private readonly fd: number,
    readonly size: number,
    private readonly format: string,
  ) {}
  read(pos: number, len: number): Uint8Array {
    const want = Math.max(0, Math.min(len, this.size - pos));
    if (this.buffer.length < want) this.buffer = new Uint8Array(Math.max(want, 2 * this.buffer.length));
    let got = 0;
    while (got < want) {
      let n: number;
      try {
        n = readSync(this.fd, this.buffer, got, want - got, pos + got);
      } catch (e) {
        throw new SplatFileError(this.format, pos + got, `cannot read the file: ${(e as Error).message}`);
      }
      if (n === 0) break; // the file shrank since it was opened: the caller sees a short window (a truncation)
      got += n;
    }
    return this.buffer.subarray(0, got);
  }
  close(): void {
    closeSync(this.fd);
  }
}

/** Opens bytes or a path for reading; a path that cannot be opened or is not a regular file is a SplatFileError. */
export function openSource(format: string, src: string | Uint8Array): ByteSource {
  if (src instanceof Uint8Array) return new MemorySource(src);
  if (typeof src !== 'string') throw new SplatFileError(format, undefined, `expected a path (string) or the file's bytes (Uint8Array), got ${src === null ? 'null' : typeof src}`);
  let fd: number;
  try {
    fd = openSync(src, 'r');
  } catch (e) {
    throw new SplatFileError(format, undefined, `cannot open ${JSON.stringify(src.slice(0, 200))}: ${(e as Error).message}`);
  }
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    throw new SplatFileError(format, undefined, `${JSON.stringify(src.slice(0, 200))} is not a regular file`);
  }
  return new FileSource(fd, st.size, format);
}

/** Runs `body` with the source open and closes it afterwards, also on a throw. */
export function withSource<T>(format: string, src: string | Uint8Array, body: (s: ByteSource) => T): T {
  const s = openSource(format, src);
  try {
    return body(s);
  } finally {
    s.close();
  }
}
