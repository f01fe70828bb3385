// The doctest's value check (expected-values.ts) against hand-made lines: a
// commented value that is wrong fails, one that is right (to the digits it is
// written with) passes, and lines that are not `expression; // literal` are
// left alone.

import { describe, expect, it } from 'vitest';
import { CHECK_HELPER, leadingLiteral, withChecks } from './expected-values.js';

const run = (code: string): void => {
  const { code: checked } = withChecks(code);
  new Function(CHECK_HELPER + '\n' + checked)();
};

describe('expected values in @example comments', () => {
  it('a wrong value fails, naming the line; a right one passes', () => {
    expect(() => run('1 + 2;   // 3')).not.toThrow();
    expect(() => run('const a = 1;\n1 + 2;   // 4')).toThrow(/line 2: the comment says 4, the value is 3/);
    expect(() => run('[1, 2].map((x) => x * 2);   // [2, 4]  (doubled)')).not.toThrow();
    expect(() => run('[1, 2].map((x) => x * 2);   // [2, 5]')).toThrow(/says \[2,5\]/);
    expect(() => run("typeof 'a';   // 'string'")).not.toThrow();
    expect(() => run('Float64Array.from([0.5, 1]);   // [0.5, 1]')).not.toThrow();
    expect(() => run('({ tolist: () => [[1, 2]] });   // [[1, 2]]')).not.toThrow(); // a Tensor compares by tolist()
  });

  it('numbers match to the digits the comment is written with', () => {
    expect(() => run('Math.PI;   // 3.1416')).not.toThrow();
    expect(() => run('Math.PI;   // 3.14159')).not.toThrow();
    expect(() => run('Math.PI;   // 3.1415')).toThrow(); // off by 9e-5 > half a unit in the 4th decimal
    expect(() => run('0.1 + 0.2;   // 0.3')).not.toThrow();
    expect(() => run('Math.exp(-20);   // 2.061e-9')).not.toThrow();
    expect(() => run('Math.exp(-20);   // 2.07e-9')).toThrow();
    expect(() => run('2 + 1e-12;   // 2')).not.toThrow(); // integers: 1e-9 relative
    expect(() => run('2.001;   // 2')).toThrow();
  });

  it('prose, declarations and approximate comments are not checked', () => {
    for (const line of ['const x = 3;   // 4', 'f(x);   // ≈ 0.37', 'g();   // the identity', 'a = 1;   // 2', 'x.y;   // NaN'])
      expect(withChecks(line).checks, line).toBe(0);
    expect(leadingLiteral(' [2, 3]  (numpy.linalg.solve)')?.value).toEqual([2, 3]);
    expect(leadingLiteral(' e.g. OpenBLAS')).toBeUndefined();
  });
});
