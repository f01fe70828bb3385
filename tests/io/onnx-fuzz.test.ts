// Fuzzing io.loadOnnx: 3,000 mutated ONNX files (byte flips anywhere, truncations, inserted or removed bytes,
// varint length edits, spliced chunks) made from PyTorch's MLP export and hand-built models with shape arithmetic.
// Each must either load — and then run on an input of its declared shape, giving outputs or an OnnxError — or throw
// an OnnxError whose byte offset, when it has one, lies in the file and appears in its message: never another
// exception, a crash or a hang (the whole run is timed). The mutations are seeded: a failure names its index.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tensor } from '../../src/index.js';
import * as io from '../../src/io/index.js';
import { encodeModel } from './onnx-builder.js';
import { GOLDEN, rng } from './helpers.js';

const FILES = 3000;

function mutate(base: Uint8Array, r: () => number): Uint8Array {
  const kind = Math.floor(r() * 6);
  const at = Math.floor(r() * base.length);
  if (kind === 0 || kind === 1) {
    // flip 1–8 bytes anywhere (kind 1: set them to a small value, which often keeps tags and lengths plausible)
    const out = base.slice();
    for (let k = 1 + Math.floor(r() * 8); k > 0; k--) out[Math.floor(r() * out.length)] = kind === 0 ? Math.floor(r() * 256) : Math.floor(r() * 16);
    return out;
  }
  if (kind === 2) return base.slice(0, at);
  if (kind === 3) {
    // insert or remove a few bytes
    const junk = Uint8Array.from({ length: 1 + Math.floor(r() * 6) }, () => Math.floor(r() * 256));
    return r() < 0.5 ? new Uint8Array(Buffer.concat([base.subarray(0, at), junk, base.subarray(at)])) : new Uint8Array(Buffer.concat([base.subarray(0, at), base.subarray(Math.min(base.length, at + junk.length))]));
  }
  if (kind === 4) {
    // a byte after a length-delimited tag (wire type 2) is usually a length: nudge it
    const out = base.slice();
    for (let i = at; i < out.length - 1; i++)
      if ((out[i]! & 7) === 2) {
        out[i + 1] = Math.max(0, Math.min(255, out[i + 1]! + Math.floor(r() * 9) - 4));
        break;
      }
    return out;
  }
  // splice a chunk of the file somewhere else
  const len = 1 + Math.floor(r() * 40);
  const src = base.subarray(at, at + len);
  const to = Math.floor(r() * base.length);
  return new Uint8Array(Buffer.concat([base.subarray(0, to), src, base.subarray(to)]));
}

const i64 = (name: string, dims: number[], data: number[]) => ({ name, elem: 7, dims, data });

describe('fuzz', () => {
  it(`${FILES} mutated ONNX files: each loads and runs, or throws an OnnxError (with an in-file byte offset for decoding errors)`, () => {
    const bases = [
      new Uint8Array(readFileSync(path.join(GOLDEN, 'mlp.onnx'))),
      encodeModel({
        nodes: [
          { op: 'Shape', inputs: ['x'], outputs: ['sh'] },
          { op: 'Gather', inputs: ['sh', 'one'], outputs: ['n'] },
          { op: 'Unsqueeze', inputs: ['n', 'ax0'], outputs: ['n1'] },
          { op: 'Concat', inputs: ['n1', 'm1'], outputs: ['target'], attrs: { axis: 0 } },
          { op: 'Reshape', inputs: ['x', 'target'], outputs: ['r'] },
          { op: 'Slice', inputs: ['r', 'one1', 'big', 'ax0', 'one1'], outputs: ['s'] },
          { op: 'Expand', inputs: ['s', 'shape'], outputs: ['e'] },
          { op: 'Softmax', inputs: ['e'], outputs: ['y'], attrs: { axis: -1 } },
        ],
        inputs: [{ name: 'x', elem: 1, shape: [2, 3] }],
        outputs: [{ name: 'y', elem: 1, shape: [] }],
        initializers: [i64('one', [], [1]), i64('ax0', [1], [0]), i64('m1', [1], [-1]), i64('one1', [1], [1]), i64('big', [1], [2 ** 40]), i64('shape', [3], [2, 1, 1])],
      }),
      encodeModel({
        nodes: [
          { op: 'ConstantOfShape', inputs: ['n'], outputs: ['c'], attrs: { value: { t: { elem: 1, dims: [1], data: [0.5] } } } },
          { op: 'Range', inputs: ['zero', 'four', 'one'], outputs: ['r'] },
          { op: 'Cast', inputs: ['r'], outputs: ['rf'], attrs: { to: 1 } },
          { op: 'Mul', inputs: ['x', 'rf'], outputs: ['m'] },
          { op: 'Add', inputs: ['m', 'c'], outputs: ['a'] },
          { op: 'ReduceMean', inputs: ['a'], outputs: ['y'], attrs: { axes: [0], keepdims: 1 } },
        ],
        inputs: [{ name: 'x', elem: 1, shape: [4] }],
        outputs: [{ name: 'y', elem: 1, shape: [1] }],
        initializers: [i64('n', [1], [4]), i64('zero', [], [0]), i64('four', [], [4]), i64('one', [], [1])],
      }),
    ];
    const r = rng(20240602);
    let loaded = 0,
      ran = 0,
      rejected = 0;
    const t0 = performance.now();
    for (let i = 0; i < FILES; i++) {
      const bytes = mutate(bases[i % bases.length]!, r);
      let m: io.OnnxModel;
      try {
        m = io.loadOnnx(bytes);
      } catch (e) {
        if (!(e instanceof io.OnnxError)) throw new Error(`file ${i}: ${String(e)} is not an OnnxError`);
        if (e.offset !== undefined && (e.offset < 0 || e.offset > bytes.length || !e.message.includes(`byte ${e.offset}`))) throw new Error(`file ${i}: bad offset ${e.offset} in ${e.message}`);
        rejected++;
        continue;
      }
      loaded++;
      // Run it on an input of the declared shape (symbolic dims: 2), when that input is small.
      const inputs: Record<string, ReturnType<typeof tensor>> = {};
      let small = true;
      for (const spec of m.inputs) {
        const shape = (spec.shape ?? []).map((d) => (typeof d === 'number' ? d : 2));
        const n = shape.reduce((a, b) => a * b, 1);
        if (!(n <= 4096)) small = false;
        else inputs[spec.name] = tensor(Array.from({ length: n }, (_, k) => (k % 5) - 2), { dtype: spec.dtype, shape });
      }
      if (!small) continue;
      try {
        for (const t of Object.values(m.forward(inputs))) t.toArray();
        ran++;
      } catch (e) {
        if (!(e instanceof io.OnnxError)) throw new Error(`file ${i}: running: ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)} is not an OnnxError`);
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    console.log(`onnx fuzz: ${FILES} files, ${loaded} loaded (${ran} ran), ${rejected} rejected, ${seconds.toFixed(2)} s`);
    expect(loaded + rejected).toBe(FILES);
    expect(loaded).toBeGreaterThan(FILES / 20); // both outcomes are exercised
    expect(ran).toBeGreaterThan(FILES / 40);
    expect(rejected).toBeGreaterThan(FILES / 4);
    expect(seconds).toBeLessThan(60);
  }, 120_000);
});
