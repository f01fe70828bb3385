// Helpers for the autodiff rule tests (tests/transforms/ad-*.test.ts):
// deterministic random inputs from a fast-check seed, central finite differences
// along a direction, and the dot-product test that ties a VJP to its JVP.
//
// Pairing: <a, b> = Re(sum(a * b)) (bilinear, no conjugation), the one the VJP
// rules are transposes under. The checks are
//   JVP:  jvp(f)(x; v)            ≈ (f(x + h v) - f(x - h v)) / (2h)
//   VJP:  Re<u, jvp(f)(x; v)>     = Σ_i Re<vjp(f)(x)(u)_i, v_i>
//
// FD tolerance. With h = 1e-6 in float64 the central difference has a truncation
// error h²·|f'''|/6 ≈ 1e-13·|f'''| and a rounding error ≈ eps·|f|/h ≈ 2e-10·|f|
// (eps = 2.2e-16; a few roundings per evaluation). The check is
//   |jvp - fd| <= rtol·|fd| + atol,  rtol = 1e-6,  atol = 1e-7·(1 + max|f(x)|)
// i.e. ~500x the rounding bound, relative to the output's magnitude (the rounding
// error scales with |f|, not with |f'|). The test domains keep |f'''| moderate.
//
// Dot-product tolerance: both sides are sums of the same products computed in a
// different order: |lhs - rhs| <= 1e-9·(Σ|u|·|Jv| + Σ|g|·|v|) + 1e-12.
//
// Devices: the tests run once per available backend (describe.each(DEVICES));
// every input and cotangent is pinned to that device (toT), so f, its JVP and
// its VJP compute there, and checkJvpFd checks that the output and tangent stay.

import fc from 'fast-check';
import { expect } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import '../harness/allclose.js';
import { mulberry32 as prng } from '../harness/prng.js';
export { prng };

export type Real = 'float64';
export type DT = 'float64' | 'complex128';

const sizeOf = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);
const lanes = (d: DT) => (d === 'complex128' ? 2 : 1);

/** One input: shape, dtype and the value domain (uniform in [lo, hi] per real component). */
export interface InSpec {
  shape: number[];
  dtype?: DT;
  lo?: number;
  hi?: number;
  /** Custom sampler per real component (overrides lo/hi). */
  sample?: (r: () => number) => number;
}

export interface Sample {
  specs: InSpec[];
  data: Float64Array[];
}

export function sample(specs: InSpec[], r: () => number): Sample {
  return {
    specs,
    data: specs.map((s) => {
      const d = s.dtype ?? 'float64';
      const lo = s.lo ?? -2,
        hi = s.hi ?? 2;
      const a = new Float64Array(sizeOf(s.shape) * lanes(d));
      for (let i = 0; i < a.length; i++) a[i] = s.sample ? s.sample(r) : lo + (hi - lo) * r();
      return a;
    }),
  };
}

/** A tensor holding a copy of `data`, pinned to `device` (computations on it run there). */
export const toT = (data: Float64Array, spec: InSpec, device: string): Tensor => rlx.fromStorage(data.slice(), spec.shape, spec.dtype ?? 'float64').on(device);

/** Flat float64 values of a float or complex tensor (complex interleaved). */
export const vals = (t: Tensor): Float64Array => Float64Array.from(t.toArray() as ArrayLike<number>);

/** Re(sum(a * b)) for flat storage of real (1 lane) or complex (2 lanes) arrays of n elements. */
export function reDot(a: Float64Array, ac: boolean, b: Float64Array, bc: boolean): { v: number; mag: number } {
  const n = ac ? a.length / 2 : a.length;
  let v = 0,
    mag = 0;
  for (let i = 0; i < n; i++) {
    const ar = ac ? a[2 * i]! : a[i]!,
      ai = ac ? a[2 * i + 1]! : 0;
    const br = bc ? b[2 * i]! : b[i]!,
      bi = bc ? b[2 * i + 1]! : 0;
    v += ar * br - ai * bi;
    mag += Math.hypot(ar, ai) * Math.hypot(br, bi);
  }
  return { v, mag };
}

/** Direction kinds for complex inputs: along the real axis, the imaginary axis, or both. */
export type DirKind = 'real' | 'imag' | 'mixed';

/** A random direction per input (components in [-1, 1]); complex ones restricted by `kind`. */
export function directions(specs: InSpec[], r: () => number, kind: DirKind): Float64Array[] {
  return specs.map((s) => {
    const c = (s.dtype ?? 'float64') === 'complex128';
    const a = new Float64Array(sizeOf(s.shape) * (c ? 2 : 1));
    for (let i = 0; i < a.length; i++) {
      const im = c && i % 2 === 1;
      a[i] = c && ((kind === 'real' && im) || (kind === 'imag' && !im)) ? 0 : 2 * r() - 1;
    }
    return a;
  });
}

export type Fn = (...xs: Tensor[]) => Tensor;

export interface FdOpts {
  h?: number;
  rtol?: number;
  /** atol = atolScale · (1 + max |f(x)|). */
  atolScale?: number;
}

/** JVP at s along v vs a central finite difference; also checks jvp's primal output equals f(x). */
export function checkJvpFd(f: Fn, s: Sample, v: Float64Array[], device: string, o: FdOpts = {}): void {
  const h = o.h ?? 1e-6,
    rtol = o.rtol ?? 1e-6,
    atolScale = o.atolScale ?? 1e-7;
  const xs = s.data.map((d, i) => toT(d, s.specs[i]!, device));
  const ts = v.map((d, i) => toT(d, s.specs[i]!, device));
  const [y, t] = rlx.jvp(f, xs, ts) as [Tensor, Tensor];
  expect(y.device, 'the primal output stays on the inputs\' device').toBe(device);
  expect(t.device, 'the tangent stays on the inputs\' device').toBe(device);
  const fx = vals(f(...s.data.map((d, i) => toT(d, s.specs[i]!, device))));
  expect(vals(y)).toBeAllclose(fx, { rtol: 0, atol: 0 });
  const shifted = (sgn: number) => vals(f(...s.data.map((d, i) => toT(d.map((x, k) => x + sgn * h * v[i]![k]!), s.specs[i]!, device))));
  const fp = shifted(1),
    fm = shifted(-1);
  const fd = fp.map((p, k) => (p - fm[k]!) / (2 * h));
  let scale = 0;
  for (const a of [fx, fp, fm]) for (const x of a) scale = Math.max(scale, Math.abs(x));
  const tv = vals(t);
  expect(tv.length).toBe(fd.length);
  expect(tv).toBeAllclose(fd, { rtol, atol: atolScale * (1 + scale) });
}

/** Re<u, J v> = Σ Re<Jᵀ u, v> with the pairing above. */
export function checkVjpDot(f: Fn, s: Sample, v: Float64Array[], r: () => number, device: string): void {
  const xs = s.data.map((d, i) => toT(d, s.specs[i]!, device));
  const [y, t] = rlx.jvp(f, xs, v.map((d, i) => toT(d, s.specs[i]!, device))) as [Tensor, Tensor];
  const yc = y.dtype === 'complex128';
  const u = new Float64Array(sizeOf(y.shape) * (yc ? 2 : 1)).map(() => 2 * r() - 1);
  const [, back] = rlx.vjp(f, ...s.data.map((d, i) => toT(d, s.specs[i]!, device)));
  const gs = back(rlx.fromStorage(u.slice(), y.shape, y.dtype).on(device)) as Tensor[];
  expect(gs.length).toBe(xs.length);
  const lhs = reDot(u, yc, vals(t), yc);
  let rhs = 0,
    mag = 0;
  gs.forEach((g, i) => {
    const c = (s.specs[i]!.dtype ?? 'float64') === 'complex128';
    expect(g.dtype).toBe(s.specs[i]!.dtype ?? 'float64');
    expect(g.shape).toEqual(s.specs[i]!.shape);
    const d = reDot(vals(g), c, v[i]!, c);
    rhs += d.v;
    mag += d.mag;
  });
  expect(Math.abs(lhs.v - rhs)).toBeLessThanOrEqual(1e-9 * (lhs.mag + mag) + 1e-12);
}

/** Random helpers for case builders. */
export const rint = (r: () => number, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
export const rshape = (r: () => number, minRank: number, maxRank: number, minDim = 1, maxDim = 4): number[] =>
  Array.from({ length: rint(r, minRank, maxRank) }, () => rint(r, minDim, maxDim));
/** A random subset of 0..n-1 (sorted), possibly empty. */
export const rsubset = (r: () => number, n: number): number[] => [...Array(n).keys()].filter(() => r() < 0.5);
export function rperm(r: () => number, n: number): number[] {
  const p = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = rint(r, 0, i);
    [p[i], p[j]] = [p[j]!, p[i]!];
  }
  return p;
}

/** fast-check runs per property (RLX_FC_RUNS scales them for a soak run). */
const envRuns = Number(process.env['RLX_FC_RUNS']);
export const AD_RUNS = Number.isFinite(envRuns) && envRuns > 0 ? envRuns : 20;

export interface AdCase {
  name: string;
  /** Input specs, or a builder of specs and f from a random source (varying shapes, axes, indices). */
  specs: InSpec[] | ((r: () => number) => { specs: InSpec[]; f: Fn });
  f?: Fn;
  fd?: FdOpts;
  /** Direction kinds to try on complex inputs (default all three). */
  dirs?: DirKind[];
}

/** Runs both checks on `runs` random samples of a case, with every input pinned to `device`. */
export function checkCase(c: AdCase, device: string, runs = AD_RUNS): void {
  const complexIn = (specs: InSpec[]) => specs.some((s) => s.dtype === 'complex128');
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), fc.constantFrom<DirKind>(...(c.dirs ?? ['real', 'imag', 'mixed'])), (seed, kind) => {
      const r = prng(seed);
      const { specs, f } = typeof c.specs === 'function' ? c.specs(r) : { specs: c.specs, f: c.f! };
      const s = sample(specs, r);
      const v = directions(specs, r, complexIn(specs) ? kind : 'mixed');
      checkJvpFd(f, s, v, device, c.fd);
      checkVjpDot(f, s, v, r, device);
    }),
    { numRuns: runs },
  );
}
