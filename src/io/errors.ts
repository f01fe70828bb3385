// The typed error of the safetensors reader and writer: a malformed file (bad
// header length, header past the end, invalid JSON, unknown dtype, sizes that
// do not match, overlapping or missing data) or a dict that cannot be written.
// It extends ValueError, rlx's "bad input values" class; `offset` is the byte
// of the file where reading failed and `tensor` the entry at fault, so a
// broken multi-gigabyte checkpoint can be inspected where it breaks.

import { ValueError } from '../tensor/errors.js';

/** A malformed safetensors file, or a tensor dict that cannot be saved; `offset` is the byte of the file at fault, `tensor` the entry's name. */
export class SafetensorsError extends ValueError {
  constructor(
    /** 'loadSafetensors', 'readSafetensorsHeader' or 'saveSafetensors'. */
    readonly op: string,
    /** Byte offset in the file where the problem was found (undefined when no single byte is at fault). */
    readonly offset: number | undefined,
    /** The tensor entry at fault, if one is. */
    readonly tensor: string | undefined,
    detail: string,
  ) {
    super(`io.${op}: ${offset !== undefined ? `byte ${offset}: ` : ''}${tensor !== undefined ? `tensor ${JSON.stringify(tensor)}: ` : ''}${detail}`);
  }
}
