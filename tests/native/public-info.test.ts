// nativeStatus() and blasInfo() from the package root (issue 14 §5): the
// status says whether the addon is loaded; blasInfo() describes the BLAS when it
// is, and is a DeviceError naming the reason when it is not (never a TypeError
// from reading a method of undefined).

import { describe, expect, it, vi } from 'vitest';
import * as rlx from '../../src/index.js';
import { describeNative } from './native-harness.js';

describe('nativeStatus / blasInfo exports', () => {
  it('are functions of the package root', () => {
    expect(typeof rlx.nativeStatus).toBe('function');
    expect(typeof rlx.blasInfo).toBe('function');
    const s = rlx.nativeStatus();
    expect(typeof s.available).toBe('boolean');
    if (!s.available) expect(s.reason).toMatch(/\S/);
  });

  it('blasInfo without the addon: DeviceError with the reason', async () => {
    const saved = process.env['RLX_NATIVE_PATH'];
    process.env['RLX_NATIVE_PATH'] = '/nonexistent/rlx_native.node';
    vi.resetModules();
    try {
      const fresh = await import('../../src/backends/native/info.js');
      const errors = await import('../../src/tensor/errors.js');
      expect(fresh.nativeStatus().available).toBe(false);
      expect(() => fresh.blasInfo()).toThrow(errors.DeviceError);
      expect(() => fresh.blasInfo()).toThrow(/blasInfo: the native addon is not available \(RLX_NATIVE_PATH=\/nonexistent\/rlx_native\.node: no such file\)/);
    } finally {
      if (saved === undefined) delete process.env['RLX_NATIVE_PATH'];
      else process.env['RLX_NATIVE_PATH'] = saved;
      vi.resetModules();
    }
  });
});

describeNative('blasInfo with the addon', () => {
  it('describes the linked BLAS and the threads setNumThreads applied', () => {
    const info = rlx.blasInfo();
    expect(info.vendor).toMatch(/\S/);
    expect(typeof info.config).toBe('string');
    expect(info.corename).toMatch(/\S/);
    expect(['sequential', 'pthreads', 'openmp', 'unknown']).toContain(info.parallel);
    const before = rlx.numThreads();
    try {
      rlx.setNumThreads(1);
      expect(rlx.blasInfo().threads).toBe(1);
    } finally {
      rlx.setNumThreads(before);
    }
    expect(rlx.nativeStatus().available).toBe(true);
  });
});
