// The rasterization stage of splatting as registered ops: 'splat.rasterize'
// (2-D splats → image, alpha, expected depth, with the residuals its
// backward needs) and 'splat.rasterizeBackward', its VJP. Semantics: the
// kernel contract (kernels/contract.ts, "rasterize"); the js reference
// kernels/js/raster.ts is their specification.
//
// Inputs (cores; leading dims are batch dims): means2d [N,2], conics [N,3],
// colors [N,3], opacities [N], depths [N], radii [N] (int32).
// attrs: width, height, tileSize, background (3 numbers).
// Outputs: image [H,W,3], alpha [H,W], depth [H,W], and two residuals:
// finalT [H,W] (the final transmittance, which 1 − alpha would lose to
// rounding in float32) and lastIndex [H,W] (int32: where each pixel stopped).

import { DTypeError, ShapeError } from '../../tensor/errors.js';
import { registerOp, type PartAval, type OpRunArgs } from '../../compiler/op-registry.js';
import type { Attrs } from '../../compiler/ir.js';
import type { Tensor } from '../../tensor/tensor.js';
import { bindOp } from '../../tensor/ops/registered-op.js';
import { zeros } from '../../tensor/create.js';
import { SPLAT_KERNELS } from '../kernels/family.js';
import type { FloatArray, RasterArgs, SplatDType, SplatKernels } from '../kernels/contract.js';
import { sliceBatch } from './project.js';

const HINT = 'splat.render offers reverse-mode derivatives (grad, valueAndGrad, vjp) of first order';
const NAMES = ['means2d', 'conics', 'colors', 'opacities', 'depths', 'radii'];

/** Checks the six splat inputs; returns N and the float dtype. */
function checkSplats(label: string, ins: readonly PartAval[]): { n: number; dtype: SplatDType } {
  const dtype = ins[0]!.dtype;
  if (dtype !== 'float32' && dtype !== 'float64') throw new DTypeError(`${label}: expects float32 or float64 splats, got means2d of ${dtype}`);
  const n = ins[0]!.shape[0]!;
  const want: [number[], string][] = [
    [[n, 2], dtype],
    [[n, 3], dtype],
    [[n, 3], dtype],
    [[n], dtype],
    [[n], dtype],
    [[n], 'int32'],
  ];
  want.forEach(([shape, dt], i) => {
    const x = ins[i]!;
    if (x.dtype !== dt) throw new DTypeError(`${label}: ${NAMES[i]} must be ${dt}, got ${x.dtype}`);
    if (x.shape.length !== shape.length || x.shape.some((d, j) => d !== shape[j])) throw new ShapeError(`${label}: ${NAMES[i]} must be [${shape.join(', ')}] for N = ${n}, got [${x.shape.join(', ')}]`);
  });
  return { n, dtype };
}

/** RasterArgs of batch entry b of a call (the first six inputs). */
function rasterArgs({ batch, ins, inShapes, inDTypes, attrs }: OpRunArgs, b: number): RasterArgs {
  const [means2d, conics, colors, opacities, depths, radii] = ins.slice(0, 6).map((x) => sliceBatch(x as FloatArray, batch, b));
  return {
    dtype: inDTypes[0] as SplatDType,
    n: inShapes[0]![0]!,
    width: attrs['width'] as number,
    height: attrs['height'] as number,
    tileSize: attrs['tileSize'] as number,
    background: attrs['background'] as number[],
    means2d: means2d!,
    conics: conics!,
    colors: colors!,
    opacities: opacities!,
    depths: depths!,
    radii: radii as unknown as Int32Array,
  };
}

registerOp<SplatKernels>('splat.rasterize', {
  family: SPLAT_KERNELS,
  label: 'splat.rasterize',
  writesAll: true, // every kernel writes every element of every output (kernels/contract.ts)
  coreRanks: [2, 2, 2, 1, 1, 1],
  missingRuleHint: HINT,
  outputs(ins, attrs) {
    const { dtype } = checkSplats('splat.rasterize', ins);
    const h = attrs['height'] as number,
      w = attrs['width'] as number;
    return [
      { shape: [h, w, 3], dtype },
      { shape: [h, w], dtype },
      { shape: [h, w], dtype },
      { shape: [h, w], dtype, residual: true },
      { shape: [h, w], dtype: 'int32', residual: true },
    ];
  },
  run(k, a) {
    for (let b = 0; b < a.batch; b++) {
      const [image, alpha, depth, finalT, lastIndex] = a.outs.map((x) => sliceBatch(x as FloatArray, a.batch, b));
      k.rasterizeForward(rasterArgs(a, b), { image: image!, alpha: alpha!, depth: depth!, finalT: finalT!, lastIndex: lastIndex as unknown as Int32Array });
    }
  },
  vjp({ inputs, attrs, outs }, cts) {
    // cts: image, alpha, depth, then the residuals (always null).
    if (cts[0] === null && cts[1] === null && cts[2] === null) return inputs.map(() => null);
    const like = (i: number): Tensor => cts[i] ?? zeros(outs[i]!.shape as number[], { dtype: outs[i]!.dtype });
    const g = bindOp('splat.rasterizeBackward', [...inputs, outs[3]!, outs[4]!, like(0), like(1), like(2)], attrs as Attrs);
    return [...g, null]; // radii: int32, no cotangent
  },
});

registerOp<SplatKernels>('splat.rasterizeBackward', {
  family: SPLAT_KERNELS,
  label: 'splat.rasterizeBackward',
  writesAll: true, // every kernel writes every element of every output (kernels/contract.ts)
  // the six splat inputs, finalT, lastIndex, then the cotangents of image, alpha, depth.
  coreRanks: [2, 2, 2, 1, 1, 1, 2, 2, 3, 2, 2],
  missingRuleHint: HINT,
  outputs(ins, attrs) {
    const { dtype } = checkSplats('splat.rasterizeBackward', ins);
    const h = attrs['height'] as number,
      w = attrs['width'] as number;
    const want: [number[], string, string][] = [
      [[h, w], dtype, 'finalT'],
      [[h, w], 'int32', 'lastIndex'],
      [[h, w, 3], dtype, 'the image cotangent'],
      [[h, w], dtype, 'the alpha cotangent'],
      [[h, w], dtype, 'the depth cotangent'],
    ];
    want.forEach(([shape, dt, name], i) => {
      const x = ins[6 + i]!;
      if (x.dtype !== dt || x.shape.length !== shape.length || x.shape.some((d, j) => d !== shape[j])) throw new ShapeError(`splat.rasterizeBackward: ${name} must be ${dt} [${shape.join(', ')}], got ${x.dtype} [${x.shape.join(', ')}]`);
    });
    return ins.slice(0, 5).map((x) => ({ shape: [...x.shape], dtype }));
  },
  run(k, a) {
    for (let b = 0; b < a.batch; b++) {
      const s = (i: number) => sliceBatch(a.ins[i] as FloatArray, a.batch, b);
      const [means2d, conics, colors, opacities, depths] = a.outs.map((x) => sliceBatch(x as FloatArray, a.batch, b));
      k.rasterizeBackward(
        rasterArgs(a, b),
        { finalT: s(6), lastIndex: s(7) as unknown as Int32Array },
        { image: s(8), alpha: s(9), depth: s(10) },
        { means2d: means2d!, conics: conics!, colors: colors!, opacities: opacities!, depths: depths! },
      );
    }
  },
});
