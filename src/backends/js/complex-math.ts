// Complex scalar functions for the pure-JS backend's generated kernels.
//
// A kernel computing a complex op on interleaved (re, im) storage calls one of
// these per element. To keep that loop free of allocation, closures and boxed
// results, every function that yields a complex number writes it to the
// module-level CX (CX[0] = re, CX[1] = im) and returns nothing; the kernel reads
// CX immediately after the call (any later call into this module, including
// the ones these functions make internally, overwrites it). Real-valued results
// (cabs, cangle) are returned directly.
//
// Results follow NumPy, which calls the C99 Annex G functions of the platform
// libm: the same branch cuts, the same signed zeros on the cuts, the same
// special values for infinities and NaNs (checked against NumPy in
// tests/scalar-math.test.ts). Where Annex G leaves a sign unspecified we return
// what glibc returns. Accuracy is a few ulps away from the unavoidable
// cancellation points; the inverse trig/hyperbolic functions use the algorithm
// of Hull, Fairgrieve and Tang (ACM TOMS 23(3), 1997) with the refinements
// described in FreeBSD msun's catrig.c, so they stay accurate next to their
// branch cuts and branch points.
//
// The code lives in ./complex/ (core.ts holds the one CX register and the
// shared helpers; elementary.ts, inverse.ts and arith.ts the functions); this
// module keeps the original import path and exactly the original exports, so
// runtime.ts can hand the whole namespace to generated kernels as `C`.

export { CX } from './complex/core.js';
export { cexp, clog, csqrt, clog1p, cexpm1, csinh, ccosh, ctanh, csin, ccos, ctan } from './complex/elementary.js';
export { casinh, casin, cacos, cacosh, catanh, catan } from './complex/inverse.js';
export { cdiv, cpow, cabs, cangle, csign, crsqrt, csigmoid } from './complex/arith.js';
