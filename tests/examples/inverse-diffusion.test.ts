// examples/inverse-diffusion.mjs: gradient descent through sparse.spsolve
// recovers a diffusion coefficient from steady-state observations, and
// gradient descent through integrate.odeint from time-dependent ones.
import { describe, expect, it } from 'vitest';
import { loadExample } from './load.js';

interface Recovery {
  loss0: number;
  lossFinal: number;
  reduction: number;
  fieldErr: number;
  history: number[];
}
interface Inverse {
  run(opts?: object): Recovery;
  runTimeDependent(opts?: object): Recovery;
}

describe('examples/inverse-diffusion.mjs', () => {
  it('the loss drops by more than 10³ and the recovered κ is close to the truth', async () => {
    const { run } = await loadExample<Inverse>('inverse-diffusion');
    const o = run();
    // The start κ = 1 is far from the truth 1 + ½ sin 2πx (up to 50% off): the loss starts well above 0.
    expect(o.loss0).toBeGreaterThan(1e-3);
    expect(o.reduction).toBeGreaterThan(1e3);
    for (let i = 1; i < o.history.length; i++) expect(o.history[i]).toBeLessThan(o.history[i - 1]!); // only descents accepted
    expect(o.fieldErr).toBeLessThan(1e-2);  // max relative error of κ at every cell face
  });

  it('time-dependent: through integrate.odeint (adjoint gradients) the loss drops by more than 10³ and κ is recovered', async () => {
    const { runTimeDependent } = await loadExample<Inverse>('inverse-diffusion');
    const o = runTimeDependent();
    expect(o.loss0).toBeGreaterThan(1e-4);
    expect(o.reduction).toBeGreaterThan(1e3);
    for (let i = 1; i < o.history.length; i++) expect(o.history[i]).toBeLessThan(o.history[i - 1]!);
    expect(o.fieldErr).toBeLessThan(1e-2);
  }, 60_000);
});
