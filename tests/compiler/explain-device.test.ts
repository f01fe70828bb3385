// explain() names the device the plan runs on (issue 14 §5): the device a
// tensor is pinned to, else the default ('native' when the addon is built, 'js'
// otherwise: README "Devices"), and for a compiled Func the device it was
// compiled for. Printing names it too ("plan on '<device>'").

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';

const NATIVE = rlx.nativeStatus().available;
const DEFAULT = NATIVE ? 'native' : 'js';
const quiet = { print: false };

describe('explain names the real device', () => {
  it('a tensor pinned to js', () => {
    const t = rlx.tensor([1, 2, 3]).on('js').add(1).mul(2);
    const plan = rlx.explain(t, quiet);
    expect(plan.device).toBe('js');
    expect(plan.toString()).toMatch(/^plan on 'js':/);
  });

  it.runIf(NATIVE)('a tensor pinned to native', () => {
    const t = rlx.tensor([1, 2, 3]).on('native').add(1).mul(2);
    const plan = rlx.explain(t, quiet);
    expect(plan.device).toBe('native');
    expect(plan.toString()).toMatch(/^plan on 'native':/);
  });

  it('an unpinned tensor: the default device', () => {
    const c = rlx.tensor([[1, 2], [3, 4]]);
    expect(rlx.explain(rlx.matmul(c, c).exp(), quiet).device).toBe(DEFAULT);
    // Mixed: one pinned operand decides, as realize() does.
    expect(rlx.explain(c.on('js').add(c), quiet).device).toBe('js');
  });

  it('only views of a realized buffer: the device of the tensor, no kernel', () => {
    const a = rlx.tensor([1, 2, 3, 4]).on('js');
    a.toArray();
    const plan = rlx.explain(a.reshape([2, 2]), quiet);
    expect(plan.kernels).toHaveLength(0);
    expect(plan.device).toBe('js');
  });

  it('a Func: the device it is compiled for', () => {
    const f = rlx.graph('explain-device', (g) => g.input('x', ['n']).add(1).sin());
    expect(rlx.explain(f, quiet).device).toBe(DEFAULT);
    expect(rlx.explain(f.compile({ device: 'js' }), quiet).device).toBe('js');
    if (NATIVE) expect(rlx.explain(f.compile({ device: 'native' }), quiet).device).toBe('native');
  });
});
