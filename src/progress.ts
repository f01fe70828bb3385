// A progress bar for long work (the CLI's iterative solves and benchmarks; the
// Krylov solvers' and the adaptive integrators' `progress` option, through
// progressOption/barFor below): a few lines over a TTY stream instead of a
// dependency.
//
// Three rules from issue 16: it draws only when the stream is a TTY (piped
// output and logs stay clean; callers also pass enabled: false under --json);
// it never slows the loop it reports on: update() is a counter store and one
// clock read, and the line is redrawn at most every `intervalMs` (100 ms by
// default), so a solver calling it every iteration pays nanoseconds (measured
// in tests/cli/progress.test.ts); and it cleans up after itself: done() ends
// the line so the next output starts at column 0.

import { ValueError } from './tensor/errors.js';

/** The part of a stream the bar uses (process.stderr, or a fake in tests). */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(s: string): boolean;
}

export interface ProgressOptions {
  /** Text before the bar, e.g. 'cg'. */
  label?: string;
  /** The amount that means done (update's `done` is out of this); without it the bar shows a count. */
  total?: number;
  /** Default process.stderr. */
  stream?: ProgressStream;
  /** Default: whether the stream is a TTY. false makes every call a no-op (e.g. under --json). */
  enabled?: boolean;
  /** Least time between two redraws (default 100 ms). */
  intervalMs?: number;
  /** The clock (ms), for tests; default performance.now. */
  now?: () => number;
}

export interface Progress {
  /**
   * Records progress (`done` out of total; `detail` is shown after the bar).
   * Redraws when intervalMs has passed. A function detail is called only when
   * the line is drawn, so a per-iteration caller formats nothing in between.
   */
  update(done: number, detail?: string | (() => string)): void;
  /** Draws the final state and ends the line (or clears it when `clear`). Further calls do nothing. */
  done(detail?: string, opts?: { clear?: boolean }): void;
  /** Whether anything is drawn at all. */
  readonly enabled: boolean;
}

const NOOP: Progress = { update() {}, done() {}, enabled: false };
const BAR_WIDTH = 24;

/** A progress bar on `stream` (default process.stderr), or a no-op when the stream is not a TTY or enabled is false. */
export function progress(opts: ProgressOptions = {}): Progress {
  const stream = opts.stream ?? process.stderr;
  if (!(opts.enabled ?? stream.isTTY === true)) return NOOP;
  const now = opts.now ?? (() => performance.now());
  const interval = opts.intervalMs ?? 100;
  const total = opts.total;
  const label = opts.label ? `${opts.label} ` : '';
  const start = now();
  let next = start; // the first update draws at once
  let doneValue = 0;
  let detail: string | (() => string) = '';
  let finished = false;

  const line = (): string => {
    const secs = ((now() - start) / 1000).toFixed(1);
    let body: string;
    if (total !== undefined && total > 0) {
      const f = Math.min(1, Math.max(0, doneValue / total));
      const fill = Math.round(f * BAR_WIDTH);
      body = `[${'#'.repeat(fill)}${'-'.repeat(BAR_WIDTH - fill)}] ${Math.floor(f * 100).toString().padStart(3)}%`;
    } else body = `${doneValue}`;
    const d = typeof detail === 'function' ? detail() : detail;
    const text = `${label}${body} ${secs}s${d ? ` ${d}` : ''}`;
    // Never wrap: a wrapped line cannot be redrawn with \r.
    const cols = stream.columns || 80; // 0 or undefined when the terminal size is unknown
    return text.length >= cols ? text.slice(0, Math.max(0, cols - 1)) : text;
  };
  // \r then clear to the end of the line (ESC [ K): a shorter line leaves no residue.
  const draw = (): void => void stream.write(`\r${line()}\x1b[K`);

  return {
    enabled: true,
    update(d: number, det?: string | (() => string)): void {
      doneValue = d;
      if (det !== undefined) detail = det;
      if (finished) return;
      const t = now();
      if (t < next) return;
      next = t + interval;
      draw();
    },
    done(det?: string, o: { clear?: boolean } = {}): void {
      if (finished) return;
      finished = true;
      if (det !== undefined) detail = det;
      if (o.clear) stream.write('\r\x1b[K');
      else {
        draw();
        stream.write('\n');
      }
    },
  };
}

/**
 * The `progress` option of the Krylov solvers and adaptive integrators: true
 * for a bar on process.stderr (drawn only when it is a TTY), or the bar's
 * options (label, stream, enabled, intervalMs, now; the caller sets total).
 */
export type ProgressOption = boolean | Omit<ProgressOptions, 'total'>;

/** Checks a `progress` option at the call's start (a ValueError naming `op` for anything but a boolean or an options object). */
export function progressOption(op: string, v: unknown): ProgressOption | undefined {
  if (v === undefined || typeof v === 'boolean') return v;
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new ValueError(`${op}: progress must be a boolean or an options object {label, stream, enabled, intervalMs}, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`);
  const o = v as ProgressOptions;
  if (o.stream !== undefined && typeof (o.stream as { write?: unknown }).write !== 'function') throw new ValueError(`${op}: progress.stream must have a write(s) method (like process.stderr)`);
  if (o.intervalMs !== undefined && !(typeof o.intervalMs === 'number' && o.intervalMs >= 0)) throw new ValueError(`${op}: progress.intervalMs must be a number ≥ 0, got ${String(o.intervalMs)}`);
  return o;
}

/**
 * The bar a checked `progress` option asks for, or null when it is off or
 * would draw nothing (the stream is not a TTY): the caller then installs no
 * per-step hook at all, so a solve without a terminal pays one null check.
 */
export function barFor(opt: ProgressOption | undefined, label: string, total: number): Progress | null {
  if (opt === undefined || opt === false) return null;
  const bar = progress(opt === true ? { label, total } : { ...opt, label: opt.label ?? label, total });
  return bar.enabled ? bar : null;
}
