// Typed errors of the sparse module. All extend ValueError so callers that
// catch the generic "bad input values" class of rlx also catch these.

import { ValueError } from '../tensor/errors.js';

/**
 * Compressed/coordinate arrays that do not describe a matrix: indptr of the wrong
 * length or not monotone, indices out of range, mismatched lengths, bad shapes.
 * The message names the format and the first bad position, e.g.
 * "csr: indptr[3] = 5 < indptr[2] = 7".
 */
export class SparseFormatError extends ValueError {}

/**
 * Malformed Matrix Market input. `line` is the 1-based line number of the offending
 * line (0 when the problem is the input as a whole, e.g. an empty file); the message
 * starts with "line N:" so it is useful without inspecting the field.
 */
export class MatrixMarketError extends ValueError {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(line > 0 ? `matrix market: line ${line}: ${detail}` : `matrix market: ${detail}`);
  }
}

/**
 * Malformed or unsupported Harwell–Boeing / Rutherford–Boeing input. `line` is the
 * 1-based line number of the offending line (0 when the problem is the input as a
 * whole, e.g. a path that cannot be opened); the message starts with "line N:".
 */
export class HarwellBoeingError extends ValueError {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(line > 0 ? `harwell-boeing: line ${line}: ${detail}` : `harwell-boeing: ${detail}`);
  }
}
