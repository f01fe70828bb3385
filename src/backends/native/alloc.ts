// Storage for the native backend's kernel buffers. A large buffer gets 2 MiB
// of slack, and the view starts at its first 2 MiB-aligned address, from
// where the addon marks whole 2 MiB blocks for transparent huge pages
// (native/src/alloc.cc): a kernel's first write to a fresh output then faults
// in 2 MiB at a time instead of 4 KiB (measured: ~0.7 ms of page faults for a
// fresh 2 MiB output with 4 KiB pages, ~45 µs with a huge page; that was most
// of the gap to NumPy on a 512x512 float64 matmul). The memory is an ordinary
// zeroed ArrayBuffer (only its virtual size is larger: the slack is never
// touched). Smaller buffers, builds without adviseHuge and
// RLX_NATIVE_HUGEPAGES=0 use plain TypedArrays.

import { allocStorage, DTYPE_INFO, type DType, type StorageArray } from '../../tensor/dtype.js';

/** Buffers of at least this many bytes are aligned and advised (one huge page). */
export const HUGE_ALLOC_MIN_BYTES = 2 ** 21;
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

/** The native backend's alloc(dtype, n): zeroed storage, huge-page aligned when large, from a shared slab when small. */
export function nativeAlloc(addon: unknown): (d: DType, n: number) => StorageArray {
  const advise = (addon as { adviseHuge?: AdviseHuge }).adviseHuge;
  const huge = typeof advise === 'function' && process.env['RLX_NATIVE_HUGEPAGES'] !== '0';
  const small = process.env['RLX_NATIVE_SLAB'] !== '0';
  if (!huge && !small) return allocStorage;
  return (d, n) => {
    const info = DTYPE_INFO[d];
    const bytes = n * info.itemsize;
    if (small && bytes >= SMALL_MIN_BYTES && bytes <= SMALL_MAX_BYTES) return slabView(d, n, bytes);
    if (!huge || !(bytes >= HUGE_ALLOC_MIN_BYTES)) return allocStorage(d, n);
    const buf = new ArrayBuffer(bytes + HUGE);
    const off = advise!(buf);
    // The offset is a multiple of the allocator's alignment (>= 16), so of every element size.
    if (!(off >= 0 && off + bytes <= buf.byteLength && off % info.storage.BYTES_PER_ELEMENT === 0)) return allocStorage(d, n);
    return new (info.storage as unknown as ViewCtor)(buf, off, n * info.lanes);
  };
}
