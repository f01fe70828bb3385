#!/usr/bin/env node
// npm run prebuild: the platform package @rlx/native-linux-x64 — the native
// addon plus every shared library it needs that a bare Linux (glibc) machine
// lacks, so `npm install rlx` brings the native backend with no apt-get, no
// compiler (sharp's model: the prebuilt lives in an optionalDependencies
// package whose os/cpu/libc fields let npm install it only where it runs).
//
//   node scripts/prebuild.mjs [--out DIR] [--no-build] [--allow-left-out]
//
// Steps:
//   1. build the addon from the same CMake project (scripts/build-native.mjs --required;
//      --no-build takes the existing native/build/Release/rlx_native.node);
//   2. its dependency closure from ldd; everything but the C/C++ runtime that
//      Node itself loads (BASE_LIBS) is copied into lib/ under its SONAME, the
//      name the dynamic loader looks for (npm tarballs carry no symlinks);
//   3. patchelf: the addon's RUNPATH becomes $ORIGIN/lib and each library's
//      $ORIGIN, so every dependency resolves inside the package and no system
//      copy is consulted (scripts/check-packages.mjs proves it with ldd and
//      /proc/self/maps); strip --strip-unneeded on everything;
//   4. LICENSES/: the Debian copyright file of every package a library came
//      from, verbatim, and THIRD-PARTY.md: which library is under which license
//      (GPL: UMFPACK, FFTW, CHOLMOD's Supernodal module); manifest.json: each
//      file's origin (path, Debian package and version), size and sha256, the
//      newest glibc symbol version anything needs;
//   5. npm pack → DIR/rlx-native-linux-x64-<version>.tgz; sizes printed.
//
// The libraries are Debian 12's (OpenBLAS 0.3.21 built DYNAMIC_ARCH: one
// binary, kernels chosen for the CPU at run time; LAPACK 3.11 via OpenBLAS;
// SuiteSparse 5.12; FFTW 3.3.10). Needs patchelf and strip (binutils):
// scripts/install-system-deps.sh --with-packaging.

import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, chmodSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE_LIBS, PLATFORM_PACKAGE } from './platform-package.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const outDir = resolve(arg('--out') ?? join(root, 'prebuilds'));
const pkgJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version = pkgJson.version;


/** Licenses as the Debian copyright files state them (LICENSES/ holds the files themselves). */
const LICENSES = [
  [/^libopenblas|^libblas|^liblapack\.so/, 'BSD-3-Clause (OpenBLAS; its LAPACK is reference LAPACK, BSD-3-Clause)'],
  [/^liblapacke|^libtmglib/, 'BSD-3-Clause (reference LAPACK / LAPACKE)'],
  [/^libumfpack/, 'GPL-2.0-or-later (UMFPACK)'],
  [/^libcholmod/, 'LGPL-2.1-or-later, except CHOLMOD/Supernodal which is GPL-2.0-or-later and is part of this library'],
  [/^libklu|^libbtf/, 'LGPL-2.1-or-later'],
  [/^libamd|^libcamd|^libcolamd|^libccolamd/, 'BSD-3-Clause'],
  [/^libsuitesparseconfig/, 'permissive (SuiteSparse_config)'],
  [/^libmetis/, 'Apache-2.0 (METIS 5.1)'],
  [/^libfftw3/, 'GPL-2.0-or-later (FFTW)'],
  [/^libgfortran|^libquadmath|^libgomp/, 'GPL-3.0-or-later with the GCC Runtime Library Exception'],
];
const licenseOf = (file) => LICENSES.find(([re]) => re.test(file))?.[1] ?? 'see LICENSES/';

const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 << 20, ...opts });
const sha256 = (p) => createHash('sha256').update(readFileSync(p)).digest('hex');
const mib = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

/** The Debian package owning a file (dpkg records /usr/lib paths; /lib is a link to it) and its version. */
function debianPackage(path) {
  for (const p of [path, path.replace(/^\/usr\/lib\//, '/lib/')]) {
    try {
      const name = run('dpkg', ['-S', p]).split(':')[0].trim();
      return { name, version: run('dpkg-query', ['-W', '-f=${Version}', name]).trim() };
    } catch {
      /* try the other spelling */
    }
  }
  return undefined;
}

/** The newest GLIBC_x.y symbol version a file needs (its version references, objdump -p). */
function glibcNeeded(path) {
  const versions = [...run('objdump', ['-p', path]).matchAll(/GLIBC_(\d+)\.(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
  versions.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return versions.length ? versions[versions.length - 1] : [0, 0];
}

function main() {
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error(`prebuild: builds ${PLATFORM_PACKAGE} on linux-x64 only, this is ${process.platform}-${process.arch}`);
  for (const tool of ['patchelf', 'strip', 'objdump', 'ldd', 'dpkg']) {
    try {
      run('sh', ['-c', `command -v ${tool}`]);
    } catch {
      throw new Error(`prebuild: ${tool} not found (run: scripts/install-system-deps.sh --with-packaging)`);
    }
  }
  if (!process.argv.includes('--no-build')) execFileSync(process.execPath, [join(root, 'scripts', 'build-native.mjs'), '--required'], { stdio: 'inherit' });
  const addon = join(root, 'native', 'build', 'Release', 'rlx_native.node');
  if (!existsSync(addon)) throw new Error(`prebuild: ${addon} is missing (npm run build:native)`);
  // A build that left optional parts out (RLX_NO_FFTW / RLX_NO_UMFPACK / RLX_NO_GPL) is not the package
  // users expect from its name: only with --allow-left-out, and then the manifest says so.
  let leftOut = [];
  try {
    leftOut = JSON.parse(readFileSync(join(root, 'native', 'build', 'status.json'), 'utf8')).leftOut ?? [];
  } catch {
    /* no status: a build from before leftOut was recorded */
  }
  if (leftOut.length && !process.argv.includes('--allow-left-out'))
    throw new Error(`prebuild: native/build left out ${leftOut.join(', ')} (status.json); rebuild without RLX_NO_* or pass --allow-left-out`);

  const pkgDir = join(outDir, 'native-linux-x64');
  rmSync(pkgDir, { recursive: true, force: true });
  mkdirSync(join(pkgDir, 'lib'), { recursive: true });
  mkdirSync(join(pkgDir, 'LICENSES'), { recursive: true });

  // ldd lists the whole closure (dependencies of dependencies too), resolved as the loader would.
  const libs = [];
  for (const line of run('ldd', [addon]).split('\n')) {
    const m = /^\s*(\S+) => (\S+) \(0x/.exec(line);
    if (!m) {
      if (/not found/.test(line)) throw new Error(`prebuild: ${line.trim()}`);
      continue;
    }
    const [, soname, path] = m;
    if (BASE_LIBS.test(soname)) continue;
    libs.push({ soname, source: realpathSync(path) });
  }

  const files = [];
  const licensed = new Map(); // Debian package -> copyright file copied
  const addFile = (dest, source, extra) => {
    chmodSync(dest, 0o755);
    run('strip', ['--strip-unneeded', dest]);
    files.push({ file: dest.slice(pkgDir.length + 1), source, bytes: statSync(dest).size, sha256: sha256(dest), glibc: glibcNeeded(dest).join('.'), ...extra });
  };
  for (const { soname, source } of libs) {
    const dest = join(pkgDir, 'lib', soname);
    copyFileSync(source, dest);
    chmodSync(dest, 0o755);
    run('patchelf', ['--set-rpath', '$ORIGIN', dest]);
    const deb = debianPackage(source);
    if (deb && !licensed.has(deb.name)) {
      const copyright = realpathSync(join('/usr/share/doc', deb.name, 'copyright'));
      copyFileSync(copyright, join(pkgDir, 'LICENSES', `${deb.name}.copyright`));
      licensed.set(deb.name, deb);
    }
    addFile(dest, source, { sourceFile: basename(source), debian: deb ? `${deb.name} ${deb.version}` : 'unknown', license: licenseOf(soname) });
  }
  const addonDest = join(pkgDir, 'rlx_native.node');
  copyFileSync(addon, addonDest);
  chmodSync(addonDest, 0o755);
  run('patchelf', ['--set-rpath', '$ORIGIN/lib', addonDest]);
  addFile(addonDest, addon, { license: 'MIT (rlx)' });
  copyFileSync(join(root, 'LICENSE'), join(pkgDir, 'LICENSES', 'rlx.LICENSE'));

  const glibc = files.map((f) => f.glibc.split('.').map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]).pop().join('.');
  const blasConfig = openblasConfig(addonDest);
  const manifest = { name: PLATFORM_PACKAGE, version, leftOut, builtOn: `${run('sh', ['-c', '. /etc/os-release; echo "$PRETTY_NAME"']).trim()}, node ${process.version}`, napiVersion: 8, glibc, openblas: blasConfig, files };
  writeFileSync(join(pkgDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  writeFileSync(join(pkgDir, 'THIRD-PARTY.md'), thirdParty(files, licensed));
  writeFileSync(join(pkgDir, 'package.json'), JSON.stringify(platformPackageJson(glibc), null, 2) + '\n');
  writeFileSync(join(pkgDir, 'README.md'), `# ${PLATFORM_PACKAGE}\n\nThe prebuilt native addon of [rlx](https://www.npmjs.com/package/rlx) ${version} for Linux x64 (glibc ≥ ${glibc}), with the shared libraries it needs (OpenBLAS, LAPACK/LAPACKE, SuiteSparse, FFTW) in lib/. Installed by rlx as an optional dependency; not meant to be used on its own. Licenses: THIRD-PARTY.md and LICENSES/ — UMFPACK, FFTW and CHOLMOD's Supernodal module are GPL.\n`);

  const tgz = run('npm', ['pack', '--pack-destination', outDir, '--json'], { cwd: pkgDir });
  const packed = JSON.parse(tgz)[0];
  const unpacked = files.reduce((s, f) => s + f.bytes, 0);
  console.log(`prebuild: ${join(outDir, packed.filename)}: ${mib(packed.size)} packed, ${mib(packed.unpackedSize)} unpacked (${files.length} binaries ${mib(unpacked)}), glibc >= ${glibc}`);
  for (const f of files) console.log(`  ${f.file.padEnd(28)} ${mib(f.bytes).padStart(9)}  ${f.debian ?? ''}`);
  writeFileSync(join(outDir, 'prebuild.json'), JSON.stringify({ tarball: join(outDir, packed.filename), packedBytes: packed.size, unpackedBytes: packed.unpackedSize, glibc, files: files.length }, null, 2) + '\n');
}

/** openblas_get_config() of the bundled OpenBLAS (DYNAMIC_ARCH shows there), read through the addon. */
function openblasConfig(addonPath) {
  const out = run(process.execPath, ['-e', `console.log(require(${JSON.stringify(addonPath)}).blasInfo().config)`]);
  return out.trim();
}

function platformPackageJson(glibc) {
  return {
    name: PLATFORM_PACKAGE,
    version,
    description: `Prebuilt native addon of rlx for Linux x64 (glibc >= ${glibc}) with OpenBLAS, LAPACK, SuiteSparse and FFTW bundled`,
    license: 'SEE LICENSE IN THIRD-PARTY.md',
    os: ['linux'],
    cpu: ['x64'],
    libc: ['glibc'],
    files: ['rlx_native.node', 'lib', 'LICENSES', 'THIRD-PARTY.md', 'manifest.json', 'README.md'],
    repository: pkgJson.repository,
  };
}

function thirdParty(files, licensed) {
  const rows = files.map((f) => `| ${f.file} | ${f.sourceFile ?? ''} | ${f.debian ?? ''} | ${f.license} |`);
  return `# Third-party software in ${PLATFORM_PACKAGE}

Every file in lib/ is a copy of a Debian 12 shared library (stripped; its
RUNPATH set to $ORIGIN), named by its SONAME. The Debian copyright files of
their packages are in LICENSES/, verbatim; the license column below is what
those files say for the part of the source each library is built from.

**GPL parts.** UMFPACK (libumfpack), FFTW (libfftw3*) and CHOLMOD's
Supernodal module (in libcholmod) are GPL-2.0-or-later, so this package as a
whole is distributed under the GPL's terms. rlx itself is MIT; to use it
without GPL code, build the addon yourself without them (rlx's README,
"Licenses").

| file | built from | Debian package | license |
|---|---|---|---|
${rows.join('\n')}

Debian packages: ${[...licensed.values()].map((d) => `${d.name} ${d.version}`).join(', ')}.
`;
}

main();
