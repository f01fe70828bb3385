// Fuzzing io.readGguf: 4,000 mutated files (byte flips anywhere and in the
// header, truncations, interesting 32- and 64-bit values written over header
// fields (counts, lengths, type ids, dimensions, offsets), inserted or removed
// junk) made from valid ones. Each must either read to tensors whose storage
// fills their shapes or throw a GgufError whose byte offset lies in the file
// and appears in its message — never another exception, a crash, a hang or a
// huge allocation (the whole run is timed). Every fourth file is also read
// with {tensors: false}. The mutations are seeded: a failure names its index.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import '../../src/index.js';
import { tensor } from '../../src/tensor/create.js';
import * as io from '../../src/io/index.js';
import { GgufError } from '../../src/io/gguf/errors.js';
import { DTYPE_INFO } from '../../src/tensor/dtype.js';
import { GOLDEN, rng } from './helpers.js';

const FILES = 4000;
const U64S = [0n, 1n, 2n, 3n, 31n, 32n, 64n, 255n, 256n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 53n + 1n, 2n ** 60n, 2n ** 63n, 2n ** 64n - 1n];
const U32S = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 24, 27, 28, 30, 31, 39, 64, 0x03000000, 2 ** 31, 2 ** 32 - 1];

function mutate(base: Uint8Array, dataOffset: number, r: () => number): Uint8Array {
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)]!;
  const kind = Math.floor(r() * 6);
  if (kind === 0 || kind === 1) {
    // 1–8 random bytes anywhere, or 1–3 inside the header
    const out = base.slice();
    const end = kind === 0 ? out.length : dataOffset;
    for (let k = 1 + Math.floor(r() * (kind === 0 ? 8 : 3)); k > 0; k--) out[Math.floor(r() * end)] = Math.floor(r() * 256);
    return out;
  }
  if (kind === 2) return base.slice(0, Math.floor(r() * base.length));
  if (kind === 3 || kind === 4) {
    // an interesting u64 or u32 over a header field (at any byte, aligned or not)
    const out = base.slice();
    const dv = new DataView(out.buffer);
    const at = 4 + Math.floor(r() * (dataOffset - 12));
    if (kind === 3) dv.setBigUint64(at, r() < 0.8 ? pick(U64S) : BigInt(Math.floor(r() * 2 ** 20)), true);
    else dv.setUint32(at, pick(U32S), true);
    return out;
  }
  // junk in the header or the data: insert or remove bytes
  const at = Math.floor(r() * (base.length + 1));
  const junk = Uint8Array.from({ length: 1 + Math.floor(r() * 12) }, () => Math.floor(r() * 256));
  return r() < 0.5
    ? new Uint8Array(Buffer.concat([base.subarray(0, at), junk, base.subarray(at)]))
    : new Uint8Array(Buffer.concat([base.subarray(0, at), base.subarray(Math.min(base.length, at + junk.length))]));
}

describe('fuzz', () => {
  it(`${FILES} mutated GGUF files: each reads to consistent tensors or throws a GgufError with an in-file byte offset`, () => {
    const written = io.writeGguf(
      { w: tensor([[1, 2], [3, 4]], { dtype: 'float32' }), h: tensor([1.5, -2], { dtype: 'float16' }), i: tensor([7], { dtype: 'int32' }) },
      undefined,
      { metadata: { s: 'x', a: new Uint32Array([1, 2]), n: [['a'], [true]], b: false } },
    );
    const bases = [...['tensors.gguf', 'aligned64.gguf', 'unsupported.gguf'].map((f) => new Uint8Array(readFileSync(path.join(GOLDEN, f)))), written];
    const offsets = bases.map((b) => io.readGguf(b, { tensors: false }).dataOffset);
    const r = rng(20240618);
    let loaded = 0,
      rejected = 0;
    const t0 = performance.now();
    for (let i = 0; i < FILES; i++) {
      const bytes = mutate(bases[i % bases.length]!, offsets[i % bases.length]!, r);
      for (const tensors of i % 4 === 0 ? [false, true] : [true]) {
        let g;
        try {
          g = io.readGguf(bytes, { tensors });
        } catch (e) {
          if (!(e instanceof GgufError)) throw new Error(`file ${i}: ${String(e)} is not a GgufError`);
          if (e.offset === undefined || e.offset < 0 || e.offset > bytes.length || !e.message.includes(`byte ${e.offset}`)) throw new Error(`file ${i}: bad offset ${e.offset} in ${e.message}`);
          if (tensors) rejected++;
          continue;
        }
        for (const [name, e] of Object.entries(g.info)) {
          if (e.offset < g.dataOffset || e.offset + e.nbytes > bytes.length) throw new Error(`file ${i}: tensor ${name} lies outside the data`);
        }
        for (const [name, t] of Object.entries(g.tensors)) {
          const want = t.shape.reduce((a, b) => a * b, 1) * DTYPE_INFO[t.dtype].lanes;
          if (t.node.data!.length !== want) throw new Error(`file ${i}: tensor ${name} has ${t.node.data!.length} values for shape [${t.shape}]`);
        }
        if (tensors) loaded++;
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    console.log(`gguf fuzz: ${FILES} files, ${loaded} read, ${rejected} rejected, ${seconds.toFixed(2)} s`);
    expect(loaded + rejected).toBe(FILES);
    expect(loaded).toBeGreaterThan(FILES / 20); // both outcomes are exercised
    expect(rejected).toBeGreaterThan(FILES / 4);
    expect(seconds).toBeLessThan(30);
  }, 90_000);
});
