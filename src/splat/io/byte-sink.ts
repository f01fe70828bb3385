// Where the writers (ply.ts, splat-file.ts) put their bytes, chunk by chunk:
// a file written with fs.writeSync as the chunks come (a file of millions of
// Gaussians is never built whole in memory), or memory collected and joined
// when no path is given (the writers then return the bytes).

import { closeSync, openSync, writeSync } from 'node:fs';
import { SplatFileError } from './errors.js';

/** Receives the chunks of a file; `finish` returns the bytes (memory) or undefined (a file). */
export interface ByteSink {
  write(chunk: Uint8Array): void;
  finish(): Uint8Array | undefined;
  /** Closes a file after a failure (no-op in memory). */
  abort(): void;
}

class MemorySink implements ByteSink {
  private readonly chunks: Uint8Array[] = [];
  write(chunk: Uint8Array): void {
    this.chunks.push(chunk.slice());
  }
  finish(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    const total = this.chunks.reduce((a, c) => a + c.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
  abort(): void {}
}

class FileSink implements ByteSink {
  private readonly fd: number;
  private written = 0;
  constructor(
    private readonly format: string,
    private readonly path: string,
  ) {
    try {
      this.fd = openSync(path, 'w');
    } catch (e) {
      throw new SplatFileError(format, undefined, `cannot create ${JSON.stringify(path.slice(0, 200))}: ${(e as Error).message}`);
    }
  }
  write(chunk: Uint8Array): void {
    let done = 0;
    while (done < chunk.length) {
      try {
        done += writeSync(this.fd, chunk, done, chunk.length - done);
      } catch (e) {
        this.abort();
        throw new SplatFileError(this.format, this.written + done, `cannot write ${JSON.stringify(this.path.slice(0, 200))}: ${(e as Error).message}`);
      }
    }
    this.written += chunk.length;
  }
  finish(): undefined {
    closeSync(this.fd);
    return undefined;
  }
  abort(): void {
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }
}

/** A sink writing to `path`, or collecting in memory when `path` is undefined. */
export function openSink(format: string, path: string | undefined): ByteSink {
  if (path === undefined) return new MemorySink();
  if (typeof path !== 'string') throw new SplatFileError(format, undefined, `expected a path (string) or no path, got ${typeof path}`);
  return new FileSink(format, path);
}
