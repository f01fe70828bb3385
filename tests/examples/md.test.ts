// examples/md.mjs: Lennard-Jones forces from rlx.grad, integrated by velocity
// Verlet: forces match finite differences, momentum is conserved, and the
// energy error is bounded (no drift) and second order in dt.
import { describe, expect, it } from 'vitest';
import { loadExample } from './load.js';

interface Md {
  run(opts?: { dt?: number; steps?: number; saveEvery?: number }): {
    E0: number; fdErr: number; maxRelEnergyError: number; drift: number; momentum: number; moved: number; kinetic0: number;
  };
}

describe('examples/md.mjs', () => {
  it('forces = −∇V, momentum conserved, energy error bounded without drift and O(dt²)', async () => {
    const { run } = await loadExample<Md>('md');
    const o = run(); // 16 atoms, dt = 0.002, 5000 steps
    expect(o.fdErr).toBeLessThan(1e-6);         // vs central differences of V in float64
    expect(o.momentum).toBeLessThan(1e-10);      // started at zero; pair forces cancel
    expect(o.moved).toBeGreaterThan(0.1);        // the atoms really moved
    expect(o.E0).toBeLessThan(0);                // a bound cluster
    expect(o.maxRelEnergyError).toBeLessThan(1e-4);
    // No drift: over the run the mean energy moves far less than it oscillates.
    expect(o.drift).toBeLessThan(0.2 * o.maxRelEnergyError);
    // Second order: halving dt (same total time) cuts the energy error about 4×.
    const half = run({ dt: 0.001, steps: 10_000, saveEvery: 100 });
    const ratio = o.maxRelEnergyError / half.maxRelEnergyError;
    expect(ratio).toBeGreaterThan(2.5);
    expect(ratio).toBeLessThan(8);
  });
});
