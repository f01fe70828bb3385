// Runs the draft contract cases of tests/optim/contract-cases.ts through the
// contract's checks (jvp and grad against finite differences, vmap against the
// per-example loop) on the default device, until contract.test.ts includes them.

import { describe, test } from 'vitest';
import '../../src/index.js';
import { casesOf, isSkip, seedOf, checkPlain, checkJvp, checkGrad, checkVmap } from '../contract/checks.js';
import { optimIoCases } from './contract-cases.js';

describe('optim and io contract cases (draft)', () => {
  for (const [name, e] of Object.entries(optimIoCases)) {
    if (isSkip(e)) continue;
    for (const c of casesOf(e)) {
      const what = c.label ? `${name} [${c.label}]` : name;
      test(what, () => {
        const seed = seedOf(what);
        checkPlain(c, seed, 'js', what);
        checkJvp(c, seed, 'js', what);
        checkGrad(c, seed, 'js', what);
        checkVmap(c, seed, 'js', what);
      });
    }
  }
});
