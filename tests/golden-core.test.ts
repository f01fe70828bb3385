// Tricky core cases checked against NumPy 1.24: broadcasting with negative-step
// slices, dtype promotion (NEP 50), complex branch cuts with signed zeros, IEEE
// special values, matmul/outer/dot, reductions over views, printing.
//
// The goldens in tests/golden/core.json are written by tests/golden/gen_core.py
// (regenerate: /usr/bin/python3 tests/golden/gen_core.py); its header documents
// the JSON DSL this file interprets and the tolerance rules. Each case is a small
// program of Tensor method calls on named inputs; NumPy ran the same program.
//
// Deliberate rlx differences are encoded in the goldens, not here: cases with
// `numpyDtype` (rlx has no int64/int8, so NumPy's int64/int8 results are int32
// in rlx), complex sign (NumPy 2's z/|z|), and complex log1p/expm1 at
// non-finite inputs (NumPy 2 / Annex G rules); each such case carries a `note`.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as rlx from '../src/index.js';

type Enc = number | string;
interface InputSpec {
  dtype: rlx.DType;
  shape: number[];
  values?: Enc[];
  arange?: [number, number];
}
type Arg = string | number | boolean | null | number[] | { float: string } | { dtype: string } | { slice: AxisArg[] };
type AxisArg = 'ax' | [number | null, number | null, number | null] | { ix: number };
type Step = [string, string, string, ...Arg[]];
interface Expected {
  dtype: rlx.DType;
  shape: number[];
  values: Enc[];
}
interface GoldenCase {
  name: string;
  group: string;
  inputs: Record<string, InputSpec>;
  ops: Step[];
  expected: Expected | { error: string };
  tol?: 'exact' | { rtol: number; atol: number };
  signedZeros?: boolean;
  str?: string;
  repr?: string;
  numpyDtype?: string;
  legacyNumpyDtype?: string;
  note?: string;
}

const golden: GoldenCase[] = JSON.parse(readFileSync(new URL('./golden/core.json', import.meta.url), 'utf8'));

function decode(v: Enc): number {
  if (typeof v === 'number') return v;
  switch (v) {
    case 'nan':
      return NaN;
    case 'inf':
      return Infinity;
    case '-inf':
      return -Infinity;
    case '-0':
      return -0;
    default:
      throw new Error(`bad golden value ${v}`);
  }
}

function makeInput(spec: InputSpec): rlx.Tensor {
  const n = spec.shape.reduce((a, b) => a * b, 1);
  const lanes = rlx.isComplex(spec.dtype) ? 2 : 1;
  let v: Float64Array;
  if (spec.arange) {
    const [start, step] = spec.arange;
    v = new Float64Array(n);
    for (let i = 0; i < n; i++) v[i] = start + i * step;
  } else {
    v = Float64Array.from(spec.values!.map(decode));
  }
  expect(v.length).toBe(n * lanes);
  return rlx.tensor(v, { dtype: spec.dtype, shape: spec.shape });
}

function axisSpec(a: AxisArg): rlx.AxisSpec {
  if (a === 'ax') return rlx.ax();
  if (Array.isArray(a)) return rlx.rg(a[0], a[1], a[2]);
  return rlx.ix(a.ix);
}

/** Runs a case's program with rlx; returns the last result. */
function run(c: GoldenCase): rlx.Tensor {
  const env = new Map<string, rlx.Tensor>();
  for (const [k, spec] of Object.entries(c.inputs)) env.set(k, makeInput(spec));
  const get = (name: string): rlx.Tensor => {
    const t = env.get(name);
    if (!t) throw new Error(`golden program: unknown tensor '${name}'`);
    return t;
  };
  const arg = (a: Arg): unknown => {
    if (typeof a === 'string') return get(a);
    if (a === null) return undefined;
    if (typeof a === 'number' || typeof a === 'boolean' || Array.isArray(a)) return a;
    if ('float' in a) return decode(a.float);
    if ('dtype' in a) return a.dtype;
    return rlx.s(...a.slice.map(axisSpec));
  };
  let last: rlx.Tensor | undefined;
  for (const [out, method, self, ...rawArgs] of c.ops) {
    const x = get(self);
    const args = rawArgs.map(arg);
    let r: rlx.Tensor;
    if (method === 'T') r = x.T;
    else if (method === 'where') r = rlx.where(x, args[0] as rlx.Operand, args[1] as rlx.Operand);
    else {
      const fn = (x as unknown as Record<string, unknown>)[method];
      if (typeof fn !== 'function') throw new Error(`golden program: rlx.Tensor has no method '${method}'`);
      r = (fn as (...a: unknown[]) => rlx.Tensor).apply(x, args);
    }
    env.set(out, r);
    last = r;
  }
  return last!;
}

const fmt = (x: number): string => (Object.is(x, -0) ? '-0' : String(x));

/** Compares element by element; returns a list of mismatch descriptions (empty = pass). */
function compare(got: ArrayLike<number>, c: GoldenCase, exp: Expected): string[] {
  const want = exp.values.map(decode);
  const lanes = rlx.isComplex(exp.dtype) ? 2 : 1;
  const bad: string[] = [];
  if (got.length !== want.length) return [`length ${got.length} != ${want.length}`];
  const tol = c.tol ?? 'exact';
  for (let i = 0; i < want.length; i += lanes) {
    const scale = lanes === 2 ? Math.hypot(want[i]!, want[i + 1]!) : Math.abs(want[i]!);
    for (let k = 0; k < lanes; k++) {
      const g = got[i + k]!,
        w = want[i + k]!;
      let ok: boolean;
      if (Number.isNaN(w)) ok = Number.isNaN(g);
      else if (!Number.isFinite(w) || tol === 'exact') ok = g === w;
      else ok = Math.abs(g - w) <= tol.atol + tol.rtol * (Number.isFinite(scale) ? scale : Math.abs(w));
      if (ok && c.signedZeros && w === 0) {
        // the sign of a zero is part of the answer: an exact zero must have the
        // same sign; a tiny nonzero (within tolerance) must lean the same way.
        ok = g === 0 ? Object.is(g, w) : Math.sign(g) === (Object.is(w, -0) ? -1 : 1);
      }
      if (!ok) {
        const el = (i / lanes) | 0;
        bad.push(
          lanes === 2
            ? `[${el}] ${k === 0 ? 're' : 'im'}: got ${fmt(g)} (element ${fmt(got[i]!)}${got[i + 1]! < 0 || Object.is(got[i + 1]!, -0) ? '' : '+'}${fmt(got[i + 1]!)}j), want ${fmt(w)} (element ${fmt(want[i]!)}${want[i + 1]! < 0 || Object.is(want[i + 1]!, -0) ? '' : '+'}${fmt(want[i + 1]!)}j)`
            : `[${el}]: got ${fmt(g)}, want ${fmt(w)}`,
        );
      }
    }
  }
  return bad;
}

describe('NumPy goldens (tests/golden/core.json)', () => {
  it('has the cases the generator writes', () => {
    expect(golden.length).toBeGreaterThanOrEqual(60);
    expect(new Set(golden.map((c) => c.name)).size).toBe(golden.length);
  });

  const groups = [...new Set(golden.map((c) => c.group))];
  for (const group of groups) {
    describe(group, () => {
      it.each(golden.filter((c) => c.group === group).map((c) => [c.name, c] as const))('%s', (_name, c) => {
        const e = c.expected;
        if ('error' in e) {
          // NumPy raises; rlx must raise too (at graph build or at realization).
          expect(() => run(c).toArray()).toThrow();
          return;
        }
        const r = run(c);
        expect({ dtype: r.dtype, shape: r.shape }).toEqual({ dtype: e.dtype, shape: e.shape });
        const bad = compare(r.toArray(), c, e);
        expect(bad, `mismatches (tol ${JSON.stringify(c.tol)}${c.signedZeros ? ', signed zeros' : ''})`).toEqual([]);
        if (c.str !== undefined) expect(r.toString()).toBe(c.str);
        if (c.repr !== undefined) expect(r.repr()).toBe(c.repr);
      });
    });
  }
});
