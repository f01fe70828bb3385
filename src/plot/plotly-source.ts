// The text of plotly.js (npm package plotly.js-dist-min, ~4.8 MB), which
// Figure.toHTML() inlines so that the file works offline. Read from disk at the
// first toHTML() and cached, never at import time: importing rlx must not cost
// users who never draw a figure anything.
//
// Located like the native addon (backends/native/addon.ts): require.resolve
// from rlx's package.json, which is the same call in the ESM and the CommonJS
// build (package-root.ts holds the one module-system-specific expression).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { PlotError } from './errors.js';

let cached: string | undefined;

/** plotly.min.js's source text. Throws PlotError when the package is missing or unreadable. */
export function plotlySource(): string {
  if (cached !== undefined) return cached;
  let path: string;
  try {
    path = createRequire(join(packageRoot(), 'package.json')).resolve('plotly.js-dist-min');
  } catch (e) {
    throw new PlotError(`plot: cannot find plotly.js (npm package plotly.js-dist-min, a dependency of rlx) from ${packageRoot()}: ${(e as Error).message}; reinstall rlx's dependencies (npm install)`);
  }
  try {
    cached = readFileSync(path, 'utf8');
  } catch (e) {
    throw new PlotError(`plot: cannot read plotly.js at ${path}: ${(e as Error).message}`);
  }
  return cached;
}

/** Whether plotly.js has been read (for the test that import alone does not read it). */
export function plotlyLoaded(): boolean {
  return cached !== undefined;
}
