// Real scalar functions that JavaScript's Math lacks or gets subtly different
// from NumPy, called per element by the pure-JS backend's generated kernels.
//
// erf/erfc use the rational-approximation scheme of Sun's fdlibm s_erf.c
// (the coefficients below are fdlibm's; this is an independent TypeScript
// implementation of that scheme). fdlibm's notice, which its licence asks us
// to keep with the coefficients:
//
//   Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//   Developed at SunPro, a Sun Microsystems, Inc. business.
//   Permission to use, copy, modify, and distribute this
//   software is freely granted, provided that this notice
//   is preserved.
//
// Everything here is allocation-free and returns plain numbers.

const SCRATCH = new Float64Array(1);
const SCRATCH_WORDS = new Uint32Array(SCRATCH.buffer);
const LO = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1; // low word index (endianness)

// erf(x) = x + x*R(x^2) on |x| < 0.84375
const EFX = 1.28379167095512586316e-1; // 2/sqrt(pi) - 1
const PP0 = 1.28379167095512558561e-1;
const PP1 = -3.25042107247001499370e-1;
const PP2 = -2.84817495755985104766e-2;
const PP3 = -5.77027029648944159157e-3;
const PP4 = -2.37630166566501626084e-5;
const QQ1 = 3.97917223959155352819e-1;
const QQ2 = 6.50222499887672944485e-2;
const QQ3 = 5.08130628187576562776e-3;
const QQ4 = 1.32494738004321644526e-4;
const QQ5 = -3.96022827877536812320e-6;
// erf(1+s) = ERX + P(s)/Q(s) on 0.84375 <= |x| < 1.25
const ERX = 8.45062911510467529297e-1;
const PA0 = -2.36211856075265944077e-3;
const PA1 = 4.14856118683748331666e-1;
const PA2 = -3.72207876035701323847e-1;
const PA3 = 3.18346619901161753674e-1;
const PA4 = -1.10894694282396677476e-1;
const PA5 = 3.54783043256182359371e-2;
const PA6 = -2.16637559486879084300e-3;
const QA1 = 1.06420880400844228286e-1;
const QA2 = 5.40397917702171048937e-1;
const QA3 = 7.18286544141962662868e-2;
const QA4 = 1.26171219808761642112e-1;
const QA5 = 1.36370839120290507362e-2;
const QA6 = 1.19844998467991074170e-2;
// erfc(x) = exp(-x^2 - 0.5625 + R/S)/x on 1.25 <= x < 1/0.35
const RA0 = -9.86494403484714822705e-3;
const RA1 = -6.93858572707181764372e-1;
const RA2 = -1.05586262253232909814e1;
const RA3 = -6.23753324503260060396e1;
const RA4 = -1.62396669462573470355e2;
const RA5 = -1.84605092906711035994e2;
const RA6 = -8.12874355063065934246e1;
const RA7 = -9.81432934416914548592;
const SA1 = 1.96512716674392571292e1;
const SA2 = 1.37657754143519042600e2;
const SA3 = 4.34565877475229228821e2;
const SA4 = 6.45387271733267880336e2;
const SA5 = 4.29008140027567833386e2;
const SA6 = 1.08635005541779435134e2;
const SA7 = 6.57024977031928170135;
const SA8 = -6.04244152148580987438e-2;
// ... and on 1/0.35 <= x < 28
const RB0 = -9.86494292470009928597e-3;
const RB1 = -7.99283237680523006574e-1;
const RB2 = -1.77579549177547519889e1;
const RB3 = -1.60636384855821916062e2;
const RB4 = -6.37566443368389627722e2;
const RB5 = -1.02509513161107724954e3;
const RB6 = -4.83519191608651397019e2;
const SB1 = 3.03380607434824582924e1;
const SB2 = 3.25792512996573918826e2;
const SB3 = 1.53672958608443695994e3;
const SB4 = 3.19985821950859553908e3;
const SB5 = 2.55305040643316442583e3;
const SB6 = 4.74528541206955367215e2;
const SB7 = -2.24409524465858183362e1;

/** R(x^2) with erf(x) = x + x*R, for |x| < 0.84375. */
function erfSmallR(x: number): number {
  const z = x * x;
  const r = PP0 + z * (PP1 + z * (PP2 + z * (PP3 + z * PP4)));
  const s = 1 + z * (QQ1 + z * (QQ2 + z * (QQ3 + z * (QQ4 + z * QQ5))));
  return r / s;
}

/** P/Q with erf(1 + s) = ERX + P/Q, for 0.84375 <= |x| < 1.25 (s = |x| - 1). */
function erfNearOne(ax: number): number {
  const s = ax - 1;
  const p = PA0 + s * (PA1 + s * (PA2 + s * (PA3 + s * (PA4 + s * (PA5 + s * PA6)))));
  const q = 1 + s * (QA1 + s * (QA2 + s * (QA3 + s * (QA4 + s * (QA5 + s * QA6)))));
  return p / q;
}

/** erfc(ax) for 1.25 <= ax < 28, via exp(-ax^2 - 0.5625 + R/S)/ax with -ax^2 split exactly. */
function erfcTail(ax: number): number {
  const s = 1 / (ax * ax);
  let r: number;
  let q: number;
  if (ax < 2.857142857142857) {
    r = RA0 + s * (RA1 + s * (RA2 + s * (RA3 + s * (RA4 + s * (RA5 + s * (RA6 + s * RA7))))));
    q = 1 + s * (SA1 + s * (SA2 + s * (SA3 + s * (SA4 + s * (SA5 + s * (SA6 + s * (SA7 + s * SA8)))))));
  } else {
    r = RB0 + s * (RB1 + s * (RB2 + s * (RB3 + s * (RB4 + s * (RB5 + s * RB6)))));
    q = 1 + s * (SB1 + s * (SB2 + s * (SB3 + s * (SB4 + s * (SB5 + s * (SB6 + s * SB7))))));
  }
  // z = ax with the low 32 bits cleared, so z*z is exact and
  // -ax^2 = -z^2 + (z - ax)(z + ax) without rounding error in the big part.
  SCRATCH[0] = ax;
  SCRATCH_WORDS[LO] = 0;
  const z = SCRATCH[0]!;
  return (Math.exp(-z * z - 0.5625) * Math.exp((z - ax) * (z + ax) + r / q)) / ax;
}

/** Error function, double precision (< 1 ulp away from underflow). */
export function erf(x: number): number {
  if (x !== x) return x;
  const ax = Math.abs(x);
  if (ax < 0.84375) {
    if (ax < 3.725290298461914e-9) return x + EFX * x; // |x| < 2^-28: erf(x) = 2x/sqrt(pi)
    return x + x * erfSmallR(x);
  }
  if (ax < 1.25) {
    const v = ERX + erfNearOne(ax);
    return x < 0 ? -v : v;
  }
  if (ax >= 6) return x < 0 ? -1 : 1;
  const v = 1 - erfcTail(ax);
  return x < 0 ? -v : v;
}

/** Complementary error function 1 - erf(x), accurate in relative terms for large x. */
export function erfc(x: number): number {
  if (x !== x) return x;
  const ax = Math.abs(x);
  if (ax < 0.84375) {
    if (ax < 1.3877787807814457e-17) return 1 - x; // |x| < 2^-56
    const y = erfSmallR(x);
    if (x < 0.25) return 1 - (x + x * y);
    return 0.5 - (x * y + (x - 0.5));
  }
  if (ax < 1.25) {
    const pq = erfNearOne(ax);
    return x > 0 ? 1 - ERX - pq : 1 + (ERX + pq);
  }
  if (ax < 28) {
    if (x < -6) return 2;
    const r = erfcTail(ax);
    return x > 0 ? r : 2 - r;
  }
  return x > 0 ? 0 : 2;
}

/** NumPy's np.round / np.rint: nearest integer, ties to even, keeps -0 (e.g. -0.4 -> -0). */
export function roundHalfEven(x: number): number {
  const r = Math.round(x); // ties toward +inf; -0 for x in [-0.5, -0]
  if (r - x === 0.5 && r % 2 !== 0) return r - 1;
  return r;
}

/** NumPy's np.sign for reals: -1, 1, NaN for NaN, and +0 for both zeros (np.sign(-0.0) is 0.0). */
export function sign(x: number): number {
  return x > 0 ? 1 : x < 0 ? -1 : x === 0 ? 0 : x;
}

const SQRT1_2 = Math.SQRT1_2;

/**
 * GELU, exact erf form 0.5*x*(1 + erf(x/sqrt 2)); computed through erfc for x < 0 to avoid cancellation.
 * gelu(−∞) is its limit −0 (the formula would give −∞·0 = NaN, as PyTorch's does).
 */
export function gelu(x: number): number {
  if (x === -Infinity) return -0;
  if (x < 0) return 0.5 * x * erfc(-(x * SQRT1_2));
  return 0.5 * x * (1 + erf(x * SQRT1_2));
}

/** Logistic sigmoid 1/(1+exp(-x)), without overflow or cancellation for large |x|. */
export function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/** softplus log(1 + exp(x)) = log1p(exp(-|x|)) + max(x, 0). */
export function softplus(x: number): number {
  return Math.log1p(Math.exp(-Math.abs(x))) + Math.max(x, 0);
}

/** log(1 + x) (Math.log1p). */
export const log1p: (x: number) => number = Math.log1p;

/** exp(x) - 1 (Math.expm1). */
export const expm1: (x: number) => number = Math.expm1;
