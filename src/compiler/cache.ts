// The compile cache: executables keyed by graph structure + device +
// dtypes/shapes + the few literal values passes rewrite on (see capture();
// other literals are parameters passed at run time, compiler/const-params.ts).
// A hit does no graph rewriting at all. At most config.cacheSize entries,
// least recently used dropped first.

import { config } from './config.js';
import type { Executable } from './executable.js';

// Looked up by capture()'s structural hash, then the key compared: a Map keyed
// by the key string itself would make V8 hash every fresh key char by char.
interface Entry {
  key: string;
  hash: number;
  exe: Executable;
}
const buckets = new Map<number, Entry[]>();
/** Every entry, least recently used first (object keys: no string hashing). */
const lru = new Map<Entry, true>();
let newest: Entry | undefined;
const stats = { hits: 0, misses: 0, compiles: 0 };

/** The executable cached under key (hash: capture()'s hash of that key). */
export function cacheGet(key: string, hash: number): Executable | undefined {
  const b = buckets.get(hash);
  if (b) {
    for (let i = 0; i < b.length; i++) {
      const e = b[i]!;
      if (e.key !== key) continue;
      stats.hits++;
      if (e !== newest) {
        lru.delete(e);
        lru.set(e, true); // most recently used last
        newest = e;
      }
      return e.exe;
    }
  }
  stats.misses++;
  return undefined;
}

export function cachePut(key: string, hash: number, exe: Executable): void {
  stats.compiles++;
  let b = buckets.get(hash);
  if (!b) buckets.set(hash, (b = []));
  let e = b.find((x) => x.key === key);
  if (e) {
    if (e.exe !== exe) e.exe.scratch?.release();
    e.exe = exe;
    lru.delete(e);
  } else {
    e = { key, hash, exe };
    b.push(e);
  }
  lru.set(e, true);
  newest = e;
  while (lru.size > config.cacheSize) {
    const old = lru.keys().next().value!;
    lru.delete(old);
    old.exe.scratch?.release();
    const ob = buckets.get(old.hash)!;
    ob.splice(ob.indexOf(old), 1);
    if (ob.length === 0) buckets.delete(old.hash);
    if (newest === old) newest = undefined;
  }
}

/** Counts a hit served by a cache in front of this one (jit's signature cache). */
export function recordHit(): void {
  stats.hits++;
}

/**
 * Hit/miss/compile counters and the number of cached executables.
 * @example
 * ```ts
 * clearCache();
 * const x = tensor([1, 2, 3]);
 * x.mul(2).add(1).tolist();   // [3, 5, 7]  (compiled: a miss)
 * x.mul(2).add(1).tolist();   // [3, 5, 7]  (same graph: a hit)
 * const { hits, misses, compiles } = cacheStats();
 * [hits, misses, compiles];   // [1, 1, 1]
 * ```
 */
export function cacheStats(): { hits: number; misses: number; compiles: number; size: number } {
  return { ...stats, size: lru.size };
}

/**
 * Empties the cache and zeroes the counters.
 * @example
 * ```ts
 * tensor([1, 2]).add(1).tolist();   // [2, 3]
 * clearCache();
 * cacheStats();   // { hits: 0, misses: 0, compiles: 0, size: 0 }
 * ```
 */
export function clearCache(): void {
  for (const e of lru.keys()) e.exe.scratch?.release();
  buckets.clear();
  lru.clear();
  newest = undefined;
  stats.hits = stats.misses = stats.compiles = 0;
}
