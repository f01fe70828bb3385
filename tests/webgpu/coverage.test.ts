// What the webgpu backend serves, checked against the IR's full list of
// primitives and registered ops, so a new primitive, rule or op cannot be
// silently missing from webgpu or from its tests: every primitive is either
// served (and then exercised by a test of tests/webgpu/ against js or an
// independent reference) or listed below with the reason it is not.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../src/index.js'; // registers every module's ops
import { UNARY_OPS, BINARY_OPS, REDUCE_OPS, MOVEMENT_OPS, OPAQUE_OPS, COMPOSITE_OPS, CONTROL_OPS } from '../../src/compiler/primitives.js';
import { JS_RULES } from '../../src/backends/js/scalar-rules.js';
import { hasWgslRule } from '../../src/backends/webgpu/wgsl-expr.js';
import { gpuOps } from '../../src/backends/webgpu/registered.js';
import { registeredOps } from '../../src/compiler/op-registry.js';

/** Primitives webgpu does not run, and why (the LegalizationError users get names the same reason). */
const NOT_SERVED: Record<string, string> = {
  complex: 'its result is complex: WGSL has no complex type',
};

const here = join(process.cwd(), 'tests/webgpu');
const testText = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'coverage.test.ts')
  .map((f) => readFileSync(join(here, f), 'utf8'))
  .join('\n');
/** Whether some webgpu test calls the op (method or function spelling) or names it in quotes. */
const exercised = (op: string) => new RegExp(`[.'"\`]${op}[('"\`]`).test(testText);

/** The dtype of each JS_RULES slot. */
const SLOT_DTYPE = { f: 'float32', i: 'int32', b: 'bool' } as const;

describe('webgpu coverage of the IR', () => {
  it('every elementwise rule js has for float32, int32 and bool has a WGSL rule (or a reason), and is tested', () => {
    const missing: string[] = [];
    const untested: string[] = [];
    for (const [op, rule] of Object.entries(JS_RULES)) {
      for (const slot of ['f', 'i', 'b'] as const) {
        if (rule[slot] === undefined || op in NOT_SERVED) continue;
        if (!hasWgslRule(op, SLOT_DTYPE[slot])) missing.push(`${op}(${SLOT_DTYPE[slot]})`);
      }
      if (!(op in NOT_SERVED) && !exercised(op)) untested.push(op);
    }
    for (const op of ['cast', 'where']) if (!exercised(op)) untested.push(op);
    expect(missing, 'elementwise rules js has and webgpu lacks').toEqual([]);
    expect(untested, 'served elementwise ops no webgpu test calls').toEqual([]);
  });

  it('every other primitive is served and tested, or listed with its reason', () => {
    const all = [...UNARY_OPS, ...BINARY_OPS, 'where', ...REDUCE_OPS, ...MOVEMENT_OPS, ...OPAQUE_OPS, ...COMPOSITE_OPS, ...CONTROL_OPS];
    // Spellings of the primitives in the public API where they differ (concat is cat; views are reshape/transpose/...).
    const spelled: Record<string, string> = { concat: 'rlx.cat(', permute: '.transpose(', expand: '.broadcastTo(', registered: 'random.split(', part: 'splat.render(', custom: 'rlx.customVjp(', while: 'rlx.whileLoop(', cond: 'rlx.cond(' };
    const untested = all.filter((op) => !(op in NOT_SERVED) && !(spelled[op] !== undefined ? testText.includes(spelled[op]) : exercised(op)));
    expect(untested, 'primitives served on webgpu that no webgpu test exercises').toEqual([]);
  });

  it('registered ops: the webgpu runners are the random and splat ops; the others are refused with a reason', () => {
    const served = gpuOps().sort();
    expect(served).toEqual(
      ['random.bernoulli', 'random.foldIn', 'random.normal', 'random.randint', 'random.split', 'random.uniform', 'splat.project', 'splat.projectBackward', 'splat.rasterize', 'splat.rasterizeBackward'].sort(),
    );
    for (const op of served) expect(registeredOps()).toContain(op); // names that exist in the op registry
    // Every other registered op (linalg, sparse, fft, ...) is a LegalizationError on webgpu: tests/webgpu/backend.test.ts.
    expect(registeredOps().length).toBeGreaterThan(served.length);
  });
});
