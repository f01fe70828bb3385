// What the public-function golden tests (api.test.ts: tests/golden/fft/api_gen.py;
// api-nd.test.ts: nd_gen.py) share: a golden case as the generators write it,
// calling the named rlx.fft function with the case's NumPy arguments, and the
// comparison relative to the golden's largest magnitude.

import { expect } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';

export interface ApiCase {
  fn: string;
  kind: 'real' | 'complex';
  shape: number[];
  kwargs: { n?: number; axis?: number; s?: number[]; axes?: number[]; norm?: 'backward' | 'ortho' | 'forward' | null };
  outShape: number[];
  complex: boolean;
  out: number[];
}

type Fn = (x: Tensor, a?: unknown, b?: unknown, norm?: unknown) => Tensor;

/** rlx.fft[c.fn] applied to x with the case's arguments: (n, axis, norm) for the 1-D forms, (s, axes, norm) otherwise. */
export function callCase(c: ApiCase, x: Tensor): Tensor {
  const f = (rlx.fft as unknown as Record<string, Fn>)[c.fn]!;
  const k = c.kwargs;
  const norm = k.norm ?? undefined;
  if (['fft', 'ifft', 'rfft', 'irfft'].includes(c.fn)) return f(x, k.n, k.axis ?? -1, norm);
  return f(x, k.s, k.axes, norm);
}

/** max |got − want| relative to max |want| below rtol. */
export function expectClose(got: ArrayLike<number>, want: readonly number[], rtol: number, what: string): void {
  expect(got.length, what).toBe(want.length);
  let scale = 0;
  for (const v of want) scale = Math.max(scale, Math.abs(v));
  let err = 0;
  for (let i = 0; i < want.length; i++) err = Math.max(err, Math.abs(got[i]! - want[i]!));
  expect(err / Math.max(scale, 1e-300), what).toBeLessThan(rtol);
}
