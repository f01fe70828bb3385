// Shared pieces of the block interpreter's tests (tests/native/interp*.test.ts):
// finding the interpreter, a test device 'interp' that runs every elementwise
// and reduce kernel on it (matmul and whole-op kernels stay on js), and
// comparisons with per-category tolerances.
//
// Where the interpreter is looked for: $RLX_INTERP_ADDON (a .node file that
// exports interpRun, e.g. a standalone build of native/src/interp), else the
// native addon (src/backends/native/addon.ts) once its Init calls
// RegisterInterp. Without one the tests are skipped, unless
// RLX_REQUIRE_NATIVE=1, where that is a failure.

import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeAddon, nativeStatus } from '../../src/backends/native/addon.js';
import { interpretedKernel, type InterpAddon } from '../../src/backends/native/program.js';
import { jsBackend } from '../../src/backends/js/index.js';
import { registerBackend } from '../../src/backends/registry.js';
import type { Backend } from '../../src/backends/backend.js';
import type { ElementwiseKernel } from '../../src/compiler/kernel.js';
export { mulberry32 as rng } from '../harness/prng.js';

function load(): { addon?: InterpAddon; reason: string } {
  const override = process.env['RLX_INTERP_ADDON'];
  if (override) {
    try {
      const m = createRequire(import.meta.url)(resolve(override)) as Partial<InterpAddon>;
      if (typeof m.interpRun === 'function') return { addon: m as InterpAddon, reason: '' };
      return { reason: `RLX_INTERP_ADDON=${override} does not export interpRun` };
    } catch (e) {
      return { reason: `RLX_INTERP_ADDON=${override} failed to load: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` };
    }
  }
  const main = nativeAddon() as unknown as Partial<InterpAddon> | undefined;
  if (main && typeof main.interpRun === 'function') return { addon: main as InterpAddon, reason: '' };
  return { reason: main ? 'the native addon does not export interpRun yet (its Init does not call RegisterInterp)' : `native addon ${nativeStatus().reason}` };
}

const LOADED = load();
export const INTERP: InterpAddon | undefined = LOADED.addon;
export const REQUIRE_NATIVE = process.env['RLX_REQUIRE_NATIVE'] === '1';

/** describe() when the interpreter is there; else skipped (or a failure under RLX_REQUIRE_NATIVE=1). */
export function describeInterp(name: string, body: (addon: InterpAddon) => void): void {
  if (INTERP) describe(name, () => body(INTERP));
  else if (REQUIRE_NATIVE) {
    describe(name, () => {
      it('needs the interpreter (RLX_REQUIRE_NATIVE=1)', () => {
        throw new Error(`RLX_REQUIRE_NATIVE=1 but the block interpreter is not available: ${LOADED.reason}`);
      });
    });
  } else describe.skip(`${name} [skipped: ${LOADED.reason}]`, () => body(undefined as unknown as InterpAddon));
}

/** The js backend with elementwise and reduce kernels running on the interpreter. */
export function interpBackend(addon: InterpAddon, name = 'interp'): Backend {
  return {
    name,
    dispatch: jsBackend.dispatch,
    alloc: jsBackend.alloc,
    compileKernel(k, slotShapes) {
      if (k.kind === 'elementwise' || k.kind === 'reduce') return interpretedKernel(addon, k, slotShapes);
      return jsBackend.compileKernel(k, slotShapes);
    },
  };
}

let registered = false;
/** Registers the 'interp' test device once per test file. */
export function useInterpDevice(addon: InterpAddon): string {
  if (!registered) registerBackend(interpBackend(addon));
  registered = true;
  return 'interp';
}

export interface Tol {
  /** Relative tolerance (to the modulus for complex values). 0: bit-exact (Object.is, NaN = NaN). */
  rtol: number;
  atol?: number;
}
export const EXACT: Tol = { rtol: 0 };

/** Why got[i] and want[i] differ beyond tol, or '' (complex: pairs (re, im) compared against |want|). */
function differs(got: ArrayLike<number>, want: ArrayLike<number>, i: number, tol: Tol, cplx: boolean): string {
  const g = got[i]!,
    w = want[i]!;
  if (Object.is(g, w) || (g !== g && w !== w)) return '';
  if (tol.rtol === 0 && !tol.atol) return 'not bit-identical';
  if (!Number.isFinite(g) || !Number.isFinite(w)) return 'non-finite mismatch';
  const scale = cplx ? Math.hypot(want[i & ~1]!, want[i | 1]!) : Math.abs(w);
  const err = Math.abs(g - w);
  return err <= tol.rtol * scale + (tol.atol ?? 0) ? '' : `|diff| ${err.toExponential(2)} > ${tol.rtol} x ${scale.toExponential(2)}${tol.atol ? ` + ${tol.atol}` : ''}`;
}

const fmt = (v: number): string => (Object.is(v, -0) ? '-0' : String(v));

/** Asserts got matches want under tol; the message shows the first few mismatches with their inputs. */
export function expectMatch(got: ArrayLike<number>, want: ArrayLike<number>, tol: Tol, what: string, cplx = false, input?: (i: number) => string): void {
  expect(got.length, `${what}: length`).toBe(want.length);
  const bad: string[] = [];
  for (let i = 0; i < want.length && bad.length < 5; i++) {
    const why = differs(got, want, i, tol, cplx);
    if (why) bad.push(`[${i}] got ${fmt(got[i]!)} want ${fmt(want[i]!)}${input ? ` (input ${input(cplx ? i >> 1 : i)})` : ''}: ${why}`);
  }
  if (bad.length) expect.fail(`${what}: ${bad.join('; ')}`);
}

/** Largest |got - want| in units of the last place of want (finite pairs only), for reports. */
export function maxUlps(got: ArrayLike<number>, want: ArrayLike<number>, f32: boolean): number {
  let m = 0;
  for (let i = 0; i < want.length; i++) {
    const g = got[i]!,
      w = want[i]!;
    if (!Number.isFinite(g) || !Number.isFinite(w) || g === w) continue;
    const ulp = Math.max(Math.abs(w) * (f32 ? 2 ** -23 : 2 ** -52), f32 ? 2 ** -149 : 2 ** -1074);
    m = Math.max(m, Math.abs(g - w) / ulp);
  }
  return m;
}

/**
 * out[i] = (a[i] + b[i]) * 2 over n float64 elements (slots a = 0, b = 1, out =
 * 2): the smallest kernel with two loads and a literal, which the interpreter
 * tests break argument by argument. `param`: the literal is per-run constant 0.
 */
export function addTimesTwo(n: number, param?: number): ElementwiseKernel {
  return {
    kind: 'elementwise',
    out: 2,
    outDType: 'float64',
    outShape: [n],
    fused: ['add', 'mul'],
    expr: {
      loads: [
        { slot: 0, dtype: 'float64', chain: [] },
        { slot: 1, dtype: 'float64', chain: [] },
      ],
      instrs: [
        { op: 'load', load: 0, dtype: 'float64' },
        { op: 'load', load: 1, dtype: 'float64' },
        { op: 'add', args: [0, 1], dtype: 'float64', attrs: {} },
        param === undefined ? { op: 'const', value: 2, dtype: 'float64' } : { op: 'const', value: 2, dtype: 'float64', param },
        { op: 'mul', args: [2, 3], dtype: 'float64', attrs: {} },
      ],
    },
  };
}
