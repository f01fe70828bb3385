// The native backend's buffers and malloc policy (src/backends/native/alloc.ts,
// native/src/alloc.cc): outputs up to 32 MiB come from a heap that keeps freed
// memory mapped (no page faults per call once warm), larger ones are 2 MiB-
// aligned views advised for transparent huge pages, small ones slab pieces.
// All must be ordinary zeroed storage of the right type and length, give the
// same results, and be freed like any TypedArray (RSS stays bounded in a
// synchronous loop).

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { HUGE_ALLOC_MIN_BYTES, MEDIUM_MAX_BYTES, MEDIUM_PIECES, nativeAlloc, nativeAllocUninit, SMALL_MAX_BYTES, SMALL_MIN_BYTES } from '../../src/backends/native/alloc.js';
import { IDLE_TRIM_MS, idleTrims, tuneMallocOnce } from '../../src/backends/native/malloc-policy.js';
import { DTYPES, DTYPE_INFO } from '../../src/tensor/dtype.js';
import { describeNative } from './native-harness.js';

const HUGE = 2 ** 21;

describeNative('native buffer allocation', () => {
  const addon = nativeAddon()!;

  it('adviseHuge returns the offset of the first 2 MiB boundary; bad arguments throw', () => {
    const advise = (addon as unknown as { adviseHuge: (b: unknown) => number }).adviseHuge;
    for (const bytes of [1, 4096, HUGE, 3 * HUGE + 123]) {
      const off = advise(new ArrayBuffer(bytes));
      expect(off).toBeGreaterThanOrEqual(0);
      expect(off).toBeLessThan(HUGE);
      expect(off % 16).toBe(0);
    }
    expect(advise(new ArrayBuffer(0))).toBe(0);
    expect(() => advise(new Float64Array(4))).toThrow(/expected \(buffer: ArrayBuffer\)/);
    expect(() => advise(undefined)).toThrow(TypeError);
  });

  it('without the malloc policy, large buffers are zeroed huge-page-aligned views of the right type and length, small ones plain', () => {
    const alloc = nativeAlloc(addon, false);
    for (const d of DTYPES) {
      const info = DTYPE_INFO[d];
      const n = Math.ceil((HUGE_ALLOC_MIN_BYTES + 777) / info.itemsize);
      const a = alloc(d, n);
      expect(a).toBeInstanceOf(info.storage);
      expect(a.length).toBe(n * info.lanes);
      expect(a.buffer.byteLength).toBe(n * info.itemsize + HUGE);
      expect(a.byteOffset % info.storage.BYTES_PER_ELEMENT).toBe(0);
      expect(a.every((v) => v === 0)).toBe(true);
      const tiny = alloc(d, Math.floor(64 / info.itemsize)); // on V8's heap anyway: plain
      expect(tiny.byteOffset).toBe(0);
      expect(tiny.buffer.byteLength).toBe(tiny.byteLength);
    }
  });

  it('small buffers (65..1024 bytes) are disjoint zeroed 16-byte-aligned pieces of a shared slab; RLX_NATIVE_SLAB=0 turns it off', () => {
    const alloc = nativeAlloc(addon);
    const pieces = [];
    for (let k = 0; k < 200; k++)
      for (const d of DTYPES) {
        const info = DTYPE_INFO[d];
        const n = Math.max(Math.ceil(SMALL_MIN_BYTES / info.itemsize), Math.floor(((k * 37) % SMALL_MAX_BYTES) / info.itemsize));
        const a = alloc(d, n);
        expect(a).toBeInstanceOf(info.storage);
        expect(a.length).toBe(n * info.lanes);
        expect(a.byteOffset % 16).toBe(0);
        expect(a.every((v) => v === 0)).toBe(true);
        a.fill(1 as never);
        pieces.push(a);
      }
    // Every piece still reads back its own fill: none overlaps another.
    for (const a of pieces) expect(a.every((v) => v === 1)).toBe(true);
    expect(pieces.some((a) => a.byteOffset > 0)).toBe(true);
    const before = process.env['RLX_NATIVE_SLAB'];
    process.env['RLX_NATIVE_SLAB'] = '0';
    try {
      const a = nativeAlloc(addon)('float64', 100);
      expect(a.byteOffset).toBe(0);
      expect(a.buffer.byteLength).toBe(800);
    } finally {
      if (before === undefined) delete process.env['RLX_NATIVE_SLAB'];
      else process.env['RLX_NATIVE_SLAB'] = before;
    }
  });

  it('medium buffers a kernel writes in full (allocUninit, 1-16 KiB) are disjoint 64-byte-aligned pieces of a few slabs, each kept alive by at most 32x its size; alloc() and RLX_NATIVE_SLAB=0 give plain zeroed storage', () => {
    const uninit = nativeAllocUninit(addon, nativeAlloc(addon));
    const pieces = [];
    for (let k = 0; k < 300; k++)
      for (const d of ['float64', 'complex128', 'float32', 'int32'] as const) {
        const info = DTYPE_INFO[d];
        const bytes = SMALL_MAX_BYTES + 1 + ((k * 997) % (MEDIUM_MAX_BYTES - SMALL_MAX_BYTES));
        const n = Math.ceil(bytes / info.itemsize);
        if (n * info.itemsize > MEDIUM_MAX_BYTES) continue;
        const a = uninit(d, n);
        expect(a).toBeInstanceOf(info.storage);
        expect(a.length).toBe(n * info.lanes);
        expect(a.byteOffset % 64).toBe(0);
        expect(a.buffer.byteLength).toBeLessThanOrEqual(2 * MEDIUM_PIECES * a.byteLength);
        a.fill(k as never);
        pieces.push([a, k] as const);
      }
    // Every piece still reads back its own fill: none overlaps another.
    for (const [a, k] of pieces) expect(a.every((v) => v === k)).toBe(true);
    expect(pieces.some(([a]) => a.byteOffset > 0)).toBe(true);
    // Zeroed storage never comes from these slabs.
    const z = nativeAlloc(addon)('float64', 1000);
    expect(z.byteOffset).toBe(0);
    expect(z.every((v) => v === 0)).toBe(true);
    const before = process.env['RLX_NATIVE_SLAB'];
    process.env['RLX_NATIVE_SLAB'] = '0';
    try {
      const a = nativeAllocUninit(addon, nativeAlloc(addon))('float64', 1000);
      expect(a.byteOffset).toBe(0);
      expect(a.buffer.byteLength).toBe(8000);
    } finally {
      if (before === undefined) delete process.env['RLX_NATIVE_SLAB'];
      else process.env['RLX_NATIVE_SLAB'] = before;
    }
  });

  it('RLX_NATIVE_HUGEPAGES=0 turns it off', () => {
    const before = process.env['RLX_NATIVE_HUGEPAGES'];
    process.env['RLX_NATIVE_HUGEPAGES'] = '0';
    try {
      const n = Math.ceil(HUGE_ALLOC_MIN_BYTES / 8) + 1;
      const a = nativeAlloc(addon, false)('float64', n);
      expect(a.buffer.byteLength).toBe(8 * n);
    } finally {
      if (before === undefined) delete process.env['RLX_NATIVE_HUGEPAGES'];
      else process.env['RLX_NATIVE_HUGEPAGES'] = before;
    }
  });

  const thp = (() => {
    try {
      return /\[(always|madvise)\]/.test(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'));
    } catch {
      return false;
    }
  })();
  const glibc = process.platform === 'linux' && Boolean((process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime);
  /** Minor page faults per call of make() (the results are kept alive, so each call gets a new buffer), after touching one value per page. */
  const faultsPer = (calls: number, make: () => Float64Array) => {
    const keep: Float64Array[] = [];
    const r0 = process.resourceUsage().minorPageFault;
    for (let i = 0; i < calls; i++) {
      const f = make();
      for (let k = 0; k < f.length; k += 512) f[k] = 1;
      keep.push(f);
    }
    return (process.resourceUsage().minorPageFault - r0) / calls;
  };

  it('tuneMalloc, warmHeap and trimHeap validate their arguments; the policy is applied once (glibc)', () => {
    const fns = addon as unknown as Record<'tuneMalloc' | 'warmHeap' | 'trimHeap', (...a: unknown[]) => unknown>;
    expect(() => fns.tuneMalloc(1)).toThrow(/expected \(trimThreshold: number, mapLarge: boolean\)/);
    expect(() => fns.tuneMalloc(2 ** 28, 0)).toThrow(TypeError);
    expect(() => fns.tuneMalloc(-1, false)).toThrow(/0 <= trimThreshold < 2 GiB/);
    expect(() => fns.warmHeap('1')).toThrow(/expected \(bytes: number\)/);
    expect(() => fns.warmHeap(2 ** 31)).toThrow(/0 <= bytes <= 1 GiB/);
    expect(fns.warmHeap(0)).toBe(0);
    expect(() => fns.trimHeap()).toThrow(/expected \(keepBytes: number, minFreeBytes: number\)/);
    expect(() => fns.trimHeap(-5, 0)).toThrow(RangeError);
    expect(typeof fns.trimHeap(2 ** 26, 0)).toBe('boolean');
    expect(fns.trimHeap(0, 2 ** 50)).toBe(false); // never that much free heap: nothing done
    expect(tuneMallocOnce(addon)).toBe(glibc && process.env['RLX_NATIVE_MALLOC'] !== '0');
  });

  it('with the policy, large buffers are plain zeroed storage (alloc) or plain storage the kernel overwrites (allocUninit)', () => {
    if (!tuneMallocOnce(addon)) return;
    const alloc = nativeAlloc(addon);
    const big = alloc('float64', 2 ** 20);
    expect(big.byteOffset).toBe(0);
    expect(big.buffer.byteLength).toBe(2 ** 23);
    expect(big.every((v) => v === 0)).toBe(true);
  });

  it('a 512x512 float64 matmul equals the js result; a loop of fresh 2 MiB outputs reuses mapped memory (no page faults per call)', () => {
    const n = 512;
    const a = rlx.random.normal(rlx.random.key(11), [n, n]).on('native').realize();
    const b = rlx.random.normal(rlx.random.key(12), [n, n]).on('native').realize();
    const c = a.matmul(b).realize();
    const want = a.on('js').matmul(b.on('js')).toArray();
    const got = c.toArray();
    let maxErr = 0;
    for (let i = 0; i < got.length; i++) maxErr = Math.max(maxErr, Math.abs(got[i]! - want[i]!));
    expect(maxErr).toBeLessThan(1e-9);
    if (!tuneMallocOnce(addon)) return; // the policy needs glibc (it is documented as such)
    // Outputs dropped at once, as in a user's loop: V8 frees them only at a GC, and
    // without the policy each new one faulted its 512 pages (4 KiB each).
    const r0 = process.resourceUsage().minorPageFault;
    for (let i = 0; i < 40; i++) a.matmul(b).realize();
    const perCall = (process.resourceUsage().minorPageFault - r0) / 40;
    expect(perCall, `page faults per 2 MiB output: ${perCall}`).toBeLessThan(64);
  });

  it('without the policy, buffers from 2 MiB are aligned for huge pages and fault far less than 4 KiB pages would', () => {
    const n = 2 ** 19 + 5; // 4 MiB and a bit
    const alloc = nativeAlloc(addon, false);
    const big = alloc('float64', n);
    expect(big.buffer.byteLength).toBe(8 * n + HUGE);
    // (In this process the policy may already be on, so the heap may hand out reused memory: either way, far fewer than 1 fault per 4 KiB page.)
    const advised = faultsPer(4, () => alloc('float64', n) as Float64Array);
    const pages = (8 * n) / 4096;
    if (thp) expect(advised, `faults per 4 MiB buffer: ${advised} (4 KiB pages: ${pages})`).toBeLessThan(pages / 8);
  });

  it('a synchronous loop of large realizations keeps RSS bounded', () => {
    const x = rlx.random.uniform(rlx.random.key(13), [600_000]).on('native').realize(); // 4.8 MB
    const gc = (globalThis as { gc?: () => void }).gc;
    for (let i = 0; i < 20; i++) x.mul(i).realize();
    gc?.();
    const base = process.memoryUsage().rss;
    for (let i = 0; i < 400; i++) x.mul(i).add(1).realize(); // ~1.9 GB allocated in all
    gc?.();
    const growthMB = (process.memoryUsage().rss - base) / 2 ** 20;
    expect(growthMB, `RSS grew ${growthMB.toFixed(0)} MB`).toBeLessThan(300);
  }, 60_000);

  it('once the process has been idle (no large buffer) for a while, memory freed inside the heap goes back to the OS', async () => {
    if (!tuneMallocOnce(addon)) return;
    const gc = (globalThis as { gc?: () => void }).gc;
    const x = rlx.random.uniform(rlx.random.key(14), [5_000_000]).on('native').realize(); // 40 MB
    const before = idleTrims();
    let keep: rlx.Tensor[] = [];
    for (let i = 0; i < 10; i++) keep.push(x.mul(i).realize()); // 400 MB live at once: arms the idle check
    const pin = new Float64Array(2 ** 16); // 512 KiB, likely above them: their memory is then inside the heap, not at its top (which glibc trims by itself)
    const peak = process.memoryUsage().rss;
    expect(idleTrims().checks).toBe(before.checks); // not while computing
    keep = [];
    gc?.();
    await new Promise((r) => setTimeout(r, 2.5 * IDLE_TRIM_MS + 200));
    expect(idleTrims().checks).toBeGreaterThan(before.checks);
    // With a GC (node --expose-gc) the 400 MB are free: by glibc's own trim at the top or by the idle trim inside, the RSS drops.
    if (gc) expect((peak - process.memoryUsage().rss) / 2 ** 20).toBeGreaterThan(200);
    expect(keep.length + pin[0]!).toBe(0);
  }, 20_000);
});
