// Building GGUF files byte by byte for the gguf tests, so that malformed ones
// can be made on purpose (wrong counts, types, offsets). Independent of
// src/io/gguf: it follows ggml's docs/gguf.md directly.

export const u32 = (v: number): Uint8Array => {
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, v, true);
  return b;
};
export const u64 = (v: number | bigint): Uint8Array => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(v), true);
  return b;
};
export const str = (s: string): Uint8Array => {
  const b = new TextEncoder().encode(s);
  return cat(u64(b.length), b);
};
export const cat = (...parts: (Uint8Array | number[])[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** A key/value: the key, the value type id, the value's bytes. */
export const kv = (key: string, type: number, value: Uint8Array | number[]): Uint8Array => cat(str(key), u32(type), value);

export interface CraftTensor {
  name: string;
  /** ggml dimensions ne[] (ne[0] fastest). */
  ne: (number | bigint)[];
  type: number;
  /** Offset relative to the data section. */
  offset: number | bigint;
}

/** A GGUF file: header (counts may be forced), key/values, tensor infos, zero padding to `alignment`, data. */
export function craft(o: { version?: number; kvs?: Uint8Array[]; tensors?: CraftTensor[]; data?: Uint8Array | number[]; alignment?: number; nTensors?: bigint; nKv?: bigint; magic?: string }): Uint8Array {
  const kvs = o.kvs ?? [];
  const tensors = o.tensors ?? [];
  const head = cat(
    new TextEncoder().encode(o.magic ?? 'GGUF'),
    u32(o.version ?? 3),
    u64(o.nTensors ?? BigInt(tensors.length)),
    u64(o.nKv ?? BigInt(kvs.length)),
    ...kvs,
    ...tensors.map((t) => cat(str(t.name), u32(t.ne.length), ...t.ne.map(u64), u32(t.type), u64(t.offset))),
  );
  const a = o.alignment ?? 32;
  return cat(head, new Uint8Array((a - (head.length % a)) % a), o.data ?? []);
}

/** float16 bits → value, by the IEEE definition (for expected values). */
export function f16Value(h: number): number {
  const s = h & 0x8000 ? -1 : 1,
    e = (h >> 10) & 31,
    m = h & 1023;
  if (e === 0) return s * m * 2 ** -24;
  if (e === 31) return m ? NaN : s * Infinity;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}
