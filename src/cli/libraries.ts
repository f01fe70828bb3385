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

import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface LoadedLibrary {
  /** The library's name without 'lib' and '.so…', e.g. 'umfpack'. */
  name: string;
  /** The resolved file name, e.g. 'libumfpack.so.5.7.9'. */
  file: string;
  path: string;
  /** The version digits after '.so.' ('5.7.9'), or undefined when the file name has none. */
  soVersion?: string;
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
    const file = basename(path);
    const m = /^lib(.+?)\.so(?:\.([0-9.]+))?$/.exec(file) ?? /^lib(.+?)-r?([0-9.]+)\.so$/.exec(file);
    if (!m || !pattern.test(m[1]!)) continue;
    const lib: LoadedLibrary = { name: m[1]!, file, path };
    if (m[2]) lib.soVersion = m[2];
    seen.set(path, lib);
  }
  return [...seen.values()];
}
