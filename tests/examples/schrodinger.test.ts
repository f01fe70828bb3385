// examples/schrodinger.mjs: Crank–Nicolson on i ψ_t = Hψ is unitary, and a
// coherent state in a harmonic well follows the classical orbit and returns
// after one period.
import { describe, expect, it } from 'vitest';
import { loadExample } from './load.js';

interface Schrodinger {
  run(opts?: object): { norm0: number; maxNormErr: number; overlap: number; maxPsiErr: number; meanXHalf: number; meanXEnd: number; maxMeanXErr: number };
}

describe('examples/schrodinger.mjs', () => {
  it('keeps the norm to 1e-10 and brings the Gaussian packet back after one period', async () => {
    const { run } = await loadExample<Schrodinger>('schrodinger');
    const o = run(); // x0 = 2, ω = 1
    expect(Math.abs(o.norm0 - 1)).toBeLessThan(1e-9); // the packet is normalized: (ω/π)^¼ e^{−ω(x−x0)²/2}
    expect(o.maxNormErr).toBeLessThan(1e-10);
    // Ehrenfest for a quadratic potential: ⟨x⟩ = x0 cos ωt exactly (up to the O(h², dt²) discretization).
    expect(Math.abs(o.meanXHalf + 2)).toBeLessThan(1e-3);
    expect(Math.abs(o.meanXEnd - 2)).toBeLessThan(1e-3);
    expect(o.maxMeanXErr).toBeLessThan(5e-3);
    // After T = 2π/ω: ψ(T) = e^{−iωT/2} ψ0 = −ψ0 (the displaced ground state's phase).
    expect(o.overlap).toBeGreaterThan(1 - 1e-5);
    expect(o.maxPsiErr).toBeLessThan(1e-2);
  });
});
