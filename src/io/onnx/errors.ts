// The typed error of io.loadOnnx. One class for the three ways a model can
// fail to load: malformed protobuf bytes (`offset` is the byte of the file
// where decoding failed), a graph that is not valid ONNX (a missing input, an
// attribute of the wrong type: `node` names the node), and operators rlx does
// not import (`unsupported` lists every one of the model at once, so a user
// learns the whole gap from one attempt). It extends ValueError, rlx's "bad
// input values" class, like SafetensorsError.

import { ValueError } from '../../tensor/errors.js';

/** An ONNX node rlx cannot import: its op type (with its domain when not the default) and its name. */
export interface UnsupportedOp {
  opType: string;
  domain: string;
  node: string;
}

/** A malformed or unsupported ONNX model; `offset` is the byte of the file at fault, `node` the node, `unsupported` every op rlx cannot import. */
export class OnnxError extends ValueError {
  constructor(
    /** What failed: 'loadOnnx' (decoding, graph checks) or 'run' (running the imported graph). */
    readonly op: string,
    /** Byte offset in the file where decoding failed (undefined for graph-level problems). */
    readonly offset: number | undefined,
    /** The node at fault, as "OpType 'name'" (undefined when none is). */
    readonly node: string | undefined,
    detail: string,
    /** Every unsupported op of the model, when that is the problem (empty otherwise). */
    readonly unsupported: readonly UnsupportedOp[] = [],
  ) {
    super(`io.${op}: ${offset !== undefined ? `byte ${offset}: ` : ''}${node !== undefined ? `node ${node}: ` : ''}${detail}`);
  }
}
