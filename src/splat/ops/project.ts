// The projection stage of splatting as registered ops: 'splat.project'
// (Gaussians and one camera → 2-D splats) and its backward kernel
// 'splat.projectBackward', which is the VJP of the first. The semantics are
// the kernel contract's (kernels/contract.ts, "project"); the js reference
// kernels/js/project.ts is their specification.
//
// Inputs (cores; leading dims are batch dims, so vmap maps over scenes):
//   means [N,3], quats [N,4], scales [N,3], opacities [N], coeffs [N,K,3]
// attrs: camera (viewmat 16, fx, fy, cx, cy, width, height, near, far as one
// flat number list), shDegree (−1: coeffs are colours), antialiased.
// Outputs: means2d [N,2], conics [N,3], depths [N], radii [N] (int32),
// colors [N,3], opacities [N].
//
// Derivatives: reverse mode only (the analytic backward kernels); the
// camera is an attribute, not an input, so it is never differentiated. The
// backward op has no rules of its own: a second derivative of render is a
// TransformError, as is jvp.

import type { Tensor } from '../../tensor/tensor.js';
import { DTypeError, ShapeError } from '../../tensor/errors.js';
import { registerOp, type PartAval, type OpRunArgs } from '../../compiler/op-registry.js';
import type { Attrs } from '../../compiler/ir.js';
import { bindOp } from '../../tensor/ops/registered-op.js';
import { zeros } from '../../tensor/create.js';
import { SPLAT_KERNELS } from '../kernels/family.js';
import type { FloatArray, ProjectArgs, SplatCamera, SplatDType, SplatKernels } from '../kernels/contract.js';
import { MAX_SH_DEGREE } from '../constants.js';

const FLOATS = ['float32', 'float64'];
const HINT = 'splat.render offers reverse-mode derivatives (grad, valueAndGrad, vjp) of first order';

/** The camera as the flat number list of the ops' attrs. */
export const cameraAttr = (c: SplatCamera): number[] => [...c.viewmat, c.fx, c.fy, c.cx, c.cy, c.width, c.height, c.near, c.far];

/** The camera of a flat attr list. */
export function cameraOf(a: readonly number[]): SplatCamera {
  return { viewmat: a.slice(0, 16), fx: a[16]!, fy: a[17]!, cx: a[18]!, cy: a[19]!, width: a[20]!, height: a[21]!, near: a[22]!, far: a[23]! };
}

/** Checks the five Gaussian inputs' cores (shared by the forward and backward ops); returns N and K. */
function checkGaussians(label: string, ins: readonly PartAval[], shDegree: number): { n: number; k: number; dtype: SplatDType } {
  const [means, quats, scales, opacities, coeffs] = ins as [PartAval, PartAval, PartAval, PartAval, PartAval];
  const dtype = means.dtype;
  if (!FLOATS.includes(dtype)) throw new DTypeError(`${label}: expects float32 or float64 Gaussians, got means of ${dtype}`);
  const names = ['means', 'quats', 'scales', 'opacities', 'coeffs'];
  ins.slice(0, 5).forEach((x, i) => {
    if (x.dtype !== dtype) throw new DTypeError(`${label}: every Gaussian tensor must have means' dtype ${dtype}, got ${names[i]} of ${x.dtype}`);
  });
  const n = means.shape[0]!;
  const want: [PartAval, number[], string][] = [
    [means, [n, 3], 'means'],
    [quats, [n, 4], 'quats'],
    [scales, [n, 3], 'scales'],
    [opacities, [n], 'opacities'],
  ];
  for (const [x, shape, name] of want)
    if (x.shape.length !== shape.length || x.shape.some((d, i) => d !== shape[i])) throw new ShapeError(`${label}: ${name} must be [${shape.join(', ')}] for N = ${n}, got [${x.shape.join(', ')}]`);
  const k = coeffs.shape[1]!;
  if (coeffs.shape[0] !== n || coeffs.shape[2] !== 3) throw new ShapeError(`${label}: coeffs must be [${n}, K, 3], got [${coeffs.shape.join(', ')}]`);
  if (!Number.isInteger(shDegree) || shDegree < -1 || shDegree > MAX_SH_DEGREE) throw new ShapeError(`${label}: shDegree must be -1 (colours) or 0..${MAX_SH_DEGREE}, got ${shDegree}`);
  if (shDegree === -1 ? k !== 1 : (shDegree + 1) ** 2 > k) throw new ShapeError(`${label}: shDegree ${shDegree} needs ${shDegree === -1 ? 'K = 1' : `K ≥ ${(shDegree + 1) ** 2}`} coefficients, got K = ${k}`);
  return { n, k, dtype: dtype as SplatDType };
}

const size = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/** Input/output arrays of batch entry b (each array holds `batch` consecutive cores). */
export function sliceBatch<T extends FloatArray | Int32Array>(a: T, batch: number, b: number): T {
  if (batch === 1) return a;
  const m = a.length / batch;
  return a.subarray(b * m, (b + 1) * m) as T;
}

/** ProjectArgs of batch entry b of a call. */
function projectArgs({ batch, ins, inShapes, inDTypes, attrs }: OpRunArgs, b: number): ProjectArgs {
  const [means, quats, scales, opacities, coeffs] = ins.map((x) => sliceBatch(x as FloatArray, batch, b)) as FloatArray[];
  return {
    dtype: inDTypes[0] as SplatDType,
    n: inShapes[0]![0]!,
    means: means!,
    quats: quats!,
    scales: scales!,
    opacities: opacities!,
    coeffs: coeffs!,
    k: inShapes[4]![1]!,
    shDegree: attrs['shDegree'] as number,
    camera: cameraOf(attrs['camera'] as number[]),
    antialiased: attrs['antialiased'] as boolean,
  };
}

registerOp<SplatKernels>('splat.project', {
  family: SPLAT_KERNELS,
  label: 'splat.project',
  writesAll: true, // every kernel writes every element of every output (kernels/contract.ts)
  coreRanks: [2, 2, 2, 1, 3],
  missingRuleHint: HINT,
  outputs(ins, attrs) {
    const { n, dtype } = checkGaussians('splat.project', ins, attrs['shDegree'] as number);
    return [
      { shape: [n, 2], dtype },
      { shape: [n, 3], dtype },
      { shape: [n], dtype },
      { shape: [n], dtype: 'int32' },
      { shape: [n, 3], dtype },
      { shape: [n], dtype },
    ];
  },
  run(k, a) {
    for (let b = 0; b < a.batch; b++) {
      const [means2d, conics, depths, radii, colors, opacities] = a.outs.map((x) => sliceBatch(x as FloatArray, a.batch, b));
      k.projectForward(projectArgs(a, b), { means2d: means2d!, conics: conics!, depths: depths!, radii: radii as unknown as Int32Array, colors: colors!, opacities: opacities! });
    }
  },
  vjp({ inputs, attrs, outs }, cts) {
    // cts: means2d, conics, depths, radii (int: none), colors, opacities.
    if (cts.every((c) => c === null)) return inputs.map(() => null);
    const like = (i: number): Tensor => cts[i] ?? zeros(outs[i]!.shape as number[], { dtype: outs[i]!.dtype });
    const radii = outs[3]!;
    return bindOp('splat.projectBackward', [...inputs, radii, like(0), like(1), like(2), like(4), like(5)], attrs as Attrs);
  },
});

registerOp<SplatKernels>('splat.projectBackward', {
  family: SPLAT_KERNELS,
  label: 'splat.projectBackward',
  writesAll: true, // every kernel writes every element of every output (kernels/contract.ts)
  // means, quats, scales, opacities, coeffs, radii, then the cotangents of means2d, conics, depths, colors, opacities.
  coreRanks: [2, 2, 2, 1, 3, 1, 2, 2, 1, 2, 1],
  missingRuleHint: HINT,
  outputs(ins, attrs) {
    const { n, dtype } = checkGaussians('splat.projectBackward', ins, attrs['shDegree'] as number);
    const want: [number[], string][] = [
      [[n], 'int32'],
      [[n, 2], dtype],
      [[n, 3], dtype],
      [[n], dtype],
      [[n, 3], dtype],
      [[n], dtype],
    ];
    want.forEach(([shape, dt], i) => {
      const x = ins[5 + i]!;
      if (x.dtype !== dt || size(x.shape) !== size(shape) || x.shape.length !== shape.length) throw new ShapeError(`splat.projectBackward: input ${5 + i} must be ${dt} [${shape.join(', ')}], got ${x.dtype} [${x.shape.join(', ')}]`);
    });
    return ins.slice(0, 5).map((x) => ({ shape: [...x.shape], dtype }));
  },
  run(k, a) {
    for (let b = 0; b < a.batch; b++) {
      const s = (i: number) => sliceBatch(a.ins[i] as FloatArray, a.batch, b);
      const [means, quats, scales, opacities, coeffs] = a.outs.map((x) => sliceBatch(x as FloatArray, a.batch, b));
      k.projectBackward(
        projectArgs(a, b),
        s(5) as unknown as Int32Array,
        { means2d: s(6), conics: s(7), depths: s(8), colors: s(9), opacities: s(10) },
        { means: means!, quats: quats!, scales: scales!, opacities: opacities!, coeffs: coeffs! },
      );
    }
  },
});
