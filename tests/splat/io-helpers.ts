// Shared by the splat file-format tests: the golden files made by NumPy
// (tests/splat/golden/gen_io.py), a Gaussians builder from plain arrays and
// a seeded generator of random Gaussians.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tensor } from '../../src/tensor/create.js';
import type { Gaussians } from '../../src/splat/types.js';

export const GOLDEN = path.join(import.meta.dirname, 'golden', 'io');
export const goldenBytes = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(GOLDEN, name)));
export const golden = JSON.parse(readFileSync(path.join(GOLDEN, 'io.json'), 'utf8')) as Record<string, any>;

export const flat = (x: unknown): number[] => (Array.isArray(x) ? x.flatMap(flat) : [x as number]);

/** The tests' seeded generator (tests/harness/prng.ts). */
import { mulberry32 as rng } from '../harness/prng.js';
export { rng };

/** n random Gaussians (activated: scales in (0.01, 1), opacities in (0.01, 0.99)), colors or sh of K coefficients. */
export function randomGaussians(n: number, opts: { k?: number; dtype?: 'float32' | 'float64'; seed?: number } = {}): Gaussians {
  const r = rng(opts.seed ?? 1), dtype = opts.dtype ?? 'float32';
  const arr = (len: number, f: () => number) => Float64Array.from({ length: len }, f);
  const t = (a: Float64Array, shape: number[]) => tensor(dtype === 'float32' ? Float32Array.from(a) : a, { dtype, shape });
  const g: Gaussians = {
    means: t(arr(3 * n, () => 4 * r() - 2), [n, 3]),
    quats: t(arr(4 * n, () => 2 * r() - 1), [n, 4]),
    scales: t(arr(3 * n, () => Math.exp(-4.6 * r())), [n, 3]),
    opacities: t(arr(n, () => 0.01 + 0.98 * r()), [n]),
  };
  if (opts.k === undefined) g.colors = t(arr(3 * n, () => r()), [n, 3]);
  else g.sh = t(arr(3 * n * opts.k, () => 2 * r() - 1), [n, opts.k, 3]);
  return g;
}

/** Largest |a − b| / (atol + rtol·|b|) over two flat arrays (≤ 1 means allclose). */
export function worst(a: ArrayLike<number>, b: ArrayLike<number>, rtol: number, atol = 0): number {
  if (a.length !== b.length) throw new Error(`length ${a.length} vs ${b.length}`);
  let w = 0;
  for (let i = 0; i < a.length; i++) w = Math.max(w, Math.abs(a[i]! - b[i]!) / (atol + rtol * Math.abs(b[i]!)));
  return w;
}
