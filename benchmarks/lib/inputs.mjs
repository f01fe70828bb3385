// Deterministic inputs that the Python peers reproduce bit for bit
// (benchmarks/peers/_bench.py: ramp). Values lie in [-0.5, 0.5).
//
//   ramp(n, k)[i] = ((i * k) mod 1009) / 1009 - 0.5
//
// i * k stays an exact integer (< 2^53) and the division and subtraction are
// correctly rounded in both languages, so rlx and NumPy see identical data.

export function ramp(n, k = 1) {
  const a = new Float64Array(n);
  for (let i = 0; i < n; i++) a[i] = ((i * k) % 1009) / 1009 - 0.5;
  return a;
}

/**
 * Checksum of a result, compared against the peer's: Neumaier-compensated sum
 * and sum of |x| (NaNs counted separately), plus the length.
 */
export function checksum(arr) {
  let s = 0, cs = 0, sa = 0, csa = 0, nan = 0;
  for (let i = 0; i < arr.length; i++) {
    const x = arr[i];
    if (Number.isNaN(x)) { nan++; continue; }
    let t = s + x;
    cs += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
    s = t;
    const ax = Math.abs(x);
    t = sa + ax;
    csa += sa >= ax ? sa - t + ax : ax - t + sa;
    sa = t;
  }
  return { length: arr.length, sum: s + cs, sumAbs: sa + csa, nan };
}

/** 'ok', or a short description of how two checksums disagree. */
export function compareChecksums(a, b, rtol = 1e-9) {
  if (!a || !b) return 'n/a';
  if (a.length !== b.length) return `length ${a.length} vs ${b.length}`;
  if (a.nan !== b.nan) return `NaNs ${a.nan} vs ${b.nan}`;
  const tol = rtol * Math.max(a.sumAbs, b.sumAbs, 1e-300);
  if (Math.abs(a.sum - b.sum) > tol || Math.abs(a.sumAbs - b.sumAbs) > tol) return `sum ${a.sum} vs ${b.sum}`;
  return 'ok';
}

/**
 * Pseudo-random integers in [-2048, 2048) that the Python peers reproduce bit for
 * bit (benchmarks/peers/_bench.py: lcg_ints): the Park–Miller sequence
 * x ← 16807·x mod (2³¹ − 1) from x = seed, each output reduced to its low 12 bits
 * minus 2048. Every step is exact in float64 (16807·x < 2⁴⁶).
 *
 * For matrices: `ramp()` matrices are nearly rank-deficient (a 128×128 ramp
 * matrix has rank 18), which lets eigen/singular value solvers deflate early
 * and finish much faster than on a general matrix; these do not. Divided by
 * a power of two they are exact, so products of them (a Gram matrix) are too.
 */
export function lcgInts(n, seed = 1) {
  const a = new Float64Array(n);
  const m = 2147483647;
  let x = seed;
  for (let i = 0; i < n; i++) {
    x = (16807 * x) % m;
    a[i] = (x % 4096) - 2048;
  }
  return a;
}
