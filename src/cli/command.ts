// What a command of the `rlx` command line is (one file per command in this
// folder, listed by src/cli.ts), and the option parsing every command shares:
// node:util's parseArgs in strict mode, with its errors (unknown option,
// missing value) turned into UsageError and numbers checked here, so each
// command states its options once and gets --help for free.

import { parseArgs } from 'node:util';
import { UsageError } from './errors.js';

export interface OptionSpec {
  type: 'boolean' | 'string';
  short?: string;
  /** Shown by --help, e.g. '--rtol <x>   relative tolerance (default 1e-8)'. */
  help: string;
}

/** Where a command writes: stdout for results, stderr for progress and messages (tests swap neither). */
export interface CliContext {
  verbose: boolean;
}

export interface Command {
  name: string;
  /** One line for `rlx --help`. */
  summary: string;
  /** The usage line without the leading 'rlx ', e.g. 'solve A.mtx [b.mtx] [options]'. */
  usage: string;
  /** Longer text for `rlx <command> --help` (after the options). */
  details?: string;
  options: Record<string, OptionSpec>;
  /** Returns the exit code (0 unless the command reports a soft failure itself). */
  run(args: ParsedArgs, ctx: CliContext): Promise<number> | number;
}

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** Options every command accepts; src/cli.ts acts on them. */
export const COMMON_OPTIONS: Record<string, OptionSpec> = {
  help: { type: 'boolean', short: 'h', help: '-h, --help     this help' },
  verbose: { type: 'boolean', help: '--verbose      stack traces on errors' },
};

/** Parses `argv` (after the command name) against the command's options; UsageError on anything unknown. */
export function parseCommandArgs(cmd: Command, argv: string[]): ParsedArgs {
  const options: Record<string, { type: 'boolean' | 'string'; short?: string }> = {};
  for (const [k, o] of Object.entries({ ...cmd.options, ...COMMON_OPTIONS })) options[k] = o.short ? { type: o.type, short: o.short } : { type: o.type };
  try {
    const r = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    return { values: r.values as ParsedArgs['values'], positionals: r.positionals };
  } catch (e) {
    // parseArgs' messages are one sentence already ("Unknown option '--x'. To specify a positional argument starting with a '-', ...");
    // keep the first sentence.
    const msg = e instanceof Error ? e.message.split('. ')[0]!.replace(/\.$/, '') : String(e);
    throw new UsageError(msg);
  }
}

/** A numeric option: undefined when absent, UsageError when not a finite number (or not > 0 with positive). */
export function numberOption(args: ParsedArgs, name: string, opts: { positive?: boolean; integer?: boolean } = {}): number | undefined {
  const v = args.values[name];
  if (v === undefined) return undefined;
  const x = typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  if (!Number.isFinite(x) || (opts.positive && !(x > 0)) || (opts.integer && !Number.isInteger(x)))
    throw new UsageError(`--${name} expects ${opts.integer ? 'an integer' : 'a number'}${opts.positive ? ' > 0' : ''}, got '${String(v)}'`);
  return x;
}

/** A string option restricted to `choices`. */
export function choiceOption<T extends string>(args: ParsedArgs, name: string, choices: readonly T[], fallback: T): T {
  const v = args.values[name];
  if (v === undefined) return fallback;
  if (typeof v !== 'string' || !(choices as readonly string[]).includes(v)) throw new UsageError(`--${name} must be one of ${choices.join(', ')}, got '${String(v)}'`);
  return v as T;
}

/** Checks the positional count: UsageError naming what is missing or extra. */
export function positionals(args: ParsedArgs, names: string[], optional: string[] = []): string[] {
  const p = args.positionals;
  if (p.length < names.length) throw new UsageError(`missing ${names.slice(p.length).join(' and ')}`);
  if (p.length > names.length + optional.length) throw new UsageError(`unexpected argument '${p[names.length + optional.length]}'`);
  return p;
}

/** The text of `rlx <command> --help`. */
export function commandHelp(cmd: Command): string {
  const lines = [`usage: rlx ${cmd.usage}`, '', cmd.summary, ''];
  const opts = Object.values({ ...cmd.options, ...COMMON_OPTIONS });
  lines.push('options:', ...opts.map((o) => `  ${o.help}`));
  if (cmd.details) lines.push('', cmd.details);
  return lines.join('\n');
}
