// examples/wave.mjs: leapfrog on the discrete wave equation conserves energy
// (symplectic: bounded error, no drift) and the standing wave keeps its period.
import { describe, expect, it } from 'vitest';
import { loadExample } from './load.js';

interface Wave {
  run(opts?: { n?: number; steps?: number }): { steps: number; dt: number; E0: number; maxRelEnergyError: number; halfErr: number; returnErr: number };
}

describe('examples/wave.mjs', () => {
  it('energy is conserved to 1e-6 relative over 10^4 leapfrog steps, and the wave returns after one period', async () => {
    const { run } = await loadExample<Wave>('wave');
    const o = run();
    expect(o.steps).toBe(10_000);
    // H0 = ½ k Σ q·Aq at rest, k = 1/h²: the two modes' energies ¼(π² + ¼·9π²)/h (sum over n points ≈ 1/(2h)).
    const h = 1 / 200;
    const modal = (m: number, a: number) => (((a * a) / 4) * (2 * Math.sin((m * Math.PI * h) / 2) / h) ** 2) / h;
    expect(Math.abs(o.E0 / (modal(1, 1) + modal(3, 0.5)) - 1)).toBeLessThan(1e-12);
    expect(o.maxRelEnergyError).toBeLessThan(1e-6);
    expect(o.halfErr).toBeLessThan(1e-5);   // at t = T/2 the string is at −u0: it really moved
    expect(o.returnErr).toBeLessThan(1e-5); // at t = T it is back at u0
  });
});
