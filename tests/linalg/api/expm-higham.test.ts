// linalg.expm on SciPy's expm test matrices (issue 13): Moler's badly scaled
// matrix, the Burkardt collection, triangular matrices that the 2005
// algorithm overscales (where even the diagonal came out wrong), the
// triangular logm round trip, Pascal, the exp_sinch overflow case, complex
// triangular and non-normal matrices, and each Padé degree. Golden values:
// scipy.linalg.expm of SciPy 1.10 (tests/linalg/golden/gen_expm_golden.py).
// Entrywise |got − want| ≤ rtol |want| + atol max|want|: the relative part
// holds small entries beside huge ones (Moler's 1.5e-9 beside 5.7e6).

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../../src/index.js';
import { DEVICES } from '../../harness/devices.js';

interface Enc {
  shape: number[];
  re: number[];
  im?: number[];
}
const G = JSON.parse(readFileSync(new URL('../golden/expm_golden.json', import.meta.url), 'utf8')) as { cases: Record<string, { a: Enc; expm: Enc; rtol?: number }> };
const NAMES = Object.keys(G.cases);

function tensorOf(e: Enc, dtype: 'float32' | 'float64' | 'complex64' | 'complex128', device: string): rlx.Tensor {
  const cplx = dtype.startsWith('complex');
  const n = e.re.length;
  const v = new Float64Array(cplx ? 2 * n : n);
  for (let i = 0; i < n; i++) {
    if (cplx) (v[2 * i] = e.re[i]!), (v[2 * i + 1] = e.im?.[i] ?? 0);
    else v[i] = e.re[i]!;
  }
  return rlx.tensor(v, { shape: e.shape, dtype }).on(device);
}

/** Largest entrywise violation ratio |got − want| / (rtol |want| + atol max|want|) (≤ 1 passes). */
function worst(got: rlx.Tensor, want: Enc, rtol: number, atol: number): number {
  const g = Array.from(got.toArray() as ArrayLike<number>);
  const cplx = got.dtype.startsWith('complex');
  const n = want.re.length;
  const wm = (i: number) => Math.hypot(want.re[i]!, want.im?.[i] ?? 0);
  let big = 0;
  for (let i = 0; i < n; i++) big = Math.max(big, wm(i));
  let w = 0;
  for (let i = 0; i < n; i++) {
    const dr = (cplx ? g[2 * i]! : g[i]!) - want.re[i]!;
    const di = (cplx ? g[2 * i + 1]! : 0) - (want.im?.[i] ?? 0);
    const err = Math.hypot(dr, di);
    const r = err === 0 ? 0 : err / (rtol * wm(i) + atol * big);
    w = Number.isNaN(r) ? Infinity : Math.max(w, r);
  }
  return w;
}

describe.each(DEVICES)('expm vs SciPy (Al-Mohy–Higham 2009) on %s', (device) => {
  it.each(NAMES)('%s (double precision)', (name) => {
    const c = G.cases[name]!;
    const dtype = c.a.im ? 'complex128' : 'float64';
    const got = rlx.linalg.expm(tensorOf(c.a, dtype, device));
    const w = worst(got, c.expm, c.rtol ?? 1e-10, c.rtol ? 0 : 1e-14);
    expect(w).toBeLessThanOrEqual(1);
  });

  it('a batch mixing degrees, squarings and structure gives each entry its own golden', () => {
    const names = ['burkardt_14_moler', 'random4_scale_0.001', 'overscaling_b12', 'burkardt_12_ward3'];
    const pad = (e: Enc): number[] => {
      // Embed each 2 × 2 / 3 × 3 / 4 × 4 case in the top-left of a 4 × 4 (zeros elsewhere): exp of the
      // block-diagonal [[A, 0], [0, 0]] is [[exp(A), 0], [0, I]].
      const n = e.shape[0]!;
      const out = new Array<number>(16).fill(0);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) out[i * 4 + j] = e.re[i * n + j]!;
      return out;
    };
    const a = rlx.tensor(names.flatMap((nm) => pad(G.cases[nm]!.a)), { shape: [names.length, 4, 4], dtype: 'float64' }).on(device);
    const got = Array.from(rlx.linalg.expm(a).toArray() as ArrayLike<number>);
    names.forEach((nm, b) => {
      const want = pad(G.cases[nm]!.expm);
      const n = G.cases[nm]!.a.shape[0]!;
      for (let i = n; i < 4; i++) want[i * 4 + i] = 1;
      const slice = got.slice(16 * b, 16 * b + 16);
      const big = Math.max(...want.map(Math.abs));
      slice.forEach((g, i) => expect(Math.abs(g - want[i]!)).toBeLessThanOrEqual(1e-10 * Math.abs(want[i]!) + 1e-14 * big));
    });
  });

  // The logm round trip cancels entries of 3e14 down to 3e4: rounding its input to float32 alone
  // changes the result by more than 100%, so it is a double precision case only.
  it.each(NAMES.filter((n) => n !== 'triangular_logm'))('%s (single precision)', (name) => {
    const c = G.cases[name]!;
    const dtype = c.a.im ? 'complex64' : 'float32';
    const got = rlx.linalg.expm(tensorOf(c.a, dtype, device));
    const w = worst(got, c.expm, c.rtol ?? 1e-3, c.rtol ? 0 : 1e-5);
    expect(w).toBeLessThanOrEqual(1);
  });
});
