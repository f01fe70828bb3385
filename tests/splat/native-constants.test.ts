// native/src/splat/splat_constants.h repeats src/splat/constants.ts (C++
// cannot import it): every constant of the header is read here and compared
// with the TS value, and every TS constant the kernels use must be in the
// header, so the two cannot drift apart. Needs no addon.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import * as C from '../../src/splat/constants.js';

const header = readFileSync(join(__dirname, '../../native/src/splat/splat_constants.h'), 'utf8');

/** name → value(s) of every `constexpr <type> NAME[...] = value | {a, b, ...};` in the header. */
function parseHeader(): Map<string, number | number[]> {
  const out = new Map<string, number | number[]>();
  const re = /constexpr\s+\w+\s+(\w+)(\[\d*\])?\s*=\s*(\{[^}]*\}|[^;]+);/g;
  for (const m of header.matchAll(re)) {
    const [, name, , value] = m;
    // Values are numeric literals or a quotient of two (1.0 / 255.0).
    const num = (s: string) => s.split('/').map((t) => Number(t.trim())).reduce((x, y) => x / y);
    out.set(name!, value!.startsWith('{') ? value!.slice(1, -1).split(',').map(num) : num(value!));
  }
  return out;
}

const KERNEL_CONSTANTS = ['COV2D_BLUR', 'CLAMP_MARGIN', 'RADIUS_SIGMAS', 'EIGEN_FLOOR', 'ALPHA_MAX', 'ALPHA_MIN', 'T_STOP', 'PIXEL_CENTER', 'SH_OFFSET', 'MAX_SH_DEGREE', 'SH_C0', 'SH_C1', 'SH_C2', 'SH_C3'] as const;

it('splat_constants.h has every kernel constant of constants.ts, with the same value', () => {
  const h = parseHeader();
  for (const name of KERNEL_CONSTANTS) {
    expect(h.has(name), `${name} missing from splat_constants.h`).toBe(true);
    const want = C[name] as number | readonly number[];
    expect(h.get(name), name).toEqual(typeof want === 'number' ? want : [...want]);
  }
  // And nothing in the header that constants.ts does not have.
  for (const name of h.keys()) expect(KERNEL_CONSTANTS as readonly string[], `${name} is not a constants.ts constant`).toContain(name);
});
