// Storage for the native backend's kernel buffers: zeroed (alloc) or left
// as malloc gives it (allocUninit, for outputs a kernel writes in full), small
// ones from a shared slab, medium ones a kernel writes in full from unzeroed
// slabs. Where the memory comes from, and why, is the malloc
// policy in malloc-policy.ts. Without that policy (RLX_NATIVE_MALLOC=0, or no
// glibc), glibc maps buffers above its threshold fresh on every call; buffers
// of 2 MiB or more then get 2 MiB of slack and start at the first
// 2 MiB-aligned address, from where the addon marks whole 2 MiB blocks for
// transparent huge pages, so a first write faults 2 MiB at a time
// (RLX_NATIVE_HUGEPAGES=0 turns that off).

import { allocStorage, DTYPE_INFO, type DType, type StorageArray } from '../../tensor/dtype.js';
import { LARGE_BUFFER_BYTES, noteLargeBuffer, tuneMallocOnce } from './malloc-policy.js';

/** Without the malloc policy, buffers of at least this many bytes are aligned and advised for huge pages. */
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

/** The native backend's alloc(dtype, n) (`policy`: whether the malloc policy is on; tests pass false to reach the huge-page path): zeroed storage, from a shared slab when small, huge-page aligned when large and the malloc policy is off. */
export function nativeAlloc(addon: unknown, policy = tuneMallocOnce(addon)): (d: DType, n: number) => StorageArray {
  const advise = (addon as { adviseHuge?: AdviseHuge }).adviseHuge;
  const huge = !policy && typeof advise === 'function' && process.env['RLX_NATIVE_HUGEPAGES'] !== '0';
  const small = process.env['RLX_NATIVE_SLAB'] !== '0';
  if (!policy && !huge && !small) return allocStorage;
  return (d, n) => {
    const info = DTYPE_INFO[d];
    const bytes = n * info.itemsize;
    if (small && bytes >= SMALL_MIN_BYTES && bytes <= SMALL_MAX_BYTES) return slabView(d, n, bytes);
    if (policy && bytes >= LARGE_BUFFER_BYTES) noteLargeBuffer(addon);
    if (!huge || !(bytes >= HUGE_ALLOC_MIN_BYTES)) return allocStorage(d, n);
    const buf = new ArrayBuffer(bytes + HUGE);
    const off = advise!(buf);
    // The offset is a multiple of the allocator's alignment (>= 16), so of every element size.
    if (!(off >= 0 && off + bytes <= buf.byteLength && off % info.storage.BYTES_PER_ELEMENT === 0)) return allocStorage(d, n);
    return new (info.storage as unknown as ViewCtor)(buf, off, n * info.lanes);
  };
}

/**
 * Medium buffers a kernel writes in full (allocUninit, SMALL_MAX_BYTES <
 * bytes <= MEDIUM_MAX_BYTES: a 1000-point complex128 spectrum, a 1000-element
 * float64 stage of an ODE step) are pieces of an unzeroed slab. A TypedArray
 * of its own costs far more than its bytes: calloc, a V8 backing store and
 * its GC-tracked extension, external-memory accounting that brings the next
 * GC closer (measured: ~2 µs of a ~8 µs 1000-point fft call under load, and
 * 5-8 µs against 0.15-0.4 µs for a view in a loop of 16 KiB allocations),
 * where a view of an existing ArrayBuffer is one small heap object. The size
 * classes (2, 4, 8, 16 KiB) each cut their slab into MEDIUM_PIECES pieces of
 * the class's largest size, so a live piece keeps at most 2 * MEDIUM_PIECES
 * times its size alive (the trade-off of the small slab above). The memory
 * is not zeroed (Buffer.allocUnsafeSlow), which is why only allocUninit hands
 * these out. RLX_NATIVE_SLAB=0 turns it off with the small slab.
 */
export const MEDIUM_MAX_BYTES = 16384;
export const MEDIUM_PIECES = 16;
const mediumSlabs: { buffer: ArrayBuffer | undefined; used: number }[] = [];

function mediumView(d: DType, n: number, bytes: number): StorageArray {
  const cls = Math.max(11, 32 - Math.clz32(bytes - 1)); // 2^(cls-1) < bytes <= 2^cls, at least 2 KiB
  const slabBytes = MEDIUM_PIECES << cls;
  const slot = (mediumSlabs[cls] ??= { buffer: undefined, used: slabBytes });
  if (slot.used + bytes > slabBytes) {
    const raw = Buffer.allocUnsafeSlow(slabBytes); // its own ArrayBuffer, offset 0, malloc-aligned
    slot.buffer = raw.buffer as ArrayBuffer;
    slot.used = 0;
  }
  const off = slot.used;
  slot.used += (bytes + 63) & ~63; // 64-byte pieces: aligned for every element type
  const info = DTYPE_INFO[d];
  return new (info.storage as unknown as ViewCtor)(slot.buffer!, off, n * info.lanes);
}

/**
 * Below this size allocUninit gives zeroed storage (medium buffers aside): Buffer.allocUnsafeSlow's
 * wrapper costs more than calloc's memset there (a 1000-point complex128 fft,
 * 16 KiB out, ran ~5.2 µs a call with a zeroed output, ~6.6 µs with an
 * unzeroed one; for elementwise outputs of 8-512 KiB the two were within
 * noise; from ~1 MiB skipping the memset wins clearly: 2 MiB 80 vs 31 µs).
 */
export const UNINIT_MIN_BYTES = 65536;

/**
 * The native backend's allocUninit(dtype, n): like nativeAlloc, but a buffer
 * past the slab is malloc'ed without zeroing (Buffer.allocUnsafeSlow): reused
 * heap memory would otherwise be cleared by calloc only to be overwritten by
 * the kernel (a 2 MiB memset is ~5% of a 512x512 float64 matmul; an 80 MB one
 * ~5 ms). Executable uses it only for buffers whose first writer writes every
 * element, so no stale byte is ever read. Without the malloc policy, buffers
 * from 2 MiB take nativeAlloc's huge-page path instead (fresh mappings come
 * zeroed anyway). RLX_NATIVE_UNINIT=0 zeroes them all like alloc().
 */
export function nativeAllocUninit(addon: unknown, zeroed: (d: DType, n: number) => StorageArray, policy = tuneMallocOnce(addon)): (d: DType, n: number) => StorageArray {
  if (process.env['RLX_NATIVE_UNINIT'] === '0') return zeroed;
  const medium = process.env['RLX_NATIVE_SLAB'] !== '0';
  return (d, n) => {
    const info = DTYPE_INFO[d];
    const bytes = n * info.itemsize;
    if (medium && bytes > SMALL_MAX_BYTES && bytes <= MEDIUM_MAX_BYTES) return mediumView(d, n, bytes);
    if (bytes < UNINIT_MIN_BYTES || (!policy && bytes >= HUGE_ALLOC_MIN_BYTES)) return zeroed(d, n);
    if (policy && bytes >= LARGE_BUFFER_BYTES) noteLargeBuffer(addon);
    const raw = Buffer.allocUnsafeSlow(bytes); // its own ArrayBuffer, offset 0, malloc-aligned
    return new (info.storage as unknown as ViewCtor)(raw.buffer, raw.byteOffset, n * info.lanes);
  };
}
