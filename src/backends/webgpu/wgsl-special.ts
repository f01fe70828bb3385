// WGSL special functions behind the float32 rules log1p, expm1, erf,
// softplus, gelu and pow and the int32 rule pow (wgsl-expr.ts): module-scope
// WGSL functions a generated kernel declares before its bindings (all of them:
// wgsl-expr.ts PRELUDE; those its expressions call: preludeFor).
//
// Why not WGSL's builtins: WGSL bounds exp only to 3 + 2|x| ulp, log to an
// absolute 2^-21 near 1 (so log(1 + x) loses every digit at tiny x), pow to
// whatever exp2(y·log2 x) gives (hundreds of ulps once |y·log2 x| is large),
// and leaves pow undefined for x < 0. These functions use only operations
// WGSL computes correctly rounded (+, −, ×, ldexp, round, bit casts) or
// nearly (÷, 2.5 ulp), so they are equally accurate on every adapter
// (tests/webgpu/rules.test.ts measures them against float64 references).
//
// Splits into high and low parts clear low mantissa bits with integer masks,
// never Veltkamp/Dekker arithmetic: a WGSL compiler may contract a*b + c into
// an fma, which would break those. Special values (NaN, ±inf, −0) are decided
// on bits or comparisons up front, since WGSL lets an implementation assume
// arithmetic never meets NaN or inf.
//
// erf, erfc and gelu follow the rational-approximation scheme of Sun's fdlibm
// s_erf.c with its coefficients rounded to float32, as the js backend does in
// float64 (src/backends/js/special.ts, which carries fdlibm's notice:
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
// Developed at SunPro, a Sun Microsystems, Inc. business. Permission to use,
// copy, modify, and distribute this software is freely granted, provided that
// this notice is preserved.) exp, expm1, log1p and log2 are range reductions
// by powers of two with Taylor series (coefficients 1/n!, 2/(2n+1)).

type Rule = (...a: string[]) => string;

const F32 = new Float32Array(1);
const U32 = new Uint32Array(F32.buffer);
/** v rounded to float32 with its low `bits` mantissa bits cleared. */
function truncBits(v: number, bits: number): number {
  F32[0] = v;
  U32[0] = (U32[0]! >>> bits) << bits;
  return F32[0];
}
/**
 * A float32 constant as a WGSL f32 literal: the shortest decimal that reads
 * back as the float32 value in float64, so parsing lands on that value (the
 * 12-bit split constants are written exactly).
 */
const c = (v: number): string => `${String(Math.fround(v))}f`;

// ln 2 = LN2_HI + LN2_LO, LN2_HI with 12 significant bits: k·LN2_HI is exact for |k| < 2^12.
const LN2_HI = truncBits(Math.LN2, 12);
const LN2_LO = Math.LN2 - LN2_HI;
// 2/ln 2 (log2 m = (2/ln 2)·atanh s) split the same way.
const TWO_OVER_LN2 = 2 / Math.LN2;
const TWO_OVER_LN2_HI = truncBits(TWO_OVER_LN2, 12);
const TWO_OVER_LN2_LO = TWO_OVER_LN2 - TWO_OVER_LN2_HI;
// The centres of rlx_log2_split (12 significant bits) and their log2 as float32 hi + lo.
const CENTRE_UP = truncBits(2 ** (1 / 3), 12);
const CENTRE_DOWN = truncBits(2 ** (-1 / 3), 12);
const split = (v: number): [number, number] => [truncBits(v, 12), Math.fround(v - truncBits(v, 12))];
const LOG2_UP = split(Math.log2(CENTRE_UP));
const LOG2_DOWN = split(Math.log2(CENTRE_DOWN));
const SQRT1_2_HI = truncBits(Math.SQRT1_2, 12);
const SQRT1_2_LO = Math.SQRT1_2 - SQRT1_2_HI;

// fdlibm s_erf.c coefficients (the same values as src/backends/js/special.ts).
const ERX = 8.45062911510467529297e-1; // exact in float32
const PP = [1.28379167095512558561e-1, -3.25042107247001499370e-1, -2.84817495755985104766e-2, -5.77027029648944159157e-3, -2.37630166566501626084e-5];
const QQ = [3.97917223959155352819e-1, 6.50222499887672944485e-2, 5.08130628187576562776e-3, 1.32494738004321644526e-4, -3.96022827877536812320e-6];
const PA = [-2.36211856075265944077e-3, 4.14856118683748331666e-1, -3.72207876035701323847e-1, 3.18346619901161753674e-1, -1.10894694282396677476e-1, 3.54783043256182359371e-2, -2.16637559486879084300e-3];
const QA = [1.06420880400844228286e-1, 5.40397917702171048937e-1, 7.18286544141962662868e-2, 1.26171219808761642112e-1, 1.36370839120290507362e-2, 1.19844998467991074170e-2];
const RA = [-9.86494403484714822705e-3, -6.93858572707181764372e-1, -1.05586262253232909814e1, -6.23753324503260060396e1, -1.62396669462573470355e2, -1.84605092906711035994e2, -8.12874355063065934246e1, -9.81432934416914548592];
const SA = [1.96512716674392571292e1, 1.37657754143519042600e2, 4.34565877475229228821e2, 6.45387271733267880336e2, 4.29008140027567833386e2, 1.08635005541779435134e2, 6.57024977031928170135, -6.04244152148580987438e-2];
const RB = [-9.86494292470009928597e-3, -7.99283237680523006574e-1, -1.77579549177547519889e1, -1.60636384855821916062e2, -6.37566443368389627722e2, -1.02509513161107724954e3, -4.83519191608651397019e2];
const SB = [3.03380607434824582924e1, 3.25792512996573918826e2, 1.53672958608443695994e3, 3.19985821950859553908e3, 2.55305040643316442583e3, 4.74528541206955367215e2, -2.24409524465858183362e1];

/** Horner form c0 + v·(c1 + v·(…)) of float32 coefficients. */
const horner = (v: string, cs: readonly number[]): string => cs.reduceRight((acc, k, i) => (i === cs.length - 1 ? c(k) : `${c(k)} + ${v} * (${acc})`), '');
/** 1 + v·(q1 + v·(…)): fdlibm's denominators. */
const oneplus = (v: string, qs: readonly number[]): string => `1.0f + ${v} * (${horner(v, qs)})`;
const factorial = (n: number): number => (n <= 1 ? 1 : n * factorial(n - 1));

/**
 * The WGSL functions, each with its comment; RLX_SPECIAL (wgsl-expr.ts
 * PRELUDE) holds the bits of NaN, +inf, −inf, −0.
 */
export const SPECIAL_WGSL = `fn rlx_isnan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn rlx_nan() -> f32 { return bitcast<f32>(RLX_SPECIAL.x); }
fn rlx_inf() -> f32 { return bitcast<f32>(RLX_SPECIAL.y); }
// x with 12 (11) significant bits: a product of two such is exact in f32.
fn rlx_hi12(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) & 0xfffff000u); }
fn rlx_hi11(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) & 0xffffe000u); }

// e^r − 1 by Taylor through r^9/9!: the rest is < 1e-10 of e^r − 1 for |r| <= ln2/2 (expm1),
// < 1e-8 of e^r for |r| <= 0.66 (rlx_exp_finish).
fn rlx_expm1_taylor(r: f32) -> f32 {
  return r + r * r * (${horner('r', [2, 3, 4, 5, 6, 7, 8, 9].map((n) => 1 / factorial(n)))});
}
// 2^k · e^(r + c) for |r| <= 0.66, c a small correction: one rounding, then ldexp
// (in two steps below 2^-125: WGSL's ldexp may give 0 for an exponent <= −127).
fn rlx_exp_finish(r: f32, c: f32, k: i32) -> f32 {
  let p = rlx_expm1_taylor(r);
  let e = 1.0f + (p + c * (1.0f + p));
  if (k < -125) { return ldexp(e, k + 64) * ${c(2 ** -64)}; }
  return ldexp(e, k);
}
// x = k·ln2 + r + c: k = round(x/ln2), r = x − k·ln2 rounded, c its rounding error.
// x − k·LN2_HI is exact (k·LN2_HI has <= 20 bits and is within a factor 2 of x).
fn rlx_exp_reduce(x: f32) -> vec3f {
  let k = round(x * ${c(1 / Math.LN2)});
  let hi = x - k * ${c(LN2_HI)};
  let lo = k * ${c(LN2_LO)};
  let r = hi - lo;
  return vec3f(r, (hi - r) - lo, k);
}
fn rlx_exp(x: f32) -> f32 {
  if (rlx_isnan(x)) { return x; }
  if (x > ${c(88.72283172607422)}) { return rlx_inf(); }  // e^x > FLT_MAX (+ half an ulp)
  if (x < ${c(-103.97207708399179)}) { return 0.0f; }  // e^x < 2^-150 rounds to 0
  let t = rlx_exp_reduce(x);
  return rlx_exp_finish(t.x, t.y, i32(t.z));
}
// e^(a + b) with a single rounding where a is exact (a split-off −x²) and |b| <= 0.31; a + b <= 88.
// (erf and gelu: erfc(t) = exp(−t² − 0.5625 + rs)/t.)
fn rlx_exp_sum(a: f32, b: f32) -> f32 {
  if (a + b < ${c(-103.97207708399179)}) { return 0.0f; }
  let t = rlx_exp_reduce(a);
  let r = t.x + b;  // |r| <= 0.66; TwoSum keeps its rounding error
  let bv = r - t.x;
  return rlx_exp_finish(r, t.y + ((t.x - (r - bv)) + (b - bv)), i32(t.z));
}
fn rlx_expm1(x: f32) -> f32 {
  if (rlx_isnan(x)) { return x; }
  if (x > ${c(88.72283172607422)}) { return rlx_inf(); }
  if (x < ${c(-17.328679513998633)}) { return -1.0f; }  // e^x < 2^-25: e^x − 1 rounds to −1
  if (abs(x) < ${c(2 ** -25)}) { return x; }  // x + x²/2 rounds to x; keeps −0
  let t = rlx_exp_reduce(x);
  let p = rlx_expm1_taylor(t.x);
  let k = i32(t.z);
  if (k == 0) { return p; }  // r = x exactly: no cancellation for small |x|
  let q = p + t.y * (1.0f + p);  // e^(r + c) − 1
  // 2^k·(1 + q) − 1 = 2^k·q + (2^k − 1), the second term exact: one rounding.
  if (k <= 23) { return ldexp(q, k) + (ldexp(1.0f, k) - 1.0f); }
  return ldexp(q + (1.0f - ldexp(1.0f, -k)), k);
}

// 2·atanh(s) = 2s + s·rlx_atanh_tail(s²) for |s| <= 0.24 (series through s^13: the rest is < 2e-10 relative).
fn rlx_atanh_tail(z: f32) -> f32 {
  return z * (${horner('z', [3, 5, 7, 9, 11, 13].map((n) => 2 / n))});
}
// log(1 + x) = k·ln2 + log(1 + f) with 1 + f = 2^-k·(1 + x) and log(1 + f) = 2·atanh(f/(2 + f)).
// Near 0, and for x in [√½/2 − 1, 2] where log(1 + f) partly cancels k·ln2, f is exact:
// x, (x − 1)/2 or 1 + 2x. Elsewhere k and the mantissa of 1 + f in [√½, √2) come from the
// bits of u = 1 + x (the offset 0x3f800000 − 0x3f3504f3 moves √½ to an exponent boundary),
// and cr ≈ (1 + x − u)/u makes up for the rounding of u.
fn rlx_log1p(x: f32) -> f32 {
  if (rlx_isnan(x) || x == rlx_inf()) { return x; }
  if (x <= -1.0f) { return select(rlx_nan(), -rlx_inf(), x == -1.0f); }
  if (abs(x) < ${c(2 ** -24)}) { return x; }  // x − x²/2 rounds to x; keeps −0
  var k = 0.0f;
  var f = x;
  var cr = 0.0f;
  if (x >= 0.625f && x <= 2.0f) {
    k = 1.0f;
    f = (x - 1.0f) * 0.5f;
  } else if (x < -0.375f && x >= ${c(Math.SQRT1_2 / 2 - 1)}) {
    k = -1.0f;
    f = 1.0f + 2.0f * x;
  } else if (x < -0.375f || x > 2.0f) {
    let u = 1.0f + x;
    let iu = bitcast<u32>(u) + 0x4afb0du;
    k = f32(i32(iu >> 23u) - 127);
    cr = select(x - (u - 1.0f), 1.0f - (u - x), k >= 2.0f) / u;
    f = bitcast<f32>((iu & 0x7fffffu) + 0x3f3504f3u) - 1.0f;
  }
  // log(1 + f) = 2·atanh(s), s = f/(2 + f), written as f − (f²/2 − s·(f²/2 + tail)) (fdlibm's form).
  let s = f / (2.0f + f);
  let hfsq = 0.5f * f * f;
  return k * ${c(LN2_HI)} + (f - (hfsq - (s * (hfsq + rlx_atanh_tail(s * s)) + (k * ${c(LN2_LO)} + cr))));
}

// log2(a) = hi + lo for finite a > 0: hi has 12 significant bits, hi + lo is good to ~2^-34
// relative (pow needs y·log2 a to ~2^-24 absolute for |y·log2 a| up to 150).
// a = 2^k·m, m in [√½, √2) as in rlx_log1p; then m = c·(1 + s)/(1 − s) around the nearest
// centre c of 2^-1/3, 1, 2^1/3 (to 12 bits, log2 c known to float64), so |s| <= 0.058 and the
// series beyond 2s, rounded in f32, weighs only 2^-10 of the result.
fn rlx_log2_split(a: f32) -> vec2f {
  var bits = bitcast<u32>(a);
  var k = 0.0f;
  if (bits < 0x00800000u) { bits = bitcast<u32>(a * 16777216.0f); k = -24.0f; }  // subnormal: scale by 2^24
  let iu = bits + 0x4afb0du;
  k += f32(i32(iu >> 23u) - 127);
  let m = bitcast<f32>((iu & 0x7fffffu) + 0x3f3504f3u);
  let up = m >= ${c(2 ** (1 / 6))};
  let down = m < ${c(2 ** (-1 / 6))};
  let cm = select(select(1.0f, ${c(CENTRE_UP)}, up), ${c(CENTRE_DOWN)}, down);
  let lch = select(select(0.0f, ${c(LOG2_UP[0])}, up), ${c(LOG2_DOWN[0])}, down);
  let lcl = select(select(0.0f, ${c(LOG2_UP[1])}, up), ${c(LOG2_DOWN[1])}, down);
  let f = m - cm;  // exact (m and cm within a factor 2)
  let g = m + cm;
  let s = f / g;
  // s = sh + sl: f − sh·(m + cm) from exact pieces (sh·cm, sh·mh, sh·(m − mh) have <= 24 bits).
  let sh = rlx_hi12(s);
  let mh = rlx_hi12(m);
  let sl = (((f - sh * cm) - sh * mh) - sh * (m - mh)) / g;
  // log2 m = log2 cm + (2/ln2)·(s + s·tail/2); the leading product TWO_OVER_LN2_HI·sh is exact.
  let p = ${c(TWO_OVER_LN2_HI)} * sh;
  let q = ${c(TWO_OVER_LN2_LO)} * sh + ${c(TWO_OVER_LN2)} * (sl + 0.5f * s * rlx_atanh_tail(s * s)) + lcl;
  let kc = k + lch;  // exact: lch has 12 significant bits
  let hi = rlx_hi12(kc + p + q);
  return vec2f(hi, ((kc - hi) + p) + q);
}
// a^y for finite a > 0, finite y: 2^(y·log2 a) with y·log2 a = A + B, A exact.
fn rlx_pow_pos(a: f32, y: f32) -> f32 {
  let l = rlx_log2_split(a);
  let yh = rlx_hi12(y);
  let A = yh * l.x;  // exact: 12 × 12 bits
  let B = (y - yh) * l.x + y * l.y;  // |B| <= 2^-10·|A|
  // A + B can round up to 128 from just below it (a = 3.4028147e38, 43 ulps below FLT_MAX, y = 1: 128 − 3.7e-6,
  // a finite result): A − 128 is exact there.
  if (A + B >= 128.0f && (A - 128.0f) + B >= 0.0f) { return rlx_inf(); }
  if (A + B < -150.0f) { return 0.0f; }
  let n = round(A);
  let th = A - n;  // exact
  let t = th + B;  // |t| <= 0.65; tc its rounding error (TwoSum)
  let bv = t - th;
  let tc = (th - (t - bv)) + (B - bv);
  let t12 = rlx_hi12(t);
  // 2^t = e^(t·ln2) = e^(r + c), r = t12·LN2_HI exact.
  let r = t12 * ${c(LN2_HI)};
  let cr = t12 * ${c(LN2_LO)} + ((t - t12) + tc) * ${c(Math.LN2)};
  // n = 128 (then t < 0): ldexp is defined only up to 2^127, so scale by 2^127 and then by 2, which rounds
  // to ∞ exactly when the result does.
  if (n > 127.0f) { return rlx_exp_finish(r, cr, 127) * 2.0f; }
  return rlx_exp_finish(r, cr, i32(n));
}
// pow as C99/NumPy: x^±0 = 1 and 1^y = 1 even for NaN; (−1)^±inf = 1; 0^y<0 = inf,
// (−0)^odd keeps the sign, as does (−inf)^odd; a negative base needs an integer exponent.
fn rlx_pow(a: f32, y: f32) -> f32 {
  if (a == 1.0f || y == 0.0f) { return 1.0f; }
  if (rlx_isnan(a) || rlx_isnan(y)) { return rlx_nan(); }
  let aa = abs(a);
  if (abs(y) == rlx_inf()) {
    if (aa == 1.0f) { return 1.0f; }
    return select(0.0f, rlx_inf(), (aa > 1.0f) == (y > 0.0f));
  }
  let yint = floor(y) == y;
  let odd = yint && abs(y) < 16777216.0f && (i32(abs(y)) & 1) == 1;  // every float >= 2^24 is even
  let neg = (bitcast<u32>(a) >> 31u) == 1u;  // −0 too
  if (a == 0.0f || aa == rlx_inf()) {
    let m = select(0.0f, rlx_inf(), (a == 0.0f) == (y < 0.0f));
    return select(m, -m, neg && odd);
  }
  if (neg && !yint) { return rlx_nan(); }
  let r = rlx_pow_pos(aa, y);
  return select(r, -r, neg && odd);
}
// int32 power as the js backend (S.ipow): wrapping products; for b < 0, 1 and −1 give ±1, others 0.
fn rlx_ipow(a: i32, b: i32) -> i32 {
  if (b < 0) { return select(select(0i, select(-1i, 1i, (b & 1) == 0), a == -1), 1i, a == 1); }
  var r = 1i;
  var x = a;
  var e = b;
  while (e != 0) {
    if ((e & 1) == 1) { r = r * x; }
    x = x * x;
    e = e >> 1u;
  }
  return r;
}

// erf(x) = x + x·rlx_erf_r(x) on |x| < 0.84375.
fn rlx_erf_r(x: f32) -> f32 {
  let z = x * x;
  return (${horner('z', PP)}) / (${oneplus('z', QQ)});
}
// erf(1 + s) = ERX + rlx_erf_one(s) on 0.84375 <= 1 + s < 1.25.
fn rlx_erf_one(s: f32) -> f32 {
  return (${horner('s', PA)}) / (${oneplus('s', QA)});
}
// erfc(t) = exp(−t² − 0.5625 + rlx_erfc_rs(t))/t on 1.25 <= t < 28.
fn rlx_erfc_rs(t: f32) -> f32 {
  let s = 1.0f / (t * t);
  if (t < ${c(1 / 0.35)}) { return (${horner('s', RA)}) / (${oneplus('s', SA)}); }
  return (${horner('s', RB)}) / (${oneplus('s', SB)});
}
fn rlx_erf(x: f32) -> f32 {
  if (rlx_isnan(x)) { return x; }
  let a = abs(x);
  if (a < 0.84375f) { return x + x * rlx_erf_r(x); }
  var v = 1.0f;  // erfc(a) < 2^-25 from a = 3.92 on
  if (a < 1.25f) {
    v = ${c(ERX)} + rlx_erf_one(a - 1.0f);
  } else if (a < 4.0f) {
    // −a² = −z² + (z − a)(z + a), z = a to 11 bits: −z² − 0.5625 is exact.
    let z = rlx_hi11(a);
    v = 1.0f - rlx_exp_sum(-z * z - 0.5625f, (z - a) * (z + a) + rlx_erfc_rs(a)) / a;
  }
  return select(v, -v, x < 0.0f);
}
// GELU as the js backend: 0.5·x·(1 + erf(x/√2)), through erfc(−x/√2) for x < 0 so the far
// negative tail keeps its relative accuracy (−x²/2 split exactly from x itself).
fn rlx_gelu(x: f32) -> f32 {
  if (rlx_isnan(x)) { return x; }
  if (x == rlx_inf()) { return x; }
  if (x >= 0.0f) { return 0.5f * x * (1.0f + rlx_erf(x * ${c(Math.SQRT1_2)})); }
  let t = -x * ${c(Math.SQRT1_2)};
  if (t < 1.25f) {
    // erfc(t) magnifies the rounding error of t up to 3×: correct to first order with
    // d = −x/√2 − t from exact pieces (xh·SQRT1_2_HI, (x − xh)·SQRT1_2_HI have <= 24 bits).
    let xh = rlx_hi12(x);
    let d = ((-xh * ${c(SQRT1_2_HI)} - t) - (x - xh) * ${c(SQRT1_2_HI)}) - x * ${c(SQRT1_2_LO)};
    var e: f32;
    if (t < 0.84375f) {
      let r = rlx_erf_r(t);
      e = select(0.5f - (t * r + (t - 0.5f)), 1.0f - (t + t * r), t < 0.25f);
    } else {
      e = ${c(1 - ERX)} - rlx_erf_one(t - 1.0f);
    }
    return 0.5f * x * (e - d * ${c(2 / Math.sqrt(Math.PI))} * exp(-t * t));  // builtin exp: a correction term
  }
  if (x < -15.0f) { return bitcast<f32>(RLX_SPECIAL.w); }  // |gelu| < 2^-150: −0
  // 0.5·x·erfc(t) = −√½·exp(−x²/2 − 0.5625)·exp(rs); x² = xh² + (x − xh)(x + xh), xh² exact.
  let xh = rlx_hi11(x);
  return -${c(Math.SQRT1_2)} * rlx_exp_sum(-0.5f * xh * xh - 0.5625f, -0.5f * ((x - xh) * (x + xh)) + rlx_erfc_rs(t));
}`;

/** Each function's source (its comment lines and body) and the functions it calls, in definition order. */
const FUNCTIONS = new Map(
  SPECIAL_WGSL.split(/(?<=\})\n+(?=(?:\/\/[^\n]*\n)*fn )/).map((src) => {
    const name = /^fn (rlx_\w+)/m.exec(src)![1]!;
    return [name, { src, calls: [...src.matchAll(/\brlx_\w+(?=\()/g)].map((m) => m[0]).filter((n) => n !== name) }] as const;
  }),
);

/** The functions of SPECIAL_WGSL that WGSL code calls, and those they call, in definition order. */
export function specialWgslFor(code: string): string {
  const need = new Set<string>();
  const visit = (n: string): void => {
    if (need.has(n) || !FUNCTIONS.has(n)) return;
    need.add(n);
    FUNCTIONS.get(n)!.calls.forEach(visit);
  };
  for (const m of code.matchAll(/\brlx_\w+(?=\()/g)) visit(m[0]);
  return [...FUNCTIONS].filter(([n]) => need.has(n)).map(([, f]) => f.src).join('\n');
}

/** float32 rules served by the functions above (angle and imag need none); they replace wgsl-expr.ts's built-in forms. */
export const F_SPECIAL: Record<string, Rule> = {
  // WGSL's exp is only bounded by 3 + 2|x| ulp (llvmpipe: 46 ulp at x = 49.8); rlx_exp is within an ulp, as CUDA's expf.
  exp: (a) => `rlx_exp(${a})`,
  sigmoid: (a) => `select(rlx_exp(${a}) / (1.0f + rlx_exp(${a})), 1.0f / (1.0f + rlx_exp(-${a})), ${a} >= 0.0f)`,
  log1p: (a) => `rlx_log1p(${a})`,
  expm1: (a) => `rlx_expm1(${a})`,
  erf: (a) => `rlx_erf(${a})`,
  // log1p(e^−|x|) + max(x, 0) as js: no overflow for large x, no cancellation for very negative x.
  softplus: (a) => `select(rlx_log1p(rlx_exp(-abs(${a}))) + max(${a}, 0.0f), ${a}, rlx_isnan(${a}))`,
  gelu: (a) => `rlx_gelu(${a})`,
  pow: (a, b) => `rlx_pow(${a}, ${b})`,
  imag: () => '0.0f',
  // atan2(0, x): +0 for x >= +0, π for x <= −0, NaN for NaN.
  angle: (a) => `select(select(0.0f, ${c(Math.PI)}, (bitcast<u32>(${a}) >> 31u) == 1u), ${a}, rlx_isnan(${a}))`,
};

/** int32 rules served here. */
export const I_SPECIAL: Record<string, Rule> = {
  pow: (a, b) => `rlx_ipow(${a}, ${b})`,
  imag: () => '0i',
};
