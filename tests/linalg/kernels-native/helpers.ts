// Small dense complex matrix algebra in float64 for checking the native linalg
// kernels (every matrix is complex here; real dtypes have im = 0), plus
// storage conversion, seeded random matrices and the skip/require switch.

import { describe } from 'vitest';
import { nativeAddon, nativeStatus } from '../../../src/backends/native/addon.js';
import { nativeLinalgKernels } from '../../../src/linalg/kernels/native.js';
import type { FloatArray, LinalgDType, LinalgKernels } from '../../../src/linalg/kernels/contract.js';
import { mulberry32 } from '../../harness/prng.js';

export const DTYPES: readonly LinalgDType[] = ['float32', 'float64', 'complex64', 'complex128'];
export const isComplex = (d: LinalgDType) => d === 'complex64' || d === 'complex128';
export const storageOf = (d: LinalgDType) => (d === 'float32' || d === 'complex64' ? Float32Array : Float64Array);
/** Relative residual tolerance: float32 storage has eps ≈ 6e-8, float64 ≈ 1.1e-16; the test matrices are small (n ≤ 6) and well conditioned (cond < 100). */
export const tol = (d: LinalgDType) => (d === 'float32' || d === 'complex64' ? 2e-5 : 1e-13);

const status = nativeStatus();
const required = process.env['RLX_REQUIRE_NATIVE'] === '1';
/** Run the suite when the addon loaded, or when RLX_REQUIRE_NATIVE=1 (then a missing addon fails). */
export const describeNative = (name: string, fn: () => void) => describe.skipIf(!status.available && !required)(name, fn);
export const nativeReason = () => status.reason;
export const nativeAvailable = () => status.available;
let kernels: LinalgKernels | undefined;
/** The kernels under test (throws when the addon is missing, which fails the test under RLX_REQUIRE_NATIVE=1). */
export function K(): LinalgKernels {
  if (!kernels) {
    const a = nativeAddon();
    if (!a) throw new Error(`native addon not loaded: ${status.reason}`);
    kernels = nativeLinalgKernels(a);
  }
  return kernels;
}

export interface M {
  m: number;
  n: number;
  re: Float64Array;
  im: Float64Array;
}

export const zeros = (m: number, n: number): M => ({ m, n, re: new Float64Array(m * n), im: new Float64Array(m * n) });
export function eye(n: number, m = n): M {
  const r = zeros(n, m);
  for (let i = 0; i < Math.min(n, m); i++) r.re[i * m + i] = 1;
  return r;
}
export const at = (a: M, i: number, j: number): [number, number] => [a.re[i * a.n + j]!, a.im[i * a.n + j]!];
export function set(a: M, i: number, j: number, re: number, im = 0): void {
  a.re[i * a.n + j] = re;
  a.im[i * a.n + j] = im;
}

export function mul(a: M, b: M): M {
  if (a.n !== b.m) throw new Error(`mul: ${a.m}x${a.n} @ ${b.m}x${b.n}`);
  const c = zeros(a.m, b.n);
  for (let i = 0; i < a.m; i++)
    for (let k = 0; k < a.n; k++) {
      const ar = a.re[i * a.n + k]!,
        ai = a.im[i * a.n + k]!;
      for (let j = 0; j < b.n; j++) {
        const br = b.re[k * b.n + j]!,
          bi = b.im[k * b.n + j]!;
        c.re[i * b.n + j]! += ar * br - ai * bi;
        c.im[i * b.n + j]! += ar * bi + ai * br;
      }
    }
  return c;
}

/** aᵀ, or aᴴ when conj. */
export function tr(a: M, conj = true): M {
  const t = zeros(a.n, a.m);
  for (let i = 0; i < a.m; i++)
    for (let j = 0; j < a.n; j++) {
      t.re[j * a.m + i] = a.re[i * a.n + j]!;
      t.im[j * a.m + i] = conj ? -a.im[i * a.n + j]! : a.im[i * a.n + j]!;
    }
  return t;
}
export const ct = (a: M) => tr(a, true);

export function sub(a: M, b: M): M {
  if (a.m !== b.m || a.n !== b.n) throw new Error(`sub: ${a.m}x${a.n} - ${b.m}x${b.n}`);
  const c = zeros(a.m, a.n);
  for (let i = 0; i < a.re.length; i++) {
    c.re[i] = a.re[i]! - b.re[i]!;
    c.im[i] = a.im[i]! - b.im[i]!;
  }
  return c;
}
export function add(a: M, b: M): M {
  return sub(a, scale(b, -1));
}
export function scale(a: M, s: number): M {
  return { m: a.m, n: a.n, re: a.re.map((x) => x * s), im: a.im.map((x) => x * s) };
}
export const norm = (a: M) => Math.sqrt(a.re.reduce((s, x) => s + x * x, 0) + a.im.reduce((s, x) => s + x * x, 0));
/** ‖a - b‖ / max(‖b‖, 1e-300): the relative difference. */
export const rel = (a: M, b: M) => norm(sub(a, b)) / Math.max(norm(b), 1e-300);

/** Columns c0..c1 and rows r0..r1 (exclusive). */
export function block(a: M, r0: number, r1: number, c0: number, c1: number): M {
  const b = zeros(r1 - r0, c1 - c0);
  for (let i = r0; i < r1; i++)
    for (let j = c0; j < c1; j++) {
      b.re[(i - r0) * b.n + j - c0] = a.re[i * a.n + j]!;
      b.im[(i - r0) * b.n + j - c0] = a.im[i * a.n + j]!;
    }
  return b;
}

/** diag(d) as an m×n matrix. */
export function diag(d: ArrayLike<number>, m = d.length, n = d.length, im?: ArrayLike<number>): M {
  const r = zeros(m, n);
  for (let i = 0; i < d.length; i++) {
    r.re[i * n + i] = d[i]!;
    if (im) r.im[i * n + i] = im[i]!;
  }
  return r;
}

/** Lower (or upper) triangle, the diagonal set to 1 when unit. */
export function tri(a: M, lower: boolean, unit = false): M {
  const t = zeros(a.m, a.n);
  for (let i = 0; i < a.m; i++)
    for (let j = 0; j < a.n; j++) {
      if (i === j && unit) t.re[i * a.n + j] = 1;
      else if (lower ? j <= i : j >= i) {
        t.re[i * a.n + j] = a.re[i * a.n + j]!;
        t.im[i * a.n + j] = a.im[i * a.n + j]!;
      }
    }
  return t;
}

/** Uniform in [-0.5, 0.5): the shared mulberry32, shifted. */
export function rng(seed: number): () => number {
  const r = mulberry32(seed);
  return () => r() - 0.5;
}

/** Uniform(-0.5, 0.5) entries (imaginary parts only for complex dtypes), rounded to the dtype's precision. */
export function random(d: LinalgDType, m: number, n: number, r: () => number): M {
  const a = zeros(m, n);
  const round = d === 'float32' || d === 'complex64' ? Math.fround : (x: number) => x;
  for (let i = 0; i < m * n; i++) {
    a.re[i] = round(r());
    if (isComplex(d)) a.im[i] = round(r());
  }
  return a;
}
/** random + shift·I: well conditioned for shift ≈ n. */
export const wellConditioned = (d: LinalgDType, n: number, r: () => number, shift = n) => add(random(d, n, n, r), scale(eye(n), shift));
/** x xᴴ + n·I: Hermitian positive definite. */
export function hpd(d: LinalgDType, n: number, r: () => number): M {
  const x = random(d, n, n, r);
  return roundTo(d, add(mul(x, ct(x)), scale(eye(n), n)));
}
/** (x + xᴴ)/2: Hermitian. */
export function hermitian(d: LinalgDType, n: number, r: () => number): M {
  const x = random(d, n, n, r);
  return roundTo(d, scale(add(x, ct(x)), 0.5));
}
export function roundTo(d: LinalgDType, a: M): M {
  const st = storageOf(d);
  return { m: a.m, n: a.n, re: Float64Array.from(st.from(a.re)), im: isComplex(d) ? Float64Array.from(st.from(a.im)) : new Float64Array(a.m * a.n) };
}

/** A batch of matrices as the dtype's storage (complex interleaved). */
export function pack(d: LinalgDType, mats: readonly M[]): FloatArray {
  const c = isComplex(d);
  const per = mats[0] ? mats[0].m * mats[0].n : 0;
  const out = new (storageOf(d))(mats.length * per * (c ? 2 : 1));
  mats.forEach((a, b) => {
    for (let i = 0; i < per; i++) {
      if (c) {
        out[2 * (b * per + i)] = a.re[i]!;
        out[2 * (b * per + i) + 1] = a.im[i]!;
      } else out[b * per + i] = a.re[i]!;
    }
  });
  return out;
}
/** Matrix `b` (m×n) of a batch in storage of dtype d. */
export function unpack(d: LinalgDType, data: FloatArray, b: number, m: number, n: number): M {
  const a = zeros(m, n);
  const per = m * n;
  for (let i = 0; i < per; i++) {
    if (isComplex(d)) {
      a.re[i] = data[2 * (b * per + i)]!;
      a.im[i] = data[2 * (b * per + i) + 1]!;
    } else a.re[i] = data[b * per + i]!;
  }
  return a;
}
/** Complex storage (eig's outputs) regardless of the input dtype. */
export function unpackComplex(data: FloatArray, b: number, m: number, n: number): M {
  return unpack('complex128', data, b, m, n);
}
/** A new matrix array for `count` (complex) elements of dtype d. */
export const alloc = (d: LinalgDType, count: number): FloatArray => new (storageOf(d))(count * (isComplex(d) ? 2 : 1));
export const allocReal = (d: LinalgDType, count: number): FloatArray => new (storageOf(d))(count);
