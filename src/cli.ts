#!/usr/bin/env node
// rlx command line: `rlx info` lists backends; `rlx version`.

import { readFileSync } from 'node:fs';
import { backends } from './index.js';

const cmd = process.argv[2] ?? 'info';
if (cmd === 'version' || cmd === '--version') {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  console.log(pkg.version);
} else if (cmd === 'info') {
  for (const b of backends()) console.log(`${b.name.padEnd(8)} ${b.available ? 'available' : `unavailable: ${b.reason}`}`);
} else {
  console.error(`rlx: unknown command '${cmd}'. Commands: info, version`);
  process.exit(2);
}
