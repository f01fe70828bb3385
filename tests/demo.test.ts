// The README's main job runs from the built package (dist/) and its physics is right.

import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

describe('demo (built package)', () => {
  it('steps the heat equation to within 1e-5 of the analytic solution', () => {
    expect(existsSync('dist/index.js'), 'dist/ is built by npm install (prepare) / npm run build').toBe(true);
    const out = execFileSync(process.execPath, ['examples/demo.mjs'], { encoding: 'utf8' });
    const m = /max \|u - exact\| = ([0-9.e+-]+)/.exec(out);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeLessThan(1e-5);
    expect(out).toMatch(/1 kernel\(s\)/);
  });

  it("another package can import { tensor } from 'rlx' (exports map + types), and the bin runs", () => {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', "import { tensor } from 'rlx'; console.log(JSON.stringify(tensor([1, 2]).add(1).tolist()))"], { encoding: 'utf8' });
    expect(out.trim()).toBe('[2,3]');
    expect(existsSync('dist/index.d.ts')).toBe(true);
    expect(execFileSync(process.execPath, ['dist/cli.js', 'info'], { encoding: 'utf8' })).toMatch(/^\s*js\s+available/m);
  });
});
