// Scratch buffers kept between runs of one Executable: the planned buffers
// that no output of the graph can reach (intermediates only, memory-plan.ts)
// are handed to the next run instead of being allocated again.
//
// Why: a run's fresh buffers are ArrayBuffers that V8 frees only at a GC.
// Each one is external memory that brings the next GC closer, and once V8's
// limits have adapted to a small heap (after any full GC), a loop that
// allocates megabytes per call runs a full mark-compact every few dozen calls:
// the nn suite's MLP training step (3.5 MB of fresh buffers a step, 1.2 MB of
// them intermediates) ran 1.5-1.6 ms a step for its first ~3500 steps, then
// 2.3 ms with 30+ mark-compacts per 500 steps. A reused buffer is also still
// in cache from the last run, where a fresh one is cold memory.
//
// A kept buffer is in the state a fresh one would be when the run starts:
// zeroed again when the backend's alloc() would have zeroed it (its first
// writer may rely on zeros: reductions, registered ops), left as it is when
// it would have come from allocUninit() (its first writer writes every
// element). One set is kept per executable; a second run in flight at the same
// time (async runs) allocates its own, as before. Memory held this way is
// bounded: an executable keeps a set only from its second run on (a graph
// realized once keeps nothing), only when the set is at most
// SCRATCH_MAX_BYTES, and all executables together at most SCRATCH_TOTAL_BYTES
// (beyond that, runs allocate as before). config.keepScratch = false turns
// it off.

import type { StorageArray } from '../tensor/dtype.js';

/**
 * An executable keeps its intermediates between runs only when they take at
 * most this many bytes. 128 MiB: a 1M-splat render's 44 MB of projected
 * splats are kept (with 32 MiB they were allocated afresh every frame: the
 * render ran 2-5 % slower in five alternated runs, 108-129 against 110-135 ms
 * median).
 */
export const SCRATCH_MAX_BYTES = 2 ** 27;
/** Bytes kept by all executables together at most. */
export const SCRATCH_TOTAL_BYTES = 2 ** 28;

let keptBytes = 0;
const kept = new FinalizationRegistry<number>((bytes) => {
  keptBytes -= bytes;
});

/** Bytes of scratch buffers kept by live executables now (for tests and diagnostics). */
export function scratchBytesKept(): number {
  return keptBytes;
}

/** The scratch set of one executable: which planned buffers it holds, and the spare set between runs. */
export class Scratch {
  private spare: StorageArray[] | undefined;
  private counted = false;
  private runs = 0;

  /**
   * `buffers`: ids of the planned buffers no output reaches; `zero[i]`:
   * whether buffers[i] must be zeroed before reuse (a fresh one would be);
   * `bytes`: their total size.
   */
  constructor(
    readonly buffers: readonly number[],
    private readonly zero: readonly boolean[],
    readonly bytes: number,
  ) {}

  /** The kept set for a run (indexed like `buffers`), made ready; undefined when none is free. */
  take(): StorageArray[] | undefined {
    const s = this.spare;
    if (s === undefined) return undefined;
    this.spare = undefined;
    for (let i = 0; i < s.length; i++) if (this.zero[i]) s[i]!.fill(0);
    return s;
  }

  /** Hands a run's set back once the run no longer uses it (kept if there is room, else left to the GC). */
  give(set: StorageArray[]): void {
    if (++this.runs < 2 || this.spare !== undefined) return;
    if (!this.counted) {
      if (this.bytes > SCRATCH_MAX_BYTES || keptBytes + this.bytes > SCRATCH_TOTAL_BYTES) return;
      keptBytes += this.bytes;
      kept.register(this, this.bytes, this);
      this.counted = true;
    }
    this.spare = set;
  }

  /** Lets the kept set go (the executable left the compile cache). */
  release(): void {
    this.spare = undefined;
    if (this.counted) {
      kept.unregister(this);
      keptBytes -= this.bytes;
      this.counted = false;
    }
  }
}
