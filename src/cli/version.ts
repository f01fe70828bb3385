// `rlx version`: the package version (also `rlx --version`).

import { packageVersion } from '../package-root.js';
import type { Command } from './command.js';

export const version: Command = {
  name: 'version',
  summary: "rlx's version",
  usage: 'version',
  options: {},
  run() {
    console.log(packageVersion());
    return 0;
  },
};
