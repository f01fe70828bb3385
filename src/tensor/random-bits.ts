// Counter-based random bits in the style of JAX: explicit keys, Threefry-2x32-20 as the hash,
// split / fold_in to derive independent keys, and samplers built on those bits. Everything
// here is a pure function of (key, n, parameters) over plain typed arrays, so every backend
// that wraps it (CPU, WASM, GPU kernels written from the same recipe) produces the same bits.
//
// Two counter layouts are supported, both as in jax/_src/prng.py:
//   'partitionable' (JAX's default since jax_threefry_partitionable became True): element i of a
//     draw hashes the 64-bit counter i split as (hi32, lo32); split(key, n)[i] = fold_in(key, i).
//     An element depends only on (key, i), never on n, so prefixes are stable.
//   'legacy' (jax_threefry_partitionable=False, JAX < 0.5 default): JAX's threefry_2x32 over
//     iota(count) cut into two halves that are hashed as pairs (i, h + i).
//
// The code lives in ./random/: options.ts (layout option, argument checks),
// threefry.ts (the hash, keys: PRNGKey data, split, fold_in, and raw bits),
// samplers.ts (uniform, normal, Bernoulli, randint) and erfinv.ts. This module
// keeps the original import path and exactly the original exports.

export type { ThreefryLayout, RandomOptions } from './random/options.js';
export { DEFAULT_LAYOUT } from './random/options.js';
export {
  threefry2x32,
  threefry2x32Into,
  threefry2x32Jax,
  keyData,
  splitKeyData,
  foldIn,
  randomBits32,
  randomBits64,
} from './random/threefry.js';
export { erfinv } from './random/erfinv.js';
export type { BernoulliOptions } from './random/samplers.js';
export {
  uniformFloat64,
  uniformFloat32,
  normalFloat64,
  normalFloat32,
  bernoulliBits,
  reduce64Unbiased,
  randint,
} from './random/samplers.js';
