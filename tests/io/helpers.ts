// Shared pieces of the io tests: building safetensors files byte by byte from
// a header object (so malformed ones can be made on purpose) and a seeded RNG.

import path from 'node:path';

export const GOLDEN = path.join(import.meta.dirname, 'golden');

/** A safetensors file from a header (object or raw JSON text), an optional forced length field, and the data bytes. */
export function craft(header: unknown, data: Uint8Array | number[] = [], opts: { length?: bigint; pad?: boolean } = {}): Uint8Array {
  let json = new TextEncoder().encode(typeof header === 'string' ? header : JSON.stringify(header));
  if (opts.pad) {
    const padded = new Uint8Array(json.length + ((8 - (json.length % 8)) % 8)).fill(0x20);
    padded.set(json);
    json = padded;
  }
  const out = new Uint8Array(8 + json.length + data.length);
  new DataView(out.buffer).setBigUint64(0, opts.length ?? BigInt(json.length), true);
  out.set(json, 8);
  out.set(data, 8 + json.length);
  return out;
}

/** Little-endian float32 bytes of values. */
export const f32Bytes = (v: number[]): Uint8Array => new Uint8Array(new Float32Array(v).buffer);

export { mulberry32 as rng } from '../../src/tensor/random/mulberry32.js';
