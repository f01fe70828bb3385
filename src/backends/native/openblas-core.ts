// Which OpenBLAS kernel family ("core type") the native addon runs on.
//
// OpenBLAS built with DYNAMIC_ARCH (Debian's libopenblas0) picks its kernels
// from the CPU model when the library loads. Debian 12's OpenBLAS 0.3.21 does
// not know AMD's AVX-512 parts (Zen 4, Zen 5): it runs them on its AVX2
// "Haswell" kernels, half the vector width the hardware has. Measured on a
// Zen 5 EPYC (one thread, 512x512, Debian NumPy over the same library):
// sgemm 2.15 ms with Haswell kernels, 1.14-1.69 ms with SkylakeX kernels;
// dgemm 5.9-6.9 ms vs 3.9-4.2 ms. The SkylakeX kernels use AVX-512 F, CD,
// BW, DQ and VL, all of which those CPUs have, so on such a CPU rlx asks
// OpenBLAS for them through its documented OPENBLAS_CORETYPE variable, set
// only while the addon (and with it libopenblas) loads: the variable is not
// left in the environment, so child processes see the environment the user
// gave.
//
// Order: RLX_OPENBLAS_CORETYPE=off (or 0) keeps OpenBLAS's own choice;
// RLX_OPENBLAS_CORETYPE=<name> forces that core type (as OPENBLAS_CORETYPE
// would: a kernel family the CPU cannot execute dies with SIGILL, so this is
// for people who know their CPU); otherwise OPENBLAS_CORETYPE in the
// environment is left to OpenBLAS; otherwise the rule above. blasInfo().corename
// says what OpenBLAS runs on; nativeStatus().blasCoreChoice says why.

import { readFileSync } from 'node:fs';
import { withEnvVar } from './load-env.js';

/** The extensions OpenBLAS's SkylakeX kernels execute. */
const SKYLAKEX_FLAGS = ['avx512f', 'avx512cd', 'avx512bw', 'avx512dq', 'avx512vl'] as const;

export interface CoreTypeChoice {
  /** The value rlx sets for OPENBLAS_CORETYPE while the addon loads; undefined: it sets nothing. */
  coreType?: string;
  /** Why (for status output). */
  reason: string;
}

/** The first processor's vendor and flags in /proc/cpuinfo text, or undefined if the text has none. */
export function parseCpuInfo(text: string): { vendor: string; flags: Set<string> } | undefined {
  const vendor = /^vendor_id\s*:\s*(\S+)/m.exec(text)?.[1];
  const flags = /^flags\s*:\s*(.*)$/m.exec(text)?.[1];
  if (vendor === undefined || flags === undefined) return undefined;
  return { vendor, flags: new Set(flags.trim().split(/\s+/)) };
}

/**
 * The core type to ask OpenBLAS for, from the environment and the CPU
 * description (/proc/cpuinfo text; undefined where there is none). Pure, so
 * every branch is testable.
 */
export function chooseCoreType(env: Readonly<Record<string, string | undefined>>, cpuinfo: string | undefined): CoreTypeChoice {
  const mode = env['RLX_OPENBLAS_CORETYPE'];
  if (mode === 'off' || mode === '0') return { reason: `RLX_OPENBLAS_CORETYPE=${mode}: OpenBLAS's own choice` };
  if (mode !== undefined && mode !== '' && mode !== 'auto') return { coreType: mode, reason: `RLX_OPENBLAS_CORETYPE=${mode}` };
  const user = env['OPENBLAS_CORETYPE'];
  if (user !== undefined && user !== '') return { reason: `OPENBLAS_CORETYPE=${user} set in the environment` };
  const cpu = cpuinfo === undefined ? undefined : parseCpuInfo(cpuinfo);
  if (cpu === undefined) return { reason: "no CPU description (/proc/cpuinfo): OpenBLAS's own choice" };
  if (cpu.vendor !== 'AuthenticAMD') return { reason: `${cpu.vendor}: OpenBLAS's own choice` };
  const missing = SKYLAKEX_FLAGS.filter((f) => !cpu.flags.has(f));
  if (missing.length > 0) return { reason: `AMD CPU without ${missing.join(', ')}: OpenBLAS's own choice` };
  return { coreType: 'SkylakeX', reason: "AMD CPU with AVX-512 F, CD, BW, DQ, VL: SkylakeX kernels (RLX_OPENBLAS_CORETYPE=off keeps OpenBLAS's choice)" };
}

/** The choice for this process (reads /proc/cpuinfo where it exists). */
export function coreTypeForThisMachine(): CoreTypeChoice {
  let cpuinfo: string | undefined;
  try {
    cpuinfo = readFileSync('/proc/cpuinfo', 'latin1');
  } catch {
    cpuinfo = undefined;
  }
  return chooseCoreType(process.env, cpuinfo);
}

/**
 * Runs `load` (which loads libopenblas) with OPENBLAS_CORETYPE set as chosen,
 * then restores the environment. OpenBLAS reads the variable once, when the
 * library initialises; if it was already loaded in this process, nothing changes.
 */
export function withCoreType<T>(choice: CoreTypeChoice, load: () => T): T {
  return withEnvVar('OPENBLAS_CORETYPE', choice.coreType, load);
}
