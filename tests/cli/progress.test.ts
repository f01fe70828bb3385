// src/progress.ts: silent off a TTY, rate-limited redraws on one, and cheap
// enough per update to call from every iteration of a solver (measured here).

import { describe, expect, it } from 'vitest';
import { progress, type ProgressStream } from '../../src/progress.js';

function sink(isTTY: boolean, columns = 80): ProgressStream & { out: string[] } {
  const out: string[] = [];
  return { isTTY, columns, out, write: (s: string) => (out.push(s), true) };
}

describe('progress bar', () => {
  it('writes nothing when the stream is not a TTY, or when disabled', () => {
    for (const [stream, enabled] of [[sink(false), undefined], [sink(true), false]] as const) {
      const p = progress({ stream, total: 10, label: 'x', enabled });
      for (let i = 0; i <= 10; i++) p.update(i, `step ${i}`);
      p.done('end');
      expect(p.enabled).toBe(false);
      expect(stream.out).toEqual([]);
    }
  });

  it('redraws at most once per interval, and done() ends the line', () => {
    let t = 0;
    const s = sink(true);
    const p = progress({ stream: s, total: 100, label: 'cg', now: () => t, intervalMs: 100 });
    for (let i = 0; i < 50; i++) {
      p.update(i);
      t += 1; // 50 updates within 50 ms: only the first draws
    }
    expect(s.out.length).toBe(1);
    t += 60; // 110 ms after the first draw
    p.update(60, 'it 60');
    expect(s.out.length).toBe(2);
    expect(s.out[1]).toMatch(/^\rcg \[#{14}-{10}\]  60% 0\.1s it 60\x1b\[K$/);
    p.done();
    expect(s.out.at(-1)).toBe('\n');
    const n = s.out.length;
    p.update(100);
    p.done();
    expect(s.out.length).toBe(n); // nothing after done
  });

  it('never writes a line as wide as the terminal (a wrapped line cannot be redrawn)', () => {
    const s = sink(true, 30);
    const p = progress({ stream: s, total: 1, label: 'a-long-label', now: () => 0 });
    p.update(0.5, 'x'.repeat(100));
    const visible = s.out[0]!.replace('\r', '').replace('\x1b[K', '');
    expect(visible.length).toBe(29);
  });

  it('costs well under a microsecond per update when drawing to a TTY at the default rate (measured)', () => {
    const s: ProgressStream = { isTTY: true, columns: 80, write: () => true };
    const measure = (enabled: boolean): number => {
      const p = progress({ stream: s, total: 1e6, enabled });
      const N = 2_000_000;
      const t0 = performance.now();
      for (let i = 0; i < N; i++) p.update(i, () => `it ${i}`); // as solve --progress calls it
      return ((performance.now() - t0) / N) * 1e6; // ns per update
    };
    measure(true); // warm up
    const on = Math.min(measure(true), measure(true));
    const off = Math.min(measure(false), measure(false));
    console.log(`progress.update: ${on.toFixed(1)} ns enabled (TTY, 100 ms redraws), ${off.toFixed(1)} ns disabled`);
    // A CG iteration on even a 1000-unknown matrix costs several µs: 1 µs would be noise; the measured cost is ~100x less.
    expect(on).toBeLessThan(1000);
    expect(off).toBeLessThan(1000);
  });
});
