// The torch golden file of the nn parity tests (golden/make_golden.py writes
// it): records to tensors, layers built from their specs, and a relative error
// measure with the test's tolerance.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tensor, type Tensor, type DType } from '../../src/index.js';
import * as nn from '../../src/nn/index.js';
import type { Module } from '../../src/nn/module.js';

export interface Rec { dtype: DType; shape: number[]; data: (number | boolean)[] }
export interface LayerSpec { layer: string; args: unknown[]; options: Record<string, unknown> }
export interface Case {
  name: string;
  dtype: 'float64' | 'float32';
  tol: number;
  module: LayerSpec | null;
  fn: string | null;
  options: Record<string, unknown>;
  train: boolean;
  state: Record<string, Rec>;
  inputs: Record<string, Rec>;
  gradInputs: string[];
  outputs: (Rec | null)[];
  cotangents: (Rec | null)[];
  grads: { inputs: Record<string, Rec>; state: Record<string, Rec> };
}

export const golden: { torch: string; cases: Case[] } = JSON.parse(readFileSync(path.join(import.meta.dirname, 'golden/nn.json'), 'utf8'));

/** A tensor from a golden record. */
export const fromRec = (r: Rec): Tensor => tensor(r.data as number[], { dtype: r.dtype, shape: r.shape });

const PARAMETERLESS = new Set(['ReLU', 'GELU', 'SiLU', 'Tanh', 'Sigmoid', 'Dropout']);

/** The rlx layer of a spec, with parameters of `dtype` (values are loaded from the state dict afterwards). */
export function buildLayer(spec: LayerSpec, dtype: string): Module {
  const ctors = nn as unknown as Record<string, (...a: unknown[]) => Module>;
  if (spec.layer === 'Sequential') return nn.Sequential(...(spec.args as [string, unknown[]][]).map(([layer, args]) => buildLayer({ layer, args, options: {} }, dtype)));
  const ctor = ctors[spec.layer];
  if (ctor === undefined) throw new Error(`golden: no layer nn.${spec.layer}`);
  return PARAMETERLESS.has(spec.layer) ? ctor(...spec.args) : ctor(...spec.args, { ...spec.options, dtype });
}

/**
 * max |actual - expected| / max |expected| (the error relative to the reference's magnitude, so entries near zero
 * do not dominate); the absolute error when the reference is all zeros. NaN when shapes differ.
 */
export function relErr(actual: Tensor, expected: Rec): number {
  if (actual.shape.length !== expected.shape.length || actual.shape.some((d, i) => d !== expected.shape[i])) return NaN;
  const a = actual.toArray() as ArrayLike<number>;
  let num = 0,
    den = 0;
  expected.data.forEach((v, i) => {
    const e = Number(v);
    num = Math.max(num, Math.abs(a[i]! - e));
    den = Math.max(den, Math.abs(e));
  });
  return den === 0 ? num : num / den;
}
