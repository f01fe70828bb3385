// A PNG's width and height from its signature and IHDR chunk, read by hand
// (for the splat example tests: a written file is checked without rlx's reader).
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';

/** [width, height] of the PNG at `path`; fails the test when the signature or IHDR is not there. */
export function pngSize(path: string): [number, number] {
  const b = readFileSync(path);
  expect([...b.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
  expect(b.toString('latin1', 12, 16)).toBe('IHDR');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}
