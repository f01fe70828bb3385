#!/usr/bin/env node
// The CommonJS build of rlx (dist/cjs/), beside the ESM build (dist/), so that
// require('rlx') works on Node 20 (which cannot require() an ES module) and so
// do tslab notebooks (which compile `import` to `require`). Run by `npm run build`.
//
// 1. tsc -p tsconfig.cjs.json: the same sources, module CommonJS.
// 2. dist/cjs/package.json {"type": "commonjs"}: the root package.json says
//    "type": "module", which would make Node (and TypeScript) read dist/cjs/*.js
//    and *.d.ts as ES modules.
// 3. src/package-root.ts's import.meta.url (the code base's one
//    module-system-specific expression; why there: that file's header) becomes
//    the CommonJS equivalent. Any other import.meta left in dist/cjs/ would be a
//    SyntaxError at require() time, so it fails the build here instead.

import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'cjs');
rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.cjs.json')], { stdio: 'inherit' });
writeFileSync(join(out, 'package.json'), JSON.stringify({ type: 'commonjs' }, null, 2) + '\n');

const rootFile = join(out, 'package-root.js');
const src = readFileSync(rootFile, 'utf8');
const expr = /= import\.meta\.url;/g; // the assignment, not the mentions in comments
const occurrences = src.match(expr)?.length ?? 0;
if (occurrences !== 1) throw new Error(`build-cjs: expected one '= import.meta.url;' in ${rootFile}, found ${occurrences}`);
writeFileSync(rootFile, src.replace(expr, '= require("node:url").pathToFileURL(__filename).href;'));

function* jsFiles(dir) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yield* jsFiles(p);
    else if (name.endsWith('.js')) yield p;
  }
}
const left = [...jsFiles(out)].filter((p) => /\bimport\.meta\b/.test(readFileSync(p, 'utf8').replace(/\/\/.*$/gm, '')));
if (left.length) throw new Error(`build-cjs: import.meta in CommonJS output (a SyntaxError under require): ${left.join(', ')}; locate files through src/package-root.ts`);
