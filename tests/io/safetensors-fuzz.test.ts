// Fuzzing io.loadSafetensors: 4,000 mutated files (byte flips anywhere, in the
// header and in the data, truncations, header token edits, length-field edits, data junk) made
// from valid ones. Each must either load to tensors whose storage fills their
// shapes or throw a SafetensorsError whose byte offset lies in the file and
// appears in its message — never another exception, a crash or a hang (the
// whole run is timed). The mutations are seeded: a failure names its index.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import '../../src/index.js';
import { tensor, arange } from '../../src/tensor/create.js';
import * as io from '../../src/io/index.js';
import { SafetensorsError } from '../../src/io/errors.js';
import { DTYPE_INFO } from '../../src/tensor/dtype.js';
import { GOLDEN, rng } from './helpers.js';

const FILES = 4000;
const TOKENS = ['0', '1', '-1', '3', '8', '16', '4294967296', '1e400', '9007199254740993', '2.5', 'null', '[]', '{}', '"F32"', '"F64"', '"I64"', '"BOOL"', '"C64"', '"BF16"', '"F16"', '"U8"', '"X"', '"__metadata__"', '""'];

function mutate(base: Uint8Array, r: () => number): Uint8Array {
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)]!;
  const n = new DataView(base.buffer, base.byteOffset).getUint32(0, true);
  const kind = Math.floor(r() * 7);
  if (kind === 0 || kind === 1 || kind === 6) {
    // flip 1–8 bytes anywhere, 1–3 inside the header, or 1–8 in the data (I64 values may overflow, BOOL bytes leave 0/1)
    const out = base.slice();
    const span = kind === 0 ? [0, out.length] : kind === 1 ? [8, 8 + n] : [8 + n, out.length];
    for (let k = 1 + Math.floor(r() * (kind === 1 ? 3 : 8)); k > 0; k--) out[span[0]! + Math.floor(r() * (span[1]! - span[0]!))] = Math.floor(r() * 256);
    return out;
  }
  if (kind === 2) return base.slice(0, Math.floor(r() * base.length));
  if (kind === 3) {
    // replace one number or string token of the header; fix the length field (or not)
    const text = new TextDecoder().decode(base.subarray(8, 8 + n));
    const tokens = [...text.matchAll(/-?\d+(\.\d+)?|"[^"]*"/g)];
    const t = pick(tokens);
    const edited = new TextEncoder().encode(text.slice(0, t.index) + pick(TOKENS) + text.slice(t.index! + t[0].length));
    const out = new Uint8Array(8 + edited.length + base.length - 8 - n);
    new DataView(out.buffer).setBigUint64(0, BigInt(r() < 0.8 ? edited.length : n), true);
    out.set(edited, 8);
    out.set(base.subarray(8 + n), 8 + edited.length);
    return out;
  }
  if (kind === 4) {
    // the length field: nearby, zero, or huge
    const out = base.slice();
    const v = r() < 0.6 ? BigInt(Math.max(0, n + Math.floor(r() * 33) - 16)) : r() < 0.5 ? 0n : BigInt(Math.floor(r() * 2 ** 53)) * BigInt(1 + Math.floor(r() * 2048));
    new DataView(out.buffer).setBigUint64(0, v & (2n ** 64n - 1n), true);
    return out;
  }
  // junk in the data: insert or remove bytes
  const at = 8 + n + Math.floor(r() * (base.length - 8 - n + 1));
  const junk = Uint8Array.from({ length: 1 + Math.floor(r() * 12) }, () => Math.floor(r() * 256));
  return r() < 0.5
    ? new Uint8Array(Buffer.concat([base.subarray(0, at), junk, base.subarray(at)]))
    : new Uint8Array(Buffer.concat([base.subarray(0, at), base.subarray(Math.min(base.length, at + junk.length))]));
}

describe('fuzz', () => {
  it(`${FILES} mutated safetensors files: each loads to consistent tensors or throws a SafetensorsError with an in-file byte offset`, () => {
    const bases = [
      new Uint8Array(readFileSync(path.join(GOLDEN, 'mixed.safetensors'))),
      new Uint8Array(readFileSync(path.join(GOLDEN, 'unaligned.safetensors'))),
      io.saveSafetensors({ w: arange(12).reshape([3, 4]).cast('float32'), b: tensor([1, 2, 3], { dtype: 'int32' }), m: tensor([true, false]), h: tensor([1.5], { dtype: 'bfloat16' }) }, undefined, { metadata: { a: 'b' } }),
    ];
    const r = rng(20240601);
    let loaded = 0,
      rejected = 0;
    const t0 = performance.now();
    for (let i = 0; i < FILES; i++) {
      const bytes = mutate(bases[i % bases.length]!, r);
      let dict;
      try {
        dict = io.loadSafetensors(bytes);
      } catch (e) {
        if (!(e instanceof SafetensorsError)) throw new Error(`file ${i}: ${String(e)} is not a SafetensorsError`);
        if (e.offset === undefined || e.offset < 0 || e.offset > bytes.length || !e.message.includes(`byte ${e.offset}`)) throw new Error(`file ${i}: bad offset ${e.offset} in ${e.message}`);
        rejected++;
        continue;
      }
      for (const [name, t] of Object.entries(dict)) {
        const want = t.shape.reduce((a, b) => a * b, 1) * DTYPE_INFO[t.dtype].lanes;
        if (t.node.data!.length !== want) throw new Error(`file ${i}: tensor ${name} has ${t.node.data!.length} values for shape [${t.shape}]`);
      }
      loaded++;
    }
    const seconds = (performance.now() - t0) / 1000;
    console.log(`safetensors fuzz: ${FILES} files, ${loaded} loaded, ${rejected} rejected, ${seconds.toFixed(2)} s`);
    expect(loaded + rejected).toBe(FILES);
    expect(loaded).toBeGreaterThan(FILES / 20); // both outcomes are exercised
    expect(rejected).toBeGreaterThan(FILES / 2);
    expect(seconds).toBeLessThan(20);
  }, 60_000);
});
