// The elementwise ops whose derivative is a scale of the tangent (their rules:
// ad-elementwise.ts). A leaf module, so that the rule tables (jvp.ts, vjp.ts)
// can list them while the modules they import are still loading (the rules
// and the Tensor API import each other).

import type { BinaryOp, UnaryOp } from '../../primitives.js';

export const SCALED_UNARY = ['exp', 'log', 'log1p', 'expm1', 'sqrt', 'rsqrt', 'sin', 'cos', 'tan', 'tanh', 'sinh', 'cosh', 'asin', 'acos', 'atan', 'erf', 'sigmoid', 'softplus', 'gelu'] as const satisfies readonly UnaryOp[];
export const SCALED_BINARY = ['add', 'sub', 'mul', 'div', 'pow', 'maximum', 'minimum', 'atan2'] as const satisfies readonly BinaryOp[];

export type ScaledUnary = (typeof SCALED_UNARY)[number];
export type ScaledBinary = (typeof SCALED_BINARY)[number];
