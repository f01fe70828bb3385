// `rlx demo`: runs the README's demo, examples/demo.mjs (what `npm run demo`
// runs after building): a heat equation stepped with fused lazy tensor ops and
// checked against the analytic solution, then a compiled plan. The script is
// run as it is, in its own Node process, so there is one demo, not a copy
// inside the CLI that could drift from the example.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root.js';
import { CliFailure } from './errors.js';
import type { Command } from './command.js';

export const demo: Command = {
  name: 'demo',
  summary: 'run the demo (a heat equation on fused lazy tensors, a compiled plan)',
  usage: 'demo',
  options: {},
  run() {
    const script = join(packageRoot(), 'examples', 'demo.mjs');
    if (!existsSync(script)) throw new CliFailure(`${script} is missing: this installation does not include examples/demo.mjs (it is in the rlx repository)`);
    const r = spawnSync(process.execPath, [script], { stdio: 'inherit' });
    if (r.error) throw new CliFailure(`could not run ${script}: ${r.error.message}`);
    if (r.status !== 0) throw new CliFailure(`${script} failed (${r.status ?? r.signal})`);
    return 0;
  },
};
