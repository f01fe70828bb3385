// Global compiler switches (mainly for measuring what each pass buys).

/**
 * Global compiler switches (fusion, cache size, graph depth limits), mainly for measuring what each pass buys; mutable.
 */
export const config = {
  /** Fuse elementwise chains, prologues and epilogues (false: one kernel per op). */
  fusion: true,
  /** Compiled graphs kept in the cache (least recently used are dropped). */
  cacheSize: 2048,
  /** Lazy graphs deeper than this are computed up to here when the next op is bound. */
  maxGraphDepth: 2000,
  /** Ops fused into one kernel at most (bounds generated code size and compile recursion). */
  maxKernelOps: 1000,
  /** Realize a lone registered-op node over realized inputs by a direct kernel call (compiler/direct-op.ts; false: as a compiled graph). */
  directOp: true,
  /** Keep a compiled graph's intermediate buffers for its next run instead of allocating them again (compiler/scratch.ts; false: fresh buffers every run). */
  keepScratch: true,
};
