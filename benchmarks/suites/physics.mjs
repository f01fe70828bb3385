// Physics suite (issue 15): the examples as they run, against the same
// algorithm written in NumPy (benchmarks/peers/physics.py).
//
// 2-D Navier–Stokes (examples/navier-stokes.mjs): vorticity form on the
// periodic square, pseudo-spectral (rfft2/irfft2, 2/3 dealiasing) with RK4.
// The rlx side calls the example's own vorticityRhs through integrate.rk4
// (one scan node holding the FFTs), exactly as the example does; the NumPy
// twin performs the same operations in the same order in float64 (numpy.fft,
// pocketfft, one thread). One timed call is STEPS steps from the same
// band-limited initial field (random phases on 1 ≤ |k| ≤ 4, as the example's
// inviscid case, here viscous); the notes give time per step, steps/s and the
// enstrophy ½⟨ω²⟩ of the final field on each side, and the final field is
// checksummed (rtol 1e-9: after STEPS steps the two FFT libraries' rounding
// differences stay ~1e-13).

export const NS = { N: 256, nu: 1e-3, dt: 5e-3, steps: 10, seed: 3 };

/** The initial vorticity on the N×N grid, row-major (same recipe as peers/physics.py's). */
export function initialVorticity({ N, seed }) {
  let s = seed;
  const rand = () => (s = (s * 16807) % 2147483647) / 2147483647;
  const modes = [];
  for (let a = -4; a <= 4; a++) for (let b = 0; b <= 4; b++) {
    const kk = Math.hypot(a, b);
    if (kk >= 1 && kk <= 4) modes.push([a, b, 1 / kk, 2 * Math.PI * rand()]);
  }
  const w = new Float64Array(N * N);
  for (let i = 0; i < N; i++) {
    const x = (2 * Math.PI * i) / N;
    for (let j = 0; j < N; j++) {
      const y = (2 * Math.PI * j) / N;
      let acc = 0;
      for (const [a, b, c, ph] of modes) acc += c * Math.cos(a * x + b * y + ph);
      w[i * N + j] = acc;
    }
  }
  return w;
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

export default {
  name: 'physics',
  description: 'The physics examples as they run vs the same algorithm in NumPy: 2-D Navier–Stokes, pseudo-spectral (rfft2/irfft2, 2/3 rule) with RK4, 256x256.',
  rows: [
    {
      id: `navier-stokes-${NS.N}-rk4x${NS.steps}`,
      description: `${NS.steps} RK4 steps (dt ${NS.dt}, ν ${NS.nu}) of examples/navier-stokes.mjs on ${NS.N}x${NS.N}: integrate.rk4(vorticityRhs(N, ν), w0, {dt, steps, saveEvery: steps}).yFinal.realize() (each step: 4 right-hand sides of 2 rfft2 + 5 irfft2); NumPy: the same operations with numpy.fft.rfft2/irfft2 and the same RK4 combination, float64. Per call = ${NS.steps} steps; checksum: the final field`,
      timing: { warmup: 2, warmupMs: 1000, reps: 5, inner: 1, runs: 3 },
      rlx: async (rlx) => {
        const { vorticityRhs } = await import('../../examples/navier-stokes.mjs');
        const { N, nu, dt, steps } = NS;
        const f = vorticityRhs(N, nu);
        const w0 = rlx.tensor(initialVorticity(NS)).reshape([N, N]).realize();
        const times = [];
        let last;
        return {
          fn: () => {
            const t0 = performance.now();
            last = rlx.integrate.rk4(f, w0, { dt, steps, saveEvery: steps }).yFinal.realize();
            times.push(performance.now() - t0);
            return last.node.data;
          },
          info: () => {
            const perStep = median(times.slice(-5)) / steps;
            return { 'ms/step': +perStep.toFixed(2), 'steps/s': +(1000 / perStep).toFixed(1), enstrophy: +(last.square().mean().item() / 2).toPrecision(12) };
          },
        };
      },
      peers: { numpy: { script: 'physics.py', case: 'navier_stokes', args: NS } },
    },
  ],
};
