// The typed error of the splat file readers (PLY, .splat, PNG): a malformed,
// truncated or unsupported file. It extends ValueError, so callers that catch
// rlx's generic "bad input values" class catch it too; `offset` is the byte
// at which reading failed (the start of the offending header line or data
// row, or the end of the file for a truncation), so a broken file of
// millions of Gaussians can be inspected where it breaks.

import { ValueError } from '../../tensor/errors.js';

/** A malformed, truncated or unsupported splat file; `offset` is the byte where reading failed (undefined when the file as a whole is at fault). */
export class SplatFileError extends ValueError {
  constructor(
    /** 'ply', 'splat' or 'png'. */
    readonly format: string,
    /** Byte offset in the file where the problem was found. */
    readonly offset: number | undefined,
    detail: string,
  ) {
    super(offset !== undefined ? `${format}: byte ${offset}: ${detail}` : `${format}: ${detail}`);
  }
}
