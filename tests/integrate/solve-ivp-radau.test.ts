// integrate.solveIvp(method: 'Radau') against SciPy 1.10's Radau (goldens:
// tests/golden/integrate/stiff_radau_gen.py → stiff_radau.json): Van der Pol
// μ = 1000 and Robertson with the analytic Jacobian (same steps and counters
// as SciPy up to rounding) and with the default one (rlx: jacfwd, SciPy: finite
// differences), a sparse Jacobian, a complex state (SciPy's Radau extended to
// the complex domain in the script, and the exact solution), tEval, dense
// output and events through the driver, and the typed errors. The problems
// below are the script's, written with the same operations in the same order.

import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import * as rlx from '../../src/index.js';

const { integrate, sparse } = rlx;
type T = rlx.Tensor;
const arr = (t: T): number[] => Array.from(t.toArray() as ArrayLike<number>);
const c = (y: T, i: number): T => y.select(0, i);
const host = (y: T): Float64Array => Float64Array.from(y.toArray() as ArrayLike<number>);

const vdpOf = (mu: number) => ({
  f: (_t: T, y: T): T => rlx.stack([c(y, 1), rlx.tensor(mu).mul(rlx.tensor(1).sub(c(y, 0).mul(c(y, 0)))).mul(c(y, 1)).sub(c(y, 0))]),
  jac: (_t: T, y: T): T => {
    const [a, b] = host(y) as unknown as [number, number];
    return rlx.tensor([[0, 1], [-2 * mu * a * b - 1, mu * (1 - a * a)]]);
  },
});
const N_HEAT = 200;
const DX = 1 / (N_HEAT + 1);
const A_HEAT = sparse.scale(sparse.diags([1, -2, 1], [-1, 0, 1], [N_HEAT, N_HEAT]), 1 / (DX * DX));
const L1: [number, number] = [-500, 50],
  L2: [number, number] = [-2, 10];
const M_CPLX = rlx.complex(rlx.tensor([[L1[0], 1], [0, L2[0]]]), rlx.tensor([[L1[1], 0], [0, L2[1]]]));

type Jac = (t: T, y: T) => unknown;
const PROBLEMS: Record<string, { f: (t: T, y: T) => T; jac: Record<string, Jac> }> = {
  vdp1000: { f: vdpOf(1000).f, jac: { analytic: vdpOf(1000).jac } },
  vdp10: { f: vdpOf(10).f, jac: { analytic: vdpOf(10).jac } },
  robertson: {
    f: (_t, y) => {
      const [a, b, d] = [0, 1, 2].map((i) => c(y, i)) as [T, T, T];
      return rlx.stack([a.mul(-0.04).add(b.mul(1e4).mul(d)), a.mul(0.04).sub(b.mul(1e4).mul(d)).sub(b.mul(3e7).mul(b)), b.mul(3e7).mul(b)]);
    },
    jac: {
      analytic: (_t, y) => {
        const [, b, d] = host(y) as unknown as [number, number, number];
        return rlx.tensor([[-0.04, 1e4 * d, 1e4 * b], [0.04, -1e4 * d - 6e7 * b, -1e4 * b], [0, 6e7 * b, 0]]);
      },
    },
  },
  heat: {
    f: (_t, y) => A_HEAT.matmul(y).sub(y.mul(y).mul(y)),
    jac: {
      sparse: (_t, y) => sparse.sub(A_HEAT, sparse.diags(Array.from(host(y), (u) => 3 * u * u), 0)),
      analytic: (_t, y) => {
        const d = A_HEAT.toDense().toArray() as Float64Array;
        const J = Float64Array.from(d);
        host(y).forEach((u, i) => (J[i * N_HEAT + i] -= 3 * u * u));
        return rlx.tensor(J, { shape: [N_HEAT, N_HEAT] });
      },
    },
  },
  blowup: { f: (_t, y) => y.mul(y), jac: { analytic: (_t, y) => rlx.tensor([[2 * host(y)[0]!]]) } },
  linComplex: { f: (_t, y) => M_CPLX.matmul(y), jac: { analytic: () => M_CPLX } },
};

interface Case {
  name: string; problem: string; jac: string | null; t_span: [number, number]; y0: number[] | [number, number][] | 'heat';
  complex?: boolean; rtol?: number; atol?: number | number[]; t_eval?: number[]; sol_t?: number[]; max_step?: number; first_step?: number;
  events?: { component: number; offset?: number; direction?: number; terminal?: boolean }[];
  expected: {
    ts: number[]; t: number[]; y?: number[][]; yRe?: number[][]; yIm?: number[][]; nfev: number; njev: number; nlu: number;
    status: number; message: string; solY?: number[][]; tEvents?: number[][]; yEvents?: number[][][];
    realified?: { steps: number; nfev: number; njev: number; nlu: number };
  };
}
const CASES: Case[] = JSON.parse(readFileSync(new URL('../golden/integrate/stiff_radau.json', import.meta.url), 'utf8'));
const kase = (name: string): Case => CASES.find((k) => k.name === name) ?? (() => { throw new Error(`no golden case '${name}'`); })();

const heatY0 = (): number[] => Array.from({ length: N_HEAT }, (_, i) => 2 * Math.sin(Math.PI * DX * (i + 1)));
function run(k: Case, jacOverride?: 'default') {
  const p = PROBLEMS[k.problem]!;
  const y0 = k.y0 === 'heat' ? rlx.tensor(heatY0()) : k.complex ? rlx.complex(rlx.tensor((k.y0 as [number, number][]).map((q) => q[0])), rlx.tensor((k.y0 as [number, number][]).map((q) => q[1]))) : rlx.tensor(k.y0 as number[]);
  const events = k.events?.map((s) => Object.assign((_t: T, y: T) => c(y, s.component).sub(s.offset ?? 0), { terminal: s.terminal ?? false, direction: s.direction ?? 0 }));
  return integrate.solveIvp(p.f, k.t_span, y0, {
    method: 'Radau', rtol: k.rtol ?? 1e-3, atol: k.atol ?? 1e-6, denseOutput: true,
    ...(k.jac === null || jacOverride === 'default' ? {} : { jac: p.jac[k.jac]! as never }),
    ...(k.t_eval ? { tEval: k.t_eval } : {}),
    ...(k.max_step ? { maxStep: k.max_step } : {}),
    ...(k.first_step ? { firstStep: k.first_step } : {}),
    ...(events ? { events } : {}),
  });
}
/** max |a − b| / (atol + rtol·|b|) over paired entries. */
function worst(a: ArrayLike<number>, b: ArrayLike<number>, rtol: number, atol: number): number {
  expect(a.length).toBe(b.length);
  let w = 0;
  for (let i = 0; i < a.length; i++) w = Math.max(w, Math.abs(a[i]! - b[i]!) / (atol + rtol * Math.abs(b[i]!)));
  return w;
}
const steps = (r: ReturnType<typeof run>): number => r.sol!.ts.length - 1;
const near = (got: number, want: number, frac: number): void => expect(Math.abs(got - want), `${got} vs ${want}`).toBeLessThanOrEqual(frac * want);

describe('solveIvp Radau: stiff problems against SciPy (analytic Jacobian)', () => {
  it('Van der Pol μ = 1000, rtol 1e-6: the same steps and counters as SciPy, the same trajectory', () => {
    const k = kase('vdp1000 analytic jac rtol 1e-6'), e = k.expected;
    const r = run(k);
    expect([steps(r), r.nfev, r.njev, r.nlu]).toEqual([e.ts.length - 1, e.nfev, e.njev, e.nlu]); // 919, 7702, 184, 636
    expect(arr(r.t)).toEqual(e.t);
    // Step times agree all along, to rounding amplified through the fast transitions
    // (rounding differs: SciPy's BLAS products use other summation orders and FMA).
    expect(worst(r.sol!.ts, e.ts, 1e-6, 1e-15)).toBeLessThan(1);
    expect(worst(arr(r.y), e.y!.flat(), 1e-7, 1e-9)).toBeLessThan(1);
  });
  // At rtol 1e-3 the loose Newton tolerance lets rounding differences change a few
  // accept/refresh decisions: rlx 287 steps, nfev 2869, njev 99, nlu 434 against 286, 2886, 98, 436.
  it('Van der Pol μ = 1000, default tolerances: counters within 2% of SciPy, states to the tolerance', () => {
    const k = kase('vdp1000 analytic jac default tolerances'), e = k.expected;
    const r = run(k);
    near(steps(r), e.ts.length - 1, 0.02); // 286
    near(r.nfev, e.nfev, 0.02);
    near(r.njev, e.njev, 0.05);
    near(r.nlu, e.nlu, 0.02);
    expect(worst(arr(r.y), e.y!.flat(), 1e-2, 1e-4)).toBeLessThan(1);
  });
  it('Robertson to 1e5 (vector atol): the same steps and counters as SciPy', () => {
    const k = kase('robertson analytic jac'), e = k.expected;
    const r = run(k);
    expect([steps(r), r.nfev, r.njev, r.nlu]).toEqual([e.ts.length - 1, e.nfev, e.njev, e.nlu]); // 78, 659, 38, 138
    expect(worst(r.sol!.ts, e.ts, 1e-9, 1e-15)).toBeLessThan(1);
    expect(worst(arr(r.y), e.y!.flat(), 1e-8, 1e-16)).toBeLessThan(1);
  });
  it('Robertson to 1e11, rtol 1e-6: the same steps and counters as SciPy', () => {
    const k = kase('robertson analytic jac to 1e11'), e = k.expected;
    const r = run(k);
    expect([steps(r), r.nfev, r.njev, r.nlu]).toEqual([e.ts.length - 1, e.nfev, e.njev, e.nlu]); // 400, 3240, 144, 472
    // Over 16 decades of t rounding drifts the step times apart by up to ~1e-4 (relative), the counts stay equal.
    expect(worst(r.sol!.ts, e.ts, 1e-3, 1e-15)).toBeLessThan(1);
    expect(worst(arr(r.y), e.y!.flat(), 1e-5, 1e-13)).toBeLessThan(1);
  });
});

describe('solveIvp Radau: the default Jacobian (jacfwd; SciPy: finite differences)', () => {
  for (const name of ['vdp1000 finite-difference jac rtol 1e-6', 'vdp1000 finite-difference jac default tolerances', 'robertson finite-difference jac']) {
    it(`${name}: accepted steps within 20% of SciPy's, states to the tolerance`, () => {
      const k = kase(name), e = k.expected;
      const r = run(k);
      near(steps(r), e.ts.length - 1, 0.2);
      near(r.nfev, e.nfev, 0.2);
      const loose = (k.rtol ?? 1e-3) >= 1e-3;
      const [rt, at] = k.problem === 'robertson' ? [1e-3, 1e-12] : loose ? [1e-2, 1e-4] : [1e-5, 1e-7];
      expect(worst(arr(r.y), e.y!.flat(), rt, at)).toBeLessThan(1);
    });
  }
});

describe('solveIvp Radau: a sparse Jacobian (1-D u_t = u_xx − u³, 200 points)', () => {
  it('sparse jac (sparse.splu of the Newton matrices) = dense jac = SciPy', () => {
    const ks = kase('heat sparse jac'), kd = kase('heat dense jac'), e = ks.expected;
    const rs = run(ks), rd = run(kd);
    for (const r of [rs, rd]) {
      expect([steps(r), r.nfev, r.njev, r.nlu]).toEqual([e.ts.length - 1, e.nfev, e.njev, e.nlu]); // 36, 263, 3, 18
      expect(worst(r.sol!.ts, e.ts, 1e-9, 1e-15)).toBeLessThan(1);
      expect(worst(arr(r.y), e.y!.flat(), 1e-8, 1e-12)).toBeLessThan(1);
    }
    expect(worst(arr(rs.y), arr(rd.y), 1e-10, 1e-14)).toBeLessThan(1);
  });
});

describe('solveIvp Radau: a complex state', () => {
  it("y' = M y, M = [[λ1, 1], [0, λ2]] complex: the exact solution, and the counters of SciPy's Radau extended to the complex domain", () => {
    const k = kase('complex linear system'), e = k.expected;
    const r = run(k);
    expect(r.y.dtype).toBe('complex128');
    expect([steps(r), r.nfev, r.njev, r.nlu]).toEqual([e.ts.length - 1, e.nfev, e.njev, e.nlu]); // 281, 1981, 2, 51
    // Exact: y2 = e^{λ2 t} b, y1 = e^{λ1 t} a + b (e^{λ2 t} − e^{λ1 t}) / (λ2 − λ1).
    const [[ar, ai], [br, bi]] = k.y0 as [number, number][] as [[number, number], [number, number]];
    const mul = (p: number[], q: number[]) => [p[0]! * q[0]! - p[1]! * q[1]!, p[0]! * q[1]! + p[1]! * q[0]!];
    const div = (p: number[], q: number[]) => { const d = q[0]! ** 2 + q[1]! ** 2; return [(p[0]! * q[0]! + p[1]! * q[1]!) / d, (p[1]! * q[0]! - p[0]! * q[1]!) / d]; };
    const ex = (l: number[], t: number) => [Math.exp(l[0]! * t) * Math.cos(l[1]! * t), Math.exp(l[0]! * t) * Math.sin(l[1]! * t)];
    const exact = k.t_eval!.flatMap((t) => {
      const e1 = ex(L1, t), e2 = ex(L2, t);
      const y2 = mul(e2, [br, bi]);
      const y1 = mul(e1, [ar, ai]).map((v, i) => v + mul([br, bi], div([e2[0]! - e1[0]!, e2[1]! - e1[1]!], [L2[0] - L1[0], L2[1] - L1[1]]))[i]!);
      return [...y1, ...y2];
    });
    expect(worst(arr(r.y), exact, 1e-4, 1e-7)).toBeLessThan(1);
    const golden = e.yRe!.flatMap((row, i) => row.flatMap((re, j) => [re, e.yIm![i]![j]!]));
    expect(worst(arr(r.y), golden, 1e-9, 1e-12)).toBeLessThan(1);
  });
});

describe('solveIvp Radau through the driver', () => {
  it('tEval and dense output (Van der Pol μ = 10): the points and sol(t) match SciPy', () => {
    const k = kase('vdp10 t_eval + dense output'), e = k.expected;
    const r = run(k);
    expect([steps(r), r.nfev, r.njev, r.nlu]).toEqual([e.ts.length - 1, e.nfev, e.njev, e.nlu]);
    expect(arr(r.t)).toEqual(e.t);
    expect(worst(arr(r.y), e.y!.flat(), 1e-7, 1e-10)).toBeLessThan(1);
    expect(worst(arr(r.sol!(k.sol_t!)), e.solY!.flat(), 1e-7, 1e-10)).toBeLessThan(1);
    expect(worst(arr(r.sol!(5.5)), e.solY![2]!, 1e-7, 1e-10)).toBeLessThan(1);
  });
  it('events: a terminal one ends the integration at its root, as in SciPy', () => {
    const k = kase('vdp10 events (terminal on the second)'), e = k.expected;
    const r = run(k);
    expect(r.status).toBe(1);
    expect(r.message).toBe(e.message);
    expect([steps(r), r.nfev, r.njev, r.nlu]).toEqual([e.ts.length - 1, e.nfev, e.njev, e.nlu]);
    r.tEvents!.forEach((te, i) => expect(worst(arr(te), e.tEvents![i]!, 1e-8, 1e-10)).toBeLessThan(1));
    r.yEvents!.forEach((ye, i) => expect(worst(arr(ye), e.yEvents![i]!.flat(), 1e-7, 1e-9)).toBeLessThan(1));
    expect(arr(r.t).at(-1)).toBe(arr(r.tEvents![1]!)[0]);
  });
  it("a step size collapsing (y' = y², y(0) = 1, blowing up at t = 1): status −1 with SciPy's message", () => {
    const k = kase('blowup: step size collapses'), e = k.expected;
    const r = run(k);
    expect(r.status).toBe(-1);
    expect(r.success).toBe(false);
    expect(r.message).toBe(e.message);
    expect([steps(r), r.nfev, r.njev, r.nlu]).toEqual([e.ts.length - 1, e.nfev, e.njev, e.nlu]); // 160, 1761, 28, 322
    expect(worst([arr(r.t).at(-1)!], [e.t.at(-1)!], 1e-12, 0)).toBeLessThan(1);
  });
  it('maxStep and firstStep, backwards in time: the same steps and counters as SciPy', () => {
    const k = kase('vdp10 max_step 0.25 first_step 1e-4, backwards'), e = k.expected;
    const r = run(k);
    expect([steps(r), r.nfev, r.njev, r.nlu]).toEqual([e.ts.length - 1, e.nfev, e.njev, e.nlu]); // 138, 1045, 14, 150
    expect(worst(r.sol!.ts, e.ts, 1e-6, 1e-15)).toBeLessThan(1);
    expect(worst(arr(r.y), e.y!.flat(), 1e-7, 1e-10)).toBeLessThan(1);
  });
  it('a complex sparse Jacobian gives the dense one\'s steps and values', () => {
    const k = kase('complex linear system');
    const dense = run(k);
    const S = sparse.fromDense(M_CPLX);
    const y0 = rlx.complex(rlx.tensor([1, 1]), rlx.tensor([1, -0.5]));
    const r = integrate.solveIvp(PROBLEMS.linComplex!.f, k.t_span, y0, { method: 'Radau', rtol: k.rtol, atol: k.atol as number, tEval: k.t_eval, jac: () => S });
    expect([r.nfev, r.njev, r.nlu]).toEqual([dense.nfev, dense.njev, dense.nlu]);
    expect(worst(arr(r.y), arr(dense.y), 1e-10, 1e-14)).toBeLessThan(1);
  });
  it('a constant Jacobian is never re-evaluated (njev 0, as SciPy) and gives the exact decay', () => {
    const r = integrate.solveIvp((_t, y) => y.mul(-50), [0, 1], [1, 2], { method: 'Radau', jac: [[-50, 0], [0, -50]], rtol: 1e-8, atol: 1e-12 });
    expect(r.njev).toBe(0);
    const yEnd = arr(r.y).slice(-2);
    expect(worst(yEnd, [Math.exp(-50), 2 * Math.exp(-50)], 1e-6, 1e-14)).toBeLessThan(1);
  });
  it('backwards integration and a zero-length interval', () => {
    const r = integrate.solveIvp((_t, y) => y.mul(-2), [1, 0], [1], { method: 'Radau', rtol: 1e-8, atol: 1e-12 });
    expect(r.status).toBe(0);
    expect(arr(r.t).at(-1)).toBe(0);
    expect(worst([arr(r.y).at(-1)!], [Math.exp(2)], 1e-6, 0)).toBeLessThan(1);
    const z = integrate.solveIvp((_t, y) => y.mul(-2), [0.5, 0.5], [3], { method: 'Radau', denseOutput: true });
    expect(arr(z.t)).toEqual([0.5, 0.5]);
    expect(arr(z.sol!(0.7))).toEqual([3]);
  });
});

describe('solveIvp Radau: errors', () => {
  const { ShapeError } = rlx;
  const f = vdpOf(10).f;
  it('a jac of the wrong shape is a ShapeError naming the expected shape', () => {
    expect(() => integrate.solveIvp(f, [0, 1], [2, 0], { method: 'Radau', jac: () => rlx.zeros([3, 3]) })).toThrow(ShapeError);
    expect(() => integrate.solveIvp(f, [0, 1], [2, 0], { method: 'Radau', jac: [[1, 2, 3]] })).toThrow(/\[2, 2\]/);
    expect(() => integrate.solveIvp(f, [0, 1], [2, 0], { method: 'Radau', jac: sparse.eye(3) })).toThrow(ShapeError);
  });
});
