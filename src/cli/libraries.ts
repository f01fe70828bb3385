// Which versions of the system libraries the native addon runs on, for
// `rlx info`. The addon reports OpenBLAS's version (blasInfo()) but not
// LAPACK's, SuiteSparse's or FFTW's, so this reads them from what the dynamic
// loader actually mapped into this process (/proc/self/maps, Linux only): the
// resolved file names carry the library versions (libsuitesparseconfig.so.5.12.0
// is SuiteSparse 5.12.0, liblapacke.so.3.11.0 is LAPACK 3.11.0). That is the
// truth about the running process, where the versions the addon was compiled
// against could differ from what loads. The FFTW and UMFPACK/CHOLMOD/KLU file
// versions are shared-object versions, not release numbers (libfftw3.so.3.6.10
// is FFTW 3.3.10), so they are reported as file names, never relabelled.

//
// The prebuilt platform package (scripts/prebuild.mjs) names its copies by
// SONAME (libsuitesparseconfig.so.5), so for a file inside it the version and
// origin come from its manifest.json, which records the file each copy was
// made from (libsuitesparseconfig.so.5.12.0, Debian's path).

import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

export interface LoadedLibrary {
  /** The library's name without 'lib' and '.so…', e.g. 'umfpack'. */
  name: string;
  /** The resolved file name, e.g. 'libumfpack.so.5.7.9'. */
  file: string;
  path: string;
  /** The version digits after '.so.' ('5.7.9'), or undefined when the file name has none. */
  soVersion?: string;
  /** For a copy bundled in the platform package: the system file it was made from (its manifest.json). */
  origin?: string;
}

interface BundleManifest {
  files?: { file: string; source?: string }[];
}
const manifests = new Map<string, Map<string, string> | null>();

/** The source path recorded for `path` by the manifest.json one directory above it (a bundle's lib/), if any. */
function bundledOrigin(path: string): string | undefined {
  const pkg = dirname(dirname(path));
  let m = manifests.get(pkg);
  if (m === undefined) {
    m = null;
    try {
      const man = JSON.parse(readFileSync(join(pkg, 'manifest.json'), 'utf8')) as BundleManifest;
      m = new Map((man.files ?? []).filter((f) => f.source).map((f) => [join(pkg, f.file), f.source!]));
    } catch {
      /* not a bundle */
    }
    manifests.set(pkg, m);
  }
  return m?.get(path);
}

/** The shared objects mapped into this process whose names match `pattern`; [] where /proc/self/maps does not exist. */
export function loadedLibraries(pattern: RegExp): LoadedLibrary[] {
  let maps: string;
  try {
    maps = readFileSync('/proc/self/maps', 'utf8');
  } catch {
    return [];
  }
  const seen = new Map<string, LoadedLibrary>();
  for (const line of maps.split('\n')) {
    const path = line.split(/\s+/)[5];
    if (!path || seen.has(path)) continue;
    const origin = bundledOrigin(path);
    const file = basename(origin ?? path);
    const m = /^lib(.+?)\.so(?:\.([0-9.]+))?$/.exec(file) ?? /^lib(.+?)-r?([0-9.]+)\.so$/.exec(file);
    if (!m || !pattern.test(m[1]!)) continue;
    const lib: LoadedLibrary = { name: m[1]!, file, path };
    if (origin) lib.origin = origin;
    if (m[2]) lib.soVersion = m[2];
    seen.set(path, lib);
  }
  return [...seen.values()];
}
