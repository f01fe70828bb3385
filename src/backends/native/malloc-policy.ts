// The malloc policy of the native backend: how a fresh kernel output gets
// memory that is already mapped instead of faulting in new pages.
//
// Why: a kernel output is first touched by the kernel that writes it. NumPy
// rarely pays for that: CPython frees an array the moment it is dropped and
// malloc hands the same, already mapped, memory to the next one. A V8
// ArrayBuffer is freed only by a GC, dozens of calls later, and glibc's
// default policy then gives the freed memory back to the OS (its dynamic trim
// threshold is 2x the largest freed chunk; anything above 32 MiB is a fresh
// mmap every time), so the next outputs fault every 4 KiB page again:
// measured ~120-800 faults and up to 10 ms of system time per 512x512
// float64 matmul call, ~19,500 faults per 80 MB output of a 10M-element
// fused kernel.
//
// The policy (glibc only; RLX_NATIVE_MALLOC=0 leaves glibc's defaults alone):
// 1. Once, when the backend is created, the addon sets M_MMAP_MAX = 0 (no
//    request is served by its own mapping: every buffer comes from the heap)
//    and M_TRIM_THRESHOLD = 256 MiB (freed memory at the top of the heap is
//    kept mapped up to that size). Memory a GC frees is then reused by the
//    next outputs without a fault.
// 2. V8 lets ~64 MB of external memory pile up before it collects, so until
//    the first GC outputs would still come from new pages. The first buffer
//    of 256 KiB or more therefore warms the heap: 64 MiB malloc'ed in 8 MiB
//    pieces, written and freed (~10-20 ms, once).
// 3. What is kept is given back when the process is idle: after a large
//    allocation an unref'd 1 s timer checks whether more large buffers were
//    allocated since; once a whole second passes without one, and the heap
//    then holds more than MALLOC_TRIM_THRESHOLD of free memory, malloc_trim
//    returns every free page of it to the OS (keeping WARM_HEAP_BYTES at the
//    top). Less free memory than that stays (C++ kernels' workspaces, e.g.
//    LAPACK copies, come from the same heap and are not seen from here). A synchronous loop never yields to the timer, and it is
//    exactly the case that reuses the memory; a process that stops computing
//    gets its RSS back within a second or two of returning to the event loop.
//    Memory of live tensors is never touched by any of this.

/** Freed memory at the top of the heap is kept mapped up to this size (glibc trims above it). */
export const MALLOC_TRIM_THRESHOLD = 2 ** 28;
/** Heap faulted in at the first large buffer (the garbage V8 lets pile up before an external-memory GC, ~64 MB). */
export const WARM_HEAP_BYTES = 2 ** 26;
/** Buffers at least this large warm the heap (the first one) and arm the idle trim. */
export const LARGE_BUFFER_BYTES = 2 ** 18;
/** Idle time after the last large buffer before the heap is trimmed. */
export const IDLE_TRIM_MS = 1000;

interface PolicyAddon {
  tuneMalloc?(trimThreshold: number, mapLarge: boolean): boolean;
  warmHeap(bytes: number): number;
  trimHeap(keepBytes: number, minFreeBytes: number): boolean;
}

let tuned: boolean | undefined;
let warmed = false;
let largeSinceCheck = false;
let timer: ReturnType<typeof setTimeout> | undefined;
let trims = 0;
let checks = 0;

/** Applies the policy once per process; true when glibc accepted it (false elsewhere, or with RLX_NATIVE_MALLOC=0). */
export function tuneMallocOnce(addon: unknown): boolean {
  if (tuned === undefined) {
    const a = addon as PolicyAddon;
    tuned = typeof a.tuneMalloc === 'function' && process.env['RLX_NATIVE_MALLOC'] !== '0' && a.tuneMalloc(MALLOC_TRIM_THRESHOLD, false);
  }
  return tuned;
}

/** Called for every buffer of at least LARGE_BUFFER_BYTES (when the policy is on): warms the heap once, arms the idle trim. */
export function noteLargeBuffer(addon: unknown): void {
  if (!warmed) {
    warmed = true;
    (addon as PolicyAddon).warmHeap(WARM_HEAP_BYTES);
  }
  largeSinceCheck = true;
  if (timer === undefined) armIdleTrim(addon);
}

function armIdleTrim(addon: unknown): void {
  timer = setTimeout(() => {
    timer = undefined;
    if (largeSinceCheck) {
      largeSinceCheck = false;
      armIdleTrim(addon); // still computing: check again later
      return;
    }
    checks++;
    if ((addon as PolicyAddon).trimHeap(WARM_HEAP_BYTES, MALLOC_TRIM_THRESHOLD)) {
      trims++;
      warmed = false; // the next burst warms again
    }
  }, IDLE_TRIM_MS);
  timer.unref(); // never keeps the process alive
}

/** How often the idle check ran, and how often it released memory (for tests and diagnostics). */
export function idleTrims(): { checks: number; trims: number } {
  return { checks, trims };
}
