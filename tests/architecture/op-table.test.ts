// scripts/op-table.mjs (issue 14 §6): what it prints must be what the sources
// hold: every primitive of the PRIMITIVES table, every registered op with its
// family and the devices that have it, and the rules each offers.

import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PRIMITIVES } from '../../src/compiler/primitives.js';
import '../../src/index.js';
import { registeredOps, opDef } from '../../src/compiler/op-registry.js';
import { kernelDevices } from '../../src/compiler/kernel-registry.js';

const ROOT = join(import.meta.dirname, '..', '..');

describe('scripts/op-table.mjs', () => {
  it('lists every primitive and registered op with its rules and kernels per device', () => {
    expect(existsSync(join(ROOT, 'dist', 'index.js')), 'run npm run build').toBe(true);
    const out = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'scripts', 'op-table.mjs'), '--json'], { encoding: 'utf8' }));
    expect(out.primitives.map((p: { primitive: string }) => p.primitive).sort()).toEqual(Object.keys(PRIMITIVES).sort());
    expect(out.ops.map((o: { op: string }) => o.op).sort()).toEqual(registeredOps().sort());
    for (const o of out.ops) {
      const d = opDef(o.op);
      expect(o.family).toBe(d.family.name);
      expect(o.devices).toEqual(kernelDevices(d.family));
      expect([o.jvp, o.vjp]).toEqual([d.jvp !== undefined, d.vjp !== undefined]);
    }
    // eig offers no derivative; cholesky offers both; every device listed runs elementwise ops.
    const eig = out.ops.find((o: { op: string }) => o.op === 'eig');
    expect([eig.jvp, eig.vjp]).toEqual([false, false]);
    const chol = out.ops.find((o: { op: string }) => o.op === 'cholesky');
    expect([chol.jvp, chol.vjp, chol.batch]).toEqual([true, true, true]);
    for (const dev of out.devices) expect(out.primitives.find((p: { primitive: string }) => p.primitive === 'add').kernels[dev]).not.toBe('none');
    // A registered call and its parts take each op's own rules (below), and a part is written by its call's kernel.
    const part = out.primitives.find((p: { primitive: string }) => p.primitive === 'part');
    expect([part.jvp, part.vjp, part.batch]).toEqual(['per op', 'per op', true]);
    for (const dev of out.devices) expect(part.kernels[dev]).toMatch(/its call's kernel/);
  });
});
