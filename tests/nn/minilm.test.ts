// The MiniLM check: a 6 × TransformerEncoderLayer(384, 12, dimFeedforward 1536, gelu, batchFirst) encoder
// with PyTorch's weights, loaded through safetensors into nn, matches PyTorch 1.13's output within 1e-4.
//
// Its 43 MB float32 state dict cannot be committed, so the references (golden/make_minilm.py) split the check:
//  1. golden/minilm_layer_f16.safetensors is a file PyTorch's model wrote (one such layer, torch's own seeded
//     initialisation, stored as F16: 3.5 MB): io.loadSafetensors reads it as it is, loadStateDict(strict) takes
//     it (F16 cast to the float32 parameters, exactly the values PyTorch ran), and the forward matches.
//  2. The full 6-layer encoder runs on "random" weights from a closed-form formula (formulaWeights, the same
//     function as the script's): the sha256 of their float32 bytes must equal the one PyTorch's side recorded,
//     so the weights are PyTorch's bit for bit; they travel through io.saveSafetensors/loadSafetensors and
//     loadStateDict(strict) like a checkpoint, and the output matches PyTorch's.
//  3. golden/minilm6_graph.onnx is torch.onnx's export of that 6-layer model without its weights (each parameter a
//     graph input under its state-dict name): io.loadOnnx imports PyTorch's graph, the formula weights are fed as
//     inputs, and the output matches PyTorch's too.
// Errors are max |rlx - torch| (absolute: the outputs are LayerNorm outputs of magnitude ~1).

import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { tensor, type Tensor } from '../../src/index.js';
import * as nn from '../../src/nn/index.js';
import * as io from '../../src/io/index.js';

const GOLDEN = path.join(import.meta.dirname, 'golden');
const [D, HEADS, FF, LAYERS] = [384, 12, 1536, 6];
const ref = io.loadSafetensors(path.join(GOLDEN, 'minilm_io.safetensors'));
const meta = io.readSafetensorsHeader(path.join(GOLDEN, 'minilm_io.safetensors')).metadata as Record<string, string>;

const encoder = (layers: number) =>
  nn.Sequential(...Array.from({ length: layers }, () => nn.TransformerEncoderLayer(D, HEADS, { dimFeedforward: FF, activation: 'gelu', batchFirst: true, dropout: 0 }))).eval();

function maxAbsDiff(a: Tensor, b: Tensor): number {
  expect(a.shape).toEqual(b.shape);
  const x = a.toArray() as Float32Array;
  const y = b.toArray() as Float32Array;
  let m = 0;
  for (let i = 0; i < x.length; i++) m = Math.max(m, Math.abs(x[i]! - y[i]!));
  return m;
}

/** 32-bit FNV-1a of a key's UTF-8 bytes (the per-tensor salt). */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (const b of new TextEncoder().encode(s)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return h;
}

/** MurmurHash3's 32-bit finaliser. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** make_minilm.py's formula_weights: v = ((fmix32(i ^ salt) >>> 8) - 2^23) / 2^23, scaled by the tensor's role. */
function formulaWeights(name: string, shape: readonly number[]): Float32Array {
  const n = shape.reduce((a, b) => a * b, 1);
  const salt = fnv1a(name);
  const out = new Float32Array(n);
  const scale = shape.length === 2 ? 2 ** -Math.round(Math.log2(Math.sqrt(shape[1]!))) : name.includes('.norm') && name.endsWith('weight') ? 1 / 8 : name.includes('.norm') ? 1 / 16 : 1 / 32;
  const offset = shape.length === 1 && name.includes('.norm') && name.endsWith('weight') ? 1 : 0;
  for (let i = 0; i < n; i++) out[i] = offset + (((fmix32((i ^ salt) >>> 0) >>> 8) - 2 ** 23) / 2 ** 23) * scale;
  return out;
}

describe('MiniLM-shaped encoder vs PyTorch 1.13 through safetensors', () => {
  it('one layer: the PyTorch-written F16 file loads (strict) and the forward matches within 1e-4', () => {
    const sd = io.loadSafetensors(path.join(GOLDEN, 'minilm_layer_f16.safetensors'));
    expect(Object.keys(sd)).toContain('0.self_attn.in_proj_weight');
    expect(sd['0.self_attn.in_proj_weight']!.dtype).toBe('float16');
    const model = encoder(1);
    model.loadStateDict(sd);
    const err = maxAbsDiff(model.forward(ref['x']!), ref['layer_f16_out']!);
    expect(err).toBeLessThan(1e-4);
  });

  it('six layers through ONNX: torch.onnx\'s graph with the formula weights as inputs matches within 1e-4', () => {
    const names = JSON.parse(meta['formula6_keys']!) as string[];
    const m = io.loadOnnx(path.join(GOLDEN, 'minilm6_graph.onnx'));
    expect(m.inputs.map((i) => i.name)).toEqual(['x', ...names]);
    const shapes = Object.fromEntries(m.inputs.map((i) => [i.name, i.shape as number[]]));
    const weights = Object.fromEntries(names.map((k) => [k, tensor(formulaWeights(k, shapes[k]!), { dtype: 'float32', shape: shapes[k]! })]));
    const y = m.run({ x: ref['x']!, ...weights })['y']!;
    const err = maxAbsDiff(y, ref['formula6_out']!);
    expect(err).toBeLessThan(1e-4);
  });

  it('six layers: formula weights equal PyTorch\'s bit for bit, round-trip a safetensors file, and the forward matches within 1e-4', () => {
    const model = encoder(LAYERS);
    const names = JSON.parse(meta['formula6_keys']!) as string[];
    expect(names).toEqual(Object.keys(model.stateDict()));
    const params = Object.fromEntries(Object.entries(model.stateDict()).map(([k, v]) => [k, formulaWeights(k, v.shape as number[])]));
    const hash = createHash('sha256');
    for (const k of names) hash.update(new Uint8Array(params[k]!.buffer));
    expect(hash.digest('hex')).toBe(meta['formula6_sha256']);

    const shapes = model.stateDict();
    const bytes = io.saveSafetensors(Object.fromEntries(names.map((k) => [k, tensor(params[k]!, { dtype: 'float32', shape: shapes[k]!.shape as number[] })])));
    model.loadStateDict(io.loadSafetensors(bytes));
    const err = maxAbsDiff(model.forward(ref['x']!), ref['formula6_out']!);
    expect(err).toBeLessThan(1e-4);
  });
});
