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

/** The native backend's alloc(dtype, n): zeroed storage, huge-page aligned when large. */
export function nativeAlloc(addon: unknown): (d: DType, n: number) => StorageArray {
  const advise = (addon as { adviseHuge?: AdviseHuge }).adviseHuge;
  if (typeof advise !== 'function' || process.env['RLX_NATIVE_HUGEPAGES'] === '0') return allocStorage;
  return (d, n) => {
    const info = DTYPE_INFO[d];
    const bytes = n * info.itemsize;
    if (!(bytes >= HUGE_ALLOC_MIN_BYTES)) return allocStorage(d, n);
    const buf = new ArrayBuffer(bytes + HUGE);
    const off = advise(buf);
    // The offset is a multiple of the allocator's alignment (>= 16), so of every element size.
    if (!(off >= 0 && off + bytes <= buf.byteLength && off % info.storage.BYTES_PER_ELEMENT === 0)) return allocStorage(d, n);
    return new (info.storage as unknown as ViewCtor)(buf, off, n * info.lanes);
  };
}
