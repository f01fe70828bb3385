// Fuzzing the PLY and .splat readers: 10,000 mutated PLY files (byte flips,
// truncations, header edits, junk insertions) made from small valid ones of
// each encoding. Each must either parse to Gaussians of consistent shapes or
// throw a SplatFileError whose offset lies in the file and appears in its
// message — never another exception, a crash or a hang (the whole run is
// timed). The mutations are seeded, so a failure is reproducible by its index.

import { describe, expect, it } from 'vitest';
import { SplatFileError } from '../../src/splat/io/errors.js';
import { readPly, writePly } from '../../src/splat/io/ply.js';
import { readSplat, writeSplat } from '../../src/splat/io/splat-file.js';
import type { Gaussians } from '../../src/splat/types.js';
import { goldenBytes, randomGaussians, rng } from './io-helpers.js';

const FILES = 10_000;

/** Throws unless g's tensors have the shapes of N Gaussians (plain checks: vitest's expect is too slow for 10k files). */
function checkShapes(g: Gaussians, i: number): void {
  const n = g.means.shape[0]!;
  const c = g.sh ?? g.colors!;
  const same = (t: { shape: number[] }, s: number[]) => t.shape.length === s.length && t.shape.every((d, j) => d === s[j]);
  const ok = same(g.means, [n, 3]) && same(g.quats, [n, 4]) && same(g.scales, [n, 3]) && same(g.opacities, [n]) &&
    (g.sh ? [1, 4, 9, 16].includes(g.sh.shape[1]!) && same(g.sh, [n, g.sh.shape[1]!, 3]) : same(c, [n, 3])) && g.means.toArray().length === 3 * n;
  if (!ok) throw new Error(`file ${i}: inconsistent shapes ${JSON.stringify([g.means.shape, g.quats.shape, g.scales.shape, g.opacities.shape, c.shape])}`);
}

/** Header edits: replace a number, a type, a keyword, drop or duplicate a line, or add junk. */
const TOKENS = ['0', '1', '3', '-1', '4294967295', '99999999999', 'x', 'float', 'double', 'uchar', 'list', 'int', 'vertex', 'face', 'property', 'element', 'end_header', 'ascii', 'binary_little_endian', 'binary_big_endian', 'f_rest_0', 'f_rest_9', 'opacity', '', '\r', 'comment'];

function mutate(base: Uint8Array, r: () => number): Uint8Array {
  const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)]!;
  const kind = Math.floor(r() * 6);
  const headerEnd = Buffer.from(base).indexOf('end_header') + 11;
  if (kind === 0) {
    // flip 1–8 bytes anywhere
    const out = base.slice();
    for (let k = 1 + Math.floor(r() * 8); k > 0; k--) out[Math.floor(r() * out.length)] = Math.floor(r() * 256);
    return out;
  }
  if (kind === 1) {
    // flip bytes inside the header
    const out = base.slice();
    for (let k = 1 + Math.floor(r() * 3); k > 0; k--) out[Math.floor(r() * headerEnd)] = Math.floor(r() * 256);
    return out;
  }
  if (kind === 2) return base.slice(0, Math.floor(r() * base.length)); // truncate
  const lines = Buffer.from(base.subarray(0, headerEnd)).toString('latin1').split('\n');
  const body = base.subarray(headerEnd);
  const i = 1 + Math.floor(r() * (lines.length - 2));
  if (kind === 3) {
    // replace one token of a header line
    const tok = lines[i]!.split(' ');
    tok[Math.floor(r() * tok.length)] = pick(TOKENS);
    lines[i] = tok.join(' ');
  } else if (kind === 4) {
    // drop, duplicate or move a header line
    const [line] = lines.splice(i, 1);
    if (r() < 0.5) lines.splice(1 + Math.floor(r() * (lines.length - 1)), 0, line!, ...(r() < 0.5 ? [line!] : []));
  } else {
    // junk in the body: insert or remove bytes
    const at = Math.floor(r() * (body.length + 1));
    const junk = Uint8Array.from({ length: 1 + Math.floor(r() * 16) }, () => Math.floor(r() * 256));
    const b = r() < 0.5 ? Buffer.concat([body.subarray(0, at), junk, body.subarray(at)]) : Buffer.concat([body.subarray(0, at), body.subarray(Math.min(body.length, at + junk.length))]);
    return new Uint8Array(Buffer.concat([Buffer.from(lines.join('\n'), 'latin1'), b]));
  }
  return new Uint8Array(Buffer.concat([Buffer.from(lines.join('\n'), 'latin1'), body]));
}

describe('fuzz', () => {
  it(`${FILES} mutated PLY files: each parses to consistent shapes or throws a SplatFileError with an in-file byte offset`, () => {
    const bases = [
      writePly(randomGaussians(3, { k: 4, seed: 1 })),
      writePly(randomGaussians(2, { seed: 2 }), undefined, { format: 'ascii' }),
      writePly(randomGaussians(2, { k: 9, seed: 3 }), undefined, { format: 'ascii' }),
      goldenBytes('deg2_be_mixed.ply'),
      goldenBytes('deg0_le.ply'),
    ];
    const r = rng(20240517);
    let parsed = 0, rejected = 0;
    const t0 = performance.now();
    for (let i = 0; i < FILES; i++) {
      const bytes = mutate(bases[i % bases.length]!, r);
      let g: Gaussians;
      try {
        g = readPly(bytes);
      } catch (e) {
        if (!(e instanceof SplatFileError)) throw new Error(`file ${i}: ${String(e)} is not a SplatFileError`);
        if (e.offset === undefined || e.offset < 0 || e.offset > bytes.length || !e.message.includes(`byte ${e.offset}`)) throw new Error(`file ${i}: bad offset ${e.offset} in ${e.message}`);
        rejected++;
        continue;
      }
      checkShapes(g, i);
      parsed++;
    }
    const seconds = (performance.now() - t0) / 1000;
    console.log(`ply fuzz: ${FILES} files, ${parsed} parsed, ${rejected} rejected, ${seconds.toFixed(2)} s`);
    expect(parsed + rejected).toBe(FILES);
    expect(parsed).toBeGreaterThan(FILES / 20); // the mutations are not all fatal: both outcomes are exercised
    expect(rejected).toBeGreaterThan(FILES / 2);
    expect(seconds).toBeLessThan(15);
  }, 60_000);

  it('2,000 mutated .splat files: a multiple of 32 bytes parses, anything else is a SplatFileError at the incomplete record', () => {
    const base = writeSplat(randomGaussians(6, { seed: 4 }));
    const r = rng(7);
    for (let i = 0; i < 2000; i++) {
      let bytes = base.slice(0, Math.floor(r() * (base.length + 40)));
      if (bytes.length > base.length) bytes = new Uint8Array(Buffer.concat([base, Buffer.alloc(bytes.length - base.length, 7)]));
      for (let k = Math.floor(r() * 4); k > 0 && bytes.length > 0; k--) bytes[Math.floor(r() * bytes.length)] = Math.floor(r() * 256);
      if (bytes.length % 32 === 0) checkShapes(readSplat(bytes), i);
      else {
        try {
          readSplat(bytes);
          throw new Error(`file ${i} of ${bytes.length} bytes parsed`);
        } catch (e) {
          expect(e).toBeInstanceOf(SplatFileError);
          expect((e as SplatFileError).offset).toBe(bytes.length - (bytes.length % 32));
        }
      }
    }
  });
});
