// The runtime import graph of src/: for each module, the modules it imports
// for their values (what Node loads), with type-only imports left out as the
// compiler leaves them out (each file is transpiled alone with TypeScript's
// transpileModule, which elides an import whose names the file uses only as
// types). Used by tests/architecture/layers.test.ts and, from the command
// line, to see the cycles and the upward imports:
//
//   node scripts/module-graph.mjs            # strongly connected components (cycles) and layer violations
//
// Layers, lowest first (ARCHITECTURE.md, "Layers"): a module may import its
// own layer and the ones below, never one above.

import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

/** Every .ts file under src (no .d.ts), as paths relative to src with forward slashes. */
export function sourceFiles(dir = src) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sourceFiles(p));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(relative(src, p).split('\\').join('/'));
  }
  return out.sort();
}

const IMPORT_RE = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;

/** Relative value imports of one module (resolved to src-relative .ts paths). */
export function valueImports(file) {
  const text = readFileSync(join(src, file), 'utf8');
  const js = ts.transpileModule(text, {
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false, isolatedModules: true },
    fileName: file,
  }).outputText;
  const deps = new Set();
  for (const m of js.matchAll(IMPORT_RE)) {
    const spec = m[1] ?? m[2];
    if (!spec || !spec.startsWith('.')) continue;
    const target = relative(src, resolve(join(src, dirname(file)), spec)).split('\\').join('/').replace(/\.js$/, '.ts');
    deps.add(target);
  }
  return [...deps].sort();
}

/** { file: [value imports] } for all of src. */
export function moduleGraph() {
  const g = {};
  for (const f of sourceFiles()) g[f] = valueImports(f);
  return g;
}

/** Strongly connected components with more than one module (or a self-import), Tarjan's algorithm. */
export function cycles(g) {
  let index = 0;
  const idx = new Map(), low = new Map(), on = new Set(), stack = [], out = [];
  const visit = (v) => {
    idx.set(v, index), low.set(v, index++), stack.push(v), on.add(v);
    for (const w of g[v] ?? []) {
      if (!idx.has(w)) visit(w), low.set(v, Math.min(low.get(v), low.get(w)));
      else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do (w = stack.pop()), on.delete(w), c.push(w);
      while (w !== v);
      if (c.length > 1 || (g[v] ?? []).includes(v)) out.push(c.sort());
    }
  };
  for (const v of Object.keys(g)) if (!idx.has(v)) visit(v);
  return out;
}

/**
 * The layers, lowest first, as [name, test]. The first test a module passes
 * gives its layer. Numbers only need to be ordered: a module may import its own
 * layer and lower ones.
 */
export const LAYERS = [
  // Vocabulary: dtypes, shapes, errors, storage encodings, number formatting, host random bits, where the package is, the progress bar.
  ['vocabulary', (f) => f === 'package-root.ts' || f === 'progress.ts' || /^tensor\/(dtype|shape|errors|half|storage|random-bits|format|random)\//.test(f) || /^tensor\/(dtype|shape|errors|errors-linalg|half|storage|random-bits|format)\.ts$/.test(f)],
  // The IR: nodes, primitives and their shape rules, the registry of ops, compiler configuration, kernel descriptions.
  ['ir', (f) => /^compiler\/(ir|primitives|config|kernel|kernel-registry|op-registry|view|bodies|decompose)\.ts$/.test(f) || f.startsWith('compiler/passes/const-value')],
  // Backends: devices and their kernels (js code generation, the native addon).
  ['backends', (f) => f.startsWith('backends/')],
  // The compiler runtime: capture, passes, compile, cache, executables, realize.
  ['compiler', (f) => f.startsWith('compiler/') && !f.startsWith('compiler/transforms/') && !f.startsWith('compiler/control/') && f !== 'compiler/trace.ts' && f !== 'compiler/explain.ts'],
  // The Tensor API, transforms, symbolic tracing and control flow (they build graphs of Tensors).
  ['api', (f) => f.startsWith('tensor/') || f.startsWith('compiler/transforms/') || f.startsWith('compiler/control/') || f === 'compiler/trace.ts' || f === 'compiler/explain.ts'],
  // Modules built on the API.
  ['modules', (f) => /^(linalg|sparse|fft|integrate|nn|optim|quant|io|plot|splat)\//.test(f)],
  // The command line's commands (src/cli/: one file each), over the modules.
  ['cli', (f) => f.startsWith('cli/')],
  // Entry points.
  ['entry', () => true],
];

export const layerOf = (f) => LAYERS.findIndex(([, test]) => test(f));

/** Imports from a lower layer into a higher one: [from, to, fromLayer, toLayer]. */
export function upwardImports(g) {
  const out = [];
  for (const [f, deps] of Object.entries(g)) for (const d of deps) if (layerOf(d) > layerOf(f)) out.push([f, d, LAYERS[layerOf(f)][0], LAYERS[layerOf(d)][0]]);
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const g = moduleGraph();
  const cs = cycles(g);
  console.log(`${Object.keys(g).length} modules, ${cs.length} import cycle(s)`);
  for (const c of cs) console.log(`  cycle of ${c.length}: ${c.join(' ')}`);
  const up = upwardImports(g);
  console.log(`${up.length} upward import(s):`);
  for (const [f, d, lf, ld] of up) console.log(`  ${f} (${lf}) -> ${d} (${ld})`);
}
