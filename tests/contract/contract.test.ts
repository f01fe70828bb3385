// The public-API contract (issue 13 §1): every export of src/index.ts (and every
// method of Tensor, the sparse matrices and SparseFactorization) that accepts a
// Tensor either matches finite differences under jvp and grad and the
// per-example loop under vmap, or throws a typed error; the others are listed
// with a one-word reason. The list of names is read from the module at run
// time, so a new export or method without an entry in a cases-*.ts table fails
// the first test, naming it. See checks.ts for the checks and their tolerances.

import { describe, expect, test } from 'vitest';
import { DEVICES } from '../harness/devices.js';
import { publicSurface } from './exports.js';
import { type Table, isSkip, casesOf, seedOf, checkPlain, checkJvp, checkGrad, checkVmap } from './checks.js';
import { tensorMethodCases, tensorFunctionCases } from './cases-tensor.js';
import { linalgCases } from './cases-linalg.js';
import { sparseCases } from './cases-sparse.js';
import { otherCases } from './cases-other.js';
import { moduleCases } from './cases-modules.js';
import { plotCases } from './cases-plot.js';
import { splatCases } from './cases-splat.js';
import { nnCases } from './cases-nn.js';
import { optimIoCases } from './cases-optim-io.js';
import { quantCases } from './cases-quant.js';

const TABLES: Record<string, Table> = {
  'cases-tensor.ts (methods)': tensorMethodCases,
  'cases-tensor.ts (functions)': tensorFunctionCases,
  'cases-linalg.ts': linalgCases,
  'cases-sparse.ts': sparseCases,
  'cases-other.ts': otherCases,
  'cases-modules.ts': moduleCases,
  'cases-plot.ts': plotCases,
  'cases-splat.ts': splatCases,
  'cases-nn.ts': nnCases,
  'cases-optim-io.ts': optimIoCases,
  'cases-quant.ts': quantCases,
};

const table: Table = {};
const duplicates: string[] = [];
for (const t of Object.values(TABLES))
  for (const [k, e] of Object.entries(t)) {
    if (k in table) duplicates.push(k);
    table[k] = e;
  }

const surface = publicSurface();

describe('the case tables cover the public surface exactly', () => {
  test('every export and method has an entry', () => {
    const missing = surface.filter((n) => !(n in table));
    expect(missing, `exports or methods without a contract entry (add a case, or { none: <reason> }, to a tests/contract/cases-*.ts table): ${missing.join(', ')}`).toEqual([]);
  });
  test('no entry names something that is not exported', () => {
    const names = new Set(surface);
    const stale = Object.keys(table).filter((k) => !names.has(k));
    expect(stale, `entries for names that are no longer exported: ${stale.join(', ')}`).toEqual([]);
  });
  test('no name has entries in two tables', () => {
    expect(duplicates).toEqual([]);
  });
});

const runnable = Object.entries(table).filter(([, e]) => !isSkip(e)).flatMap(([name, e]) => casesOf(e).map((c) => ({ name: c.label ? `${name} [${c.label}]` : name, c })));

describe.each(DEVICES)('contract on %s', (device) => {
  describe.each(runnable)('$name', ({ name, c }) => {
    const seed = seedOf(name);
    test('plain call', () => checkPlain(c, seed, device, name));
    test('jvp', () => checkJvp(c, seed, device, name));
    test('grad', () => checkGrad(c, seed, device, name));
    test('vmap', () => checkVmap(c, seed, device, name));
  });
});
