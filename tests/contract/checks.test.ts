// The contract checks must be able to fail: each one is run here on a function
// that breaks the contract in the way it is meant to catch (a silent zero
// derivative, a wrong one, a plain TypeError, a vmap that cannot batch, an
// expected typed error that never comes), and on a correct one.

import { describe, expect, test } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { type Case, checkPlain, checkJvp, checkGrad, checkVmap } from './checks.js';

const spec = [{ shape: [3] }];
const seed = 12345;
const run = (check: typeof checkJvp, c: Case) => () => check(c, seed, 'js', 'probe');

/** Reads the values out and starts a new graph: the derivative is silently lost. */
const detached: Case = { specs: spec, f: (x) => rlx.tensor(Array.from(x.toArray())).sin() };
/** A custom VJP with the wrong rule (2·ct instead of cos(x)·ct). */
const wrongVjp: Case = { specs: spec, f: (x) => rlx.customVjp((y: Tensor) => y.sin(), (_p, _o, ct) => [ct.mul(2)])(x) };
const untyped: Case = {
  specs: spec,
  f: () => {
    throw new TypeError('boom');
  },
};
const good: Case = { specs: spec, f: (x) => x.sin().mul(x) };

describe('the contract checks fail where they should', () => {
  test('a correct function passes all four', () => {
    for (const check of [checkPlain, checkJvp, checkGrad, checkVmap]) expect(run(check, good)).not.toThrow();
  });
  test('a silent zero derivative fails jvp and grad', () => {
    expect(run(checkJvp, detached)).toThrow();
    expect(run(checkGrad, detached)).toThrow(/silent zero gradient/);
  });
  test('a wrong VJP fails grad', () => {
    expect(run(checkGrad, wrongVjp)).toThrow(/central difference/);
  });
  test('a plain TypeError fails every check, named as untyped', () => {
    expect(run(checkPlain, untyped)).toThrow(TypeError);
    for (const check of [checkJvp, checkGrad, checkVmap]) expect(run(check, untyped)).toThrow(/not an RlxError/);
  });
  test('a function that cannot be batched fails vmap (its typed error is reported, not accepted)', () => {
    expect(run(checkVmap, detached)).toThrow(/typed error.*case expects values/);
  });
  test('an expected typed error that is not thrown fails', () => {
    expect(run(checkJvp, { ...good, ad: 'throws' })).toThrow(/expected a TransformError, but nothing was thrown/);
    expect(run(checkGrad, { ...good, grad: 'throws' })).toThrow(/expected a TransformError, but nothing was thrown/);
    expect(run(checkVmap, { ...good, vmap: 'throws' })).toThrow(/expected a RlxError, but nothing was thrown/);
  });
  test("'zero' requires exactly zero derivatives", () => {
    expect(run(checkJvp, { ...good, ad: 'zero' })).toThrow(/exactly zero/);
    expect(run(checkGrad, { ...good, ad: 'zero' })).toThrow(/exactly zero/);
  });
});
