// A conjugate transpose (or any conj over views) feeding a matmul is read by the
// matmul with a conj flag: one kernel, no conjugated copy; values equal the
// product of the materialized conjugate, on every device, batched and in
// complex64 too.

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';

const quiet = { print: false };

function randomComplex(shape: number[], seed: number, dtype: 'complex64' | 'complex128') {
  const n = shape.reduce((a, b) => a * b, 1);
  let s = seed;
  const r = () => ((s = (s * 1103515245 + 12345) % 2 ** 31), s / 2 ** 31 - 0.5);
  const re = rlx.tensor(Float64Array.from({ length: n }, r)).reshape(shape);
  const im = rlx.tensor(Float64Array.from({ length: n }, r)).reshape(shape);
  return rlx.complex(re, im).astype(dtype);
}

describe.each(DEVICES)('conj folded into matmul on %s', (device) => {
  for (const dtype of ['complex128', 'complex64'] as const) {
    it(`${dtype}: aᴴ b, conj(a)ᵀ conj(b), a conj(b), batched: one kernel, same values as the materialized conjugate`, () => {
      const a = randomComplex([3, 4, 5], 1, dtype).on(device).realize();
      const b = randomComplex([3, 4, 6], 2, dtype).on(device).realize();
      const c = randomComplex([3, 5, 6], 3, dtype).on(device).realize();
      const cases: [rlx.Tensor, rlx.Tensor][] = [
        [a.swapaxes(1, 2).conj().matmul(b), a.swapaxes(1, 2).conj().add(0).matmul(b)],
        [a.conj().swapaxes(1, 2).matmul(b.conj()), a.conj().swapaxes(1, 2).add(0).matmul(b.conj().add(0))],
        [a.matmul(c.conj()), a.matmul(c.conj().add(0))],
      ];
      for (const [folded, reference] of cases) {
        const plan = rlx.explain(folded, quiet);
        expect(plan.kernels.length).toBe(1);
        expect(plan.kernels[0]!.kind).toBe('matmul');
        expect(rlx.explain(reference, quiet).kernels.length).toBeGreaterThan(1);
        const x = folded.toArray() as Float64Array,
          y = reference.toArray() as Float64Array;
        // Same products in the same order except where the reference's GEMM reads a copy: exact in f64 up to BLAS blocking.
        const tol = dtype === 'complex64' ? 1e-5 : 1e-13;
        for (let i = 0; i < x.length; i++) expect(Math.abs(x[i]! - y[i]!)).toBeLessThan(tol);
      }
    });
  }
  it('a conj view with another (non-matmul) use is materialized once and still correct', () => {
    const a = randomComplex([4, 4], 5, 'complex128').on(device).realize();
    const h = a.T.conj();
    const out = h.matmul(a).add(h.abs());
    const ref = a.T.conj().add(0).matmul(a).add(a.T.conj().add(0).abs());
    const x = out.toArray() as Float64Array,
      y = ref.toArray() as Float64Array;
    for (let i = 0; i < x.length; i++) expect(Math.abs(x[i]! - y[i]!)).toBeLessThan(1e-13);
  });
});
