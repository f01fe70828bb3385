// `rlx info [--json]`: what this installation of rlx runs on. Versions (rlx,
// Node), the backends and why one is unavailable, the thread count, the BLAS
// (vendor, the core kernels chosen and why, threads), and the native
// libraries: LAPACK, SuiteSparse and FFTW, with versions where they can be
// known (libraries.ts says how), and the GPL parts a build left out (FFTW,
// UMFPACK: RLX_NO_FFTW / RLX_NO_UMFPACK / RLX_NO_GPL). The first thing to
// paste into a bug report.

import { backends } from '../backends/registry.js';
import { numThreads } from '../backends/native/threads.js';
import { blasInfo, nativeStatus, type BlasInfo } from '../backends/native/info.js';
import { nativeAddon, type NativeSource } from '../backends/native/addon.js';
import { dirname } from 'node:path';
import { nativeFftStatus } from '../fft/kernels/native.js';
import { hasUmfpack } from '../sparse/kernels/native-direct.js';
import { packageVersion } from '../package-root.js';
import { loadedLibraries, type LoadedLibrary } from './libraries.js';
import type { Command } from './command.js';
import { webgpuStatus } from '../backends/webgpu/device.js';

interface LibraryReport {
  available: boolean;
  /** Why not, when not available. */
  reason?: string;
  /** The release version where it is known. */
  version?: string;
  /** The shared objects loaded for it (file names carry their versions). */
  libraries?: string[];
}

export interface InfoReport {
  rlx: string;
  node: string;
  platform: string;
  backends: { name: string; available: boolean; reason?: string }[];
  threads: number;
  native: {
    available: boolean;
    reason?: string;
    path?: string;
    addonVersion?: string;
    /** Which candidate loaded: the platform package, the local build or $RLX_NATIVE_PATH. */
    source?: NativeSource;
    /** Candidates there but not used, and why. */
    skipped?: string[];
    /** The directory the native libraries (OpenBLAS first) were loaded from: the bundle's lib/ or a system one. */
    librariesFrom?: string;
  };
  blas: (BlasInfo & { available: true; coreChoice?: string; threadTimeout?: string }) | { available: false; reason: string };
  /** LAPACK: the routines come from `provider` (on Debian, OpenBLAS's liblapack.so.3); LAPACKE, the C interface, has its own version. */
  lapack: LibraryReport & { provider?: string; lapackeVersion?: string };
  /** umfpack: whether this addon has UMFPACK (GPL; left out by RLX_NO_UMFPACK=1 / RLX_NO_GPL=1, the default LU is then KLU). */
  suitesparse: LibraryReport & { umfpack?: { available: boolean; reason?: string } };
  fftw: LibraryReport & { kernels: 'fftw' | 'js' | 'none' };
  /** The WebGPU adapter (Dawn through the optional `webgpu` package), probed by starting the device. */
  webgpu: { available: true; adapter: string; via: string; features: string[] } | { available: false; reason: string };
}

const files = (libs: LoadedLibrary[]): string[] => libs.map((l) => l.file);
const UMFPACK_LEFT_OUT = 'left out of this build (GPL; RLX_NO_UMFPACK=1 or RLX_NO_GPL=1): splu and spsolve factor with KLU';

/** Gathers the report (loads the native addon if it is there). */
export function infoReport(): InfoReport {
  const ns = nativeStatus();
  const addon = nativeAddon();
  const native: InfoReport['native'] = { available: ns.available };
  if (ns.reason) native.reason = ns.reason;
  if (ns.path) native.path = ns.path;
  if (addon) native.addonVersion = addon.version();
  if (ns.source) native.source = ns.source;
  if (ns.skipped) native.skipped = ns.skipped;
  const blasLib = addon ? loadedLibraries(/^openblas/)[0] : undefined;
  if (blasLib) native.librariesFrom = dirname(blasLib.path);
  const noAddon = `the native addon is not loaded (${ns.reason ?? 'unknown reason'})`;

  let blas: InfoReport['blas'];
  try {
    blas = { available: true, ...blasInfo(), ...(ns.blasCoreChoice ? { coreChoice: ns.blasCoreChoice } : {}), ...(ns.blasThreadTimeout ? { threadTimeout: ns.blasThreadTimeout } : {}) };
  } catch (e) {
    blas = { available: false, reason: e instanceof Error ? e.message : String(e) };
  }

  // The addon links LAPACKE and SuiteSparse unconditionally (native/CMakeLists.txt
  // fails the build without them), so they are there exactly when the addon is.
  const lapackLibs = loadedLibraries(/^(lapacke|lapack)$/);
  const lapacke = lapackLibs.find((l) => l.name === 'lapacke');
  const lapack: InfoReport['lapack'] = addon ? { available: true, libraries: files(lapackLibs) } : { available: false, reason: noAddon };
  const routines = lapackLibs.find((l) => l.name === 'lapack');
  // Debian's alternatives point liblapack.so.3 at a BLAS's own LAPACK (openblas-pthread/) or at the reference one.
  if (addon && routines) {
    const from = routines.origin ?? routines.path; // a bundled copy: the system file it was made from
    lapack.provider = /openblas/i.test(from) ? 'OpenBLAS' : /blis|flame/i.test(from) ? 'libFLAME' : /atlas/i.test(from) ? 'ATLAS' : from;
  }
  if (addon && lapacke?.soVersion) lapack.lapackeVersion = lapacke.soVersion;

  const ssLibs = loadedLibraries(/^(suitesparseconfig|umfpack|cholmod|klu|amd|camd|colamd|ccolamd|btf)$/);
  const ssConfig = ssLibs.find((l) => l.name === 'suitesparseconfig');
  const suitesparse: InfoReport['suitesparse'] = addon ? { available: true, libraries: files(ssLibs) } : { available: false, reason: noAddon };
  if (addon && ssConfig?.soVersion) suitesparse.version = ssConfig.soVersion;
  if (addon) suitesparse.umfpack = hasUmfpack() ? { available: true } : { available: false, reason: UMFPACK_LEFT_OUT };

  const fs = nativeFftStatus();
  const fftw: InfoReport['fftw'] = { available: fs.kernels === 'fftw', kernels: fs.kernels };
  if (fs.kernels === 'fftw') fftw.libraries = files(loadedLibraries(/^fftw3/));
  else fftw.reason = fs.reason;

  const ws = webgpuStatus();
  const webgpu: InfoReport['webgpu'] = ws.available ? { available: true, adapter: [ws.info.device, ws.info.description].filter((x) => x).join(', '), via: ws.info.backend, features: ws.info.features } : { available: false, reason: ws.reason };

  return {
    rlx: packageVersion(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    backends: backends().map((b) => ({ name: b.name, available: b.available, ...(b.reason ? { reason: b.reason } : {}) })),
    threads: numThreads(),
    native,
    blas,
    lapack,
    suitesparse,
    fftw,
    webgpu,
  };
}

function libLine(name: string, r: LibraryReport, extra = ''): string {
  if (!r.available) return `${name}: unavailable: ${r.reason}`;
  const v = r.version ? ` ${r.version}` : '';
  const libs = r.libraries?.length ? ` (${r.libraries.join(', ')})` : '';
  return `${name}:${v}${extra}${libs}`;
}

/** The human-readable form of the report. */
export function formatInfo(r: InfoReport): string {
  const lines = [`rlx ${r.rlx} (node ${r.node}, ${r.platform})`, 'backends:'];
  for (const b of r.backends) lines.push(`  ${b.name.padEnd(8)} ${b.available ? 'available' : `unavailable: ${b.reason}`}`);
  lines.push(`threads: ${r.threads}`);
  lines.push(r.native.available ? `native addon: ${r.native.addonVersion ?? '?'} from ${r.native.source === 'RLX_NATIVE_PATH' ? '$RLX_NATIVE_PATH' : `the ${r.native.source ?? 'local build'}`} (${r.native.path})` : `native addon: unavailable: ${r.native.reason}`);
  if (r.native.librariesFrom) lines.push(`  libraries from: ${r.native.librariesFrom}${r.native.source === 'platform package' ? ' (bundled)' : ''}`);
  for (const s of r.native.skipped ?? []) lines.push(`  not used: ${s}`);
  if (r.blas.available) {
    const b = r.blas;
    lines.push(`BLAS: ${b.headerVersion ?? b.vendor}, core ${b.corename}${b.coreChoice ? ` (${b.coreChoice})` : ''}, ${b.threads} threads of ${b.procs} processors, ${b.parallel}${b.threadTimeout ? `; idle workers spin ${b.threadTimeout}` : ''}`);
    lines.push(`  config: ${b.config}`);
  } else lines.push(`BLAS: unavailable: ${r.blas.reason}`);
  lines.push(libLine('LAPACK', r.lapack, `${r.lapack.provider ? ` from ${r.lapack.provider}` : ''}${r.lapack.lapackeVersion ? `, LAPACKE ${r.lapack.lapackeVersion}` : ''}`));
  const umf = r.suitesparse.umfpack;
  lines.push(libLine('SuiteSparse', r.suitesparse, umf && !umf.available ? ` (CHOLMOD, KLU; UMFPACK ${umf.reason})` : ' (UMFPACK, CHOLMOD, KLU)'));
  lines.push(r.fftw.available ? libLine('FFTW', r.fftw, ' 3') : `FFTW: not used (${r.fftw.reason})`);
  lines.push(r.webgpu.available ? `WebGPU adapter: ${r.webgpu.adapter} (Dawn, ${r.webgpu.via}): the 'webgpu' device runs float32/int32 graphs (README: Backends)` : `WebGPU: unavailable: ${r.webgpu.reason}`);
  return lines.join('\n');
}

export const info: Command = {
  name: 'info',
  summary: 'versions, backends, threads, BLAS/LAPACK/SuiteSparse/FFTW',
  usage: 'info [--json]',
  options: { json: { type: 'boolean', help: '--json         one JSON object on stdout' } },
  details: 'Library versions come from the shared objects the loader mapped (Linux); FFTW and the SuiteSparse\n' + 'component libraries are shown as file names (their .so versions are not release numbers).',
  run(args) {
    const r = infoReport();
    console.log(args.values['json'] ? JSON.stringify(r) : formatInfo(r));
    return 0;
  },
};
