// Storage for the native backend's kernel buffers, and the malloc policy that
// lets a fresh output reuse memory instead of faulting in new pages.
//
// Why: a kernel output is first touched by the kernel that writes it. NumPy
// rarely pays for that: CPython frees an array the moment it is dropped and
// malloc hands the same, already mapped, memory to the next one. A V8
// ArrayBuffer is freed only by a GC, dozens of calls later, and glibc's
// default policy then gives the freed memory back to the OS (its dynamic trim
// threshold is 2x the largest freed chunk), so the next outputs fault every
// 4 KiB page again: measured ~120-800 faults and up to 10 ms of system time
// per 512x512 float64 matmul call, most of the gap to NumPy at n = 512.
//
// 1. At load, the addon sets glibc's M_MMAP_THRESHOLD to 32 MiB (the largest
//    glibc accepts) and M_TRIM_THRESHOLD to 256 MiB (native/src/alloc.cc):
//    buffers up to 32 MiB come from the heap and, once a GC frees them, are
//    reused by the next outputs without a fault (calloc zeroes them). The cost
//    is up to 256 MiB of freed heap kept mapped at the top of the heap (the
//    process's RSS does not drop below that after a burst). This is
//    process-wide; RLX_NATIVE_MALLOC=0 leaves glibc's defaults alone.
//    Until the first GC frees some, outputs still come from new heap pages:
//    V8 lets ~64 MB of external memory pile up before it collects (16-32
//    calls of a 512x512 matmul, each faulting 512 pages). So the first buffer
//    of 256 KiB or more first warms the heap: 64 MiB malloc'ed in 8 MiB
//    pieces, written and freed (~10-20 ms once, and 64 MiB of RSS that the
//    process keeps): the outputs that follow take memory that is already
//    mapped.
// 2. Buffers above the mmap threshold are fresh mappings on every call; they
//    get 2 MiB of slack and the view starts at the first 2 MiB-aligned
//    address, from where the addon marks whole 2 MiB blocks for transparent
//    huge pages: the first write faults 2 MiB at a time (80 MB: ~120 faults
//    instead of ~19,500 and ~30 ms of system time). RLX_NATIVE_HUGEPAGES=0
//    turns that off. Advising heap memory below the threshold was measured to
//    hurt (compaction stalls, and the slack doubles the external memory that
//    drives V8's GC), so it is not done.

import { allocStorage, DTYPE_INFO, type DType, type StorageArray } from '../../tensor/dtype.js';

/** glibc serves larger requests by fresh mmap (the largest threshold it accepts on 64-bit). */
export const MALLOC_MMAP_THRESHOLD = 2 ** 25;
/** Freed memory at the top of the heap is kept mapped up to this size. */
export const MALLOC_TRIM_THRESHOLD = 2 ** 28;
/** Buffers of more than this many bytes are aligned and advised for huge pages (malloc maps them fresh anyway). */
export const HUGE_ALLOC_MIN_BYTES = MALLOC_MMAP_THRESHOLD + 1;
const HUGE = 2 ** 21;

type AdviseHuge = (buffer: ArrayBuffer) => number;
type ViewCtor = new (buffer: ArrayBuffer, byteOffset: number, length: number) => StorageArray;

// Small buffers: V8 keeps a TypedArray of at most 64 bytes on its heap (cheap),
// but a larger one gets its own zeroed off-heap backing store (malloc, zeroing,
// external-memory accounting, a GC-tracked extension): ~0.35 µs for 800 bytes,
// most of the allocation cost of a kernel on 100 elements. Like Node's Buffer
// pool, buffers of 65..SMALL_MAX_BYTES bytes are views into a shared zeroed
// slab, each piece handed out once (so it is zero, and no two live buffers
// overlap). The trade-off is also Node's: a live small buffer keeps its slab
// (SLAB_BYTES) alive. RLX_NATIVE_SLAB=0 turns it off.
export const SMALL_MIN_BYTES = 65;
export const SMALL_MAX_BYTES = 1024;
const SLAB_BYTES = 16384;
let slab: ArrayBuffer | undefined;
let slabUsed = SLAB_BYTES;

function slabView(d: DType, n: number, bytes: number): StorageArray {
  if (slabUsed + bytes > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    slabUsed = 0;
  }
  const off = slabUsed;
  slabUsed += (bytes + 15) & ~15; // 16-byte pieces: aligned for every element type
  switch (d) {
    case 'float64':
      return new Float64Array(slab!, off, n);
    case 'complex128':
      return new Float64Array(slab!, off, 2 * n);
    case 'float32':
      return new Float32Array(slab!, off, n);
    case 'complex64':
      return new Float32Array(slab!, off, 2 * n);
    case 'int32':
      return new Int32Array(slab!, off, n);
    default: {
      const info = DTYPE_INFO[d];
      return new (info.storage as unknown as ViewCtor)(slab!, off, n * info.lanes);
    }
  }
}

/** Heap faulted in at the first large buffer (the garbage V8 lets pile up before an external-memory GC, ~64 MB). */
export const WARM_HEAP_BYTES = 2 ** 26;
/** The first buffer at least this large warms the heap. */
export const WARM_HEAP_AFTER_BYTES = 2 ** 18;
let heapWarmed = false;
let mallocTuned: boolean | undefined;
/** Applies the malloc policy above once per process; true when glibc accepted it (false elsewhere, or with RLX_NATIVE_MALLOC=0). */
export function tuneMallocOnce(addon: unknown): boolean {
  if (mallocTuned === undefined) {
    const tune = (addon as { tuneMalloc?: (mmapThreshold: number, trimThreshold: number) => boolean }).tuneMalloc;
    mallocTuned = typeof tune === 'function' && process.env['RLX_NATIVE_MALLOC'] !== '0' && tune(MALLOC_MMAP_THRESHOLD, MALLOC_TRIM_THRESHOLD);
  }
  return mallocTuned;
}

/** Warms the heap (see the top of this file) the first time a large buffer is allocated. */
function warmHeapOnce(addon: unknown): void {
  if (heapWarmed) return;
  heapWarmed = true;
  (addon as { warmHeap(bytes: number): number }).warmHeap(WARM_HEAP_BYTES);
}

/** The native backend's alloc(dtype, n): zeroed storage, huge-page aligned when above the mmap threshold, from a shared slab when small. */
export function nativeAlloc(addon: unknown): (d: DType, n: number) => StorageArray {
  const warm = tuneMallocOnce(addon);
  const advise = (addon as { adviseHuge?: AdviseHuge }).adviseHuge;
  const huge = typeof advise === 'function' && process.env['RLX_NATIVE_HUGEPAGES'] !== '0';
  const small = process.env['RLX_NATIVE_SLAB'] !== '0';
  if (!huge && !small) return allocStorage;
  return (d, n) => {
    const info = DTYPE_INFO[d];
    const bytes = n * info.itemsize;
    if (small && bytes >= SMALL_MIN_BYTES && bytes <= SMALL_MAX_BYTES) return slabView(d, n, bytes);
    if (warm && bytes >= WARM_HEAP_AFTER_BYTES) warmHeapOnce(addon);
    if (!huge || !(bytes >= HUGE_ALLOC_MIN_BYTES)) return allocStorage(d, n);
    const buf = new ArrayBuffer(bytes + HUGE);
    const off = advise!(buf);
    // The offset is a multiple of the allocator's alignment (>= 16), so of every element size.
    if (!(off >= 0 && off + bytes <= buf.byteLength && off % info.storage.BYTES_PER_ELEMENT === 0)) return allocStorage(d, n);
    return new (info.storage as unknown as ViewCtor)(buf, off, n * info.lanes);
  };
}

/**
 * The native backend's allocUninit(dtype, n): like nativeAlloc, but a buffer
 * between the slab and the mmap threshold is malloc'ed without zeroing
 * (Buffer.allocUnsafeSlow): reused heap memory would otherwise be cleared by
 * calloc only to be overwritten by the kernel (a 2 MiB memset is ~5% of a
 * 512x512 float64 matmul). Executable uses it only for buffers whose first
 * writer writes every element, so no stale byte is ever read.
 * RLX_NATIVE_UNINIT=0 zeroes them like alloc().
 */
export function nativeAllocUninit(addon: unknown, zeroed: (d: DType, n: number) => StorageArray): (d: DType, n: number) => StorageArray {
  if (process.env['RLX_NATIVE_UNINIT'] === '0') return zeroed;
  const warm = tuneMallocOnce(addon);
  return (d, n) => {
    const info = DTYPE_INFO[d];
    const bytes = n * info.itemsize;
    // Small ones are cheap from the slab; fresh mappings above the threshold come zeroed from the OS anyway.
    if (!(bytes > SMALL_MAX_BYTES && bytes < HUGE_ALLOC_MIN_BYTES)) return zeroed(d, n);
    if (warm && bytes >= WARM_HEAP_AFTER_BYTES) warmHeapOnce(addon);
    const raw = Buffer.allocUnsafeSlow(bytes); // its own ArrayBuffer, offset 0, malloc-aligned
    return new (info.storage as unknown as ViewCtor)(raw.buffer, raw.byteOffset, n * info.lanes);
  };
}
