// The typed error of the GGUF reader and writer: a malformed file (bad magic,
// an unsupported version, a truncated field, a count or size larger than the
// file could hold, a bad alignment, overlapping tensor data), a tensor whose
// ggml type rlx cannot decode, or metadata that cannot be written. It extends
// ValueError, rlx's "bad input values" class; `offset` is the byte of the file
// where reading failed and `tensor` the tensor at fault, so a broken
// multi-gigabyte model can be inspected where it breaks.

import { TensorFileError } from '../errors.js';

/** A malformed or unsupported GGUF file, or values that cannot be written as one; `offset` is the byte of the file at fault, `tensor` the tensor's name. */
export class GgufError extends TensorFileError {}
