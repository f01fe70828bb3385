// How hard FFTW looks for a fast plan, and FFTW's wisdom (what its planner
// found) to save and load: fft.setPlanner, fft.planner, fft.exportWisdom,
// fft.importWisdom. They concern the native kernels built with FFTW
// (native/src/fft/plans.cc); the TypeScript FFT has no planner.
//
// Why the default stays 'estimate': FFTW_MEASURE times candidate plans, which
// costs milliseconds to seconds per new transform size (86 ms for 1000 complex
// points here) and makes the chosen plan, hence the last bits of results,
// depend on timings, so two processes may differ by rounding. A caller who
// runs the same sizes many times (a spectral solver, a benchmark) can ask for
// more: 1000 complex points run in 1.8 µs a transform with a measured plan
// against 2.9 µs with the estimated one (FFTW alone, this machine). Plans are
// cached per effort, so switching back to 'estimate' returns the same plans,
// and the same bits, as before.

import { DeviceError, ValueError } from '../tensor/errors.js';
import { nativeFftAddon } from './kernels/native.js';

/** FFTW's planner efforts, from the quickest planning to the most thorough. */
export type FftPlannerEffort = 'estimate' | 'measure' | 'patient' | 'exhaustive';

const EFFORTS: readonly FftPlannerEffort[] = ['estimate', 'measure', 'patient', 'exhaustive'];

/** The planner settings (fft.planner(), fft.setPlanner()). */
export interface FftPlanner {
  effort: FftPlannerEffort;
  /** Seconds one plan's search may take; null: no limit. */
  timeLimit: number | null;
}

/** FFTW's wisdom in its text format, per precision (FFTW keeps them apart). */
export interface FftWisdom {
  float64: string;
  float32: string;
}

let current: FftPlanner = { effort: 'estimate', timeLimit: null };

/**
 * Sets how hard FFTW's planner looks for a fast plan for the transform sizes
 * it has not planned yet at this effort ('estimate', the default: a heuristic
 * with no trial runs; 'measure', 'patient', 'exhaustive': FFTW_MEASURE & co.,
 * which time candidate plans on scratch arrays, once per size, shape and
 * precision). A measured plan can be much faster for a size run many times
 * (1000 complex points: 1.8 µs against 2.9 µs in FFTW) but its first call
 * pays the search (86 ms there; seconds for 2^20 points unless `timeLimit`
 * caps it), and the plan chosen depends on timings, so results may differ
 * in the last bits between processes. Applies to the native kernels built
 * with FFTW; without them it is recorded and changes nothing. Returns the
 * previous settings.
 * @example
 * ```ts
 * const before = fft.setPlanner({ effort: 'measure', timeLimit: 1 });
 * fft.planner().effort;   // 'measure'
 * fft.setPlanner(before);
 * ```
 */
export function setPlanner(opts: { effort?: FftPlannerEffort; timeLimit?: number | null }): FftPlanner {
  if (opts === null || typeof opts !== 'object') throw new ValueError(`fft.setPlanner: expected an options object { effort?, timeLimit? }, got ${opts === null ? 'null' : typeof opts}`);
  const previous = planner();
  const effort = opts.effort ?? previous.effort;
  if (!EFFORTS.includes(effort)) throw new ValueError(`fft.setPlanner: effort must be one of ${EFFORTS.map((e) => `'${e}'`).join(', ')}, got ${JSON.stringify(effort)}`);
  const timeLimit = opts.timeLimit === undefined ? previous.timeLimit : opts.timeLimit;
  if (timeLimit !== null && (typeof timeLimit !== 'number' || !Number.isFinite(timeLimit) || timeLimit <= 0))
    throw new ValueError(`fft.setPlanner: timeLimit must be a positive number of seconds or null (no limit), got ${String(timeLimit)}`);
  const addon = nativeFftAddon();
  if (addon !== undefined && typeof addon.fftSetPlanner !== 'function') throw new DeviceError('fft.setPlanner: the native addon predates planner control (no fftSetPlanner); run npm run build:native');
  addon?.fftSetPlanner!(EFFORTS.indexOf(effort), timeLimit ?? -1);
  current = { effort, timeLimit };
  return previous;
}

/**
 * The planner settings fft.setPlanner last set in this process ({ effort:
 * 'estimate', timeLimit: null } by default; with FFTW, read from the addon,
 * whose settings every thread shares).
 * @example
 * ```ts
 * fft.planner();   // { effort: 'estimate', timeLimit: null }
 * ```
 */
export function planner(): FftPlanner {
  // FFTW's settings are the addon's, shared by every thread of the process (a worker thread may have set them).
  const info = nativeFftAddon()?.fftInfo();
  if (info !== undefined && EFFORTS.includes(info.planner as FftPlannerEffort)) return { effort: info.planner as FftPlannerEffort, timeLimit: info.plannerTimeLimit ?? null };
  return { ...current };
}

/** The addon's FFTW wisdom functions, or a DeviceError naming `op`. */
function wisdomAddon(op: string) {
  const addon = nativeFftAddon();
  if (addon === undefined) throw new DeviceError(`${op}: FFTW's wisdom needs the native addon built with FFTW 3 (nativeFftStatus() says what runs instead)`);
  if (typeof addon.fftExportWisdom !== 'function' || typeof addon.fftImportWisdom !== 'function') throw new DeviceError(`${op}: the native addon predates wisdom support; run npm run build:native`);
  return { exportWisdom: addon.fftExportWisdom.bind(addon), importWisdom: addon.fftImportWisdom.bind(addon) };
}

/**
 * FFTW's wisdom: the plans its planner has found in this process, as FFTW's
 * text (fftw_export_wisdom_to_string), per precision. Saved and loaded again
 * with fft.importWisdom, it spares a later process the 'measure' search for
 * the same sizes on the same machine. Needs the native addon with FFTW
 * (else a DeviceError).
 * @example
 * ```ts
 * const w = fft.exportWisdom();
 * w.float64.startsWith('(fftw-3');   // true
 * ```
 */
export function exportWisdom(): FftWisdom {
  const a = wisdomAddon('fft.exportWisdom');
  return { float64: a.exportWisdom(false), float32: a.exportWisdom(true) };
}

/**
 * Adds wisdom that fft.exportWisdom gave (here or in another process on the
 * same kind of machine) to FFTW's planner: later plans of those sizes at an
 * effort the wisdom covers reuse what it found instead of searching again.
 * A field FFTW rejects (not its wisdom format) is a ValueError naming it;
 * missing fields are skipped. Needs the native addon with FFTW (else a
 * DeviceError).
 * @example
 * ```ts
 * fft.importWisdom(fft.exportWisdom());
 * ```
 */
export function importWisdom(wisdom: Partial<FftWisdom>): void {
  if (wisdom === null || typeof wisdom !== 'object') throw new ValueError(`fft.importWisdom: expected { float64?, float32? } (what fft.exportWisdom returns), got ${wisdom === null ? 'null' : typeof wisdom}`);
  const a = wisdomAddon('fft.importWisdom');
  for (const [key, single] of [['float64', false], ['float32', true]] as const) {
    const text = wisdom[key];
    if (text === undefined) continue;
    if (typeof text !== 'string') throw new ValueError(`fft.importWisdom: ${key} must be a string, got ${typeof text}`);
    if (!a.importWisdom(single, text)) throw new ValueError(`fft.importWisdom: FFTW rejected the ${key} wisdom (not FFTW ${single ? 'single' : 'double'}-precision wisdom text: ${JSON.stringify(text.slice(0, 40))}${text.length > 40 ? '...' : ''})`);
  }
}
