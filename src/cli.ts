#!/usr/bin/env node
// The `rlx` command line (the package's bin). This file only dispatches: each
// command is one file in src/cli/ (info, solve, plot, splat, bench, run, demo,
// version), and the exit codes are decided here, once:
//   0 success; 1 the work failed (a missing or malformed file, a solver that
//   did not converge, a missing program); 2 the command line is wrong (the
//   message is followed by the command's usage line).
// An error is one line on stderr, "rlx <command>: <message>", with the stack
// trace only under --verbose: a user reads what went wrong, not where.

import './index.js'; // the library with its backends and ops registered, as users get it
import { UsageError } from './cli/errors.js';
import { commandHelp, parseCommandArgs, type Command } from './cli/command.js';
import { info } from './cli/info.js';
import { solve } from './cli/solve.js';
import { plot } from './cli/plot.js';
import { bench } from './cli/bench.js';
import { run } from './cli/run.js';
import { demo } from './cli/demo.js';
import { version } from './cli/version.js';
import { splat } from './cli/splat.js';

const COMMANDS: Command[] = [info, solve, plot, splat, bench, run, demo, version];

function usage(): string {
  const w = Math.max(...COMMANDS.map((c) => c.name.length));
  return [
    'usage: rlx <command> [options]   (rlx <command> --help for its options)',
    '',
    'commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(w)}  ${c.summary}`),
    '',
    'common options: --help, --verbose (stack traces on errors)',
  ].join('\n');
}

/** Runs the command line `argv` (without node and the script) and returns the exit code. */
export async function main(argv: string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  const name = argv[0];
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const sub = name === 'help' ? argv[1] : undefined;
    const cmd = sub === undefined ? undefined : COMMANDS.find((c) => c.name === sub);
    if (sub !== undefined && !cmd) return fail('rlx', new UsageError(`unknown command '${sub}'`), verbose, 'rlx --help');
    console.log(cmd ? commandHelp(cmd) : usage());
    return 0;
  }
  if (name === '--version' || name === '-v') return version.run({ values: {}, positionals: [] }, { verbose });
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    const what = name.startsWith('-') ? `unknown option '${name}' (options go after the command)` : `unknown command '${name}'`;
    return fail('rlx', new UsageError(`${what}; commands: ${COMMANDS.map((c) => c.name).join(', ')}`), verbose, 'rlx <command> [options]  (rlx --help)');
  }
  const label = `rlx ${cmd.name}`;
  try {
    const args = parseCommandArgs(cmd, argv.slice(1));
    if (args.values['help']) {
      console.log(commandHelp(cmd));
      return 0;
    }
    return await cmd.run(args, { verbose });
  } catch (e) {
    return fail(label, e, verbose, `rlx ${cmd.usage}  (rlx ${cmd.name} --help)`);
  }
}

/** Writes the one-line error (and the usage line for usage errors) and returns the exit code. */
function fail(label: string, e: unknown, verbose: boolean, usageLine: string): number {
  const msg = e instanceof Error ? e.message.split('\n')[0] : String(e);
  process.stderr.write(`${label}: ${msg}\n`);
  if (verbose && e instanceof Error && e.stack) process.stderr.write(`${e.stack}\n`);
  if (e instanceof UsageError) {
    process.stderr.write(`usage: ${usageLine}\n`);
    return 2;
  }
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    // main catches everything a command throws; this is a bug in the dispatcher itself.
    process.stderr.write(`rlx: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);

