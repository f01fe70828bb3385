// Per-run constants of the block interpreter (issue 13): a program's literal
// entries that are parameters of the compiled graph are replaced at each run
// by interpRun's / interpRunAsync's 4th argument, so one prepared program
// serves every value; a wrong constants argument is a thrown Error naming the
// problem, before any memory is touched.

import { expect, it } from 'vitest';
import '../../src/index.js';
import type { ElementwiseKernel } from '../../src/compiler/kernel.js';
import { encodeElementwise } from '../../src/backends/native/program.js';
import { describeInterp } from './interp-harness.js';

// out[i] = a[i] * K[0] + (K[1] + i K[2]) (complex128 out), a float64 in slot 0, out in slot 1.
const AXPB: ElementwiseKernel = {
  kind: 'elementwise',
  out: 1,
  outDType: 'complex128',
  outShape: [3],
  fused: ['mul', 'complex', 'add'],
  expr: {
    loads: [{ slot: 0, dtype: 'float64', chain: [] }],
    instrs: [
      { op: 'load', load: 0, dtype: 'float64' },
      { op: 'const', value: 0.5, dtype: 'float64', param: 0 },
      { op: 'mul', args: [0, 1], dtype: 'float64', attrs: {} },
      { op: 'const', value: 0, dtype: 'float64' },
      { op: 'complex', args: [2, 3], dtype: 'complex128', attrs: {} },
      { op: 'const', value: [0.25, -0.75], dtype: 'complex128', param: 1 },
      { op: 'add', args: [4, 5], dtype: 'complex128', attrs: {} },
    ],
  },
};

describeInterp('interpreter per-run constants', (addon) => {
  const enc = encodeElementwise(AXPB, [[3], [3]]);
  const loop = enc.loop(new Map());
  const a = Float64Array.from([1, 2, -4]);
  // The constants vector of the program with parameter offsets p -> values K[p].
  const constsFor = (K: number[]) => {
    const c = enc.consts.slice();
    for (let i = 0; i < enc.params.length; i += 2) c[enc.params[i]!] = K[enc.params[i + 1]!]!;
    return c;
  };
  const expected = (K: number[]) => Array.from(a).flatMap((x) => [x * K[0]! + K[1]!, 0 + K[2]!]);

  it('the encoder lists the parameter entries (and the literal 0 is not one)', () => {
    expect(enc.params.length).toBe(6); // (entry, offset) for K[0], K[1], K[2]
    expect([...enc.params].filter((_, i) => i % 2 === 1).sort()).toEqual([0, 1, 2]);
  });

  it('one prepared program, run with different constants, computes with each', () => {
    const prepared = addon.interpPrepare(enc.program, enc.consts);
    for (const K of [[0.5, 0.25, -0.75], [3, -1, 2], [-0.125, 1e300, -0]]) {
      const out = new Float64Array(6);
      addon.interpRun(prepared, loop, [a, out], constsFor(K));
      expect(Array.from(out)).toEqual(expected(K));
    }
    // Without the 4th argument: the prepared values.
    const out = new Float64Array(6);
    addon.interpRun(prepared, loop, [a, out]);
    expect(Array.from(out)).toEqual(expected([0.5, 0.25, -0.75]));
  });

  it('interpRunAsync takes them too (copied: changing the array afterwards does not matter)', async () => {
    const prepared = addon.interpPrepare(enc.program, enc.consts);
    const out = new Float64Array(6);
    const c = constsFor([2, 1, 1]);
    const r = addon.interpRunAsync(prepared, loop, [a, out], c);
    c.fill(NaN);
    if (r) await r;
    expect(Array.from(out)).toEqual(expected([2, 1, 1]));
  });

  it('rejects constants of the wrong kind or length before touching memory', () => {
    const prepared = addon.interpPrepare(enc.program, enc.consts);
    const out = new Float64Array(6).fill(7);
    expect(() => addon.interpRun(prepared, loop, [a, out], new Float32Array(enc.consts.length) as unknown as Float64Array)).toThrow(/constants must be a Float64Array/);
    expect(() => addon.interpRun(prepared, loop, [a, out], new Float64Array(enc.consts.length + 1))).toThrow(new RegExp(`constants have ${enc.consts.length + 1} values but the program has ${enc.consts.length}`));
    expect(() => addon.interpRunAsync(prepared, loop, [a, out], new Float64Array(1))).toThrow(/constants have 1 values/);
    expect(Array.from(out)).toEqual([7, 7, 7, 7, 7, 7]);
  });
});
