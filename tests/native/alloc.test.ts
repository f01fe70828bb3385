// Large kernel buffers of the native backend: 2 MiB-aligned views over
// zeroed ArrayBuffers whose whole 2 MiB blocks are advised for transparent
// huge pages (src/backends/native/alloc.ts, native/src/alloc.cc). They must
// be ordinary zeroed storage of the right type and length, give the same
// results, cut the page faults of a fresh output, and be freed like any
// TypedArray (RSS stays bounded in a synchronous loop).

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { nativeAddon } from '../../src/backends/native/addon.js';
import { HUGE_ALLOC_MIN_BYTES, nativeAlloc, SMALL_MAX_BYTES, SMALL_MIN_BYTES } from '../../src/backends/native/alloc.js';
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

  it('large buffers are zeroed views of the right type and length, small ones plain', () => {
    const alloc = nativeAlloc(addon);
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

  it('RLX_NATIVE_HUGEPAGES=0 turns it off', () => {
    const before = process.env['RLX_NATIVE_HUGEPAGES'];
    process.env['RLX_NATIVE_HUGEPAGES'] = '0';
    try {
      const a = nativeAlloc(addon)('float64', 2 ** 20);
      expect(a.buffer.byteLength).toBe(8 * 2 ** 20);
    } finally {
      if (before === undefined) delete process.env['RLX_NATIVE_HUGEPAGES'];
      else process.env['RLX_NATIVE_HUGEPAGES'] = before;
    }
  });

  it('a 512x512 float64 matmul into an aligned output equals the js result; fewer page faults than 4 KiB pages would take', () => {
    const n = 512;
    const a = rlx.random.normal(rlx.random.key(11), [n, n]).on('native').realize();
    const b = rlx.random.normal(rlx.random.key(12), [n, n]).on('native').realize();
    const c = a.matmul(b).realize();
    expect(c.node.data!.buffer.byteLength).toBe(8 * n * n + HUGE);
    const want = a.on('js').matmul(b.on('js')).toArray();
    const got = c.toArray();
    let maxErr = 0;
    for (let i = 0; i < got.length; i++) maxErr = Math.max(maxErr, Math.abs(got[i]! - want[i]!));
    expect(maxErr).toBeLessThan(1e-9);
    // Writing fresh 2 MiB buffers: 512 faults each with 4 KiB pages; with huge pages (where the kernel has them) far fewer.
    const thp = (() => {
      try {
        return /\[(always|madvise)\]/.test(readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8'));
      } catch {
        return false;
      }
    })();
    const faults = (make: () => Float64Array) => {
      const keep: Float64Array[] = [];
      const r0 = process.resourceUsage().minorPageFault;
      for (let i = 0; i < 10; i++) {
        const f = make();
        for (let k = 0; k < f.length; k += 512) f[k] = 1;
        keep.push(f);
      }
      return (process.resourceUsage().minorPageFault - r0) / 10;
    };
    const alloc = nativeAlloc(addon);
    const advised = faults(() => alloc('float64', n * n) as Float64Array);
    const plain = faults(() => new Float64Array(n * n));
    if (thp) expect(advised, `faults per 2 MiB buffer: ${advised} advised, ${plain} plain`).toBeLessThan(128);
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
});
