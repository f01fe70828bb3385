// Shared by the physics examples: "am I run as a script?" and the --plot flag.
// Each example exports run(opts) for its test and prints a summary when run
// with `node examples/NAME.mjs`.
import { pathToFileURL } from 'node:url';

/** True when the module at `url` is the script node was started with. */
export function isMain(url) {
  return process.argv[1] !== undefined && url === pathToFileURL(process.argv[1]).href;
}

/**
 * `--plot out.html` is accepted so the commands in examples/README.md stay
 * stable; the figure is written once rlx has its plot module. Until then the
 * flag only says so (and the example still runs and exits 0).
 */
export function plotRequest(argv = process.argv.slice(2)) {
  const i = argv.indexOf('--plot');
  if (i < 0) return;
  const file = argv[i + 1] ?? 'out.html';
  console.log(`(--plot ${file}: figures arrive with rlx's plot module; nothing written)`);
}
