// The two ways a command ends badly, which the dispatcher (src/cli.ts) turns
// into exit codes: a UsageError (exit 2: the command line itself is wrong, so
// the usage line is printed after the message) and a CliFailure (exit 1: the
// command line was fine but the work failed: a missing or malformed file, a
// solver that did not converge, a missing external program). Any other error
// (an RlxError from the library, a system error) is also a failure, exit 1.
// Messages are one line; the stack trace is shown only under --verbose.

import { RlxError } from '../tensor/errors.js';

/** The command line is wrong (unknown command or option, missing argument, bad value): exit 2. */
export class UsageError extends RlxError {}

/** The command could not do its work (the message says why, naming the file or program): exit 1. */
export class CliFailure extends RlxError {}
