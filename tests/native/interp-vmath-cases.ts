// Inputs and the bit comparison shared by interp-vmath.test.ts and its child
// (interp-vmath-child.mjs, the same cases on the interpreter's SSE2 build).
//
// The inputs: ±0, ±inf, NaN, subnormals, exp's overflow and underflow
// thresholds and the |x| = 708 edge where the vector exp hands lanes to the
// scalar one, fdlibm's branch boundaries (exp: 2^-28, ½ ln 2 and 1.5 ln 2 as
// the high-word tests see them; erf/erfc: 2^-56, 2^-28, 0.25, 0.84375, 1.25,
// 1/0.35, 6, 28, the vector erfc tail's 26) with their neighbours, gelu's
// images of those (x = ±b·√2) and random values at several scales.

/** x with its bit pattern moved by `ulps` (next/previous double, across zero too). */
export function nudge(x: number, ulps: number): number {
  const f = new Float64Array([x]);
  const u = new BigInt64Array(f.buffer);
  // Doubles ordered as sign-magnitude integers: map to a monotone integer line.
  const v = u[0]! < 0n ? -(u[0]! & 0x7fffffffffffffffn) : u[0]!;
  const w = v + BigInt(ulps);
  u[0] = w < 0n ? -w | -0x8000000000000000n : w;
  return f[0]!;
}

/** The double whose high word is `hi` and low word 0 (fdlibm's branch tests read the high word). */
export function fromHigh(hi: number): number {
  const f = new Float64Array(1);
  new Uint32Array(f.buffer)[1] = hi >>> 0;
  return f[0]!;
}

const BOUNDS = [
  2 ** -56, 2 ** -28, 3.725290298461914e-9, 1.3877787807814457e-17, 0.25, 0.84375, 1.25, 1 / 0.35, 2.857142857142857, 6, 26, 28,
  fromHigh(0x3e300000), fromHigh(0x3fd62e42), fromHigh(0x3fd62e43), fromHigh(0x3ff0a2b2), Math.LN2 / 2, 1.5 * Math.LN2,
  708, 709, 7.09782712893383973096e2, 7.45133219101941108420e2, 744.4400719213812, 745.1332191019412, 1e-300, 2.2250738585072014e-308,
];

/** Edge inputs of exp, erf, gelu and sigmoid (float64 values; float32 tests round them). */
export function edgeValues(): number[] {
  const out: number[] = [0, -0, Infinity, -Infinity, NaN, 5e-324, -5e-324, 1e-310, -1e-310, 1, -1, 1e308, -1e308, 800, -800, 1000, -1000];
  for (const b of BOUNDS) {
    for (const v of [b, b * Math.SQRT2, 2 * b])
      for (const d of [-2, -1, 0, 1, 2]) {
        const x = nudge(v, d);
        out.push(x, -x);
      }
  }
  return out;
}

/** n seeded values: uniform on [-4, 4], [-40, 40] and [-800, 800], and ± 10^[-12, 3]. */
export function randomValues(n: number, seed: number): number[] {
  let s = seed >>> 0;
  const r = (): number => {
    // mulberry32
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = r() * 2 - 1;
    switch (i % 4) {
      case 0: out.push(4 * u); break;
      case 1: out.push(40 * u); break;
      case 2: out.push(800 * u); break;
      default: out.push((u < 0 ? -1 : 1) * 10 ** (r() * 15 - 12));
    }
  }
  return out;
}

/** Indices where got and want differ in bits (any NaN equals any NaN), with the first few described. */
export function bitMismatches(got: ArrayLike<number>, want: ArrayLike<number>, input: ArrayLike<number>): { count: number; first: string[] } {
  const g = Float64Array.from(got),
    w = Float64Array.from(want);
  const gb = new BigUint64Array(g.buffer),
    wb = new BigUint64Array(w.buffer);
  let count = g.length === w.length ? 0 : 1;
  const first: string[] = g.length === w.length ? [] : [`length ${g.length} vs ${w.length}`];
  for (let i = 0; i < Math.min(g.length, w.length); i++) {
    if (gb[i] === wb[i] || (g[i] !== g[i] && w[i] !== w[i])) continue;
    count++;
    if (first.length < 4) first.push(`[${i}] x=${input[i]} got ${Object.is(g[i], -0) ? '-0' : g[i]} want ${Object.is(w[i], -0) ? '-0' : w[i]}`);
  }
  return { count, first };
}
