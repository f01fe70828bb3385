// The writers' view of a Gaussians value: its shapes checked on entry (with
// the shapes received in every error) and its tensors read once into flat
// float64 arrays, so that writePly and writeSplat share one validation and
// one way of getting the colour of a Gaussian whether it has `colors` or `sh`.
// And the way back: flat arrays wrapped as the tensors of a Gaussians value.

import { fromStorage } from '../../tensor/create.js';
import { DTypeError, ShapeError, ValueError } from '../../tensor/errors.js';
import { Tensor } from '../../tensor/tensor.js';
import { SH_C0, SH_OFFSET } from '../constants.js';
import type { Gaussians } from '../types.js';

/** The float dtypes a Gaussians value may have. */
export type GaussianDType = 'float32' | 'float64';

/** A float32 or float64 array (the data of a Gaussians tensor). */
export type FloatArray = Float32Array | Float64Array;

/** A Gaussians value as flat row-major arrays of its dtype (activated parameters, as given). */
export interface GaussianArrays {
  readonly n: number;
  readonly dtype: GaussianDType;
  readonly means: FloatArray;
  readonly quats: FloatArray;
  readonly scales: FloatArray;
  readonly opacities: FloatArray;
  /** [N, 3] colours, when the Gaussians have `colors`. */
  readonly colors?: FloatArray;
  /** [N, K, 3] SH coefficients, when they have `sh`. */
  readonly sh?: FloatArray;
  /** Coefficients per channel: K of `sh`, 1 for `colors`. */
  readonly k: number;
}

const fmt = (s: readonly number[]) => `[${s.join(', ')}]`;

/** Checks `g` and reads its tensors (float32 or float64, one N, exactly one of colors and sh with K ∈ {1, 4, 9, 16}). */
export function gaussianArrays(op: string, g: Gaussians): GaussianArrays {
  if (g === null || typeof g !== 'object') throw new ValueError(`${op}: expected Gaussians {means, quats, scales, opacities, colors | sh}, got ${g === null ? 'null' : typeof g}`);
  const fields = ['means', 'quats', 'scales', 'opacities'] as const;
  for (const f of fields) if (!(g[f] instanceof Tensor)) throw new ValueError(`${op}: gaussians.${f} must be a Tensor, got ${typeof g[f]}`);
  if ((g.colors === undefined) === (g.sh === undefined)) throw new ValueError(`${op}: gaussians need exactly one of colors [N, 3] and sh [N, K, 3], got ${g.colors === undefined ? 'neither' : 'both'}`);
  const color = (g.colors ?? g.sh)!;
  if (!(color instanceof Tensor)) throw new ValueError(`${op}: gaussians.${g.colors ? 'colors' : 'sh'} must be a Tensor`);
  const dtype = g.means.dtype;
  if (dtype !== 'float32' && dtype !== 'float64') throw new DTypeError(`${op}: gaussians.means has dtype ${dtype}, expected float32 or float64`);
  for (const [name, t] of [...fields.map((f) => [f, g[f]] as const), [g.colors ? 'colors' : 'sh', color] as const]) {
    if (t.dtype !== dtype) throw new DTypeError(`${op}: gaussians.${name} has dtype ${t.dtype} but means has ${dtype}; all must share one float dtype`);
  }
  const n = g.means.shape[0] ?? -1;
  const want: [string, Tensor, number[]][] = [
    ['means', g.means, [n, 3]],
    ['quats', g.quats, [n, 4]],
    ['scales', g.scales, [n, 3]],
    ['opacities', g.opacities, [n]],
  ];
  const k = g.sh ? (g.sh.shape[1] ?? -1) : 1;
  if (g.sh) {
    if (g.sh.shape.length !== 3 || ![1, 4, 9, 16].includes(k) || g.sh.shape[2] !== 3) throw new ShapeError(`${op}: gaussians.sh has shape ${fmt(g.sh.shape)}, expected [N, K, 3] with K = (d + 1)² ∈ {1, 4, 9, 16}`);
    want.push(['sh', g.sh, [n, k, 3]]);
  } else want.push(['colors', g.colors!, [n, 3]]);
  for (const [name, t, shape] of want) {
    if (t.shape.length !== shape.length || t.shape.some((d, i) => d !== shape[i])) throw new ShapeError(`${op}: gaussians.${name} has shape ${fmt(t.shape)}, expected ${fmt(shape)} (N = ${n} from means)`);
  }
  // toArray gives a copy in the tensor's dtype: the one copy the writers make.
  const read = (t: Tensor) => t.toArray() as FloatArray;
  return {
    n,
    dtype,
    means: read(g.means),
    quats: read(g.quats),
    scales: read(g.scales),
    opacities: read(g.opacities),
    ...(g.sh ? { sh: read(g.sh) } : { colors: read(g.colors!) }),
    k,
  };
}

/** The DC (degree-0) SH coefficient of channel c of Gaussian i: sh[i, 0, c], or (colour − 0.5)/C0 for colours. */
export function dcCoefficient(a: GaussianArrays, i: number, c: number): number {
  return a.sh ? a.sh[i * a.k * 3 + c]! : (a.colors![i * 3 + c]! - SH_OFFSET) / SH_C0;
}

/** The base colour of channel c of Gaussian i: colors[i, c], or 0.5 + C0·sh[i, 0, c] (the view-independent part). */
export function baseColor(a: GaussianArrays, i: number, c: number): number {
  return a.colors ? a.colors[i * 3 + c]! : SH_OFFSET + SH_C0 * a.sh![i * a.k * 3 + c]!;
}

/** Flat arrays of N Gaussians wrapped (no copy) as a Gaussians value: `color` is colors [N, 3] when k is undefined, else sh [N, k, 3]. */
export function toGaussians(
  n: number,
  dtype: GaussianDType,
  arrays: { means: FloatArray; quats: FloatArray; scales: FloatArray; opacities: FloatArray; color: FloatArray },
  k?: number,
): Gaussians {
  const g: Gaussians = {
    means: fromStorage(arrays.means, [n, 3], dtype),
    quats: fromStorage(arrays.quats, [n, 4], dtype),
    scales: fromStorage(arrays.scales, [n, 3], dtype),
    opacities: fromStorage(arrays.opacities, [n], dtype),
  };
  if (k === undefined) g.colors = fromStorage(arrays.color, [n, 3], dtype);
  else g.sh = fromStorage(arrays.color, [n, k, 3], dtype);
  return g;
}

/** A float32 or float64 array of length n. */
export const allocFloat = (dtype: GaussianDType, n: number): FloatArray => (dtype === 'float32' ? new Float32Array(n) : new Float64Array(n));

/** Checks a reader's dtype option. */
export function checkDType(op: string, dtype: unknown): GaussianDType {
  if (dtype === undefined) return 'float32';
  if (dtype !== 'float32' && dtype !== 'float64') throw new DTypeError(`${op}: dtype ${String(dtype)} is not supported, expected 'float32' or 'float64'`);
  return dtype;
}
