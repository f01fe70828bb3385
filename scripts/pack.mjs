#!/usr/bin/env node
// npm run pack: the two publishable tarballs, without publishing.
//
//   node scripts/pack.mjs [--out DIR] [--no-build]
//
//   DIR/rlx-native-linux-x64-<v>.tgz  the platform package (scripts/prebuild.mjs)
//   DIR/rlx-<v>.tgz                   rlx itself, its package.json given
//                                     "optionalDependencies": {"@rlx/native-linux-x64": "<v>"}
//
// The optional dependency is added to the packed manifest only, not to the
// repository's package.json: a checkout builds its addon locally (postinstall)
// and never asks the registry for a prebuilt, so `npm ci` here cannot pull a
// package from a scope that is not registered yet. Users of the published rlx
// get the platform package where its os/cpu/libc fields match, and the local
// build (or the js backend) elsewhere.

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORM_PACKAGE } from './platform-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const i = process.argv.indexOf('--out');
const outDir = resolve(i > 0 ? process.argv[i + 1] : join(root, 'prebuilds'));
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
mkdirSync(outDir, { recursive: true });

execFileSync(process.execPath, [join(root, 'scripts', 'prebuild.mjs'), '--out', outDir, ...(process.argv.includes('--no-build') ? ['--no-build'] : [])], { stdio: 'inherit' });

// npm pack runs `prepare` (the TypeScript build) first.
const packed = JSON.parse(execFileSync('npm', ['pack', '--pack-destination', outDir, '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))[0];
const tgz = join(outDir, packed.filename);

// Re-pack with the optional dependency in package/package.json (tar keeps npm's layout: package/...).
const work = mkdtempSync(join(tmpdir(), 'rlx-pack-'));
try {
  execFileSync('tar', ['xzf', tgz, '-C', work]);
  const manifestPath = join(work, 'package', 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  manifest.optionalDependencies = { ...manifest.optionalDependencies, [PLATFORM_PACKAGE]: manifest.version };
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  execFileSync('tar', ['czf', tgz, '-C', work, '--owner=0', '--group=0', '--numeric-owner', 'package']);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`pack: ${tgz}: ${mib(statSync(tgz).size)} (optionalDependencies: ${PLATFORM_PACKAGE})`);
