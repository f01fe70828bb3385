// examples/heat.mjs: the decay of implicit-Euler heat flow recovers the slowest
// Dirichlet eigenvalue of the unit square.
import { describe, expect, it } from 'vitest';
import { loadExample } from './load.js';

interface Heat {
  run(opts?: { n?: number; dt?: number; steps?: number }): { h: number; method: string; r: number; lambdaMeasured: number; lambdaDiscrete: number; lambdaExact: number };
}

describe('examples/heat.mjs', () => {
  it('decay rate of the slowest mode gives the discrete eigenvalue to rounding and 2π² to O(h²)', async () => {
    const { run } = await loadExample<Heat>('heat');
    const o = run();
    expect(['cholmod', 'js-cholesky']).toContain(o.method);
    // The scheme's amplification 1/(1 + dt λ_h) of the discrete eigenvalue λ_h = 8 sin²(πh/2)/h².
    expect(Math.abs(o.lambdaMeasured / o.lambdaDiscrete - 1)).toBeLessThan(1e-9);
    // The analytic eigenvalue 2π², to the 5-point stencil's O(h²) error π²h²/12 (plus 10% for the h⁴ term).
    expect(Math.abs(o.lambdaMeasured / o.lambdaExact - 1)).toBeLessThan(1.1 * Math.PI ** 2 * o.h ** 2 / 12);
    expect(o.lambdaMeasured).toBeLessThan(o.lambdaExact); // the 5-point stencil underestimates
  });
});
