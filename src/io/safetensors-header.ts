// Reading and checking a safetensors header (the format's spec, and the checks
// of its Rust reference implementation): an 8-byte little-endian header length
// N, N bytes of UTF-8 JSON {name: {dtype, shape, data_offsets: [begin, end]},
// "__metadata__": {string: string}}, then the data, every tensor a contiguous
// row-major little-endian span [begin, end) of it. The spans must tile the
// data exactly: no gap, no overlap, nothing past the end, nothing left over.
// Every failure is a SafetensorsError naming the byte and the tensor.

import { SafetensorsError } from './errors.js';
import { UNSUPPORTED, fileItemsize, readableNames } from './safetensors-dtypes.js';

/** The Rust implementation's limit on N: larger headers are refused before reading them. */
export const MAX_HEADER_BYTES = 100_000_000;

/** One tensor's entry of the header. */
export interface TensorEntry {
  /** The file's dtype name ('F32', 'BF16', 'I64', ...). */
  dtype: string;
  shape: number[];
  /** [begin, end) in bytes, relative to the start of the data. */
  dataOffsets: [number, number];
}

/** A checked header: its entries in the file's order, the metadata, and where the data starts. */
export interface SafetensorsHeader {
  tensors: Record<string, TensorEntry>;
  metadata: Record<string, string>;
  /** Byte of the file where the data starts (8 + N). */
  dataStart: number;
}

/** N from the first 8 bytes, checked against the file's length (`fileLength` may be unknown while only the header is read). */
export function headerLength(op: string, first8: Uint8Array, fileLength: number): number {
  if (fileLength < 8) throw new SafetensorsError(op, 0, undefined, `a file of ${fileLength} bytes is shorter than the 8-byte header length`);
  const dv = new DataView(first8.buffer, first8.byteOffset, 8);
  const lo = dv.getUint32(0, true),
    hi = dv.getUint32(4, true);
  const n = hi * 2 ** 32 + lo;
  if (hi >= 2 ** 21 || n > MAX_HEADER_BYTES) throw new SafetensorsError(op, 0, undefined, `header length ${hi >= 2 ** 21 ? `${hi} · 2^32 + ${lo}` : n} exceeds the limit of ${MAX_HEADER_BYTES} bytes`);
  if (8 + n > fileLength) throw new SafetensorsError(op, 0, undefined, `header length ${n} runs past the end of the file (${fileLength} bytes, so at most ${fileLength - 8})`);
  if (n < 2) throw new SafetensorsError(op, 0, undefined, `header length ${n} is too short for a JSON object`);
  return n;
}

const isNonNegInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Parses and checks the header of a file whose first 8 + N bytes are `head`;
 * `fileLength` is the whole file's (the data must fill [8 + N, fileLength) exactly).
 */
export function parseHeader(op: string, head: Uint8Array, fileLength: number): SafetensorsHeader {
  const n = headerLength(op, head, fileLength);
  const dataStart = 8 + n;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(8, dataStart));
  } catch {
    throw new SafetensorsError(op, 8, undefined, `the ${n}-byte header is not valid UTF-8`);
  }
  if (!text.startsWith('{')) throw new SafetensorsError(op, 8, undefined, `the header must be a JSON object starting with '{', got ${JSON.stringify(text.slice(0, 16))}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new SafetensorsError(op, 8, undefined, `the header is not valid JSON (${(e as Error).message})`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new SafetensorsError(op, 8, undefined, 'the header must be a JSON object');

  const metadata: Record<string, string> = {};
  const tensors: Record<string, TensorEntry> = {};
  const spans: { name: string; begin: number; end: number }[] = [];
  for (const [name, entry] of Object.entries(json as Record<string, unknown>)) {
    if (name === '__metadata__') {
      if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw new SafetensorsError(op, 8, undefined, `__metadata__ must be an object of strings, got ${Array.isArray(entry) ? 'an array' : entry === null ? 'null' : typeof entry}`);
      for (const [k, v] of Object.entries(entry as Record<string, unknown>)) {
        if (typeof v !== 'string') throw new SafetensorsError(op, 8, undefined, `__metadata__[${JSON.stringify(k)}] must be a string, got ${v === null ? 'null' : typeof v}`);
        Object.defineProperty(metadata, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
      continue;
    }
    const bad = (detail: string): never => {
      throw new SafetensorsError(op, 8, name, detail);
    };
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) bad('the entry must be an object {dtype, shape, data_offsets}');
    const { dtype, shape, data_offsets: offsets } = entry as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof dtype !== 'string') bad(`dtype must be a string, got ${JSON.stringify(dtype) ?? 'nothing'}`);
    const itemsize = fileItemsize(dtype as string);
    if (itemsize === undefined) {
      if (UNSUPPORTED.includes(dtype as string)) bad(`dtype ${dtype as string} is not supported by rlx yet (readable: ${readableNames()})`);
      bad(`unknown dtype ${JSON.stringify(dtype)} (readable: ${readableNames()})`);
    }
    if (!Array.isArray(shape) || !shape.every(isNonNegInt)) bad(`shape must be an array of integers >= 0, got ${JSON.stringify(shape) ?? 'nothing'}`);
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every(isNonNegInt) || offsets[0] > offsets[1]) {
      bad(`data_offsets must be [begin, end] with integers 0 <= begin <= end, got ${JSON.stringify(offsets) ?? 'nothing'}`);
    }
    const [begin, end] = offsets as [number, number];
    let bytes = itemsize!;
    for (const d of shape as number[]) {
      bytes *= d;
      if (!Number.isSafeInteger(bytes)) bad(`shape ${JSON.stringify(shape)} of ${dtype as string} is too large`);
    }
    if (bytes !== end - begin) bad(`shape ${JSON.stringify(shape)} of ${dtype as string} needs ${bytes} bytes, but data_offsets [${begin}, ${end}] span ${end - begin}`);
    Object.defineProperty(tensors, name, { value: { dtype: dtype as string, shape: [...(shape as number[])], dataOffsets: [begin, end] }, enumerable: true, writable: true, configurable: true });
    spans.push({ name, begin, end });
  }

  // The spans must tile [0, data length) in order of their offsets.
  const dataLength = fileLength - dataStart;
  spans.sort((a, b) => a.begin - b.begin || a.end - b.end);
  let covered = 0;
  for (const s of spans) {
    if (s.end > dataLength) throw new SafetensorsError(op, dataStart + s.begin, s.name, `data_offsets [${s.begin}, ${s.end}] run past the end of the data (${dataLength} bytes)`);
    if (s.begin < covered) throw new SafetensorsError(op, dataStart + s.begin, s.name, `data_offsets [${s.begin}, ${s.end}] overlap the previous tensor's data (which ends at ${covered})`);
    if (s.begin > covered) throw new SafetensorsError(op, dataStart + covered, s.name, `data_offsets [${s.begin}, ${s.end}] leave the bytes [${covered}, ${s.begin}) of the data unused`);
    covered = s.end;
  }
  if (covered !== dataLength) throw new SafetensorsError(op, dataStart + covered, undefined, `the tensors' data ends at ${covered} but the data section has ${dataLength} bytes`);
  return { tensors, metadata, dataStart };
}
