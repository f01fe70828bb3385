// The tests' seeded generator (mulberry32): a few lines, fast, and a fixed
// sequence per seed, so a failure found with a fast-check-drawn seed replays.
// One copy for every suite (helpers re-export it under their local names).

export { mulberry32 } from '../../src/tensor/random/mulberry32.js';
