// Finding and running headless Chromium for the plot module (savePng and
// renderCheck in browser.ts). Kept apart from the page logic because it is the
// part that touches the operating system: the executable lookup, the temp
// profile directory, the wall-clock timeout and the clean-up of the browser's
// process tree.
//
// Why a process per call and not a long-lived browser driven over the DevTools
// protocol: a protocol client is a dependency (puppeteer, ~MBs, downloads its own
// browser) or a few hundred lines of WebSocket code, while Chromium's one-shot
// command-line modes (--screenshot, --dump-dom) already do what a figure needs.
// A launch costs about a second, which is fine for saving a figure.

import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { RlxError } from '../tensor/errors.js';

/** A headless browser is missing, failed, or did not finish in time. */
export class BrowserError extends RlxError {}

/** The executables tried on PATH, in order, when RLX_CHROMIUM is not set. */
export const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome'] as const;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The Chromium executable: RLX_CHROMIUM when set (a path, or a name looked up on
 * PATH), else the first of chromium, chromium-browser, google-chrome on PATH.
 * Throws BrowserError naming what was looked for and the Debian package.
 * @example
 * ```ts
 * let browser: string;
 * try { browser = plot.findChromium(); } catch (e) { browser = `none (${(e as Error).message})`; }
 * browser;   // e.g. '/usr/bin/chromium' (Debian's chromium package)
 * plot.findChromium({ RLX_CHROMIUM: process.execPath });   // process.execPath: RLX_CHROMIUM, when set, wins
 * ```
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string {
  const dirs = (env['PATH'] ?? '').split(delimiter).filter((d) => d !== '');
  const onPath = (name: string): string | undefined => {
    if (isAbsolute(name) || name.includes('/')) return isExecutable(name) ? name : undefined;
    for (const d of dirs) if (isExecutable(join(d, name))) return join(d, name);
    return undefined;
  };
  const forced = env['RLX_CHROMIUM'];
  if (forced !== undefined && forced !== '') {
    const found = onPath(forced);
    if (found === undefined) throw new BrowserError(`plot: RLX_CHROMIUM is '${forced}', which is not an executable file (expected a Chromium or Chrome binary)`);
    return found;
  }
  for (const name of BROWSER_NAMES) {
    const found = onPath(name);
    if (found !== undefined) return found;
  }
  throw new BrowserError(
    `plot: no headless browser found (looked for ${BROWSER_NAMES.join(', ')} on PATH and RLX_CHROMIUM): install Debian's 'chromium' package (apt-get install chromium, or scripts/install-system-deps.sh --with-browser) or set RLX_CHROMIUM to a Chromium/Chrome binary`,
  );
}

/**
 * The flags every run uses, and why:
 * --headless: no display server here (CI, servers, notebooks).
 * --no-sandbox: Chromium's sandbox refuses to start as root (containers, CI);
 *   the page is our own local file with no network content.
 * --disable-gpu: no GPU in headless CI; software rendering is deterministic.
 * --no-first-run, --user-data-dir=<temp>: a fresh throwaway profile, so runs
 *   neither read nor write the user's browser profile and can run in parallel.
 * --disable-dev-shm-usage: /dev/shm is 64 MB in Docker, too small for a page
 *   holding plotly (4.8 MB of script) and a large figure.
 * --virtual-time-budget: Chromium fast-forwards timers and waits until the page
 *   is idle (plotly's promise chain settled) before screenshot/dump, up to this
 *   many virtual milliseconds: no fixed sleep, no racing plotly.
 */
function baseFlags(profile: string, virtualTimeMs: number): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--no-first-run',
    '--no-default-browser-check',
    '--disable-dev-shm-usage',
    '--disable-extensions',
    '--mute-audio',
    `--user-data-dir=${profile}`,
    `--virtual-time-budget=${virtualTimeMs}`,
  ];
}

export interface RunOptions {
  /** Wall-clock limit for the whole browser run (default 60 s). */
  timeoutMs?: number;
  /** Virtual-time budget the page gets to settle (default 10 s, fast-forwarded). */
  virtualTimeMs?: number;
}

export interface RunResult {
  stdout: string;
  /** The temp directory (alive until the callback returns): screenshots land here. */
  dir: string;
}

/**
 * Writes `html` to a temp directory, runs Chromium on it with `flags` (after
 * the base flags) and calls `use` with the output while the directory still
 * exists; the directory is removed afterwards whatever happens. `what` names
 * the operation in errors.
 */
export async function runChromium<T>(what: string, html: string, flags: (dir: string) => string[], use: (r: RunResult) => T, opts: RunOptions = {}): Promise<T> {
  const exe = findChromium();
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const dir = mkdtempSync(join(tmpdir(), 'rlx-browser-'));
  try {
    const page = join(dir, 'page.html');
    writeFileSync(page, html);
    const args = [...baseFlags(join(dir, 'profile'), opts.virtualTimeMs ?? 10_000), ...flags(dir), pathToFileURL(page).href];
    // TMPDIR inside our directory: Chromium's own temp files (its shared-memory
    // files under --disable-dev-shm-usage) go there and are removed with it,
    // even when a timeout kills the browser before it can clean up.
    const env = { ...process.env, TMPDIR: dir };
    const stdout = await spawnWithTimeout(what, exe, args, env, timeoutMs);
    return use({ stdout, dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the browser in its own process group (detached) so that a timeout kills
 * the whole tree (browser, zygote, renderer, GPU process) with one signal to
 * the group and leaves no orphans; Node reaps the main process itself. Resolves
 * with stdout once the process has exited.
 */
function spawnWithTimeout(what: string, exe: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(exe, args, { detached: true, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    let timedOut = false;
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => {
      err = (err + b.toString('utf8')).slice(-8000); // the tail is what explains a failure
    });
    const killGroup = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new BrowserError(`plot: ${what}: could not start ${exe} (${e.message})`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(); // helpers the browser left behind (it normally leaves none)
      if (timedOut) {
        reject(new BrowserError(`plot: ${what}: ${exe} did not finish within ${timeoutMs} ms (killed); the page may never settle`));
      } else if (code !== 0) {
        reject(new BrowserError(`plot: ${what}: ${exe} exited with ${code ?? signal}: ${lastErrors(err)}`));
      } else {
        resolve(Buffer.concat(out).toString('utf8'));
      }
    });
  });
}

/** The browser's stderr without the D-Bus noise every headless run prints. */
function lastErrors(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '' && !/dbus|DBus/.test(l));
  return lines.slice(-5).join(' | ') || '(no error output)';
}
