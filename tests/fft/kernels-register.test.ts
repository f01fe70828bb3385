// The fft kernel family's registrations (src/fft/kernels/register.ts): the js
// kernels on 'js'; on 'native', exactly when that device exists, the FFTW
// kernels when the addon was built with FFTW, else the same js kernels.

import { describe, expect, it } from 'vitest';
import { deviceNames } from '../../src/backends/registry.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { kernelDevices, kernelsFor, kernelsOn } from '../../src/compiler/kernel-registry.js';
import { FFT_KERNELS } from '../../src/fft/kernels/family.js';
import { jsFftKernels } from '../../src/fft/kernels/js/index.js';
import { hasNativeFft, nativeFftStatus } from '../../src/fft/kernels/native.js';
import '../../src/fft/kernels/register.js';

describe('fft kernel registration', () => {
  it("registers the js kernels on 'js'", () => {
    expect(FFT_KERNELS.name).toBe('fft');
    expect(kernelsFor('js', FFT_KERNELS)).toBe(jsFftKernels);
  });

  it("registers a set on 'native' exactly when the native device is available", () => {
    const native = deviceNames().includes('native');
    expect(kernelsOn('native', FFT_KERNELS) !== undefined).toBe(native);
    expect(kernelDevices(FFT_KERNELS).sort()).toEqual(native ? ['js', 'native'] : ['js']);
  });

  it("on 'native': the FFTW set (with Async twins) when the addon has FFTW, else the js kernels; nativeFftStatus says which", () => {
    if (!deviceNames().includes('native')) return;
    const set = kernelsOn('native', FFT_KERNELS) as unknown as Record<string, unknown>;
    const fftw = hasNativeFft(nativeAddon());
    // blasInfo().fftw3 is the addon's own record of linking FFTW (RLX_HAVE_FFTW3).
    expect(fftw).toBe(nativeAddon()!.blasInfo().fftw3);
    expect(nativeFftStatus().kernels).toBe(fftw ? 'fftw' : 'js');
    if (fftw) {
      expect(set).not.toBe(jsFftKernels);
      for (const m of ['c2c', 'r2c', 'c2r', 'c2cAsync', 'r2cAsync', 'c2rAsync']) expect(typeof set[m], m).toBe('function');
    } else expect(set).toBe(jsFftKernels);
  });

  it('without FFTW exports (an addon built with RLX_NO_FFTW=1) hasNativeFft is false', () => {
    const addon = nativeAddon();
    if (addon === undefined) return;
    const without = Object.fromEntries(Object.entries(addon).filter(([k]) => !k.startsWith('fft')));
    expect(hasNativeFft(without as typeof addon)).toBe(false);
    expect(hasNativeFft(undefined)).toBe(false);
  });
});
