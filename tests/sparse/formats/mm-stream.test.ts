// Matrix Market reading in bounded memory and linear time (issue 13 §2): a file
// line used to be re-concatenated chunk by chunk (quadratic: a 300 MB comment line
// took 31 s; 200 MB aborted the process), and the real-number regular expression
// backtracked quadratically (a 100k-digit malformed value took 21 s). The time
// bounds below are generous ceilings that only a quadratic reader misses.

import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import * as sp from '../../../src/sparse/index.js';

const dir = mkdtempSync(join(tmpdir(), 'rlx-mm-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const H = '%%MatrixMarket matrix coordinate real general\n';

/** Writes head, `count` copies of `unit` (in 1 MiB pieces, never one big string), then tail. */
function writeFile(name: string, head: string, unit: string, count: number, tail: string): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  try {
    writeSync(fd, head);
    const per = Math.max(1, Math.floor((1 << 20) / unit.length));
    const piece = unit.repeat(per);
    let left = count;
    for (; left >= per; left -= per) writeSync(fd, piece);
    if (left > 0) writeSync(fd, unit.repeat(left));
    writeSync(fd, tail);
  } finally {
    closeSync(fd);
  }
  return path;
}

function errorOf(f: () => unknown): sp.MatrixMarketError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(sp.MatrixMarketError);
    return e as sp.MatrixMarketError;
  }
  throw new Error('expected a MatrixMarketError');
}

describe('long lines', () => {
  it('a 120 MB comment line in a file is skipped in linear time and bounded memory', () => {
    const path = writeFile('comment.mtx', H + '%', 'x', 120_000_000, '\n2 2 1\n% another\n2 1 7.5\n');
    const t0 = performance.now();
    const A = sp.readMatrixMarket(path);
    const ms = performance.now() - t0;
    expect(A.toDense().tolist()).toEqual([[0, 0], [7.5, 0]]);
    expect(ms).toBeLessThan(8000); // the quadratic reader took 11.7 s here; generous for a loaded CI machine
    // Bounded memory: the same read in a child whose heap (48 MB) cannot hold the line. (The
    // process's RSS peak is no measure here: other tests in this worker may have set it.)
    const r = spawnSync(process.execPath, ['--max-old-space-size=48', 'tests/sparse/formats/mm-heap-child.mjs', path], { encoding: 'utf8', timeout: 120_000 });
    expect(r.stderr.slice(-2000)).not.toMatch(/FATAL|out of memory/i);
    expect(r.status, `child exited with ${r.status ?? r.signal}: ${r.stderr.slice(-2000)}`).toBe(0);
    expect(JSON.parse(r.stdout.trim())).toEqual([[0, 0], [7.5, 0]]);
  });

  it('a 50 MB comment line and a 50 MB blank line in a string are skipped in linear time', () => {
    const text = H + '%' + 'c'.repeat(50_000_000) + '\n' + ' '.repeat(50_000_000) + '\n1 1 1\n1 1 2\n';
    const t0 = performance.now();
    expect(sp.readMatrixMarket(text).toDense().tolist()).toEqual([[2]]);
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('an overlong data or header line is a MatrixMarketError naming it (file and string)', () => {
    const long = '1'.repeat(8_000_000);
    const path = writeFile('data.mtx', H + '% c\n2 2 2\n1 1 1\n1 2 ', '1', 8_000_000, '\n');
    for (const input of [path, H + '% c\n2 2 2\n1 1 1\n1 2 ' + long + '\n']) {
      const t0 = performance.now();
      const e = errorOf(() => sp.readMatrixMarket(input));
      expect(performance.now() - t0).toBeLessThan(2000);
      expect(e.line).toBe(5);
      expect(e.message).toMatch(/line 5: line longer than 1048576 characters/);
    }
    expect(errorOf(() => sp.readMatrixMarket(H + '2 2 1\n' + '9'.repeat(2_000_000) + ' 1 1\n')).line).toBe(3);
    expect(errorOf(() => sp.readMatrixMarket('%%MatrixMarket matrix coordinate real general ' + 'x'.repeat(2_000_000) + '\n')).line).toBe(1);
    expect(errorOf(() => sp.readMatrixMarketHeader(H + '\n'.repeat(3) + '2 '.repeat(1_000_000) + '\n')).line).toBe(5);
  });

  it('a line just under the limit is read', () => {
    const v = '0.' + '5'.repeat((1 << 20) - 10);
    expect(sp.readMatrixMarket(H + '1 1 1\n1 1 ' + v + '\n').toDense().tolist()).toEqual([[Number(v)]]);
  });
});

describe('number scanning is linear', () => {
  it('a 100k-digit malformed real fails at once with the line', () => {
    for (const bad of ['1'.repeat(100_000) + 'x', '1'.repeat(100_000) + 'e', '.' + '1'.repeat(100_000) + '.', '1'.repeat(50_000) + 'e' + '1'.repeat(50_000) + 'e']) {
      const t0 = performance.now();
      const e = errorOf(() => sp.readMatrixMarket(H + '1 1 1\n1 1 ' + bad + '\n'));
      expect(performance.now() - t0).toBeLessThan(500);
      expect(e.line).toBe(3);
      expect(e.message).toMatch(/value ".{40}"… \(\d+ characters\) is not a number$/);
    }
  });
  it('long valid numbers are read (correctly rounded), also as integers and indices', () => {
    const digits = '1'.repeat(100_000);
    expect(sp.readMatrixMarket(H + '1 1 1\n1 1 0.' + digits + 'D-2\n').toDense().tolist()).toEqual([[Number('0.' + digits + 'e-2')]]);
    const I = '%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 ' + digits + '\n';
    expect(sp.readMatrixMarket(I).data[0]).toBe(Number(digits));
    expect(sp.readMatrixMarket(H + '1 1 1\n' + '0'.repeat(100_000) + '1 1 1\n').toDense().tolist()).toEqual([[1]]);
  });
});

describe('paths that are not files', () => {
  it('a directory (or a missing file) is a typed error for reading and writing', () => {
    expect(() => sp.readMatrixMarket(dir)).toThrow(sp.MatrixMarketError);
    expect(() => sp.readMatrixMarketHeader(dir)).toThrow(sp.MatrixMarketError);
    expect(() => sp.readMatrixMarket(join(dir, 'missing', 'x.mtx'))).toThrow(sp.MatrixMarketError);
    expect(() => sp.writeMatrixMarket(sp.eye(2), dir)).toThrow(/writeMatrixMarket: cannot open/);
    let err: unknown;
    try {
      sp.writeMatrixMarket(sp.eye(2), dir);
    } catch (e) {
      err = e;
    }
    expect((err as Error).constructor.name).toBe('ValueError');
  });
});
