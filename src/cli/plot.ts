// `rlx plot A.mtx --spy -o a.html`: a figure of a Matrix Market file, written
// as one self-contained HTML file (plotly inlined, works offline) or, for a
// .png output, a PNG rendered by headless Chromium. The figure is plot.spy's
// (src/plot); this command only reads the file and picks the output. --spy is
// the one kind today; the flag is required so that more kinds can come
// without changing what a bare `rlx plot A.mtx` means.

import { basename, extname } from 'node:path';
import { spy } from '../plot/index.js';
import { CliFailure, UsageError } from './errors.js';
import { firstLine, readMatrixFile } from './matrix-io.js';
import { positionals, type Command } from './command.js';

export const plot: Command = {
  name: 'plot',
  summary: 'plot a Matrix Market file (--spy: its sparsity pattern) to HTML or PNG',
  usage: 'plot A.mtx --spy [-o a.html|a.png] [--title t]',
  options: {
    spy: { type: 'boolean', help: '--spy          the sparsity pattern (plot.spy)' },
    output: { type: 'string', short: 'o', help: '-o, --output   .html (self-contained, offline) or .png (needs Chromium); default <name>.spy.html' },
    title: { type: 'string', help: '--title <t>    the figure title (default: size and nonzeros)' },
  },
  async run(args) {
    const [path] = positionals(args, ['A.mtx']) as [string];
    if (!args.values['spy']) throw new UsageError('say which plot: --spy (the sparsity pattern)');
    const out = (args.values['output'] as string | undefined) ?? `${basename(path, extname(path))}.spy.html`;
    const ext = extname(out).toLowerCase();
    if (ext !== '.html' && ext !== '.htm' && ext !== '.png') throw new UsageError(`-o must end in .html or .png, got '${out}'`);
    const A = readMatrixFile(path);
    const title = args.values['title'] as string | undefined;
    const fig = spy(A, title === undefined ? {} : { title });
    try {
      if (ext === '.png') await fig.savePng(out);
      else await fig.save(out);
    } catch (e) {
      throw new CliFailure(`${out}: ${firstLine(e)}`);
    }
    console.log(`${path}: ${A.shape[0]}×${A.shape[1]}, ${A.nnz} stored entries -> ${out}`);
    return 0;
  },
};
