// The build without the GPL parts (README, "Building without the GPL parts"):
// CI builds a second addon with RLX_NO_GPL=1 into its own directory and runs
// the tests that differ for it with RLX_NATIVE_BUILD_DIR pointing there and
// RLX_EXPECT_NO_GPL=1 (.ci/run). This file checks that the addon under test
// really is that build, so the step cannot pass by testing the full build,
// and that what the README promises for it holds: the fft functions run the
// TypeScript kernels on 'native' with NumPy's results, the sparse LU paths
// factor with KLU and solve right, and an explicit UMFPACK request is a
// DeviceError. Without RLX_EXPECT_NO_GPL=1 (the ordinary test run) it checks
// the opposite: a part is missing only when status.json says it was left out
// on request (CI's full build has both).

import { expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeFftStatus } from '../../src/fft/kernels/native.js';
import { hasUmfpack } from '../../src/sparse/kernels/native-direct.js';
import { DeviceError } from '../../src/tensor/errors.js';
import { leftOutOnRequest } from '../sparse/native/util.js';
import { describeNative, REQUIRE_NATIVE } from './native-harness.js';

const EXPECT_NO_GPL = process.env['RLX_EXPECT_NO_GPL'] === '1';

describeNative(EXPECT_NO_GPL ? 'the addon built with RLX_NO_GPL=1' : 'the full addon (FFTW and UMFPACK built in)', () => {
  it('status.json, the fft kernels and the UMFPACK entry points agree with how it was built', () => {
    if (EXPECT_NO_GPL) {
      expect([...leftOutOnRequest()].sort()).toEqual(['fftw', 'umfpack']);
      expect(nativeFftStatus().kernels).toBe('js');
      expect(hasUmfpack()).toBe(false);
    } else {
      // A part is missing only when left out on request; where FFTW was merely not installed
      // (a local machine without libfftw3-dev), only RLX_REQUIRE_NATIVE=1 (CI) insists on it.
      const left = leftOutOnRequest();
      expect(hasUmfpack()).toBe(!left.includes('umfpack'));
      if (REQUIRE_NATIVE || left.includes('fftw')) expect(nativeFftStatus().kernels).toBe(left.includes('fftw') ? 'js' : 'fftw');
    }
  });

  it('fft on native gives the DFT by its definition (TS kernels or FFTW)', () => {
    const n = 12;
    const re = Array.from({ length: n }, (_, i) => Math.sin(0.7 * i) + 0.1 * i);
    const X = rlx.fft.fft(rlx.tensor(re).on('native'));
    const got = X.toArray() as Float64Array; // interleaved re, im
    for (let k = 0; k < n; k++) {
      let sr = 0,
        si = 0;
      for (let j = 0; j < n; j++) {
        sr += re[j]! * Math.cos((-2 * Math.PI * j * k) / n);
        si += re[j]! * Math.sin((-2 * Math.PI * j * k) / n);
      }
      expect(Math.abs(got[2 * k]! - sr)).toBeLessThan(1e-12);
      expect(Math.abs(got[2 * k + 1]! - si)).toBeLessThan(1e-12);
    }
  });

  it("splu factors with KLU without UMFPACK (UMFPACK with it) and solves A x = b; an explicit UMFPACK option is a DeviceError without it", () => {
    const A = rlx.sparse.convectionDiffusion2d(8, { peclet: 10, wind: [1, 0.5] });
    const n = A.shape[0];
    const b = Float64Array.from({ length: n }, (_, i) => Math.cos(0.3 * i));
    const F = rlx.sparse.splu(A); // the default device: native
    expect(F.method).toBe(hasUmfpack() ? 'umfpack' : 'klu');
    if (EXPECT_NO_GPL) expect(F.method).toBe('klu');
    const x = F.solve(rlx.tensor(b)).toArray() as Float64Array;
    // The residual by the dense product on the js device (independent of both factorizations).
    const Ax = A.toDense().on('js').matmul(rlx.tensor(x).on('js')).toArray() as Float64Array;
    expect(Math.max(...Ax.map((v, i) => Math.abs(v - b[i]!)))).toBeLessThan(1e-12);
    if (EXPECT_NO_GPL) expect(() => rlx.sparse.splu(A, { ordering: 'amd' })).toThrow(/UMFPACK/);
    if (EXPECT_NO_GPL) expect(() => rlx.sparse.splu(A, { ordering: 'amd' })).toThrow(DeviceError);
  });
});
