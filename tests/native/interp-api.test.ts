// A stale addon build is refused at load, not run with calls it misreads
// (issue 13 leftover: "computing a vector norm through cond crashed with 'rlx
// interpreter: the program must be an Int32Array'"). The cause was an addon
// built before the interpreter took per-run constants: such an addon reads
// interpRun(prepared, loop, buffers, consts) as interpRun(program, consts,
// loop, buffers). The addon now exports its calling convention (interpApi)
// and src/backends/native/addon.ts refuses any other (interp-api.ts).

import { expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { INTERP_API, INTERP_PROGRAM_VERSION, interpApiProblem } from '../../src/backends/native/interp-api.js';
import { describeNative } from './native-harness.js';

describeNative('the interpreter calling convention', () => {
  it('the built addon exports the convention this TS calls it with', () => {
    const addon = nativeAddon()! as unknown as { interpApi?: number };
    expect(addon.interpApi).toBe(INTERP_API);
    expect(interpApiProblem(addon)).toBeUndefined();
  });

  it('an addon of an older convention (or without interpRun) is refused with the reason', () => {
    const { interpApi: _, ...stale } = nativeAddon()! as unknown as Record<string, unknown>;
    expect(interpApiProblem(stale)).toMatch(/calling convention is 1 \(no interpApi\), this rlx needs 2 \(stale build\? run npm run build:native\)/);
    expect(interpApiProblem({ ...stale, interpApi: 1 })).toMatch(/calling convention is 1, this rlx needs 2/);
    expect(interpApiProblem({})).toMatch(/does not export interpRun/);
  });

  it('an addon reading an older program format (before int8/uint8 moved the dtype codes) is refused with the reason', () => {
    const addon = nativeAddon()! as unknown as Record<string, unknown>;
    expect(addon['interpVersion']).toBe(INTERP_PROGRAM_VERSION);
    expect(interpApiProblem({ ...addon, interpVersion: 1 })).toMatch(/reads program version 1, this rlx writes 2 \(stale build\? run npm run build:native\)/);
  });

  it('norms through cond on native, with literals in the branches (the reported case): exact values', async () => {
    const x = rlx.tensor([1, -2, 3, -4]).on('native');
    const norm = (pick: boolean) =>
      rlx.cond(
        rlx.tensor(pick).on('native'),
        (y) => y.abs().max().mul(1.5),
        (y) => y.square().sum().sqrt().mul(2.5),
        x,
      ) as rlx.Tensor;
    expect(norm(true).item()).toBe(6); // 4 * 1.5
    expect(await norm(false).data()).toEqual(Float64Array.from([Math.sqrt(30) * 2.5]));
  });
});
