// Attention masks: the spellings that must agree ('causal', PyTorch's MHA
// boolean convention (true = not allowed), additive float masks,
// scaledDotProductAttention's boolean convention (true = attend)), key
// padding on unbatched input, and the per-head weights.

import { describe, expect, it } from 'vitest';
import { tensor, random, where, type Tensor } from '../../src/index.js';
import * as nn from '../../src/nn/index.js';

const values = (t: Tensor): number[] => Array.from(t.toArray() as ArrayLike<number>);
const maxAbsDiff = (a: Tensor, b: Tensor): number => values(a).reduce((m, v, i) => Math.max(m, Math.abs(v - values(b)[i]!)), 0);
/** [L, L] booleans true above the diagonal: PyTorch's MHA causal mask (true = not allowed). */
const upper = (L: number): Tensor => tensor([...Array(L)].map((_, i) => [...Array(L)].map((_, j) => j > i)));

describe('attention masks', () => {
  const L = 5,
    E = 8;
  const mha = nn.MultiheadAttention(E, 2, { dtype: 'float64', key: random.key(0) });
  const x = random.normal(random.key(1), [L, 3, E]);

  it("MultiheadAttention: 'causal' = the boolean upper triangle = the additive -inf mask; future keys get zero weight", () => {
    const [a, wa] = mha.forward(x, x, x, { attnMask: 'causal' });
    const [b, wb] = mha.forward(x, x, x, { attnMask: upper(L) });
    const [c] = mha.forward(x, x, x, { attnMask: where(upper(L), -Infinity, 0) });
    expect(maxAbsDiff(a, b)).toBe(0);
    expect(maxAbsDiff(a, c)).toBe(0);
    expect(maxAbsDiff(wa!, wb!)).toBe(0);
    const w = wa!.tolist() as number[][][];
    for (const batch of w) batch.forEach((row, i) => row.forEach((v, j) => (j > i ? expect(v).toBe(0) : expect(v).toBeGreaterThan(0))));
  });

  it("'causal' combines with a key padding mask as the boolean masks do", () => {
    const kpm = tensor([[false, false, false, false, true], [false, false, false, true, true], [false, false, false, false, false]]);
    const [a] = mha.forward(x, x, x, { attnMask: 'causal', keyPaddingMask: kpm });
    const [b] = mha.forward(x, x, x, { attnMask: upper(L), keyPaddingMask: kpm });
    expect(maxAbsDiff(a, b)).toBe(0);
  });

  it('unbatched input with a [S] key padding mask equals the batched layer on a batch of one', () => {
    const x1 = x.select(1, 0);
    const kpm = tensor([false, true, false, false, true]);
    const [a, wa] = mha.forward(x1, x1, x1, { keyPaddingMask: kpm, averageAttnWeights: false });
    const xb = x1.expandDims(1);
    const [b, wb] = mha.forward(xb, xb, xb, { keyPaddingMask: kpm.reshape([1, L]), averageAttnWeights: false });
    expect(a.shape).toEqual([L, E]);
    expect(wa!.shape).toEqual([2, L, L]);
    expect(maxAbsDiff(a, b.reshape([L, E]))).toBe(0);
    expect(maxAbsDiff(wa!, wb!.reshape([2, L, L]))).toBe(0);
    expect(values(wa!.slice({ kind: 'slice', axes: [{ kind: 'ax' }, { kind: 'ax' }, { kind: 'ix', index: 1 }] }))).toEqual(Array(2 * L).fill(0));
  });

  it("scaledDotProductAttention: 'causal' = a boolean mask true where attending = an additive mask", () => {
    const q = random.normal(random.key(2), [2, L, 4]);
    const allowed = upper(L).logicalNot();
    const a = nn.functional.scaledDotProductAttention(q, q, q, { mask: 'causal' });
    const b = nn.functional.scaledDotProductAttention(q, q, q, { mask: allowed });
    const c = nn.functional.scaledDotProductAttention(q, q, q, { mask: where(allowed, 0, -Infinity) });
    expect(maxAbsDiff(a, b)).toBe(0);
    expect(maxAbsDiff(a, c)).toBe(0);
    // The first query sees only the first key: its output is the first value.
    expect(maxAbsDiff(a.slice({ kind: 'slice', axes: [{ kind: 'ax' }, { kind: 'ix', index: 0 }] }), q.slice({ kind: 'slice', axes: [{ kind: 'ax' }, { kind: 'ix', index: 0 }] }))).toBeLessThan(1e-15);
  });

  it('TransformerEncoderLayer: srcMask "causal" equals the boolean mask', () => {
    const layer = nn.TransformerEncoderLayer(E, 2, { dimFeedforward: 16, dtype: 'float64', key: random.key(3) }).eval();
    expect(maxAbsDiff(layer.forward(x, { srcMask: 'causal' }), layer.forward(x, { srcMask: upper(L) }))).toBe(0);
    expect(maxAbsDiff(layer.forward(x, { srcMask: 'causal' }), layer.forward(x))).toBeGreaterThan(1e-6);
  });
});
