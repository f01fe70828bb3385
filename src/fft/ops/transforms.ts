// The FFT's IR ops: unnormalized 1-D transforms along the last axis, as
// registered ops (compiler/op-registry.ts) of the fft kernel family. The
// public functions (fft/api.ts) move the transformed axis last, pad or
// truncate it, and scale by the norm around them, so these three are all the
// kernels a device needs:
//
//   fft.c2c (attrs.inverse)   X[k] = Σ_j x[j] e^{∓2πi jk/n}        complex → complex
//   fft.r2c                   the first n/2 + 1 of those (forward)  real → complex
//   fft.c2r (attrs.n)         x[j] = Σ_k X̃[k] e^{+2πi jk/n}, X̃ the Hermitian extension of the half spectrum X
//
// Derivatives, under the bilinear pairing ⟨u, v⟩ = Re Σ u·v of every rule
// (compiler/transforms/rules/vjp.ts). All three are (real-)linear, so the JVP
// is the op applied to the tangent. VJPs:
//   c2c: the DFT matrix is symmetric, so its transpose is itself: x̄ = c2c(X̄), same sign.
//   r2c: x̄_j = Re Σ_{k ≤ n/2} X̄_k e^{−2πi jk/n} = c2r(conj(X̄) / w), with w_k = 2
//        for the frequencies c2r counts twice (0 < k < n/2) and 1 for k = 0 and k = n/2.
//   c2r: X̄_k = w_k Σ_j x̄_j e^{+2πi jk/n} = w_k · conj(r2c(x̄))_k (the imaginary parts
//        of X[0] and X[n/2] get the derivative 0, as c2r ignores them).
// Batching maps over the leading dims (the registry's default).

import type { Tensor } from '../../tensor/tensor.js';
import { type DType, complexDType, realDType } from '../../tensor/dtype.js';
import { DTypeError, ShapeError } from '../../tensor/errors.js';
import { registerOp, kernelSteps, type KernelSteps, type OpDef, type OpRunArgs, type PartAval } from '../../compiler/op-registry.js';
import type { Attrs } from '../../compiler/ir.js';
import { bindOp } from '../../tensor/ops/registered-op.js';
import { tensor } from '../../tensor/create.js';
import { FFT_KERNELS } from '../kernels/family.js';
import type { ComplexDType, FftKernels, FloatArray, RealDType } from '../kernels/contract.js';

const COMPLEX: readonly DType[] = ['complex64', 'complex128'];
const REAL: readonly DType[] = ['float32', 'float64'];

/** Which axes of the core a call transforms: attrs.rank (default 1) and attrs.axes (default [rank − 1]). */
interface Nd {
  rank: number;
  /** Core-relative, distinct; for r2c / c2r the last is the halved axis. */
  axes: readonly number[];
}
const LAST: Nd = Object.freeze({ rank: 1, axes: Object.freeze([0]) });
const ndOf = (attrs: Attrs): Nd => (attrs['axes'] === undefined ? LAST : { rank: attrs['rank'] as number, axes: attrs['axes'] as number[] });

function checkCore(label: string, x: PartAval, want: readonly DType[], nd: Nd): void {
  if (!want.includes(x.dtype)) throw new DTypeError(`${label}: expects ${want.join(' or ')}, got ${x.dtype}`);
  if (nd.axes.length === 0 || nd.axes.some((a, i) => !Number.isInteger(a) || a < 0 || a >= nd.rank || nd.axes.indexOf(a) !== i))
    throw new ShapeError(`${label}: axes ${JSON.stringify(nd.axes)} must be distinct indices into a core of rank ${nd.rank}`);
  for (const a of nd.axes)
    if (x.shape[a]! < 1) throw new ShapeError(`${label}: a transformed axis must have length ≥ 1, got ${x.shape[a]} (core shape [${x.shape.join(', ')}])`);
}

/**
 * The half-spectrum weights w of the r2c / c2r derivatives (real, of dtype
 * d), shaped [m, 1, ..., 1] with `trailing` ones, so that they broadcast
 * along the halved axis of the core only.
 */
function halfWeights(n: number, d: DType, trailing: number): Tensor {
  const m = (n >> 1) + 1;
  const w = new Float64Array(m).fill(2);
  w[0] = 1;
  if (n % 2 === 0) w[m - 1] = 1;
  return tensor(w).cast(d).reshape([m, ...new Array<number>(trailing).fill(1)]);
}

// Frozen attrs, one object per distinct value: bindOp memoizes what it
// derives from them (merged attrs, layout) by identity.
const ATTRS = new Map<string, Readonly<Attrs>>();
function attrsOf(base: Attrs, nd: Nd): Readonly<Attrs> {
  const full: Attrs = nd.rank === 1 ? base : { ...base, axes: Object.freeze([...nd.axes]), rank: nd.rank };
  const key = JSON.stringify(full);
  let a = ATTRS.get(key);
  if (a === undefined) {
    if (ATTRS.size > 1024) ATTRS.clear();
    ATTRS.set(key, (a = Object.freeze(full)));
  }
  return a;
}

/**
 * The core of x that holds tensor axes `axes` (distinct, normalized): its
 * rank (from the first of them to the end) and the core-relative axes, the
 * complex ones sorted (the order of c2c axes does not change the transform,
 * and one order means one FFTW plan and one CSE key), `halved` (r2c / c2r)
 * last.
 */
function coreOf(x: Tensor, axes: readonly number[], halved?: number): Nd {
  if (axes.length === 1 && axes[0] === x.ndim - 1) return LAST; // the common case, without allocating
  const lo = Math.min(...axes, halved ?? Infinity);
  const rank = x.ndim - lo;
  const rel = axes.filter((a) => a !== halved).map((a) => a - lo).sort((p, q) => p - q);
  if (halved !== undefined) rel.push(halved - lo);
  return rank === 1 ? LAST : { rank, axes: rel };
}

// The attrs of the last-axis ops, made once (a small transform's call then builds no key).
const FORWARD = attrsOf({ inverse: false }, LAST);
const INVERSE = attrsOf({ inverse: true }, LAST);
const NO_ATTRS = attrsOf({}, LAST);
const c2cNd = (x: Tensor, inverse: boolean, nd: Nd): Tensor => bindOp('fft.c2c', [x], nd === LAST ? (inverse ? INVERSE : FORWARD) : attrsOf({ inverse }, nd))[0]!;
const r2cNd = (x: Tensor, nd: Nd): Tensor => bindOp('fft.r2c', [x], nd === LAST ? NO_ATTRS : attrsOf({}, nd))[0]!;
const c2rNd = (x: Tensor, n: number, nd: Nd): Tensor => bindOp('fft.c2r', [x], attrsOf({ n }, nd))[0]!;

/** Unnormalized complex DFT along the last axis (complex64 or complex128). */
export const c2c = (x: Tensor, inverse: boolean): Tensor => c2cNd(x, inverse, LAST);
/** The non-negative half of the forward DFT of a real last axis (float32 or float64). */
export const r2c = (x: Tensor): Tensor => r2cNd(x, LAST);
/** The real inverse DFT (unnormalized) of length n from a half spectrum of n/2 + 1 values along the last axis. */
export const c2r = (x: Tensor, n: number): Tensor => c2rNd(x, n, LAST);

/** Unnormalized complex DFT over tensor axes `axes` (distinct, normalized): one op, strided, no transposes. */
export const c2cAxes = (x: Tensor, axes: readonly number[], inverse: boolean): Tensor => c2cNd(x, inverse, coreOf(x, axes));
/** rfftn's core, unnormalized: the r2c along `halved`, the forward c2c over the other `axes`. */
export const r2cAxes = (x: Tensor, axes: readonly number[], halved: number): Tensor => r2cNd(x, coreOf(x, axes, halved));
/** irfftn's core, unnormalized: the inverse c2c over `axes` but `halved`, then the c2r of length n along `halved`. */
export const c2rAxes = (x: Tensor, axes: readonly number[], halved: number, n: number): Tensor => c2rNd(x, n, coreOf(x, axes, halved));

const halvedOf = (nd: Nd) => nd.axes[nd.axes.length - 1]!;

/** The real core shape of a c2r call (its input's core with the halved axis at length attrs.n). */
function c2rShape(core: readonly number[], attrs: Attrs): number[] {
  const axes = attrs['axes'] as number[],
    h = axes[axes.length - 1]!,
    n = attrs['n'] as number;
  return core.map((d, i) => (i === h ? n : d));
}

/**
 * run and runAsync of an op that makes one kernel call. runAsync is
 * kernelSteps' (the call as a step, awaiting the set's Async twin where it
 * has one); run makes the same call directly: kernelSteps' run creates a
 * generator, its step array and the spread arguments on every call (~6% of
 * a 100-point fft call in a CPU profile, ~0.2 µs). The two bodies make the
 * same kernel call with the same arguments.
 */
function oneCall(steps: KernelSteps<FftKernels>, run: (k: FftKernels, a: OpRunArgs) => void): Pick<OpDef<FftKernels>, 'run' | 'runAsync'> {
  return { run, runAsync: kernelSteps<FftKernels>(steps).runAsync! };
}

registerOp<FftKernels>('fft.c2c', {
  family: FFT_KERNELS,
  writesAll: true, // the kernel contract: every output element is written
  label: 'fft.c2c',
  coreRanks: (attrs) => [ndOf(attrs).rank],
  outputs([x], attrs) {
    checkCore('fft.c2c', x!, COMPLEX, ndOf(attrs));
    return [{ shape: [...x!.shape], dtype: x!.dtype }];
  },
  ...oneCall(function* ({ batch, ins, inShapes, inDTypes, outs, attrs }) {
    const dt = inDTypes[0] as ComplexDType,
      inverse = attrs['inverse'] as boolean;
    if (attrs['axes'] === undefined) yield ['c2c', dt, batch, inShapes[0]![0]!, ins[0] as FloatArray, outs[0] as FloatArray, inverse];
    else yield ['c2cNd', dt, batch, inShapes[0]!, attrs['axes'] as number[], ins[0] as FloatArray, outs[0] as FloatArray, inverse];
  }, (k, { batch, ins, inShapes, inDTypes, outs, attrs }) => {
    const dt = inDTypes[0] as ComplexDType,
      inverse = attrs['inverse'] as boolean;
    if (attrs['axes'] === undefined) k.c2c(dt, batch, inShapes[0]![0]!, ins[0] as FloatArray, outs[0] as FloatArray, inverse);
    else k.c2cNd(dt, batch, inShapes[0]!, attrs['axes'] as number[], ins[0] as FloatArray, outs[0] as FloatArray, inverse);
  }),
  jvp: ({ attrs }, [dx]) => [dx ? c2cNd(dx, attrs['inverse'] as boolean, ndOf(attrs)) : null],
  vjp: ({ attrs }, [g]) => [g ? c2cNd(g, attrs['inverse'] as boolean, ndOf(attrs)) : null],
});

registerOp<FftKernels>('fft.r2c', {
  family: FFT_KERNELS,
  writesAll: true, // the kernel contract: every output element is written
  label: 'fft.r2c',
  coreRanks: (attrs) => [ndOf(attrs).rank],
  outputs([x], attrs) {
    const nd = ndOf(attrs);
    checkCore('fft.r2c', x!, REAL, nd);
    const h = halvedOf(nd);
    return [{ shape: x!.shape.map((d, i) => (i === h ? (d >> 1) + 1 : d)), dtype: complexDType(x!.dtype) }];
  },
  ...oneCall(function* ({ batch, ins, inShapes, inDTypes, outs, attrs }) {
    const dt = inDTypes[0] as RealDType;
    if (attrs['axes'] === undefined) yield ['r2c', dt, batch, inShapes[0]![0]!, ins[0] as FloatArray, outs[0] as FloatArray];
    else yield ['r2cNd', dt, batch, inShapes[0]!, attrs['axes'] as number[], ins[0] as FloatArray, outs[0] as FloatArray];
  }, (k, { batch, ins, inShapes, inDTypes, outs, attrs }) => {
    const dt = inDTypes[0] as RealDType;
    if (attrs['axes'] === undefined) k.r2c(dt, batch, inShapes[0]![0]!, ins[0] as FloatArray, outs[0] as FloatArray);
    else k.r2cNd(dt, batch, inShapes[0]!, attrs['axes'] as number[], ins[0] as FloatArray, outs[0] as FloatArray);
  }),
  jvp: ({ attrs }, [dx]) => [dx ? r2cNd(dx, ndOf(attrs)) : null],
  vjp: ({ attrs, inputs: [x] }, [g]) => {
    if (!g) return [null];
    const nd = ndOf(attrs),
      h = halvedOf(nd);
    const n = x!.shape[x!.ndim - nd.rank + h] as number;
    return [c2rNd(g.conj().div(halfWeights(n, x!.dtype, nd.rank - 1 - h)), n, nd)];
  },
});

registerOp<FftKernels>('fft.c2r', {
  family: FFT_KERNELS,
  writesAll: true, // the kernel contract: every output element is written
  label: 'fft.c2r',
  coreRanks: (attrs) => [ndOf(attrs).rank],
  outputs([x], attrs) {
    const nd = ndOf(attrs);
    checkCore('fft.c2r', x!, COMPLEX, nd);
    const h = halvedOf(nd),
      m = x!.shape[h]!;
    const n = attrs['n'] as number;
    if (!Number.isInteger(n) || n < 1 || (n >> 1) + 1 !== m) throw new ShapeError(`fft.c2r: a real output of length ${n} needs ${(n >> 1) + 1} half-spectrum values, got ${m}`);
    return [{ shape: x!.shape.map((d, i) => (i === h ? n : d)), dtype: realDType(x!.dtype) }];
  },
  ...oneCall(function* ({ batch, ins, inShapes, inDTypes, outs, attrs }) {
    const dt = realDType(inDTypes[0]!) as RealDType,
      n = attrs['n'] as number;
    if (attrs['axes'] === undefined) yield ['c2r', dt, batch, n, ins[0] as FloatArray, outs[0] as FloatArray];
    else yield ['c2rNd', dt, batch, c2rShape(inShapes[0]!, attrs), attrs['axes'] as number[], ins[0] as FloatArray, outs[0] as FloatArray];
  }, (k, { batch, ins, inShapes, inDTypes, outs, attrs }) => {
    const dt = realDType(inDTypes[0]!) as RealDType,
      n = attrs['n'] as number;
    if (attrs['axes'] === undefined) k.c2r(dt, batch, n, ins[0] as FloatArray, outs[0] as FloatArray);
    else k.c2rNd(dt, batch, c2rShape(inShapes[0]!, attrs), attrs['axes'] as number[], ins[0] as FloatArray, outs[0] as FloatArray);
  }),
  jvp: ({ attrs }, [dx]) => [dx ? c2rNd(dx, attrs['n'] as number, ndOf(attrs)) : null],
  vjp: ({ attrs, inputs: [x] }, [g]) => {
    if (!g) return [null];
    const n = attrs['n'] as number,
      nd = ndOf(attrs);
    return [r2cNd(g, nd).conj().mul(halfWeights(n, realDType(x!.dtype), nd.rank - 1 - halvedOf(nd)))];
  },
});
