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
import { registerOp, kernelSteps, type PartAval } from '../../compiler/op-registry.js';
import { bindOp } from '../../tensor/ops/registered-op.js';
import { tensor } from '../../tensor/create.js';
import { FFT_KERNELS } from '../kernels/family.js';
import type { ComplexDType, FftKernels, FloatArray, RealDType } from '../kernels/contract.js';

const COMPLEX: readonly DType[] = ['complex64', 'complex128'];
const REAL: readonly DType[] = ['float32', 'float64'];

function checkCore(label: string, x: PartAval, want: readonly DType[]): number {
  if (!want.includes(x.dtype)) throw new DTypeError(`${label}: expects ${want.join(' or ')}, got ${x.dtype}`);
  const n = x.shape[0]!;
  if (n < 1) throw new ShapeError(`${label}: the transformed axis must have length ≥ 1, got ${n}`);
  return n;
}

/** The half-spectrum weights w of the r2c / c2r derivatives, as a [m] tensor of `d` (real). */
function halfWeights(n: number, d: DType): Tensor {
  const m = (n >> 1) + 1;
  const w = new Float64Array(m).fill(2);
  w[0] = 1;
  if (n % 2 === 0) w[m - 1] = 1;
  return tensor(w).cast(d);
}

// Frozen attrs: bindOp memoizes what it derives from them by identity.
const FORWARD = Object.freeze({ inverse: false });
const INVERSE = Object.freeze({ inverse: true });
const NO_ATTRS = Object.freeze({});
const C2R_ATTRS = new Map<number, Readonly<{ n: number }>>();
const c2rAttrs = (n: number) => {
  let a = C2R_ATTRS.get(n);
  if (a === undefined) {
    if (C2R_ATTRS.size > 1024) C2R_ATTRS.clear();
    C2R_ATTRS.set(n, (a = Object.freeze({ n })));
  }
  return a;
};

/** Unnormalized complex DFT along the last axis (complex64 or complex128). */
export const c2c = (x: Tensor, inverse: boolean): Tensor => bindOp('fft.c2c', [x], inverse ? INVERSE : FORWARD)[0]!;
/** The non-negative half of the forward DFT of a real last axis (float32 or float64). */
export const r2c = (x: Tensor): Tensor => bindOp('fft.r2c', [x], NO_ATTRS)[0]!;
/** The real inverse DFT (unnormalized) of length n from a half spectrum of n/2 + 1 values along the last axis. */
export const c2r = (x: Tensor, n: number): Tensor => bindOp('fft.c2r', [x], c2rAttrs(n))[0]!;

registerOp<FftKernels>('fft.c2c', {
  family: FFT_KERNELS,
  label: 'fft.c2c',
  coreRanks: [1],
  outputs([x]) {
    checkCore('fft.c2c', x!, COMPLEX);
    return [{ shape: [...x!.shape], dtype: x!.dtype }];
  },
  ...kernelSteps<FftKernels>(function* ({ batch, ins, inShapes, inDTypes, outs, attrs }) {
    yield ['c2c', inDTypes[0] as ComplexDType, batch, inShapes[0]![0]!, ins[0] as FloatArray, outs[0] as FloatArray, attrs['inverse'] as boolean];
  }),
  jvp: ({ attrs }, [dx]) => [dx ? c2c(dx, attrs['inverse'] as boolean) : null],
  vjp: ({ attrs }, [g]) => [g ? c2c(g, attrs['inverse'] as boolean) : null],
});

registerOp<FftKernels>('fft.r2c', {
  family: FFT_KERNELS,
  label: 'fft.r2c',
  coreRanks: [1],
  outputs([x]) {
    const n = checkCore('fft.r2c', x!, REAL);
    return [{ shape: [(n >> 1) + 1], dtype: complexDType(x!.dtype) }];
  },
  ...kernelSteps<FftKernels>(function* ({ batch, ins, inShapes, inDTypes, outs }) {
    yield ['r2c', inDTypes[0] as RealDType, batch, inShapes[0]![0]!, ins[0] as FloatArray, outs[0] as FloatArray];
  }),
  jvp: (_c, [dx]) => [dx ? r2c(dx) : null],
  vjp: ({ inputs: [x] }, [g]) => {
    if (!g) return [null];
    const n = x!.shape[x!.ndim - 1] as number;
    return [c2r(g.conj().div(halfWeights(n, x!.dtype)), n)];
  },
});

registerOp<FftKernels>('fft.c2r', {
  family: FFT_KERNELS,
  label: 'fft.c2r',
  coreRanks: [1],
  outputs([x], attrs) {
    const m = checkCore('fft.c2r', x!, COMPLEX);
    const n = attrs['n'] as number;
    if (!Number.isInteger(n) || n < 1 || (n >> 1) + 1 !== m) throw new ShapeError(`fft.c2r: a real output of length ${n} needs ${(n >> 1) + 1} half-spectrum values, got ${m}`);
    return [{ shape: [n], dtype: realDType(x!.dtype) }];
  },
  ...kernelSteps<FftKernels>(function* ({ batch, ins, inDTypes, outs, attrs }) {
    yield ['c2r', realDType(inDTypes[0]!) as RealDType, batch, attrs['n'] as number, ins[0] as FloatArray, outs[0] as FloatArray];
  }),
  jvp: ({ attrs }, [dx]) => [dx ? c2r(dx, attrs['n'] as number) : null],
  vjp: ({ attrs, inputs: [x] }, [g]) => {
    if (!g) return [null];
    const n = attrs['n'] as number;
    return [r2c(g).conj().mul(halfWeights(n, realDType(x!.dtype)))];
  },
});
