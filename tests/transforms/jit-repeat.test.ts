// jit's repeat-call path (compiler/transforms/jit.ts): a call whose arguments
// are all tensors of the previous call's dtypes and shapes on its device takes
// the previous entry without rebuilding the signature. What must hold: the
// same values as a fresh trace, and any change of shape, dtype, device,
// argument kind or transform context leaves that path (a retrace or an inline
// call), never a wrong executable.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

const vals = (t: rlx.Tensor) => Array.from(t.toArray() as ArrayLike<number>);

describe('jit: repeated calls with pytree arguments of the same structure', () => {
  it('reuse one trace; a changed static value, module class or module static retraces with the right result', () => {
    const f = rlx.jit((p: { x: rlx.Tensor; mode: string }) => (p.mode === 'double' ? p.x.mul(2) : p.x.add(10)));
    const x = rlx.tensor([1, 2]);
    expect(vals(f({ x, mode: 'double' }) as rlx.Tensor)).toEqual([2, 4]);
    expect(vals(f({ x: x.add(1), mode: 'double' }) as rlx.Tensor)).toEqual([4, 6]);
    expect(f.compiles).toBe(1);
    expect(vals(f({ x, mode: 'plus' }) as rlx.Tensor)).toEqual([11, 12]); // same leaves, another static: a new trace
    expect(f.compiles).toBe(2);
    expect(vals(f({ x, mode: 'double' }) as rlx.Tensor)).toEqual([2, 4]);
    expect(f.compiles).toBe(2);

    // Modules: the same leaf shapes under another class, or another static property, are other signatures.
    const g = rlx.jit((m: rlx.nn.Module, v: rlx.Tensor) => m.forward(v) as rlx.Tensor);
    const lin = rlx.nn.Linear(2, 2, { key: rlx.random.key(0), dtype: 'float64' });
    const v = rlx.tensor([[1, -2]], { dtype: 'float64' });
    const plain = vals(g(lin, v));
    expect(vals(g(lin, v))).toEqual(plain);
    expect(g.compiles).toBe(1);
    const seq = rlx.nn.Sequential(lin, rlx.nn.ReLU());
    expect(vals(g(seq, v))).toEqual(plain.map((t) => Math.max(t, 0)));
    expect(g.compiles).toBe(2);
    const noisy = rlx.nn.Sequential(lin, rlx.nn.Dropout(0.5));
    const evald = rlx.nn.Sequential(lin, rlx.nn.Dropout(0.5)).eval();
    expect(vals(g(evald, v))).toEqual(plain); // eval: dropout passes through
    expect(g.compiles).toBe(3);
    expect(() => g(noisy, v)).toThrow(/key/); // training mode (a static) differs: retraced, and asks for its key
  });
});

describe('jit: repeated calls with the same signature', () => {
  it('reuse one trace; a new shape or dtype retraces, and returning to the old one reuses it', () => {
    const f = rlx.jit((x: rlx.Tensor, y: rlx.Tensor) => x.mul(y).add(1));
    const a = rlx.tensor([1, 2, 3]),
      b = rlx.tensor([4, 5, 6]);
    for (let i = 0; i < 5; i++) expect(vals(f(a, b.add(i)) as rlx.Tensor)).toEqual([1 * (4 + i) + 1, 2 * (5 + i) + 1, 3 * (6 + i) + 1]);
    expect(f.compiles).toBe(1);
    expect(f.hits).toBe(4);
    expect(vals(f(rlx.tensor([1, 2]), rlx.tensor([3, 4])) as rlx.Tensor)).toEqual([4, 9]); // new shape
    expect(f.compiles).toBe(2);
    const g32 = f(rlx.tensor([1, 2, 3], { dtype: 'float32' }), rlx.tensor([1, 1, 1], { dtype: 'float32' })) as rlx.Tensor; // new dtype
    expect(g32.dtype).toBe('float32');
    expect(vals(g32)).toEqual([2, 3, 4]);
    expect(f.compiles).toBe(3);
    expect(vals(f(a, b) as rlx.Tensor)).toEqual([5, 11, 19]); // the first signature again: cached, not retraced
    expect(f.compiles).toBe(3);
  });

  it('a number argument after tensor calls, and tensors after it, give the right values', () => {
    const f = rlx.jit((x: rlx.Tensor, s: rlx.Tensor) => x.mul(s));
    const x = rlx.tensor([1, 2]);
    expect(vals(f(x, rlx.tensor(3)) as rlx.Tensor)).toEqual([3, 6]);
    expect(vals(f(x, 5 as unknown as rlx.Tensor) as rlx.Tensor)).toEqual([5, 10]);
    expect(vals(f(x, rlx.tensor(7)) as rlx.Tensor)).toEqual([7, 14]);
  });

  it('inside grad after plain calls: f is inlined (tracked arguments), the gradient is right', () => {
    const f = rlx.jit((x: rlx.Tensor) => x.mul(x).sum());
    const x = rlx.tensor([1, 2, 3]);
    expect((f(x) as rlx.Tensor).item()).toBe(14);
    expect((f(x) as rlx.Tensor).item()).toBe(14);
    expect(vals(rlx.grad((t: rlx.Tensor) => f(t) as rlx.Tensor)(x))).toEqual([2, 4, 6]);
    expect((f(x) as rlx.Tensor).item()).toBe(14);
  });

  it.runIf(DEVICES.length > 1)('the same shapes on another device run on that device', () => {
    const f = rlx.jit((x: rlx.Tensor) => x.add(1));
    const [d0, d1] = DEVICES as [string, string];
    const a = f(rlx.tensor([1, 2]).on(d0)) as rlx.Tensor;
    const b = f(rlx.tensor([1, 2]).on(d1)) as rlx.Tensor;
    expect(a.device).toBe(d0);
    expect(b.device).toBe(d1);
    expect(vals(b)).toEqual([2, 3]);
    expect(f.compiles).toBe(2);
  });
});
