// The module layers (ARCHITECTURE.md, "Layers"): vocabulary → IR → backends →
// compiler runtime → Tensor API and transforms → modules → entry points. A
// module imports its own layer and lower ones only, so each layer can be
// loaded and tested without the ones above it; and every module of src/ can
// be the first one a process imports (an import cycle whose top-level code
// reads a binding of the cycle fails that way: 51 modules did before the
// layers were untangled). The graph is the runtime one: type-only imports,
// which the compiler removes, do not count (scripts/module-graph.mjs).

import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain .mjs scripts without declarations
import { LAYERS, layerOf, moduleGraph, upwardImports } from '../../scripts/module-graph.mjs';
// @ts-expect-error: plain .mjs scripts without declarations
import { importFirstFailures } from '../../scripts/import-first.mjs';

type Graph = Record<string, string[]>;
const graph = moduleGraph() as Graph;

describe('module layers', () => {
  it('every module has a layer below the entry points (only index.ts and cli.ts are entry points)', () => {
    const entry = (LAYERS as [string, unknown][]).length - 1;
    expect(Object.keys(graph).filter((f) => layerOf(f) === entry)).toEqual(['cli.ts', 'index.ts']);
  });

  it('no module imports a higher layer', () => {
    const up = (upwardImports(graph) as [string, string, string, string][]).map(([f, d, lf, ld]) => `${f} (${lf}) -> ${d} (${ld})`);
    expect(up).toEqual([]);
  });

  it('every import resolves to a module of src/', () => {
    const missing = Object.entries(graph).flatMap(([f, deps]) => deps.filter((d) => !(d in graph)).map((d) => `${f} -> ${d}`));
    expect(missing).toEqual([]);
  });

  it('every module can be the first one imported', async () => {
    expect(await importFirstFailures()).toEqual([]);
  }, 120_000);
});
