// Shared by the browser tests (tests/plot/browser*.test.ts, render*.test.ts):
// whether headless Chromium is here, and hand-made plotly pages that do not
// depend on the Figure class. Without a browser those tests skip, except under
// CI's RLX_REQUIRE_BROWSER=1 (scripts/install-system-deps.sh --with-browser),
// where the `browserMissing` test fails with the reason.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { findChromium } from '../../src/plot/browser.js';

function lookup(): string | undefined {
  try {
    findChromium();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Why there is no browser, or undefined when there is one. */
export const browserMissing = lookup();
export const hasBrowser = browserMissing === undefined;
export const browserRequired = process.env['RLX_REQUIRE_BROWSER'] === '1';

const PLOTLY = readFileSync(resolve(__dirname, '..', '..', 'node_modules', 'plotly.js-dist-min', 'plotly.min.js'), 'utf8');

/** A self-contained page: plotly inlined in <head>, a div #g, and `script` at the end of <body>. */
export function plotlyPage(script: string, extraBody = ''): string {
  return `<!DOCTYPE html>\n<html><head><meta charset="utf-8"><script>${PLOTLY}</script></head>\n<body><div id="g"></div>${extraBody}<script>${script}</script></body></html>\n`;
}
