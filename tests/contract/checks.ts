// The three checks of the public-API contract (issue 13 §1), run on every case
// of the tables cases-*.ts by contract.test.ts:
//
//   jvp   jvp(f)(x; v) matches a central finite difference along a random v
//         (checkJvpFd of tests/transforms/ad-harness.ts), or jvp throws a
//         TransformError when the case says so;
//   grad  grad of the scalar loss L(x) = Re Σ f(x)·W (W fixed random weights of
//         f's output shape) paired with v, Re Σ ∇L·v, matches the central
//         difference of L along v, or grad throws a TransformError. Under JAX's
//         complex convention (ARCHITECTURE.md "Complex convention") grad L =
//         ∂L/∂x − i ∂L/∂y, so the bilinear pairing Re Σ g·v (reDot) is exactly
//         the directional derivative for complex inputs too;
//   vmap  vmap(f) over a stacked batch of samples matches the per-example loop
//         (expectVmap of tests/transforms/vmap-harness.ts), or throws an RlxError.
//
// A case says which outcome it expects: a case that expects finite differences
// and gets a TransformError fails too (with a message saying so), so that a
// derivative that stops being supported does not go unnoticed. A silent zero
// gradient fails the FD comparison; a plain TypeError/Error fails every check.

import { expect } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { type InSpec, type FdOpts, type DirKind, type Fn, prng, sample, directions, toT, vals, reDot, checkJvpFd } from '../transforms/ad-harness.js';
import { expectVmap } from '../transforms/vmap-harness.js';

export type { InSpec, Fn, FdOpts };

/**
 * Why an export takes no Tensor (or takes one but has no value to differentiate
 * or batch): one word, from this closed list so the table stays reviewable.
 */
export type Reason =
  | 'class' // a class export; its prototype's methods are enumerated separately
  | 'error' // an error class
  | 'metadata' // shape, dtype, device, flags...: not values
  | 'readout' // returns numbers / arrays / strings, not a Tensor
  | 'printing'
  | 'dtype' // dtype tables and predicates
  | 'slicing' // slice-spec builders (numbers in, specs out)
  | 'key' // random keys and samplers: a Key and sizes in
  | 'sizes' // builders taking sizes and scalars only
  | 'config' // global settings
  | 'device' // backends and threads
  | 'compiler' // symbolic graphs, explain, the compile cache
  | 'io' // Matrix Market files and strings
  | 'raw' // raw Float64Array paths (the tensor paths are separate entries)
  | 'lifecycle' // dispose / refactor (mutates a native handle)
  | 'precision'; // a dtype policy (rounds to 8 or 11 significant bits): float64 finite differences cannot see its derivative; its own tests compare with float32

export interface Skip {
  none: Reason;
}

export type Expect = 'fd' | 'throws' | 'zero';

export interface Case {
  /** Distinguishes several cases of one export (e.g. 'complex'). */
  label?: string;
  /** The differentiable inputs (float64 or complex128); everything else is closed over. */
  specs: InSpec[];
  /** The export under test, as a function of the inputs, returning a Tensor. */
  f: Fn;
  /** Expected under jvp and grad: finite differences (default), a TransformError, or exactly zero (stopGradient). */
  ad?: Expect;
  /** Overrides `ad` for grad (e.g. forward mode only: whileLoop). */
  grad?: Expect;
  /** Expected under vmap: the per-example loop (default) or an RlxError. */
  vmap?: 'loop' | 'throws';
  /** FD tolerances (ad-harness defaults otherwise). */
  fd?: FdOpts;
  /** vmap comparison tolerance (default: rtol 1e-12, atol 1e-13; batched LAPACK may round differently). */
  vmapTol?: { rtol: number; atol: number };
  /** Direction kind for complex inputs (default 'mixed'). */
  dir?: DirKind;
}

export type Entry = Case | Case[] | Skip;
export type Table = Record<string, Entry>;

export const isSkip = (e: Entry): e is Skip => !Array.isArray(e) && 'none' in e;
export const casesOf = (e: Entry): Case[] => (isSkip(e) ? [] : Array.isArray(e) ? e : [e]);

/** A stable seed per case name, so a failure replays. */
export function seedOf(name: string): number {
  let h = 2166136261;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 16777619);
  return h >>> 0;
}

const describeError = (e: unknown): string => (e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e));
const isAssertion = (e: unknown): boolean => e instanceof Error && (e.name === 'AssertionError' || e.constructor.name === 'AssertionError');

/** Runs `run` and requires it to throw an instance of `cls` (an RlxError subclass). */
export function expectTyped(run: () => unknown, cls: abstract new (...a: never[]) => Error, what: string): void {
  let thrown: unknown = undefined,
    threw = false;
  try {
    run();
  } catch (e) {
    thrown = e;
    threw = true;
  }
  if (!threw) throw new Error(`${what}: expected a ${cls.name}, but nothing was thrown`);
  if (!(thrown instanceof cls)) throw new Error(`${what}: expected a ${cls.name}, got ${describeError(thrown)}`);
}

/** Runs a check that expects values; an exception becomes a message naming its class (typed or not). */
function expectValues(run: () => void, what: string): void {
  try {
    run();
  } catch (e) {
    if (isAssertion(e)) throw e;
    const typed = e instanceof rlx.RlxError;
    throw new Error(
      `${what}: threw ${describeError(e)}` +
        (typed ? ' (a typed error, allowed by the contract, but the case expects values: change the case if this is intended)' : ' (not an RlxError: the contract allows only typed errors)'),
    );
  }
}

/** A sample of the case's inputs from its seed. */
function draw(c: Case, seed: number) {
  const r = prng(seed);
  const s = sample(c.specs, r);
  const v = directions(c.specs, r, c.specs.some((x) => x.dtype === 'complex128') ? (c.dir ?? 'mixed') : 'mixed');
  return { r, s, v };
}

const inputs = (data: Float64Array[], specs: InSpec[], device: string): Tensor[] => data.map((d, i) => toT(d, specs[i]!, device));

/** The plain call: f must return a Tensor (otherwise the case itself is wrong). */
export function checkPlain(c: Case, seed: number, device: string, what: string): void {
  const { s } = draw(c, seed);
  const y = c.f(...inputs(s.data, s.specs, device));
  if (!(y instanceof rlx.Tensor)) throw new Error(`${what}: the case's f must return a Tensor, got ${typeof y}`);
  y.realize();
}

export function checkJvp(c: Case, seed: number, device: string, what: string): void {
  const { s, v } = draw(c, seed);
  if (c.ad === 'throws') {
    expectTyped(() => rlx.jvp(c.f, inputs(s.data, s.specs, device), inputs(v, s.specs, device)), rlx.TransformError, `${what}: jvp`);
    return;
  }
  if (c.ad === 'zero') {
    const [, t] = rlx.jvp(c.f, inputs(s.data, s.specs, device), inputs(v, s.specs, device)) as [Tensor, Tensor];
    expect(Array.from(vals(t)).every((x) => x === 0), `${what}: jvp: the tangent must be exactly zero`).toBe(true);
    return;
  }
  expectValues(() => checkJvpFd(c.f, s, v, device, c.fd), `${what}: jvp`);
}

/** y in float64 / complex128 (integer and boolean outputs as float64). */
const wide = (y: Tensor): Tensor => (y.dtype === 'complex128' || y.dtype === 'float64' ? y : y.dtype === 'complex64' ? y.cast('complex128') : y.cast('float64'));

/** Re Σ y·W as a real scalar tensor. */
function weightedSum(y: Tensor, W: Tensor): Tensor {
  const p = wide(y).mul(W).sum();
  return p.dtype === 'complex128' ? p.real() : p;
}

export function checkGrad(c: Case, seed: number, device: string, what: string): void {
  const { r, s, v } = draw(c, seed);
  let y0!: Tensor;
  expectValues(() => void (y0 = c.f(...inputs(s.data, s.specs, device))), `${what}: grad: the plain call`);
  const cplxOut = y0.dtype === 'complex128' || y0.dtype === 'complex64';
  const wData = new Float64Array(y0.size * (cplxOut ? 2 : 1)).map(() => 2 * r() - 1);
  const W = rlx.fromStorage(wData, y0.shape, cplxOut ? 'complex128' : 'float64').on(device);
  const loss = (...xs: Tensor[]) => weightedSum(c.f(...xs), W);
  const argnums = c.specs.map((_, i) => i);
  const mode = c.grad ?? c.ad ?? 'fd';
  if (mode === 'zero') {
    const gs = rlx.grad(loss, { argnums })(...inputs(s.data, s.specs, device)) as Tensor[];
    expect(gs.every((g) => Array.from(vals(g)).every((x) => x === 0)), `${what}: grad: the gradient must be exactly zero`).toBe(true);
    return;
  }
  if (mode === 'throws') {
    expectTyped(() => (rlx.grad(loss, { argnums })(...inputs(s.data, s.specs, device)) as Tensor[]).forEach((g) => g.realize()), rlx.TransformError, `${what}: grad`);
    return;
  }
  expectValues(() => {
    const gs = rlx.grad(loss, { argnums })(...inputs(s.data, s.specs, device)) as Tensor[];
    expect(gs.length, `${what}: one gradient per input`).toBe(c.specs.length);
    let lhs = 0;
    gs.forEach((g, i) => {
      const spec = s.specs[i]!;
      const cp = spec.dtype === 'complex128';
      expect(g.shape, `${what}: gradient ${i} shape`).toEqual(spec.shape);
      expect(g.dtype, `${what}: gradient ${i} dtype`).toBe(spec.dtype ?? 'float64');
      lhs += reDot(vals(g), cp, v[i]!, cp).v;
    });
    const h = c.fd?.h ?? 1e-6,
      rtol = c.fd?.rtol ?? 1e-6,
      atolScale = c.fd?.atolScale ?? 1e-7;
    const at = (sgn: number) => {
      const ys = c.f(...inputs(s.data.map((d, i) => d.map((x, k) => x + sgn * h * v[i]![k]!)), s.specs, device));
      const l = vals(weightedSum(ys, W))[0]!;
      // The rounding error of L scales with the size of its terms Σ|y|·|W|.
      return { l, mag: reDot(vals(wide(ys)), cplxOut, wData, cplxOut).mag };
    };
    const p = at(1),
      m = at(-1);
    const fd = (p.l - m.l) / (2 * h);
    const tol = rtol * Math.abs(fd) + atolScale * (1 + Math.max(p.mag, m.mag));
    if (!(Math.abs(lhs - fd) <= tol)) {
      throw new Error(`${what}: grad: Re Σ ∇L·v = ${lhs} but the central difference of L gives ${fd} (|diff| ${Math.abs(lhs - fd)} > tol ${tol})` + (lhs === 0 && fd !== 0 ? ' — a silent zero gradient' : ''));
    }
  }, `${what}: grad`);
}

const B = 3;

export function checkVmap(c: Case, seed: number, device: string, what: string): void {
  const r = prng(seed ^ 0x5bd1e995);
  const samples = Array.from({ length: B }, () => sample(c.specs, r));
  const args = c.specs.map((spec, i) => rlx.stack(samples.map((sm) => toT(sm.data[i]!, spec, device)), 0));
  const inAxes = c.specs.map(() => 0);
  if (c.vmap === 'throws') {
    expectTyped(() => (rlx.vmap(c.f, { inAxes })(...args) as Tensor).realize(), rlx.RlxError, `${what}: vmap`);
    return;
  }
  const tol = c.vmapTol ?? { rtol: 1e-12, atol: 1e-13 };
  expectValues(() => expectVmap(c.f, args, inAxes, 0, `${what}: vmap`, tol), `${what}: vmap`);
}
