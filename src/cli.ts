#!/usr/bin/env node
// rlx command line: `rlx info` lists backends; `rlx version`.

import { backends } from './index.js';
import { packageVersion } from './package-root.js';

const cmd = process.argv[2] ?? 'info';
if (cmd === 'version' || cmd === '--version') {
  console.log(packageVersion());
} else if (cmd === 'info') {
  for (const b of backends()) console.log(`${b.name.padEnd(8)} ${b.available ? 'available' : `unavailable: ${b.reason}`}`);
} else {
  console.error(`rlx: unknown command '${cmd}'. Commands: info, version`);
  process.exit(2);
}
