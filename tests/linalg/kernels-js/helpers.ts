// Test helpers for the js linalg kernels: seeded random matrices in storage
// layout, a naive complex matrix algebra (independent of the kernels) on split
// re/im arrays, and per-dtype tolerances.

import type { FloatArray, LinalgDType } from '../../../src/linalg/kernels/contract.js';
export { mulberry32 } from '../../harness/prng.js';

export const DTYPES: LinalgDType[] = ['float32', 'float64', 'complex64', 'complex128'];
export const isCplx = (d: LinalgDType): boolean => d === 'complex64' || d === 'complex128';
export const isSingle = (d: LinalgDType): boolean => d === 'float32' || d === 'complex64';

/**
 * Relative tolerance for identities on well-conditioned n x n problems. f64:
 * backward errors are O(n eps) = 2e-16 n, so 1e-10 n leaves a wide margin
 * while still catching any real bug (those give O(1) errors). Single precision:
 * inputs and outputs are rounded to float32 (6e-8) and errors grow with n, so 1e-4.
 */
export const tolFor = (d: LinalgDType, n: number): number => (isSingle(d) ? 1e-4 : 1e-10 * Math.max(n, 1));

export interface M {
  r: number;
  c: number;
  re: Float64Array;
  im: Float64Array;
}

export function randM(r: number, c: number, cplx: boolean, rnd: () => number): M {
  const m = zerosM(r, c);
  for (let i = 0; i < r * c; i++) {
    m.re[i] = 2 * rnd() - 1;
    if (cplx) m.im[i] = 2 * rnd() - 1;
  }
  return m;
}

export const zerosM = (r: number, c: number): M => ({ r, c, re: new Float64Array(r * c), im: new Float64Array(r * c) });

export function eye(n: number): M {
  const m = zerosM(n, n);
  for (let i = 0; i < n; i++) m.re[i * n + i] = 1;
  return m;
}

export function mul(a: M, b: M): M {
  if (a.c !== b.r) throw new Error(`mul ${a.r}x${a.c} by ${b.r}x${b.c}`);
  const o = zerosM(a.r, b.c);
  for (let i = 0; i < a.r; i++)
    for (let k = 0; k < a.c; k++) {
      const xr = a.re[i * a.c + k]!,
        xi = a.im[i * a.c + k]!;
      for (let j = 0; j < b.c; j++) {
        o.re[i * b.c + j] += xr * b.re[k * b.c + j]! - xi * b.im[k * b.c + j]!;
        o.im[i * b.c + j] += xr * b.im[k * b.c + j]! + xi * b.re[k * b.c + j]!;
      }
    }
  return o;
}

export function adj(a: M): M {
  const o = zerosM(a.c, a.r);
  for (let i = 0; i < a.r; i++)
    for (let j = 0; j < a.c; j++) {
      o.re[j * a.r + i] = a.re[i * a.c + j]!;
      o.im[j * a.r + i] = -a.im[i * a.c + j]!;
    }
  return o;
}

export function transpose(a: M): M {
  const o = adj(a);
  for (let i = 0; i < o.im.length; i++) o.im[i] = -o.im[i]!;
  return o;
}

export function sub(a: M, b: M): M {
  const o = zerosM(a.r, a.c);
  for (let i = 0; i < a.re.length; i++) {
    o.re[i] = a.re[i]! - b.re[i]!;
    o.im[i] = a.im[i]! - b.im[i]!;
  }
  return o;
}

/** Largest entry modulus. */
export function maxAbs(a: M): number {
  let m = 0;
  for (let i = 0; i < a.re.length; i++) m = Math.max(m, Math.hypot(a.re[i]!, a.im[i]!));
  return m;
}

/** Scales column j by d[j] (real). */
export function scaleCols(a: M, d: ArrayLike<number>): M {
  const o = zerosM(a.r, a.c);
  for (let i = 0; i < a.r; i++)
    for (let j = 0; j < a.c; j++) {
      o.re[i * a.c + j] = a.re[i * a.c + j]! * d[j]!;
      o.im[i * a.c + j] = a.im[i * a.c + j]! * d[j]!;
    }
  return o;
}

/** Storage array (dtype layout) of a batch of matrices. */
export function toStorage(dtype: LinalgDType, ms: M[]): FloatArray {
  const cp = isCplx(dtype);
  const per = ms.length ? ms[0]!.re.length : 0;
  const out = isSingle(dtype) ? new Float32Array(ms.length * per * (cp ? 2 : 1)) : new Float64Array(ms.length * per * (cp ? 2 : 1));
  ms.forEach((m, e) => {
    for (let i = 0; i < per; i++) {
      if (cp) {
        out[2 * (e * per + i)] = m.re[i]!;
        out[2 * (e * per + i) + 1] = m.im[i]!;
      } else out[e * per + i] = m.re[i]!;
    }
  });
  return out;
}

/** Matrix e of a batch in storage layout (complex = interleaved). */
export function fromStorage(cplx: boolean, arr: ArrayLike<number>, e: number, r: number, c: number): M {
  const m = zerosM(r, c);
  const per = r * c;
  for (let i = 0; i < per; i++) {
    if (cplx) {
      m.re[i] = arr[2 * (e * per + i)]!;
      m.im[i] = arr[2 * (e * per + i) + 1]!;
    } else m.re[i] = arr[e * per + i]!;
  }
  return m;
}

/** The value the kernel actually saw: a rounded to the dtype's precision. */
export function rounded(dtype: LinalgDType, a: M): M {
  return fromStorage(isCplx(dtype), toStorage(dtype, [a]), 0, a.r, a.c);
}

export const alloc = (dtype: LinalgDType | 'real', len: number, single: boolean): FloatArray => (single ? new Float32Array(len) : new Float64Array(len));
export const storageLen = (dtype: LinalgDType, count: number): number => count * (isCplx(dtype) ? 2 : 1);
export const newStore = (dtype: LinalgDType, count: number): FloatArray => alloc(dtype, storageLen(dtype, count), isSingle(dtype));

/** ‖q^H q - I‖max for a matrix with orthonormal columns. */
export const orthErr = (q: M): number => maxAbs(sub(mul(adj(q), q), eye(q.c)));

export function hermitian(n: number, cplx: boolean, rnd: () => number): M {
  const x = randM(n, n, cplx, rnd);
  const h = zerosM(n, n);
  const xa = adj(x);
  for (let i = 0; i < n * n; i++) {
    h.re[i] = (x.re[i]! + xa.re[i]!) / 2;
    h.im[i] = (x.im[i]! + xa.im[i]!) / 2;
  }
  return h;
}
