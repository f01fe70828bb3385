// A small seeded host generator (mulberry32: 32-bit state, floats in [0, 1))
// for host-side choices that need no counter-based keys: the procedural
// splat scenes, fit's view order and densification, the tests' inputs. One
// copy for the package and the tests (tests/harness/prng.ts re-exports it).

/** mulberry32: uniform in [0, 1), the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
