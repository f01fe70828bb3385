// integrate.solveIvp(method: 'BDF') against SciPy 1.10's BDF (goldens:
// tests/golden/integrate/stiff_bdf_gen.py → stiff_bdf.json). With the same
// Jacobian the port takes SciPy's steps: step times, nfev/njev/nlu, states,
// tEval points, dense output and event times are compared with SciPy's on
// Robertson's kinetics, Van der Pol μ = 1000, a 200-point reaction–diffusion
// problem with a sparse Jacobian, a constant sparse Jacobian, a complex stiff
// system, backwards integration with maxStep and a blow-up (status −1). The
// default Jacobian (jacfwd, exact) is compared with SciPy's finite-difference
// one: step counts within 20%, same solution. Plus the typed errors.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as rlx from '../../src/index.js';

const { integrate, sparse } = rlx;
type T = rlx.Tensor;
type Jac = NonNullable<rlx.integrate.SolveIvpOptions['jac']>;
const arr = (t: T): number[] => Array.from(t.toArray() as ArrayLike<number>);
const c = (y: T, i: number): T => y.select(0, i);
const host = (y: T): number[] => arr(y);

// ---- the generator's problems, with the same operations in the same order ----
const robertson = (_t: T, y: T): T => {
  const [a, b, d] = [0, 1, 2].map((i) => c(y, i)) as [T, T, T];
  return rlx.stack([a.mul(-0.04).add(b.mul(1e4).mul(d)), a.mul(0.04).sub(b.mul(1e4).mul(d)).sub(b.mul(3e7).mul(b)), b.mul(3e7).mul(b)]);
};
const robertsonJac = (_t: T, y: T): number[][] => {
  const [, b, d] = host(y) as [number, number, number];
  return [
    [-0.04, 1e4 * d, 1e4 * b],
    [0.04, -1e4 * d - 6e7 * b, -1e4 * b],
    [0, 6e7 * b, 0],
  ];
};
const MU = 1000;
const vdp = (_t: T, y: T): T => rlx.stack([c(y, 1), rlx.tensor(1).sub(c(y, 0).mul(c(y, 0))).mul(MU).mul(c(y, 1)).sub(c(y, 0))]);
const vdpJac = (_t: T, y: T): number[][] => {
  const [a, b] = host(y) as [number, number];
  return [
    [0, 1],
    [-2 * MU * a * b - 1, MU * (1 - a * a)],
  ];
};
// u_t = u_xx + u − u³ on N interior points, A = tridiag(1, −2, 1)/dx² (SciPy divides the entries by dx²).
const N = 200,
  DX = 1 / (N + 1),
  H2 = DX * DX;
const A = sparse.diags([new Float64Array(N - 1).fill(1 / H2), new Float64Array(N).fill(-2 / H2), new Float64Array(N - 1).fill(1 / H2)], [-1, 0, 1], [N, N]);
const rd = (_t: T, u: T): T => A.matvec(u).add(u.sub(u.mul(u).mul(u)));
const rdJacSparse = (_t: T, u: T): rlx.sparse.SparseMatrix => sparse.add(A, sparse.diags(host(u).map((v) => 1 - 3 * (v * v)), 0, [N, N]));
const heat = (_t: T, u: T): T => A.matvec(u);
const LAM = rlx.complex(rlx.tensor([-1000, -1]), rlx.tensor([20, 5]));
const linComplex = (_t: T, y: T): T => y.mul(LAM);
const linComplexJac = (): T => rlx.complex(rlx.tensor([[-1000, 0], [0, -1]]), rlx.tensor([[20, 0], [0, 5]]));
const relax = (t: T, y: T): T => y.sub(t.cos()).mul(50);
const blowup = (_t: T, y: T): T => y.mul(y);

const PROBLEMS: Record<string, { f: (t: T, y: T) => T; jac: Record<string, Jac> }> = {
  robertson: { f: robertson, jac: { analytic: robertsonJac } },
  vdp: { f: vdp, jac: { analytic: vdpJac } },
  rd: { f: rd, jac: { sparse: rdJacSparse } },
  heat: { f: heat, jac: { 'constant-sparse': A } },
  linComplex: { f: linComplex, jac: { analytic: linComplexJac } },
  relax: { f: relax, jac: { analytic: () => [[50]] } },
  blowup: { f: blowup, jac: { analytic: (_t: T, y: T) => [[2 * host(y)[0]!]] } },
};

interface Case {
  name: string; problem: string; jac: string; t_span: [number, number]; y0: number[] | [number, number][]; complex?: boolean;
  rtol: number; atol: number; max_step?: number; t_eval?: number[]; sol_t?: number[];
  events?: { component: number; offset: number; direction: number; terminal: boolean }[];
  expected: {
    t: number[]; nfev: number; njev: number; nlu: number; status: number; message: string; success: boolean;
    y?: number[][]; yRe?: number[][]; yIm?: number[][]; tEval?: number[]; yEval?: number[][]; yEvalRe?: number[][]; yEvalIm?: number[][];
    solT?: number[]; solY?: number[][]; solYRe?: number[][]; solYIm?: number[][]; tEvents?: number[][]; yEvents?: number[][][];
  };
}
const CASES = JSON.parse(readFileSync(new URL('../golden/integrate/stiff_bdf.json', import.meta.url), 'utf8')) as Case[];
const golden = (name: string): Case => {
  const k = CASES.find((x) => x.name === name);
  if (k === undefined) throw new Error(`no golden case '${name}'`);
  return k;
};

const y0Of = (k: Case): T => (k.complex ? rlx.complex(rlx.tensor((k.y0 as [number, number][]).map((p) => p[0])), rlx.tensor((k.y0 as [number, number][]).map((p) => p[1]))) : rlx.tensor(k.y0 as number[]));

function run(k: Case, extra: rlx.integrate.SolveIvpOptions = {}): rlx.integrate.SolveIvpResult {
  const p = PROBLEMS[k.problem]!;
  return integrate.solveIvp(p.f, k.t_span, y0Of(k), {
    method: 'BDF', rtol: k.rtol, atol: k.atol,
    ...(k.jac === 'numjac' ? {} : { jac: p.jac[k.jac]! }),
    ...(k.max_step !== undefined ? { maxStep: k.max_step } : {}),
    ...extra,
  });
}

/** Rows [m][n] as rlx stores them (complex: re, im interleaved per element). */
const flat = (re: number[][], im?: number[][]): number[] => re.flatMap((row, i) => (im ? row.flatMap((v, j) => [v, im[i]![j]!]) : row));

/**
 * max over elements of |a − b| / (atol + rtol·|b|): the difference in units of
 * the case's error tolerance (complex parts compared separately).
 */
function inTolUnits(a: number[], b: number[], k: Case): number {
  expect(a.length).toBe(b.length);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!) / (k.atol + k.rtol * Math.abs(b[i]!)));
  return m;
}

/** A counter equal to SciPy's within `frac` (relative). */
const near = (got: number, want: number, frac: number): void => {
  expect(Math.abs(got - want), `${got} vs SciPy's ${want}`).toBeLessThanOrEqual(frac * want);
};

/**
 * The same Jacobian as SciPy: counters within 2% (they are equal today), the
 * accepted step times within 1e-5 relative, the last state, the states at
 * SciPy's step times (through the dense output, so that a rounding-level shift
 * of a step time does not count), at tEval and sol(t) within 1% of the error
 * tolerance. The differences are rounding-level (NumPy's BLAS sums in another
 * order than the host loops): the last bit of a step time from the 8th step
 * on, growing to ~2e-6 relative across Van der Pol's jumps, where a state's
 * slope is O(μ) and so the states at step times are compared only when
 * stepStates. States of magnitude ≥ maxState are not compared.
 */
function matchesScipy(name: string, { maxState = Infinity, stepStates = true } = {}): void {
  const k = golden(name),
    e = k.expected;
  const r = run(k, { denseOutput: true });
  expect(r.status).toBe(e.status);
  expect(r.message).toBe(e.message);
  near(r.t.size, e.t.length, 0.02);
  near(r.nfev, e.nfev, 0.02);
  near(r.njev, e.njev, 0.02);
  near(r.nlu, e.nlu, 0.02);
  const ts = arr(r.t);
  for (let i = 0; i < Math.min(ts.length, e.t.length); i++) expect(Math.abs(ts[i]! - e.t[i]!)).toBeLessThanOrEqual(1e-5 * Math.max(1, Math.abs(e.t[i]!)));
  const row = k.y0.length * (k.complex ? 2 : 1);
  const want = flat(e.y ?? e.yRe!, e.yIm);
  const small = (v: number[], ref: number[]): number[] => v.filter((_, i) => Math.abs(ref[i]!) < maxState);
  const last = want.slice(-row);
  expect(inTolUnits(small(arr(r.y).slice(-row), last), small(last, last), k)).toBeLessThan(0.01);
  if (stepStates && want.length === row * e.t.length) expect(inTolUnits(small(arr(r.sol!(e.t)), want), small(want, want), k)).toBeLessThan(0.01);
  if (k.t_eval !== undefined) {
    const re = run(k, { tEval: k.t_eval });
    expect(re.nfev).toBe(r.nfev); // tEval and dense output cost no evaluations
    expect(arr(re.t)).toEqual(e.tEval);
    expect(inTolUnits(arr(re.y), flat(e.yEval ?? e.yEvalRe!, e.yEvalIm), k)).toBeLessThan(0.01);
  }
  if (k.sol_t !== undefined) {
    expect(inTolUnits(arr(r.sol!(k.sol_t)), flat(e.solY ?? e.solYRe!, e.solYIm), k)).toBeLessThan(0.01);
    expect(r.sol!(k.sol_t[0]!).shape).toEqual([k.y0.length]); // a scalar time gives y0's shape
  }
}

describe("solveIvp 'BDF' against SciPy 1.10 (same Jacobian)", () => {
  it("Robertson (rtol 1e-6, atol 1e-10 over [0, 1e5]): SciPy's steps, counters, tEval points and dense output", () => matchesScipy('robertson analytic jac'));
  it("Van der Pol μ = 1000 over [0, 3000]: SciPy's steps, counters, tEval points and dense output", () => matchesScipy('vdp analytic jac', { stepStates: false }));
  it('a sparse Jacobian (reaction–diffusion, 200 points): SciPy\'s steps; the dense Jacobian gives the same answer', () => {
    matchesScipy('reaction-diffusion sparse jac');
    const k = golden('reaction-diffusion sparse jac');
    const sp = run(k, { tEval: [0.5] });
    const dense = run(k, { tEval: [0.5], jac: (t: T, u: T) => rdJacSparse(t, u).toDense() });
    expect(dense.nfev).toBe(sp.nfev);
    expect(dense.nlu).toBe(sp.nlu);
    expect(inTolUnits(arr(dense.y), arr(sp.y), k)).toBeLessThan(1e-3);
  });
  it('a constant sparse Jacobian (heat equation): never re-evaluated (njev 0, as SciPy); a constant dense one agrees', () => {
    matchesScipy('heat constant sparse jac');
    const k = golden('heat constant sparse jac');
    const dense = run(k, { tEval: [0.1], jac: A.toDense() });
    expect([dense.njev, dense.nlu]).toEqual([0, k.expected.nlu]);
    expect(inTolUnits(arr(dense.y), flat(k.expected.yEval!.slice(-1)), k)).toBeLessThan(0.01);
  });
  it("a complex stiff system y' = diag(λ) y: SciPy's steps and the exact solution y0·exp(λt)", () => {
    matchesScipy('complex linear');
    const k = golden('complex linear');
    const r = run(k, { tEval: k.t_eval! });
    expect(r.y.dtype).toBe('complex128');
    const lam: [number, number][] = [[-1000, 20], [-1, 5]];
    const exact = k.t_eval!.flatMap((t) =>
      (k.y0 as [number, number][]).flatMap(([a, b], i) => {
        const [lr, li] = lam[i]!;
        const m = Math.exp(lr * t), cr = m * Math.cos(li * t), ci = m * Math.sin(li * t);
        return [a * cr - b * ci, a * ci + b * cr];
      }),
    );
    // The global error of the oscillating slow component (5 rad per unit of
    // time) accumulates: SciPy's own result is 82 tolerance units off at t = 2.
    expect(inTolUnits(arr(r.y), exact, k)).toBeLessThan(100);
  });
  it("backwards in time with maxStep: SciPy's steps (every step ≤ maxStep) and the slow manifold", () => {
    matchesScipy('relax backwards max_step');
    const k = golden('relax backwards max_step');
    const ts = arr(run(k).t);
    for (let i = 1; i < ts.length; i++) expect(ts[i - 1]! - ts[i]!).toBeGreaterThan(0), expect(ts[i - 1]! - ts[i]!).toBeLessThanOrEqual(0.05 * (1 + 1e-12));
  });
  it("a solution blowing up: status −1 with SciPy's message, at SciPy's step", () => {
    // Near the pole y = 1/(1 − t) a rounding-level difference in t is a large one in y (y' = y²): states compared up to 1e6.
    matchesScipy('blowup', { maxState: 1e6 });
    const k = golden('blowup');
    expect(arr(run(k).t).at(-1)).toBeCloseTo(k.expected.t.at(-1)!, 12);
  });
});

describe("solveIvp 'BDF' with the default Jacobian (jacfwd; SciPy: finite differences)", () => {
  for (const name of ['robertson numjac', 'vdp numjac']) {
    it(`${name.split(' ')[0]}: accepted steps within 20% of SciPy's, the same solution`, () => {
      const k = golden(name),
        e = k.expected;
      const r = run(k, { tEval: k.t_eval!, denseOutput: true });
      expect(r.status).toBe(0);
      near(r.sol!.ts.length, e.t.length, 0.2);
      near(r.nfev, e.nfev, 0.2);
      expect(inTolUnits(arr(r.y), flat(e.yEval!), k)).toBeLessThan(10);
    });
  }
});

describe("solveIvp 'BDF' through the driver", () => {
  it("a terminal event (Robertson's y0 falling through 0.5): SciPy's event time and state", () => {
    const k = golden('robertson terminal event'),
      e = k.expected;
    const s = k.events![0]!;
    const ev = Object.assign((_t: T, y: T) => c(y, s.component).sub(s.offset), { terminal: s.terminal, direction: s.direction });
    const r = run(k, { events: ev });
    expect([r.status, r.message]).toEqual([1, e.message]);
    expect([r.t.size, r.nfev, r.njev, r.nlu]).toEqual([e.t.length, e.nfev, e.njev, e.nlu]);
    const te = arr(r.tEvents![0]!);
    expect(te.length).toBe(1);
    expect(Math.abs(te[0]! - e.tEvents![0]![0]!)).toBeLessThan(1e-9 * e.tEvents![0]![0]!);
    expect(inTolUnits(arr(r.yEvents![0]!), e.yEvents![0]![0]!, k)).toBeLessThan(0.01);
    // The last stored state is the event's.
    expect(arr(r.t).at(-1)).toBe(te[0]);
  });
  it('dense output reproduces the stored states at the step times, and tEval agrees with sol', () => {
    const k = golden('robertson analytic jac');
    const r = run(k, { denseOutput: true });
    const ts = arr(r.t);
    expect(inTolUnits(arr(r.sol!(ts)), arr(r.y), k)).toBeLessThan(1e-6);
    const pts = [0.3, 7.5, 123, 5e4];
    const re = run(k, { tEval: pts });
    expect(inTolUnits(arr(re.y), arr(r.sol!(pts)), k)).toBeLessThan(1e-6);
  });
  it('an f that cannot be traced (it reads values) runs eagerly: the same steps as SciPy', () => {
    const k = golden('robertson analytic jac'),
      e = k.expected;
    const hostF = (_t: T, y: T): T => {
      const [a, b, d] = host(y) as [number, number, number];
      return rlx.tensor([-0.04 * a + 1e4 * b * d, 0.04 * a - 1e4 * b * d - 3e7 * b * b, 3e7 * b * b]);
    };
    const r = integrate.solveIvp(hostF, k.t_span, k.y0 as number[], { method: 'BDF', rtol: k.rtol, atol: k.atol, jac: robertsonJac });
    expect([r.t.size, r.nfev, r.njev, r.nlu]).toEqual([e.t.length, e.nfev, e.njev, e.nlu]);
    expect(inTolUnits(arr(r.y).slice(-3), e.y!.at(-1)!, k)).toBeLessThan(0.01);
  });
  it('an empty state and a zero-length interval finish at once', () => {
    const r = integrate.solveIvp((_t, y) => y, [0, 1], rlx.zeros([0]), { method: 'BDF' });
    expect([r.status, r.t.size]).toEqual([0, 2]);
    const z = integrate.solveIvp((_t, y) => y.neg(), [1, 1], [2], { method: 'BDF' });
    expect([z.status, ...arr(z.t), ...arr(z.y)]).toEqual([0, 1, 1, 2, 2]);
  });
});

describe("solveIvp 'BDF' errors", () => {
  const f = robertson,
    y0 = [1, 0, 0];
  it('a Jacobian of the wrong shape is a ShapeError (function or constant)', () => {
    expect(() => integrate.solveIvp(f, [0, 1], y0, { method: 'BDF', jac: () => [[1, 0], [0, 1]] })).toThrow(rlx.ShapeError);
    expect(() => integrate.solveIvp(f, [0, 1], y0, { method: 'BDF', jac: rlx.eye(4) })).toThrow(rlx.ShapeError);
    expect(() => integrate.solveIvp(f, [0, 1], y0, { method: 'BDF', jac: sparse.eye(2) })).toThrow(rlx.ShapeError);
  });
  it('a complex Jacobian for a real y0 is a DTypeError', () => {
    expect(() => integrate.solveIvp(f, [0, 1], y0, { method: 'BDF', jac: () => rlx.complex(rlx.eye(3), rlx.eye(3)) })).toThrow(rlx.DTypeError);
  });
  it('a jac returning garbage is a typed error', () => {
    const bad = (() => 'garbage') as unknown as Jac;
    expect(() => integrate.solveIvp(f, [0, 1], y0, { method: 'BDF', jac: bad })).toThrow(rlx.RlxError);
    expect(() => integrate.solveIvp(f, [0, 1], y0, { method: 'BDF', jac: bad })).toThrow(/jac\(t, y\) returned/);
  });
  it('a Jacobian that turns NaN mid-run makes the step collapse: status −1, no exception', () => {
    let calls = 0;
    const r = integrate.solveIvp(f, [0, 1e5], y0, { method: 'BDF', rtol: 1e-6, atol: 1e-10, jac: (t: T, y: T) => (++calls > 2 ? [[NaN, 0, 0], [0, NaN, 0], [0, 0, NaN]] : robertsonJac(t, y)) });
    expect([r.status, r.success, r.message]).toEqual([-1, false, 'Required step size is less than spacing between numbers.']);
  });
});
