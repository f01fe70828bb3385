// The operators loadOnnx imports: the ops-*.ts tables merged. A model whose
// nodes use any op type outside this table (in the default ONNX domain) is
// refused at load time with all of its unsupported ops listed.

import type { OpImpl } from './registry.js';
import { ELEMENTWISE_OPS } from './ops-elementwise.js';
import { SHAPE_OPS } from './ops-shape.js';
import { NN_OPS } from './ops-nn.js';

/** Every supported ONNX op type (default domain) and its implementation. */
export const OPS: Readonly<Record<string, OpImpl>> = { ...ELEMENTWISE_OPS, ...SHAPE_OPS, ...NN_OPS };

/** The supported op types, sorted (for messages and documentation). */
export const SUPPORTED_OPS: readonly string[] = Object.keys(OPS).sort();
