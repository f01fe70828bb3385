// Resolving a chain of movement ops into (shape, strides, offset) over a
// contiguous buffer: the run-time half of view folding.

import { type Dim, resolveDim, contiguousStrides } from '../tensor/shape.js';
import type { ViewStep } from './kernel.js';

export interface StridedView {
  shape: number[];
  strides: number[];
  offset: number;
}

/**
 * Strides for viewing (shape, strides) as newShape without a copy, or null
 * when impossible (NumPy's _attempt_nocopy_reshape).
 */
export function reshapeStrides(shape: readonly number[], strides: readonly number[], newShape: readonly number[]): number[] | null {
  const oldDims: number[] = [],
    oldStrides: number[] = [];
  shape.forEach((d, i) => {
    if (d !== 1) oldDims.push(d), oldStrides.push(strides[i]!);
  });
  const size = shape.reduce((a, b) => a * b, 1);
  if (size === 0) return contiguousStrides(newShape as number[]);
  const out = new Array<number>(newShape.length).fill(0);
  let oi = 0,
    oj = 1,
    ni = 0,
    nj = 1;
  const on = oldDims.length,
    nn = newShape.length;
  while (ni < nn && oi < on) {
    let np = newShape[ni]!,
      op = oldDims[oi]!;
    while (np !== op) {
      if (np < op) np *= newShape[nj++]!;
      else op *= oldDims[oj++]!;
    }
    for (let k = oi; k < oj - 1; k++) if (oldStrides[k] !== oldDims[k + 1]! * oldStrides[k + 1]!) return null;
    out[nj - 1] = oldStrides[oj - 1]!;
    for (let k = nj - 1; k > ni; k--) out[k - 1] = out[k]! * newShape[k]!;
    ni = nj++;
    oi = oj++;
  }
  // Trailing unit dims of the new shape.
  for (let k = ni; k < nn; k++) out[k] = 1;
  // Unit dims inside a group got strides from the product rule; that is harmless.
  return out;
}

/** Applies one movement step to a concrete strided view. */
export function applyStep(v: StridedView, step: ViewStep, env: ReadonlyMap<string, number>): StridedView {
  const a = step.attrs;
  switch (step.op) {
    case 'reshape': {
      const ns = step.outShape.map((d) => resolveDim(d, env));
      const st = reshapeStrides(v.shape, v.strides, ns);
      if (!st) throw new Error(`internal: reshape ${JSON.stringify(v.shape)} -> ${JSON.stringify(ns)} is not a view of strides ${JSON.stringify(v.strides)} (view folding should have inserted a copy)`);
      return { shape: ns, strides: st, offset: v.offset };
    }
    case 'permute': {
      const p = a['perm'] as number[];
      return { shape: p.map((i) => v.shape[i]!), strides: p.map((i) => v.strides[i]!), offset: v.offset };
    }
    case 'expand': {
      const ns = (a['shape'] as Dim[]).map((d) => resolveDim(d, env));
      return { shape: ns, strides: ns.map((d, i) => (v.shape[i] === d ? v.strides[i]! : 0)), offset: v.offset };
    }
    case 'slice': {
      const start = a['start'] as number[],
        step_ = a['step'] as number[];
      const size = (a['size'] as Dim[]).map((d) => resolveDim(d, env));
      let off = v.offset;
      for (let i = 0; i < start.length; i++) if (size[i]! > 0) off += start[i]! * v.strides[i]!;
      return { shape: size, strides: v.strides.map((s, i) => s * step_[i]!), offset: off };
    }
  }
}

/** Resolves a load's chain over a contiguous buffer of `baseShape`. */
export function resolveChain(baseShape: readonly Dim[], chain: readonly ViewStep[], env: ReadonlyMap<string, number>): StridedView {
  const shape = baseShape.map((d) => resolveDim(d, env));
  let v: StridedView = { shape, strides: contiguousStrides(shape), offset: 0 };
  for (const s of chain) v = applyStep(v, s, env);
  return v;
}

/** Whether a static chain folds into one strided view (no reshape needs a copy). */
export function chainFolds(baseShape: readonly number[], chain: readonly ViewStep[]): boolean {
  try {
    resolveChain(baseShape, chain, new Map());
    return true;
  } catch {
    return false;
  }
}
