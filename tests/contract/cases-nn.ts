// Contract cases of rlx.tree and rlx.nn (issue 18): the tree utilities are
// differentiable and batchable wherever their f is; modules are checked through
// their forward passes (each layer's own file of tests compares with PyTorch).

import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import type { Table, InSpec } from './checks.js';

const U = (lo: number, hi: number, ...shape: number[]): InSpec => ({ shape, lo, hi });

const { tree } = rlx;

export const nnCases: Table = {
  'tree.map': { specs: [U(-1, 1, 3)], f: (x: Tensor) => tree.map((a, b) => a.sin().mul(b), { a: x, b: [x] } as const, { a: x.add(1), b: [x] }).a },
  'tree.leaves': { specs: [U(-1, 1, 2, 2)], f: (x: Tensor) => tree.leaves([x, { y: x.mul(2) }])[1]!.exp() },
  'tree.flatten': { specs: [U(-1, 1, 3)], f: (x: Tensor) => tree.flatten({ p: x }).leaves[0]!.square() },
  'tree.unflatten': { specs: [U(-1, 1, 3)], f: (x: Tensor) => (tree.unflatten(tree.flatten({ p: x }).def, [x.cos()]) as { p: Tensor }).p },
  'tree.registerPytreeNode': { none: 'compiler' },
  'nn.Module': { none: 'class' },
};
