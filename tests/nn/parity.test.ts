// Every layer and functional of nn against PyTorch 1.13 (golden/nn.json, from
// golden/make_golden.py): forward outputs, and the vector–Jacobian products of
// a fixed random cotangent with respect to the differentiable inputs and every
// parameter (the torch state dict loaded strictly). Tolerances are relative to
// the reference's largest magnitude: float64 1e-12 (1e-10 for attention and
// the encoder layer, whose op chains are long), float32 1e-5.
// NN_PARITY_TABLE=1 prints the largest error per case.

import { afterAll, describe, expect, it } from 'vitest';
import { vjp, type Tensor } from '../../src/index.js';
import * as nn from '../../src/nn/index.js';
import type { Module } from '../../src/nn/module.js';
import { golden, fromRec, buildLayer, relErr, type Case } from './golden.js';

type Inputs = Record<string, Tensor>;

/** How each layer is called with the case's inputs: the list of its outputs. */
function forwardLayer(c: Case, m: Module, x: Inputs): (Tensor | null)[] {
  switch (c.module!.layer) {
    case 'MultiheadAttention': {
      const [q, k, v] = x['x'] ? [x['x'], x['x'], x['x']] : [x['query']!, x['key']!, x['value']!];
      return (m as nn.MultiheadAttention).forward(q, k, v, { ...c.options, attnMask: x['attnMask'], keyPaddingMask: x['keyPaddingMask'] });
    }
    case 'TransformerEncoderLayer':
      return [(m as nn.TransformerEncoderLayer).forward(x['src']!, { srcMask: x['srcMask'], srcKeyPaddingMask: x['srcKeyPaddingMask'] })];
    case 'Embedding':
      return [m.forward(x['indices']!)];
    default:
      return [m.forward(x['x']!)];
  }
}

/** How each functional is called with the case's inputs and options. */
function callFunctional(c: Case, x: Inputs): Tensor {
  const F = nn.functional;
  const o = c.options as Record<string, never>;
  switch (c.fn) {
    case 'relu': return F.relu(x['x']!);
    case 'gelu': return F.gelu(x['x']!, o);
    case 'silu': return F.silu(x['x']!);
    case 'softmax': return F.softmax(x['x']!, o['axis'] ?? -1);
    case 'logSoftmax': return F.logSoftmax(x['x']!, o['axis'] ?? -1);
    case 'crossEntropy': return F.crossEntropy(x['input']!, x['target']!, { ...o, weight: x['weight'] });
    case 'mseLoss': return F.mseLoss(x['input']!, x['target']!, o);
    case 'scaledDotProductAttention': return F.scaledDotProductAttention(x['q']!, x['k']!, x['v']!, { ...o, mask: x['mask'] ?? o['mask'] });
    case 'linear': return F.linear(x['x']!, x['weight']!, x['bias']);
    case 'layerNorm': return F.layerNorm(x['x']!, o['normalizedShape'], { weight: x['weight'], bias: x['bias'], eps: o['eps'] });
    case 'rmsNorm': return F.rmsNorm(x['x']!, o['normalizedShape'], { weight: x['weight'] });
    case 'embedding': return F.embedding(x['indices']!, x['weight']!);
  }
  throw new Error(`golden: no functional ${c.fn}`);
}

const table: [string, number, number][] = [];

describe('nn parity with PyTorch 1.13 (forward and backward)', () => {
  it('the golden file covers every layer and functional', () => {
    const layers = new Set(golden.cases.flatMap((c) => (c.module ? [c.module.layer] : [])));
    const fns = new Set(golden.cases.flatMap((c) => (c.fn ? [c.fn] : [])));
    expect([...layers].sort()).toEqual(['Conv2d', 'Embedding', 'GELU', 'LayerNorm', 'Linear', 'MultiheadAttention', 'RMSNorm', 'ReLU', 'Sequential', 'SiLU', 'Sigmoid', 'Tanh', 'TransformerEncoderLayer']);
    expect([...fns].sort()).toEqual(['crossEntropy', 'embedding', 'gelu', 'layerNorm', 'linear', 'logSoftmax', 'mseLoss', 'relu', 'rmsNorm', 'scaledDotProductAttention', 'silu', 'softmax']);
  });

  it.each(golden.cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const inputs: Inputs = Object.fromEntries(Object.entries(c.inputs).map(([k, r]) => [k, fromRec(r)]));
    const fixed = Object.fromEntries(Object.entries(inputs).filter(([k]) => !c.gradInputs.includes(k)));
    const join = (diff: Tensor[]): Inputs => ({ ...fixed, ...Object.fromEntries(c.gradInputs.map((k, i) => [k, diff[i]!])) });
    const diffInputs = c.gradInputs.map((k) => inputs[k]!);
    let outs: (Tensor | null)[];
    let grads: { state: Record<string, Tensor>; inputs: Tensor[] };
    const keep = (ys: (Tensor | null)[]): Tensor[] => ys.filter((y): y is Tensor => y !== null);
    const cts = c.cotangents.filter((r) => r !== null).map(fromRec);

    if (c.module) {
      const m = buildLayer(c.module, c.dtype);
      m.loadStateDict(Object.fromEntries(Object.entries(c.state).map(([k, r]) => [k, fromRec(r)]))); // strict
      m.train(c.train);
      outs = forwardLayer(c, m, inputs);
      const [, back] = vjp((mm: Module, ...d: Tensor[]) => keep(forwardLayer(c, mm, join(d))), m, ...diffInputs);
      const [gm, ...gi] = back(cts) as [Module, ...Tensor[]];
      grads = { state: gm.stateDict(), inputs: gi };
    } else {
      outs = [callFunctional(c, inputs)];
      const [, back] = vjp((...d: Tensor[]) => [callFunctional(c, join(d))], ...diffInputs);
      grads = { state: {}, inputs: back(cts) as Tensor[] };
    }

    let fwd = 0,
      bwd = 0;
    const check = (what: string, err: number, measure: 'fwd' | 'bwd') => {
      expect(err, `${c.name}: ${what} relative error ${err} > ${c.tol}`).toBeLessThanOrEqual(c.tol);
      if (measure === 'fwd') fwd = Math.max(fwd, err);
      else bwd = Math.max(bwd, err);
    };
    expect(outs.length).toBe(c.outputs.length);
    c.outputs.forEach((r, i) => {
      if (r === null) expect(outs[i]).toBeNull();
      else {
        expect(outs[i]!.dtype).toBe(c.dtype);
        check(`output ${i}`, relErr(outs[i]!, r), 'fwd');
      }
    });
    expect(Object.keys(grads.state).sort()).toEqual(Object.keys(c.grads.state).sort());
    for (const [k, r] of Object.entries(c.grads.state)) check(`grad of ${k}`, relErr(grads.state[k]!, r), 'bwd');
    c.gradInputs.forEach((k, i) => check(`grad of input ${k}`, relErr(grads.inputs[i]!, c.grads.inputs[k]!), 'bwd'));
    table.push([c.name, fwd, bwd]);
  });

  afterAll(() => {
    if (process.env['NN_PARITY_TABLE']) console.log(table.map(([n, f, b]) => `${n.padEnd(60)} fwd ${f.toExponential(1)}  bwd ${b.toExponential(1)}`).join('\n'));
  });
});
