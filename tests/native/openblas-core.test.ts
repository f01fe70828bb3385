// Which OpenBLAS kernel family the addon asks for (src/backends/native/openblas-core.ts):
// the pure rule on made-up CPU descriptions, the environment restored after
// loading, and, in child processes, what OpenBLAS then reports it runs on.

import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nativeAddon, nativeStatus } from '../../src/backends/native/addon.js';
import { chooseCoreType, parseCpuInfo, withCoreType } from '../../src/backends/native/openblas-core.js';
import { describeNative } from './native-harness.js';
import { runWithLoadEnv } from './load-env-child.js';

const cpuinfo = (vendor: string, flags: string) => `processor\t: 0\nvendor_id\t: ${vendor}\ncpu family\t: 26\nflags\t\t: ${flags}\n\nprocessor\t: 1\n`;
const AVX2 = 'fpu sse sse2 avx fma avx2';
const AVX512 = `${AVX2} avx512f avx512dq avx512cd avx512bw avx512vl`;

describe('chooseCoreType', () => {
  it('asks for SkylakeX kernels on an AMD CPU with every AVX-512 subset they use', () => {
    expect(chooseCoreType({}, cpuinfo('AuthenticAMD', AVX512)).coreType).toBe('SkylakeX');
  });
  it("leaves OpenBLAS's choice on AMD without AVX-512 (or with a subset missing) and on other vendors", () => {
    expect(chooseCoreType({}, cpuinfo('AuthenticAMD', AVX2)).coreType).toBeUndefined();
    const noVl = chooseCoreType({}, cpuinfo('AuthenticAMD', AVX512.replace(' avx512vl', '')));
    expect(noVl.coreType).toBeUndefined();
    expect(noVl.reason).toContain('avx512vl');
    expect(chooseCoreType({}, cpuinfo('GenuineIntel', AVX512)).coreType).toBeUndefined();
    expect(chooseCoreType({}, undefined).coreType).toBeUndefined();
    expect(chooseCoreType({}, 'garbage without fields').coreType).toBeUndefined();
  });
  it('respects OPENBLAS_CORETYPE from the environment, unless RLX_OPENBLAS_CORETYPE names one', () => {
    const amd = cpuinfo('AuthenticAMD', AVX512);
    const user = chooseCoreType({ OPENBLAS_CORETYPE: 'Haswell' }, amd);
    expect(user.coreType).toBeUndefined();
    expect(user.reason).toContain('OPENBLAS_CORETYPE=Haswell');
    expect(chooseCoreType({ OPENBLAS_CORETYPE: 'Haswell', RLX_OPENBLAS_CORETYPE: 'Zen' }, amd).coreType).toBe('Zen');
    expect(chooseCoreType({ OPENBLAS_CORETYPE: 'Haswell', RLX_OPENBLAS_CORETYPE: 'auto' }, amd).coreType).toBeUndefined();
    expect(chooseCoreType({ OPENBLAS_CORETYPE: '', RLX_OPENBLAS_CORETYPE: 'auto' }, amd).coreType).toBe('SkylakeX');
  });
  it('RLX_OPENBLAS_CORETYPE=off or 0 keeps OpenBLAS\'s own choice', () => {
    for (const off of ['off', '0']) expect(chooseCoreType({ RLX_OPENBLAS_CORETYPE: off }, cpuinfo('AuthenticAMD', AVX512)).coreType).toBeUndefined();
  });
});

describe('parseCpuInfo', () => {
  it('reads the first processor', () => {
    const c = parseCpuInfo(cpuinfo('AuthenticAMD', AVX2));
    expect(c?.vendor).toBe('AuthenticAMD');
    expect(c?.flags.has('avx2')).toBe(true);
    expect(c?.flags.has('avx512f')).toBe(false);
  });
});

describe('withCoreType', () => {
  it('sets OPENBLAS_CORETYPE only while loading and restores what was there, also when loading throws', () => {
    const saved = process.env['OPENBLAS_CORETYPE'];
    try {
      delete process.env['OPENBLAS_CORETYPE'];
      expect(withCoreType({ coreType: 'Zen', reason: '' }, () => process.env['OPENBLAS_CORETYPE'])).toBe('Zen');
      expect('OPENBLAS_CORETYPE' in process.env).toBe(false);
      process.env['OPENBLAS_CORETYPE'] = 'Haswell';
      expect(() =>
        withCoreType({ coreType: 'Zen', reason: '' }, () => {
          throw new Error('load failed');
        }),
      ).toThrow('load failed');
      expect(process.env['OPENBLAS_CORETYPE']).toBe('Haswell');
      expect(withCoreType({ reason: 'nothing' }, () => process.env['OPENBLAS_CORETYPE'])).toBe('Haswell');
    } finally {
      if (saved === undefined) delete process.env['OPENBLAS_CORETYPE'];
      else process.env['OPENBLAS_CORETYPE'] = saved;
    }
  });
});

const nodeFile = () => nativeStatus().path!;

/**
 * In a fresh process with `env`: the choice (openblas-core.ts), the addon
 * loaded under it, then OpenBLAS's corename and what is left in OPENBLAS_CORETYPE.
 */
function coreInChild(env: Record<string, string | undefined>) {
  return runWithLoadEnv<{ core: string; why: string; after: string | null }>(
    ['openblas-core', 'load-env'],
    env,
    (m) => `import { createRequire } from 'node:module';
      const m = await import(${JSON.stringify(m)});
      const choice = m.coreTypeForThisMachine();
      const addon = m.withCoreType(choice, () => createRequire(import.meta.url)(${JSON.stringify(nodeFile())}));
      console.log(JSON.stringify({ core: addon.blasInfo().corename, why: choice.reason, after: process.env.OPENBLAS_CORETYPE ?? null }));`,
  );
}

const cpuText = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'latin1') : undefined;
const flags = (cpuText && parseCpuInfo(cpuText)?.flags) || new Set<string>();

describeNative('OpenBLAS core type of the loaded addon', () => {
  it('this process: the status says why, and OpenBLAS runs what was chosen', () => {
    const choice = chooseCoreType(process.env, cpuText);
    expect(nativeStatus().blasCoreChoice).toBe(choice.reason);
    const core = nativeAddon()!.blasInfo().corename.toLowerCase();
    if (choice.coreType) expect(core).toBe(choice.coreType.toLowerCase());
    else if (process.env['OPENBLAS_CORETYPE']) expect(core).toBe(process.env['OPENBLAS_CORETYPE'].toLowerCase());
  });
  it.runIf(flags.has('avx2') && flags.has('fma'))('RLX_OPENBLAS_CORETYPE forces the core type and leaves no variable behind', () => {
    const r = coreInChild({ RLX_OPENBLAS_CORETYPE: 'Haswell', OPENBLAS_CORETYPE: undefined });
    expect(r.core.toLowerCase()).toBe('haswell');
    expect(r.why).toBe('RLX_OPENBLAS_CORETYPE=Haswell');
    expect(r.after).toBeNull();
  });
  // SSE3, which Prescott kernels need, is 'pni' in /proc/cpuinfo.
  it.runIf(flags.has('pni'))("a user's OPENBLAS_CORETYPE reaches OpenBLAS untouched", () => {
    const r = coreInChild({ RLX_OPENBLAS_CORETYPE: undefined, OPENBLAS_CORETYPE: 'Prescott' });
    expect(r.core.toLowerCase()).toBe('prescott');
    expect(r.after).toBe('Prescott');
  });
  it('with nothing set, OpenBLAS runs what the rule chose for this CPU', () => {
    const r = coreInChild({ RLX_OPENBLAS_CORETYPE: undefined, OPENBLAS_CORETYPE: undefined });
    const choice = chooseCoreType({}, cpuText);
    if (choice.coreType) expect(r.core.toLowerCase()).toBe(choice.coreType.toLowerCase());
    expect(r.why).toBe(choice.reason);
    expect(r.after).toBeNull();
  });
});
