// Global compiler switches (mainly for measuring what each pass buys).

export const config = {
  /** Fuse elementwise chains, prologues and epilogues (false: one kernel per op). */
  fusion: true,
  /** Compiled graphs kept in the cache (least recently used are dropped). */
  cacheSize: 2048,
};
