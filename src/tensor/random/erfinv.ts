// erfinv in double precision, for the normal samplers (samplers.ts).
//
// Why this file exists: JAX draws normals as sqrt(2) erfinv(u), so erfinv decides
// the normals' accuracy; it is local on purpose (no dependency on the shared
// special functions) and is a small numerical method of its own.
//
// Start from Giles' single-precision approximation (or the asymptotic tail form where that one
// was never meant to reach), then Halley steps on erf(y) = t or, for t >= 0.9, on
// erfc(y) = 1 - t (exact by Sterbenz). The erf residual uses the Maclaurin series with the
// leading term in double-double; erfc uses the Legendre continued fraction of Gamma(1/2, y^2)
// evaluated bottom-up (stable, unlike forward Lentz here). Accuracy: a few ulps (see tests).

const TWO_OVER_SQRT_PI = 1.1283791670955126; // 2/sqrt(pi), rounded
const TWO_OVER_SQRT_PI_LO = 1.533545961316588e-17; // 2/sqrt(pi) - TWO_OVER_SQRT_PI
const ONE_OVER_SQRT_PI = 0.5641895835477563; // 1/sqrt(pi)
const SPLITTER = 134217729; // 2^27 + 1, Dekker's splitting constant

/** exp(-y^2) with y^2 carried in two doubles, so large y lose no accuracy to the squaring. */
function expNegSquare(y: number): number {
  const p = y * y;
  const s = SPLITTER * y;
  const yh = s - (s - y);
  const yl = y - yh;
  const e = yh * yh - p + 2 * yh * yl + yl * yl; // y*y - p exactly (Dekker)
  return Math.exp(-p) * (1 - e);
}

/**
 * erf(y) - t for 0 <= y <~ 1.3, accurate to about an ulp of t: erf(y) = (2/sqrt(pi)) y (1 + T) with
 * T = sum_{n>=1} (-y^2)^n / (n! (2n+1)); the (2/sqrt(pi)) y part is formed exactly in two doubles
 * so that subtracting t (within a factor 2 of it) loses nothing.
 */
function erfResidual(y: number, t: number): number {
  const x = y * y;
  const s = SPLITTER * y;
  const yh = s - (s - y);
  const yl = y - yh;
  const xl = yh * yh - x + 2 * yh * yl + yl * yl; // y^2 = x + xl
  let a = 1;
  let sum = 0;
  let comp = 0;
  for (let n = 1; n < 60; n++) {
    a *= -x / n;
    const term = a / (2 * n + 1);
    const z = sum + term; // Neumaier summation
    comp += Math.abs(sum) >= Math.abs(term) ? sum - z + term : term - z + sum;
    sum = z;
    if (Math.abs(term) < 1e-18) break;
  }
  // dT/dx = -1/3 + x/5 - x^2/14 + x^3/54 - ..., enough for the xl correction (|xl| <= 2^-53 x).
  const T = sum + comp + xl * (-1 / 3 + x * (1 / 5 - x * (1 / 14 - x / 54)));
  // (p, pe) = (2/sqrt(pi)) * y in two doubles.
  const p = TWO_OVER_SQRT_PI * y;
  const cs = SPLITTER * TWO_OVER_SQRT_PI;
  const ch = cs - (cs - TWO_OVER_SQRT_PI);
  const cl = TWO_OVER_SQRT_PI - ch;
  const pe = ch * yh - p + ch * yl + cl * yh + cl * yl + TWO_OVER_SQRT_PI_LO * y;
  return p - t + (pe + (p + pe) * T);
}

/** erfc(y) for y >= ~1 by the continued fraction of Q(1/2, y^2), evaluated from the bottom up. */
function erfcFraction(y: number): number {
  const x = y * y;
  const depth = 12 + Math.ceil(100 / x); // enough for 1e-17 relative from y = 1 upward
  let v = x + 2 * depth + 0.5;
  for (let i = depth; i >= 1; i--) v = x + 2 * i - 1.5 - (i * (i - 0.5)) / v;
  return (expNegSquare(y) * y * ONE_OVER_SQRT_PI) / v;
}

/** Giles (2010) single-precision erfinv, evaluated in double: a ~1.3e-7 relative start for t < 1 - 2^-24. */
function erfinvGiles(x: number): number {
  let w = -Math.log((1 - x) * (1 + x));
  let p: number;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-8;
    p = 3.43273939e-7 + p * w;
    p = -3.5233877e-6 + p * w;
    p = -4.39150654e-6 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = Math.sqrt(w) - 3;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  return p * x;
}

/** Halley stops once a step is below this fraction of y: the cubic error left is then < 1e-17 y. */
const HALLEY_DONE = 3e-7;

/** Inverse error function in double precision (a few ulps); erfinv(+-1) = +-Infinity. */
export function erfinv(x: number): number {
  if (Number.isNaN(x) || x < -1 || x > 1) return NaN;
  if (x === 0) return x;
  const t = Math.abs(x);
  if (t === 1) return x > 0 ? Infinity : -Infinity;
  // Halley on f with f''/f' = -2y (true of erf and erfc alike): y <- y - d / (1 + y d), d = f/f'.
  let y: number;
  if (t < 0.9) {
    y = erfinvGiles(t); // y < 1.17
    for (let it = 0; it < 8; it++) {
      const d = erfResidual(y, t) / (TWO_OVER_SQRT_PI * expNegSquare(y));
      y -= d / (1 + y * d);
      if (Math.abs(d) <= HALLEY_DONE * y) break;
    }
  } else {
    const q = 1 - t; // exact
    if (q > 2 ** -24) {
      y = erfinvGiles(t);
    } else {
      // erfc(y) ~ e^{-y^2} / (y sqrt(pi))  =>  y^2 ~ L - log(pi L) / 2 with L = -log q.
      const L = -Math.log(q);
      y = Math.sqrt(L - 0.5 * Math.log(Math.PI * L));
    }
    for (let it = 0; it < 16; it++) {
      const d = (erfcFraction(y) - q) / (-TWO_OVER_SQRT_PI * expNegSquare(y));
      y -= d / (1 + y * d);
      if (Math.abs(d) <= HALLEY_DONE * y) break;
    }
  }
  return x < 0 ? -y : y;
}
