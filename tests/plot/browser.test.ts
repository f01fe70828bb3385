// savePng and findChromium (src/plot/browser.ts, browser-launch.ts): the
// browser lookup and its one-line error, argument checks, and real screenshots
// read back with an independent PNG decoder (browser-png-decode.ts): the size
// from IHDR, the pixels to see that plotly drew something.

import { afterEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrowserError, findChromium, savePng } from '../../src/plot/browser.js';
import { ValueError } from '../../src/tensor/errors.js';
import { browserMissing, browserRequired, hasBrowser, plotlyPage } from './browser-env.js';
import { decodePng, distinctColours, nonBackgroundFraction, pngSize } from './browser-png-decode.js';

const scratch: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'rlx-browser-test-'));
  scratch.push(d);
  return d;
}
afterEach(() => {
  for (const d of scratch.splice(0)) rmSync(d, { recursive: true, force: true });
});

const page = (script: string) => ({ toHTML: () => plotlyPage(script) });
// plotly's first default trace colour, #1f77b4
const LINE = page(`Plotly.newPlot('g', [{y: [1, 3, 2, 4], line: {width: 6}}], {title: {text: 'savePng'}})`);

describe('findChromium', () => {
  it('names the browsers it looked for and the Debian package when none is on PATH', () => {
    const empty = tempDir();
    let err: unknown;
    try {
      findChromium({ PATH: empty });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BrowserError);
    const msg = (err as Error).message;
    expect(msg).toMatch(/chromium, chromium-browser, google-chrome/);
    expect(msg).toMatch(/apt-get install chromium/);
    expect(msg.includes('\n')).toBe(false);
  });

  it('takes RLX_CHROMIUM first and rejects one that is not an executable', () => {
    expect(findChromium({ PATH: '', RLX_CHROMIUM: process.execPath })).toBe(process.execPath);
    expect(() => findChromium({ PATH: '', RLX_CHROMIUM: '/nonexistent/chromium' })).toThrow(BrowserError);
    expect(() => findChromium({ PATH: '', RLX_CHROMIUM: '/nonexistent/chromium' })).toThrow(/RLX_CHROMIUM is '\/nonexistent\/chromium'/);
  });

  it('finds chromium-browser and google-chrome on PATH, in that order of preference', () => {
    const a = tempDir();
    const b = tempDir();
    const exe = (dir: string, name: string) => {
      writeFileSync(join(dir, name), '#!/bin/sh\n');
      chmodSync(join(dir, name), 0o755);
    };
    exe(a, 'google-chrome');
    exe(b, 'chromium-browser');
    writeFileSync(join(a, 'chromium'), 'not executable'); // skipped: no x bit
    expect(findChromium({ PATH: `${a}:${b}` })).toBe(join(b, 'chromium-browser'));
    expect(findChromium({ PATH: a })).toBe(join(a, 'google-chrome'));
  });
});

describe('savePng arguments', () => {
  it('rejects sizes that are not positive whole pixels with a ValueError', async () => {
    const out = join(tempDir(), 'x.png');
    await expect(savePng(LINE, out, { width: 0 })).rejects.toThrow(ValueError);
    await expect(savePng(LINE, out, { height: 10.5 })).rejects.toThrow(/whole CSS pixels/);
    await expect(savePng(LINE, out, { scale: -1 })).rejects.toThrow(ValueError);
    await expect(savePng(LINE, out, { width: 9000, scale: 2 })).rejects.toThrow(/16384-pixel limit/);
    expect(existsSync(out)).toBe(false);
  });

  it('says which browser is missing instead of failing obscurely', async () => {
    const saved = process.env['RLX_CHROMIUM'];
    process.env['RLX_CHROMIUM'] = '/nonexistent/chromium';
    try {
      await expect(savePng(LINE, join(tempDir(), 'x.png'))).rejects.toThrow(BrowserError);
    } finally {
      if (saved === undefined) delete process.env['RLX_CHROMIUM'];
      else process.env['RLX_CHROMIUM'] = saved;
    }
  });
});

describe('savePng in headless Chromium', () => {
  it.runIf(browserRequired && !hasBrowser)('a browser is installed (RLX_REQUIRE_BROWSER=1)', () => {
    expect.fail(`RLX_REQUIRE_BROWSER=1 but ${browserMissing}`);
  });

  it.runIf(hasBrowser)('writes a PNG of width×height pixels with the plot drawn on it', async () => {
    const out = join(tempDir(), 'line.png');
    await savePng(LINE, out, { width: 320, height: 200 });
    const png = readFileSync(out);
    expect(pngSize(png)).toEqual({ width: 320, height: 200 });
    const img = decodePng(png);
    // a blank page is one colour; axes, text and an antialiased line give many
    expect(distinctColours(img)).toBeGreaterThan(20);
    const ink = nonBackgroundFraction(img);
    expect(ink).toBeGreaterThan(0.01);
    expect(ink).toBeLessThan(0.6);
    // the 6-pixel line is plotly's #1f77b4 (31, 119, 180) in its middle
    let lineColour = 0;
    for (let i = 0; i < img.pixels.length; i += img.channels) {
      if (Math.abs(img.pixels[i]! - 31) <= 3 && Math.abs(img.pixels[i + 1]! - 119) <= 3 && Math.abs(img.pixels[i + 2]! - 180) <= 3) lineColour++;
    }
    expect(lineColour).toBeGreaterThan(200);
  });

  it.runIf(hasBrowser)('scales the pixel size by `scale`', async () => {
    const out = join(tempDir(), 'line2x.png');
    await savePng(LINE, out, { width: 300, height: 150, scale: 2 });
    expect(pngSize(readFileSync(out))).toEqual({ width: 600, height: 300 });
  });

  it.runIf(hasBrowser)('a figure plotly cannot draw is a BrowserError, not a blank PNG', async () => {
    const out = join(tempDir(), 'broken.png');
    await expect(savePng(page(`Plotly.newPlot('g', [null])`), out, { width: 200, height: 100 })).rejects.toThrow(/did not render.*Plotly\.newPlot threw/);
    expect(existsSync(out)).toBe(false);
  });

  it.runIf(hasBrowser)('a page that never settles times out with a BrowserError and leaves no process or temp file', async () => {
    const tmp = tempDir();
    const saved = process.env['TMPDIR'];
    process.env['TMPDIR'] = tmp; // os.tmpdir(): the run's files and profile land here, so ps can find them
    try {
      const hang = { toHTML: () => plotlyPage('for (;;) {}') };
      await expect(savePng(hang, join(tmp, 'x.png'), { width: 100, height: 100, timeoutMs: 3000 })).rejects.toThrow(/did not finish within 3000 ms/);
    } finally {
      if (saved === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = saved;
    }
    expect(readdirSync(tmp)).toEqual([]);
    const ps = execFileSync('ps', ['-eo', 'pid,stat,args'], { encoding: 'utf8' });
    expect(ps.split('\n').filter((l) => l.includes(tmp))).toEqual([]);
  }, 20_000);
});

