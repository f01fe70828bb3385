// FFT suite (issue 15): rlx.fft through the public API on the default device
// (native when its addon is built: FFTW when linked, else the TypeScript FFT),
// side by side with numpy.fft (pocketfft, one thread) and the JS libraries
// fft.js (powers of two) and ndarray-fft (radix 2 or Bluestein, complex, every
// axis; two runs). Each call builds the
// lazy transform of a realized input and realizes it (no copy, like the
// array NumPy returns); the result's interleaved float64 storage is
// checksummed against NumPy's.

import { ramp } from '../lib/inputs.mjs';

function complexInput(rlx, n, shape) {
  return rlx.complex(rlx.tensor(ramp(n, 1)), rlx.tensor(ramp(n, 3))).reshape(shape).realize();
}

const big = { warmup: 3, reps: 9, inner: 1, runs: 3 };
// The 1000-point rows: 2000 warm-up calls are ~10 ms, before V8 has optimized the per-call JS, and
// after the harness's forced full GC samples ran slower for a while (one worker, µs a call:
// 19.8 15.7 65.9 7.5 18.7 10.8 6.2 12.4 5.8 8.1 17.5 then ~5.0-5.5 with 2000 calls and the GC;
// median 5.55 with 1.5 s of warm-up and the GC, 4.88 with neither GC). So they warm up for 1.5 s
// and skip the forced GC (gc 'none', both sides: a loop of transforms never forces one).
const small = { warmup: 2000, warmupMs: 1500, reps: 25, inner: 200, runs: 3, gc: 'none' };

// jsPeers: { 'fft.js': case, 'ndarray-fft': case } for the rows a JS library can compute.
const row = (id, description, timing, make, peer, jsPeers = {}) => ({
  id,
  description,
  timing,
  rlx: (rlx) => {
    const f = make(rlx);
    return () => f().realize().node.data;
  },
  peers: {
    numpy: { script: 'fft.py', ...peer },
    // fft.js (radix 4, powers of two only) and ndarray-fft (in place, complex only), from benchmarks/js-peers.
    ...(jsPeers['fft.js'] ? { 'fft.js': { script: 'peer.mjs', case: `fft.js:${jsPeers['fft.js']}`, args: peer.args } } : {}),
    ...(jsPeers['ndarray-fft'] ? { 'ndarray-fft': { script: 'peer.mjs', case: `ndarray-fft:${jsPeers['ndarray-fft']}`, args: peer.args, runs: 2 } } : {}),
  },
});

export default {
  name: 'fft',
  description: 'numpy.fft vs rlx.fft on the default device: complex FFTs of 2^20 and 1000 points, a 2^22-point real FFT, a 1024x1024 2-D FFT and 256 rows of 1024.',
  rows: [
    row('fft-c128-2^20', 'fft of 2^20 complex128 points', big, (rlx) => {
      const x = complexInput(rlx, 2 ** 20, [2 ** 20]);
      return () => rlx.fft.fft(x);
    }, { case: 'fft', args: { n: 2 ** 20 } }, { 'fft.js': 'fft', 'ndarray-fft': 'fft' }),
    row('fft-c128-1000', 'fft of 1000 complex128 points (not a power of two: 2^3 5^3)', small, (rlx) => {
      const x = complexInput(rlx, 1000, [1000]);
      return () => rlx.fft.fft(x);
    }, { case: 'fft', args: { n: 1000 } }, { 'ndarray-fft': 'fft' }),
    {
      ...row('fft-c128-1000-measured', "the same transform with FFTW's measured plan: fft.setPlanner({effort: 'measure'}) before the first call (its ~90 ms plan search falls in the warm-up; the default planner estimates, with no trial runs)", small, (rlx) => {
        rlx.fft.setPlanner({ effort: 'measure' });
        const x = complexInput(rlx, 1000, [1000]);
        return () => rlx.fft.fft(x);
      }, { case: 'fft', args: { n: 1000 } }),
    },
    row('rfft-f64-2^22', 'rfft of 2^22 float64 points', big, (rlx) => {
      const x = rlx.tensor(ramp(2 ** 22, 1)).realize();
      return () => rlx.fft.rfft(x);
    }, { case: 'rfft', args: { n: 2 ** 22 } }, { 'fft.js': 'rfft' }),
    row('fft2-c128-1024x1024', 'fft2 of a 1024x1024 complex128 array', big, (rlx) => {
      const x = complexInput(rlx, 1024 * 1024, [1024, 1024]);
      return () => rlx.fft.fft2(x);
    }, { case: 'fft2', args: { shape: [1024, 1024] } }, { 'ndarray-fft': 'fft2' }),
    row('fft-c128-256x1024', 'fft along the last axis of 256 rows of 1024 complex128 points (a batch)', { warmup: 20, reps: 15, inner: 5, runs: 3 }, (rlx) => {
      const x = complexInput(rlx, 256 * 1024, [256, 1024]);
      return () => rlx.fft.fft(x);
    }, { case: 'fft_batch', args: { shape: [256, 1024] } }),
  ],
};
