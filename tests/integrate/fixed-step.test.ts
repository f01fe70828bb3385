// integrate.rk4 / velocityVerlet / leapfrog / crankNicolson against independent
// references: closed forms (exp(λT), rotations, the exact discrete solution of
// the Verlet map for a harmonic oscillator, CN's exact amplification of an
// eigenmode), central differences in float64, and conserved quantities.

import { describe, expect, it, vi } from 'vitest';
import * as rlx from '../../src/index.js';
import * as factorModule from '../../src/sparse/factor.js';
import { DEVICES } from '../harness/devices.js';

// A spy on sparse.splu as crankNicolson imports it: counts factorizations.
vi.mock('../../src/sparse/factor.js', async (importOriginal) => {
  const orig = await importOriginal<typeof import('../../src/sparse/factor.js')>();
  return { ...orig, splu: vi.fn(orig.splu) };
});

const { integrate } = rlx;
type T = rlx.Tensor;
const arr = (t: T): number[] => Array.from(t.toArray() as ArrayLike<number>);

/** e^{λT}·y0 for complex λ = [re, im], y0 = 1: [re, im]. */
const cexp = ([a, b]: [number, number], T: number): [number, number] => [Math.exp(a * T) * Math.cos(b * T), Math.exp(a * T) * Math.sin(b * T)];

describe.each(DEVICES)('integrate.rk4 on %s', (device) => {
  const on = (t: T) => t.on(device);
  it('y\' = λy (real and complex λ): the global error falls as dt⁴', () => {
    const T = 2;
    for (const lam of [[-0.7, 0], [-0.3, 2]] as [number, number][]) {
      const complex = lam[1] !== 0;
      const L = complex ? rlx.complex(rlx.tensor(lam[0]), rlx.tensor(lam[1])) : rlx.tensor(lam[0]);
      const y0 = on(complex ? rlx.complex(rlx.tensor([1]), rlx.tensor([0])) : rlx.tensor([1]));
      const ref = cexp(lam, T);
      const errs = [10, 20, 40].map((N) => {
        const r = integrate.rk4((_t, y) => y.mul(L), y0, { dt: T / N, steps: N });
        expect(r.y.shape).toEqual([N + 1, 1]);
        expect(r.y.dtype).toBe(complex ? 'complex128' : 'float64');
        const v = arr(r.yFinal);
        return Math.hypot(v[0]! - ref[0], (complex ? v[1]! : 0) - ref[1]);
      });
      const ratios = [errs[0]! / errs[1]!, errs[1]! / errs[2]!];
      console.log(`rk4 y'=λy λ=${lam}: errors ${errs.map((e) => e.toExponential(2)).join(', ')}, ratios ${ratios.map((r) => r.toFixed(2)).join(', ')}`);
      for (const r of ratios) expect(r).toBeGreaterThan(14), expect(r).toBeLessThan(18);
    }
  });

  it('a 2-D linear system vs its closed-form exponential, and a time-dependent f', () => {
    // y' = B y, B = [[a, b], [−b, a]]: exp(BT) = e^{aT}·rotation by bT.
    const a = -0.2, b = 3, T = 1.5;
    const B = on(rlx.tensor([[a, b], [-b, a]]));
    const y0 = [0.5, -1.25];
    const c = Math.cos(b * T), s = Math.sin(b * T), e = Math.exp(a * T);
    const ref = [e * (c * y0[0]! + s * y0[1]!), e * (-s * y0[0]! + c * y0[1]!)];
    const errs = [50, 100].map((N) => {
      const v = arr(integrate.rk4((_t, y) => B.matmul(y), on(rlx.tensor(y0)), { dt: T / N, steps: N }).yFinal);
      return Math.hypot(v[0]! - ref[0]!, v[1]! - ref[1]!);
    });
    expect(errs[0]!).toBeLessThan(1e-5);
    expect(errs[0]! / errs[1]!).toBeGreaterThan(14);
    // Backwards (dt < 0) from the end returns to y0 within the method's error.
    const fwd = integrate.rk4((_t, y) => B.matmul(y), on(rlx.tensor(y0)), { dt: T / 100, steps: 100 });
    const back = integrate.rk4((_t, y) => B.matmul(y), fwd.yFinal, { dt: -T / 100, steps: 100, t0: T });
    expect(arr(back.t)[100]).toBeCloseTo(0, 14);
    arr(back.yFinal).forEach((v, i) => expect(v).toBeCloseTo(y0[i]!, 6));
    // y' = cos(t)·y from t0 = 0.5: y = y0·exp(sin t − sin t0). Checks the t the stages see.
    const t0 = 0.5, N = 200, dt = 0.01;
    const r = integrate.rk4((t, y) => y.mul(t.cos()), on(rlx.tensor([2])), { dt, steps: N, t0, saveEvery: 50 });
    expect(arr(r.t)).toEqual([0, 1, 2, 3, 4].map((k) => t0 + k * 50 * dt));
    arr(r.y).forEach((v, k) => expect(v).toBeCloseTo(2 * Math.exp(Math.sin(t0 + k * 50 * dt) - Math.sin(t0)), 9));
  });
});

describe('integrate.rk4: saving, derivatives, transforms', () => {
  const f = (_t: T, y: T) => y.sin().neg().add(y.mul(0.1));
  it('saveEvery keeps y0 and every k-th state; leftover steps still reach the final state; steps = 0', () => {
    const y0 = rlx.tensor([[0.3, -1], [2, 0.5]]);
    const all = integrate.rk4(f, y0, { dt: 0.05, steps: 10 });
    const some = integrate.rk4(f, y0, { dt: 0.05, steps: 10, saveEvery: 3 });
    expect(some.y.shape).toEqual([4, 2, 2]);
    expect(arr(some.t)).toEqual([0, 0.15000000000000002, 0.30000000000000004, 0.45000000000000007].map((_, k) => k * 3 * 0.05));
    for (let k = 0; k < 4; k++) {
      const a = arr(all.y.select(0, 3 * k)), b = arr(some.y.select(0, k));
      b.forEach((v, i) => expect(v).toBeCloseTo(a[i]!, 14));
    }
    arr(some.yFinal).forEach((v, i) => expect(v).toBeCloseTo(arr(all.y.select(0, 10))[i]!, 14));
    expect(arr(all.y.select(0, 0))).toEqual(arr(y0));
    const none = integrate.rk4(f, y0, { dt: 0.05, steps: 0 });
    expect(none.y.shape).toEqual([1, 2, 2]);
    expect(arr(none.yFinal)).toEqual(arr(y0));
  });

  it('float32 states stay float32 (t is float32 for them); integer y0 is integrated in float64', () => {
    const r = integrate.rk4((t, y) => y.mul(t), rlx.tensor([1, 2], { dtype: 'float32' }), { dt: 0.1, steps: 10 });
    expect(r.y.dtype).toBe('float32');
    // y' = t·y: y = y0·e^{t²/2} at t = 1 (float32 accuracy).
    arr(r.yFinal).forEach((v, i) => expect(v).toBeCloseTo([1, 2][i]! * Math.exp(0.5), 5));
    expect(integrate.rk4(f, rlx.tensor([1, 2], { dtype: 'int32' }), { dt: 0.1, steps: 1 }).y.dtype).toBe('float64');
  });

  it('grad w.r.t. y0 and a parameter f reads from the differentiated arguments, vs central differences', () => {
    const opts = { dt: 0.02, steps: 100, t0: 0.3 };
    const w = rlx.tensor([1, -2, 0.5]);
    const loss = (y0: T, k: T) => integrate.rk4((t, y) => y.sin().mul(k).neg().add(t.cos().mul(0.3)), y0, opts).y.mul(w.reshape([1, 3])).square().sum();
    const y0 = [0.4, -1.1, 2.0], k = [1.3];
    const [gy, gk] = rlx.grad(loss, { argnums: [0, 1] })(rlx.tensor(y0), rlx.tensor(k)) as [T, T];
    const at = (yy: number[], kk: number[]) => loss(rlx.tensor(yy), rlx.tensor(kk)).item() as number;
    const h = 1e-6;
    y0.forEach((_, i) => {
      const up = [...y0], dn = [...y0];
      up[i]! += h;
      dn[i]! -= h;
      expect(arr(gy)[i]).toBeCloseTo((at(up, k) - at(dn, k)) / (2 * h), 5);
    });
    expect(arr(gk)[0]).toBeCloseTo((at(y0, [k[0]! + h]) - at(y0, [k[0]! - h])) / (2 * h), 5);
  });

  it('jit compiles once for two y0 values (f traced once); vmap equals a loop', () => {
    let traces = 0;
    const g = (_t: T, y: T) => (traces++, f(_t, y));
    const opts = { dt: 0.1, steps: 20 };
    const jf = rlx.jit((y0: T) => integrate.rk4(g, y0, opts).y);
    const a = jf(rlx.tensor([0.1, 0.2])) as T;
    const tracesAfterFirst = traces;
    const b = jf(rlx.tensor([-1, 3])) as T;
    expect(tracesAfterFirst).toBeGreaterThan(0);
    expect(traces, 'the second call reuses the compiled function').toBe(tracesAfterFirst);
    expect(arr(a)).toEqual(arr(integrate.rk4(f, rlx.tensor([0.1, 0.2]), opts).y));
    expect(arr(b)).toEqual(arr(integrate.rk4(f, rlx.tensor([-1, 3]), opts).y));
    const ys = rlx.vmap((y0: T) => integrate.rk4(f, y0, opts).yFinal)(rlx.tensor([[0.1, 0.2], [-1, 3]])) as T;
    const loop = [arr(a.select(0, 20)), arr(b.select(0, 20))].flat();
    arr(ys).forEach((v, i) => expect(v).toBeCloseTo(loop[i]!, 14));
  });
});

/** Energies p²/2m + V(q) of saved rows (one coordinate per row). */
const energies = (q: number[], p: number[], V: (q: number) => number) => q.map((x, i) => p[i]! ** 2 / 2 + V(x));

describe('integrate.velocityVerlet / leapfrog', () => {
  it('harmonic oscillator over 10⁵ steps: q_n = cos(nθ), cos θ = 1 − dt²/2 (the exact discrete solution), energy error bounded', () => {
    const dt = 0.1, steps = 100_000;
    const t0 = performance.now();
    const r = integrate.velocityVerlet((q) => q.neg(), [1], [0], { dt, steps, saveEvery: 100 });
    const q = arr(r.q), p = arr(r.p);
    const ms = performance.now() - t0;
    const theta = Math.acos(1 - (dt * dt) / 2);
    const phaseErr = Math.max(...q.map((x, k) => Math.abs(x - Math.cos(100 * k * theta))));
    const E = energies(q, p, (x) => x * x / 2);
    const dE = E.map((e) => Math.abs(e - 0.5));
    const half = dE.length >> 1;
    const first = Math.max(...dE.slice(0, half)), second = Math.max(...dE.slice(half));
    console.log(`velocityVerlet 1e5 steps (saveEvery 100): ${ms.toFixed(0)} ms; max |q − cos nθ| ${phaseErr.toExponential(2)}; max |ΔE| first half ${first.toExponential(3)}, second half ${second.toExponential(3)}`);
    expect(q.length).toBe(1001);
    expect(phaseErr).toBeLessThan(1e-9);
    // The shadow-energy bound: |ΔE| ≤ dt²/8·(q² + ...) ≈ dt²/8 here, the same in both halves (no drift).
    expect(second).toBeLessThan((dt * dt) / 4);
    expect(second / first).toBeLessThan(1.01);
  });

  it('the phase matches cos(t) to O(dt²) for both forms; leapfrog is exact for free motion; masses', () => {
    const T = 10;
    for (const fn of [integrate.velocityVerlet, integrate.leapfrog]) {
      const errs = [100, 200].map((N) => Math.abs((arr(fn((q) => q.neg(), [1], [0], { dt: T / N, steps: N }).qFinal)[0]!) - Math.cos(T)));
      expect(errs[0]! / errs[1]!).toBeGreaterThan(3.8), expect(errs[0]! / errs[1]!).toBeLessThan(4.2);
    }
    // Free particles of two masses: q = q0 + t·p/m exactly (up to rounding).
    const free = integrate.leapfrog((q) => q.mul(0), [0, 1], [2, 3], { dt: 0.25, steps: 8, mass: rlx.tensor([2, 0.5]) });
    arr(free.qFinal).forEach((v, i) => expect(v).toBeCloseTo([0 + 2 * 2 / 2, 1 + 2 * 3 / 0.5][i]!, 13));
    // A spring with mass m: period 2π√m.
    const m = 4;
    const r = integrate.velocityVerlet((q) => q.neg(), [1], [0], { dt: 0.01, steps: Math.round(2 * Math.PI * 2 / 0.01), mass: m });
    expect(arr(r.qFinal)[0]).toBeCloseTo(1, 3);
  });

  it('grad and jvp through velocityVerlet: the harmonic map is linear, d q_N / d q0 = cos(Nθ) exactly', () => {
    const dt = 0.05, N = 400;
    const theta = Math.acos(1 - (dt * dt) / 2);
    const qN = (q0: T) => integrate.velocityVerlet((q) => q.neg(), q0, [0], { dt, steps: N }).qFinal.sum();
    expect((rlx.grad(qN)(rlx.tensor([0.7])) as T).item()).toBeCloseTo(Math.cos(N * theta), 12);
    const [, tan] = rlx.jvp(qN, [rlx.tensor([0.7])], [rlx.tensor([1])]) as [T, T];
    expect(tan.item()).toBeCloseTo(Math.cos(N * theta), 12);
  });

  it('a Kepler orbit (e = 0.5): Verlet\'s energy error stays bounded while RK4\'s drifts', () => {
    const e = 0.5, dt = 2 * Math.PI / 150, orbits = 60, steps = 150 * orbits;
    const q0 = [1 - e, 0], p0 = [0, Math.sqrt((1 + e) / (1 - e))];
    const E0 = (p0[1]! ** 2) / 2 - 1 / (1 - e);
    const kepler = (q: T) => q.div(q.square().sum().sqrt().pow(3)).neg();
    const energy = (q: number[], p: number[]) => Array.from({ length: q.length / 2 }, (_, k) => (p[2 * k]! ** 2 + p[2 * k + 1]! ** 2) / 2 - 1 / Math.hypot(q[2 * k]!, q[2 * k + 1]!));
    const save = 10; // 15 states per orbit
    const vv = integrate.velocityVerlet(kepler, q0, p0, { dt, steps, saveEvery: save });
    const Evv = energy(arr(vv.q), arr(vv.p)).map((x) => Math.abs(x - E0));
    const rk = integrate.rk4((_t, y) => rlx.cat([y.slice(rlx.s(rlx.rg(2, 4))), kepler(y.slice(rlx.s(rlx.rg(0, 2))))]), [...q0, ...p0], { dt, steps, saveEvery: save });
    const Y = arr(rk.y);
    const Erk = Array.from({ length: Y.length / 4 }, (_, k) => Math.abs((Y[4 * k + 2]! ** 2 + Y[4 * k + 3]! ** 2) / 2 - 1 / Math.hypot(Y[4 * k]!, Y[4 * k + 1]!) - E0));
    // Largest |ΔE| over orbits [a, b).
    const window = (E: number[], a: number, b: number) => Math.max(...E.slice(15 * a, 15 * b + 1));
    const vvFirst = window(Evv, 0, 10), vvLast = window(Evv, orbits - 10, orbits);
    const rkAt = (k: number) => Erk[15 * k]!; // at perihelion, after k orbits
    console.log(`Kepler e=0.5, ${steps} steps of T/150: Verlet max |ΔE| over orbits 0-10 ${vvFirst.toExponential(2)}, 50-60 ${vvLast.toExponential(2)}; RK4 |ΔE| after 10/30/60 orbits ${[10, 30, 60].map((k) => rkAt(k).toExponential(2)).join('/')}`);
    // RK4 drifts secularly (about linearly in time: ×6 from 10 to 60 orbits); Verlet's error oscillates within the same bound.
    expect(rkAt(60) / rkAt(10)).toBeGreaterThan(4);
    expect(rkAt(30)).toBeGreaterThan(rkAt(10));
    expect(rkAt(60)).toBeGreaterThan(rkAt(30));
    expect(vvLast / vvFirst).toBeLessThan(1.2);
  });
});

describe('integrate.crankNicolson', () => {
  const n = 40, h = 1 / (n + 1);
  const lap = rlx.sparse.scale(rlx.sparse.poisson1d(n), -1 / (h * h)); // u'' with Dirichlet ends: eigenvalues −(4/h²)sin²(kπh/2)
  const mode = (k: number) => Array.from({ length: n }, (_, j) => Math.sin(k * Math.PI * (j + 1) * h));
  const lam = (k: number) => -(4 / (h * h)) * Math.sin((k * Math.PI * h) / 2) ** 2;

  it('heat equation: a mode decays as ((1 + dtλ/2)/(1 − dtλ/2))ⁿ exactly, with ONE factorization', () => {
    const splu = factorModule.splu as unknown as ReturnType<typeof vi.fn>;
    splu.mockClear();
    const dt = 1e-3, steps = 300;
    for (const k of [1, 3]) {
      const g = (1 + (dt * lam(k)) / 2) / (1 - (dt * lam(k)) / 2);
      const r = integrate.crankNicolson(lap, mode(k), { dt, steps, saveEvery: 100 });
      const U = arr(r.u);
      expect(r.u.shape).toEqual([4, n]);
      for (let s = 0; s < 4; s++) U.slice(s * n, (s + 1) * n).forEach((v, j) => expect(v).toBeCloseTo(g ** (100 * s) * mode(k)[j]!, 12));
    }
    expect(splu, 'I − dt/2·A factored once, reused by both integrations and every step').toHaveBeenCalledTimes(1);
    // A dense A gives the same states.
    const r1 = integrate.crankNicolson(lap, mode(1), { dt, steps: 50 });
    const r2 = integrate.crankNicolson(lap.toDense(), mode(1), { dt, steps: 50 });
    arr(r2.uFinal).forEach((v, j) => expect(v).toBeCloseTo(arr(r1.uFinal)[j]!, 12));
    expect(splu).toHaveBeenCalledTimes(1);
  });

  it('Schrödinger (A = −iH): unitary (norm kept to rounding), eigenmodes rotate by the Cayley phase', () => {
    const H = rlx.sparse.scale(lap, -1); // H = −∂² ≥ 0
    const A = rlx.sparse.scale(H, [0, -1]);
    const dt = 2e-4, steps = 400;
    const x = Array.from({ length: n }, (_, j) => (j + 1) * h);
    const re = x.map((v) => Math.exp(-((v - 0.4) ** 2) / 0.005) * Math.cos(30 * v));
    const im = x.map((v) => Math.exp(-((v - 0.4) ** 2) / 0.005) * Math.sin(30 * v));
    const r = integrate.crankNicolson(A, rlx.complex(rlx.tensor(re), rlx.tensor(im)), { dt, steps, saveEvery: 100 });
    expect(r.u.dtype).toBe('complex128');
    const norm0 = Math.hypot(...re, ...im);
    const U = arr(r.u);
    for (let s = 0; s < 5; s++) expect(Math.hypot(...U.slice(2 * n * s, 2 * n * (s + 1))) / norm0).toBeCloseTo(1, 12);
    // H v = μ v ⇒ u_n = gⁿ v, g = (1 − iμdt/2)/(1 + iμdt/2).
    const mu = -lam(2);
    const phi = 2 * Math.atan((mu * dt) / 2); // g = e^{−iφ}
    const m = integrate.crankNicolson(A, mode(2), { dt, steps }).uFinal;
    const M = arr(m);
    mode(2).forEach((v, j) => {
      expect(M[2 * j]!).toBeCloseTo(v * Math.cos(steps * phi), 11);
      expect(M[2 * j + 1]!).toBeCloseTo(-v * Math.sin(steps * phi), 11);
    });
  });

  it('jit: compiled once for two u0, equal to the eager result; k systems at once ([n, k] u0)', () => {
    const opts = { dt: 1e-3, steps: 40 };
    const base = rlx.cacheStats().compiles;
    const jf = rlx.jit((u0: T) => integrate.crankNicolson(lap, u0, opts).uFinal);
    const a = arr(jf(rlx.tensor(mode(1))) as T);
    const afterFirst = rlx.cacheStats().compiles;
    const b = arr(jf(rlx.tensor(mode(2))) as T);
    expect(afterFirst).toBeGreaterThan(base);
    expect(rlx.cacheStats().compiles, 'the second call compiles nothing').toBe(afterFirst);
    const g = (k: number) => (1 + (opts.dt * lam(k)) / 2) / (1 - (opts.dt * lam(k)) / 2);
    a.forEach((v, j) => expect(v).toBeCloseTo(g(1) ** 40 * mode(1)[j]!, 12));
    b.forEach((v, j) => expect(v).toBeCloseTo(g(2) ** 40 * mode(2)[j]!, 12));
    // Both modes as the columns of one [n, 2] state.
    const both = arr(integrate.crankNicolson(lap, rlx.stack([rlx.tensor(mode(1)), rlx.tensor(mode(2))], 1), opts).uFinal);
    for (let j = 0; j < n; j++) expect(both[2 * j]).toBeCloseTo(a[j]!, 13), expect(both[2 * j + 1]).toBeCloseTo(b[j]!, 13);
  });

  it('grad w.r.t. u0 through the factored solves, vs central differences', () => {
    const w = rlx.tensor(Array.from({ length: n }, (_, j) => Math.cos(j)));
    const opts = { dt: 5e-3, steps: 30 };
    const loss = (u0: T) => integrate.crankNicolson(lap, u0, opts).uFinal.mul(w).sum().square();
    const u0 = Array.from({ length: n }, (_, j) => Math.sin(0.3 * j) + 0.1);
    const g = arr(rlx.grad(loss)(rlx.tensor(u0)) as T);
    const step = 1e-6;
    for (const i of [0, 7, 20, n - 1]) {
      const up = [...u0], dn = [...u0];
      up[i]! += step;
      dn[i]! -= step;
      const fd = ((loss(rlx.tensor(up)).item() as number) - (loss(rlx.tensor(dn)).item() as number)) / (2 * step);
      expect(g[i]).toBeCloseTo(fd, 6);
    }
  });
});

describe('integrate.crankNicolson: derivatives in A, vmap', () => {
  const A0 = [[-1, 0.5], [0.2, -2]];
  const opts = { dt: 0.1, steps: 5 };
  const lossDense = (a: T) => integrate.crankNicolson(a, [1, -0.5], opts).uFinal.mul(rlx.tensor([1, 2])).sum();
  it('grad w.r.t. a dense A and w.r.t. a sparse matrix\'s values agree with central differences', () => {
    const g = arr(rlx.grad(lossDense)(rlx.tensor(A0)) as T);
    const h = 1e-6;
    for (let e = 0; e < 4; e++) {
      const up = A0.map((r) => [...r]), dn = A0.map((r) => [...r]);
      up[e >> 1]![e & 1]! += h;
      dn[e >> 1]![e & 1]! -= h;
      expect(g[e]).toBeCloseTo(((lossDense(rlx.tensor(up)).item() as number) - (lossDense(rlx.tensor(dn)).item() as number)) / (2 * h), 7);
    }
    const lossSparse = (v: T) => integrate.crankNicolson(rlx.sparse.csr({ shape: [2, 2], indptr: [0, 2, 4], indices: [0, 1, 0, 1], data: v }), [1, -0.5], opts).uFinal.mul(rlx.tensor([1, 2])).sum();
    arr(rlx.grad(lossSparse)(rlx.tensor(A0.flat())) as T).forEach((v, e) => expect(v).toBeCloseTo(g[e]!, 12));
  });

  it('vmap over u0 equals the [n, k] form', () => {
    const P = rlx.sparse.poisson1d(5);
    const U = rlx.tensor([[1, 2, 3, 4, 5], [0, 1, 0, 1, 0]]);
    const v = arr(rlx.vmap((u0: T) => integrate.crankNicolson(P, u0, opts).uFinal)(U) as T);
    const cols = arr(integrate.crankNicolson(P, U.T, opts).uFinal.T);
    v.forEach((x, i) => expect(x).toBeCloseTo(cols[i]!, 13));
  });
});

describe('integrate: typed errors', () => {
  const f = (_t: T, y: T) => y.neg();
  const force = (q: T) => q.neg();
  it('non-finite initial states and matrices name the integrator, argument and position', () => {
    expect(() => integrate.rk4(f, [1, NaN], { dt: 0.1, steps: 2 })).toThrow(rlx.ValueError);
    expect(() => integrate.rk4(f, [1, NaN], { dt: 0.1, steps: 2 })).toThrow(/integrate\.rk4: y0: input must be finite, found NaN at \[1\]/);
    expect(() => integrate.velocityVerlet(force, [1], [Infinity], { dt: 0.1, steps: 2 })).toThrow(/integrate\.velocityVerlet: p0: .*Infinity at \[0\]/);
    expect(() => integrate.leapfrog(force, [[0, -Infinity]], [[0, 0]], { dt: 0.1, steps: 2 })).toThrow(/integrate\.leapfrog: q0: .*at \[0, 1\]/);
    expect(() => integrate.crankNicolson(rlx.sparse.poisson1d(3), [0, NaN, 0], { dt: 0.1, steps: 2 })).toThrow(/integrate\.crankNicolson: u0/);
    const bad = rlx.sparse.csr({ shape: [2, 2], indptr: [0, 1, 2], indices: [0, 1], data: [1, NaN] });
    expect(() => integrate.crankNicolson(bad, [1, 1], { dt: 0.1, steps: 2 })).toThrow(/integrate\.crankNicolson: A: .*NaN at \[1, 1\]/);
    expect(() => integrate.crankNicolson(rlx.tensor([[1, 0], [0, NaN]]), [1, 1], { dt: 0.1, steps: 2 })).toThrow(/integrate\.crankNicolson: A: .*\[1, 1\]/);
  });

  it('a right-hand side of the wrong shape, dtype or kind is caught at trace time', () => {
    const o = { dt: 0.1, steps: 3 };
    expect(() => integrate.rk4((_t, y) => y.sum(), [1, 2], o)).toThrow(rlx.ShapeError);
    expect(() => integrate.rk4((_t, y) => y.sum(), [1, 2], o)).toThrow(/integrate\.rk4: f\(t, y\) returned shape \[\], but y has shape \[2\]/);
    expect(() => integrate.rk4((_t, y) => rlx.complex(y, y), [1, 2], o)).toThrow(rlx.DTypeError);
    expect(() => integrate.rk4((_t, y) => rlx.complex(y, y), [1, 2], o)).toThrow(/returned dtype complex128, but y is float64/);
    expect(() => integrate.rk4((() => 3) as unknown as typeof f, [1, 2], o)).toThrow(/integrate\.rk4: f\(t, y\) must return a Tensor .* got number 3/);
    expect(() => integrate.velocityVerlet((q) => q.reshape([1, 2]), [1, 2], [0, 0], o)).toThrow(/integrate\.velocityVerlet: force\(q\) returned shape \[1, 2\], but q has shape \[2\]/);
    expect(() => integrate.rk4(3 as unknown as typeof f, [1], o)).toThrow(rlx.ValueError);
  });

  it('bad options and mismatched shapes', () => {
    for (const dt of [0, NaN, Infinity, '0.1']) expect(() => integrate.rk4(f, [1], { dt: dt as number, steps: 2 })).toThrow(/integrate\.rk4: dt must be a finite nonzero number/);
    for (const steps of [-1, 1.5, NaN]) expect(() => integrate.rk4(f, [1], { dt: 0.1, steps })).toThrow(/integrate\.rk4: steps must be a non-negative integer/);
    expect(() => integrate.rk4(f, [1], { dt: 0.1, steps: 2, saveEvery: 0 })).toThrow(/saveEvery must be a positive integer/);
    expect(() => integrate.rk4(f, [1], undefined as never)).toThrow(rlx.ValueError);
    expect(() => integrate.velocityVerlet(force, [1, 2], [0], { dt: 0.1, steps: 2 })).toThrow(rlx.ShapeError);
    expect(() => integrate.velocityVerlet(force, [1], [0], { dt: 0.1, steps: 2, mass: -1 })).toThrow(/integrate\.velocityVerlet: mass must be a finite positive number, got -1/);
    expect(() => integrate.leapfrog(force, [1, 2], [0, 0], { dt: 0.1, steps: 2, mass: [1, 0] })).toThrow(/integrate\.leapfrog: mass must be finite and positive, found 0/);
    expect(() => integrate.leapfrog(force, [1, 2], [0, 0], { dt: 0.1, steps: 2, mass: [1, 2, 3] })).toThrow(rlx.ShapeError);
    expect(() => integrate.crankNicolson(rlx.sparse.poisson1d(3), [1, 2], { dt: 0.1, steps: 2 })).toThrow(/integrate\.crankNicolson: u0 must be \[3\] or \[3, k\]/);
    expect(() => integrate.crankNicolson(rlx.tensor([[1, 2, 3]]), [1], { dt: 0.1, steps: 2 })).toThrow(/A must be a square matrix/);
    // I − dt/2·A singular: named at the factorization (sparse, eager) or when the lazy dense solve is read.
    expect(() => integrate.crankNicolson(rlx.sparse.scale(rlx.sparse.eye(3), 2), [1, 2, 3], { dt: 1, steps: 2 })).toThrow(/integrate\.crankNicolson: I − dt\/2·A \(dt = 1\): matrix is singular/);
    expect(() => integrate.crankNicolson(rlx.eye(3).mul(2), [1, 2, 3], { dt: 1, steps: 2 }).uFinal.toArray()).toThrow(rlx.linalg.SingularMatrixError);
  });
});
