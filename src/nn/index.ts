// The nn namespace (issue 18): PyTorch-compatible modules as pytrees.
export { Module } from './module.js';
export type { LoadStateDictOptions, LoadStateDictResult } from './module.js';
