// Where the installed rlx package lives on disk (the native addon's build
// directory, package.json for `rlx version`), for both builds of the package.
//
// rlx ships an ES-module build (dist/) and a CommonJS build (dist/cjs/, for
// require() and tslab notebooks; see README "Using rlx from ESM, CommonJS,
// TypeScript and tslab"). The only way code knows its own file differs between
// the two: ESM has import.meta.url, CommonJS has __filename, and each is
// missing (import.meta is even a SyntaxError) in the other. So this file holds
// the one module-system-specific expression of the code base, and
// scripts/build-cjs.mjs rewrites exactly that expression in the CommonJS
// output (and fails the build if any other import.meta reaches dist/cjs/).
// That keeps one source for both builds; the alternatives were two copies of
// this file selected per build, or parsing a stack trace, both harder to read
// and the second fragile under source maps.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// @ts-ignore -- TS1343 under the CommonJS build's `module: commonjs`, where build-cjs.mjs substitutes it; valid in the ESM build.
const THIS_FILE_URL: string = import.meta.url;

let root: string | undefined;

/**
 * The package root: the nearest directory above this file whose package.json
 * names rlx (dist/cjs/package.json, which only sets the module type, is skipped).
 * Falls back to the parent of this file's directory (right for src/ and dist/).
 */
export function packageRoot(): string {
  if (root !== undefined) return root;
  const start = dirname(fileURLToPath(THIS_FILE_URL));
  let dir = start;
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj)) {
      try {
        if ((JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === 'rlx') return (root = dir);
      } catch {
        // unreadable package.json: keep looking
      }
    }
    const up = dirname(dir);
    if (up === dir) return (root = dirname(start));
    dir = up;
  }
}

/** rlx's package.json version (for `rlx version`). */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
