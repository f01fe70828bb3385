// The typed error of the safetensors reader and writer: a malformed file (bad
// header length, header past the end, invalid JSON, unknown dtype, sizes that
// do not match, overlapping or missing data) or a dict that cannot be written.
// It extends ValueError, rlx's "bad input values" class; `offset` is the byte
// of the file where reading failed and `tensor` the entry at fault, so a
// broken multi-gigabyte checkpoint can be inspected where it breaks.

import { ValueError } from '../tensor/errors.js';

/**
 * The shape every tensor-file error of io shares: the op (`loadSafetensors`,
 * `readGguf`, ...), the byte of the file at fault and the tensor entry at fault
 * (either may be undefined), and the detail, as one message.
 */
export abstract class TensorFileError extends ValueError {
  constructor(
    /** The io function that failed, e.g. 'loadSafetensors' or 'readGguf'. */
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

/** A malformed safetensors file, or a tensor dict that cannot be saved; `offset` is the byte of the file at fault, `tensor` the entry's name. */
export class SafetensorsError extends TensorFileError {}
