// examples/navier-stokes.mjs: pseudo-spectral 2-D Navier–Stokes (rfft2/irfft2
// inside an rk4 scan). Taylor–Green decays at the exact rate 2νk²; inviscid
// flow keeps energy and enstrophy while the field changes by O(1).
import { describe, expect, it } from 'vitest';
import { loadExample } from './load.js';

interface NavierStokes {
  run(): {
    taylorGreen: { rate: number; exactRate: number; shapeErr: number; nu: number; k: number };
    inviscid: { energyErr: number; enstrophyErr: number; change: number; energy0: number };
  };
}

describe('examples/navier-stokes.mjs', () => {
  it('Taylor–Green decays at 2νk²; inviscid flow conserves energy and enstrophy', async () => {
    const { run } = await loadExample<NavierStokes>('navier-stokes');
    const { taylorGreen: tg, inviscid: iv } = run();
    expect(tg.exactRate).toBeCloseTo(2 * 0.05 * 4, 15);
    // RK4's amplification of e^{−2νk² dt} is off by (2νk²dt)⁵/120 ≈ 1e-13 per step.
    expect(Math.abs(tg.rate / tg.exactRate - 1)).toBeLessThan(1e-9);
    expect(tg.shapeErr).toBeLessThan(1e-9); // u·∇ω = 0: the pattern only decays
    expect(iv.change).toBeGreaterThan(0.3);  // the nonlinear term moved the field by O(1)
    expect(iv.energyErr).toBeLessThan(1e-8);
    expect(iv.enstrophyErr).toBeLessThan(1e-7);
  });
});
