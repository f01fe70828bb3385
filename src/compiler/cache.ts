// The compile cache: executables keyed by graph structure + literals + device +
// dtypes/shapes (see capture()). A hit does no graph rewriting at all.

import { config } from './config.js';
import type { Executable } from './executable.js';

const table = new Map<string, Executable>();
const stats = { hits: 0, misses: 0, compiles: 0 };

export function cacheGet(key: string): Executable | undefined {
  const e = table.get(key);
  if (e) {
    stats.hits++;
    table.delete(key);
    table.set(key, e); // most recently used last
  } else stats.misses++;
  return e;
}

export function cachePut(key: string, e: Executable): void {
  stats.compiles++;
  table.set(key, e);
  while (table.size > config.cacheSize) table.delete(table.keys().next().value!);
}

/** Counts a hit served by a cache in front of this one (jit's signature cache). */
export function recordHit(): void {
  stats.hits++;
}

/** Hit/miss/compile counters and the number of cached executables. */
export function cacheStats(): { hits: number; misses: number; compiles: number; size: number } {
  return { ...stats, size: table.size };
}

/** Empties the cache and zeroes the counters. */
export function clearCache(): void {
  table.clear();
  stats.hits = stats.misses = stats.compiles = 0;
}
