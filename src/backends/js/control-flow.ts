// Control-flow kernels of the js backend: they run a compiled body executable
// step by step on the host, writing results into the packed output.

import { DTYPE_INFO, type StorageArray } from '../../tensor/dtype.js';
import { getBody } from '../../compiler/bodies.js';
import type { OpaqueArgs } from './opaque.js';

const prod = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/** scan: inputs [consts, init carries, xs]; output [carries, ys stacked] packed. */
export function scanKernel({ out, ins, inShapes, attrs, dtype }: OpaqueArgs): void {
  const b = getBody(attrs['body'] as number);
  const L = attrs['length'] as number,
    reverse = attrs['reverse'] as boolean;
  const nConst = attrs['nConst'] as number,
    nCarry = attrs['nCarry'] as number;
  const lanes = DTYPE_INFO[dtype].lanes;
  const consts = ins.slice(0, nConst).map((data, i) => ({ data, shape: inShapes[i]! }));
  let carry = ins.slice(nConst, nConst + nCarry).map((data, i) => ({ data, shape: inShapes[nConst + i]! }));
  const xs = ins.slice(nConst + nCarry).map((data, i) => {
    const shape = inShapes[nConst + nCarry + i]!;
    const sliceShape = shape.slice(1);
    return { data, sliceShape, len: prod(sliceShape) * (data.length / Math.max(prod(shape), 1) || 1) };
  });
  const carryShapes = carry.map((c) => c.shape);
  const ySizes = b.outAvals.slice(nCarry).map((a) => prod(a.shape as number[]) * lanes);
  let at = carryShapes.reduce((a, s) => a + prod(s) * lanes, 0);
  const yOff = ySizes.map((s) => {
    const o = at;
    at += s * L;
    return o;
  });
  for (let s = 0; s < L; s++) {
    const t = reverse ? L - 1 - s : s;
    const stepIn = [...consts, ...carry, ...xs.map((x) => ({ data: x.data.subarray(t * x.len, (t + 1) * x.len) as StorageArray, shape: x.sliceShape }))];
    const outs = b.exe.run(stepIn);
    carry = outs.slice(0, nCarry).map((data, i) => ({ data, shape: carryShapes[i]! }));
    for (let k = 0; k < ySizes.length; k++) out.set(outs[nCarry + k]!, yOff[k]! + t * ySizes[k]!);
  }
  let o = 0;
  for (const c of carry) {
    out.set(c.data, o);
    o += c.data.length;
  }
}

/** while: inputs [cond consts, body consts, carries]; output the final carries packed. */
export function whileKernel({ out, ins, inShapes, attrs }: OpaqueArgs): void {
  const c = getBody(attrs['cond'] as number),
    b = getBody(attrs['body'] as number);
  const nc = attrs['nCondConst'] as number,
    nb = attrs['nBodyConst'] as number;
  const withShapes = (from: number, to: number) => ins.slice(from, to).map((data, i) => ({ data, shape: inShapes[from + i]! }));
  const cConsts = withShapes(0, nc),
    bConsts = withShapes(nc, nc + nb);
  let carry = withShapes(nc + nb, ins.length);
  const shapes = carry.map((x) => x.shape);
  for (;;) {
    const [p] = c.exe.run([...cConsts, ...carry]);
    if (p![0] === 0) break;
    carry = b.exe.run([...bConsts, ...carry]).map((data, i) => ({ data, shape: shapes[i]! }));
  }
  let o = 0;
  for (const x of carry) out.set(x.data, o), (o += x.data.length);
}

/** cond: inputs [pred, true consts, false consts, operands]; output the branch's results packed. */
export function condKernel({ out, ins, inShapes, attrs }: OpaqueArgs): void {
  const nt = attrs['nTrueConst'] as number,
    nf = attrs['nFalseConst'] as number;
  const pick = ins[0]![0] !== 0;
  const b = getBody((pick ? attrs['onTrue'] : attrs['onFalse']) as number);
  const consts = pick ? [1, 1 + nt] : [1 + nt, 1 + nt + nf];
  const args = [...ins.slice(consts[0], consts[1]).map((data, i) => ({ data, shape: inShapes[consts[0]! + i]! })), ...ins.slice(1 + nt + nf).map((data, i) => ({ data, shape: inShapes[1 + nt + nf + i]! }))];
  let o = 0;
  for (const r of b.exe.run(args)) out.set(r, o), (o += r.length);
}

