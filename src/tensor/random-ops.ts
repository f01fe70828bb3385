// The random IR ops: split, foldIn and the samplers as registered ops
// (compiler/op-registry.ts) of their own kernel family, with the binder and
// the key checks the public API (random.ts) uses.
//
// Why IR ops: a sample is then a node of the graph whose input is the key
// tensor, so `random.*` works inside jit (a new key is a new input value, not a
// new graph), under vmap (the registry maps every op over the key's leading
// batch dims: a batch of keys gives a batch of samples, key by key) and in scan
// bodies (a key carried and split each step). The kernels (random/kernels.ts)
// run the host Threefry code, so the bits are the host sampler's, JAX's.
//
// Keys: rlx has no unsigned dtype, so a key is an int32 tensor [..., 2] whose
// two words are the bits of JAX's raw uint32 key data (jax.random.key_data),
// reinterpreted. A sample is not a differentiable function of its key (integer
// bits), so every op's tangent and cotangent are zero (null); the sampler
// parameters (minval, maxval, lo, hi, p) are attrs (JS numbers), never tensors,
// so no real dependency is hidden behind a zero derivative.

import { Tensor } from './tensor.js';
import { type DType, DTYPE_INFO } from './dtype.js';
import { DTypeError, ValueError, ShapeError } from './errors.js';
import { fmtShape } from './shape.js';
import type { Attrs } from '../compiler/ir.js';
import { type OpDef, type OpRunArgs, type PartAval, registerOp } from '../compiler/op-registry.js';
import { kernelFamily, registerKernels } from '../compiler/kernel-registry.js';
import { deviceNames } from '../backends/registry.js';
import { bindOp } from './ops/registered-op.js';
import { type RandomKernels, hostRandomKernels } from './random/kernels.js';

/**
 * The random kernel family. The host kernels serve both CPU devices: their
 * buffers are host typed arrays (a device with memory of its own, a GPU,
 * registers kernels of its own or has no random ops: a LegalizationError).
 */
export const RANDOM_KERNELS = kernelFamily<RandomKernels>('random');
for (const device of ['js', 'native']) if (deviceNames().includes(device)) registerKernels(device, RANDOM_KERNELS, hostRandomKernels);

/** Names of the registered ops. */
export const RANDOM_OPS = {
  split: 'random.split',
  foldIn: 'random.foldIn',
  uniform: 'random.uniform',
  normal: 'random.normal',
  randint: 'random.randint',
  bernoulli: 'random.bernoulli',
} as const;

/** What an argument is, for error messages. */
function describe(x: unknown): string {
  if (x instanceof Tensor) return `${x.dtype} tensor of shape ${fmtShape(x.node.shape)}`;
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'object') return (x as object).constructor?.name ?? 'an object';
  return `${typeof x} ${String(x)}`;
}

/** Throws a typed error naming `op` unless k is a key: an int32 tensor of shape [..., 2]. */
export function checkKey(op: string, k: unknown): Tensor {
  const want = 'an int32 tensor of shape [..., 2] (from random.key, split or foldIn)';
  if (!(k instanceof Tensor)) throw new ValueError(`random.${op}: key must be ${want}, got ${describe(k)}`);
  if (k.dtype !== 'int32') throw new DTypeError(`random.${op}: key must be ${want}, got ${describe(k)}`);
  const s = k.node.shape;
  if (s.length === 0 || s[s.length - 1] !== 2) throw new ShapeError(`random.${op}: key must be ${want}, got ${describe(k)}`);
  return k;
}

/** The core key's aval inside the registry's shape rule (a backstop: the binder has checked it). */
function keyCore(op: string, a: PartAval | undefined): void {
  if (!a || a.dtype !== 'int32' || a.shape.length !== 1 || a.shape[0] !== 2) {
    throw new DTypeError(`random.${op}: key must be int32 [..., 2], got ${a ? `${a.dtype} core ${fmtShape(a.shape)}` : 'nothing'}`);
  }
}

const count = (shape: readonly number[]) => shape.reduce((a, b) => a * b, 1);

type RandomOpDef = Omit<OpDef<RandomKernels>, 'family' | 'label' | 'jvp' | 'vjp'>;

/**
 * Registers random op `name` on the random kernel family. A key carries no
 * derivative: zero tangents out, zero cotangents in. Batching is the default
 * ('leading'): a key's leading dims map the op key by key.
 */
function registerRandomOp(name: string, def: RandomOpDef): void {
  registerOp(name, { ...def, family: RANDOM_KERNELS, label: name, jvp: () => [null], vjp: (ctx) => ctx.inputs.map(() => null) });
}

const keysOf = (args: OpRunArgs) => args.ins[0] as Int32Array;
const sampleDType = (args: OpRunArgs) => args.attrs['sampleDType'] as DType;

/** A sampler: one key input, one output part of shape attrs.sampleShape and dtype attrs.sampleDType. */
function sampler(op: string, run: (k: RandomKernels, args: OpRunArgs, n: number) => void): RandomOpDef {
  return {
    coreRanks: [1],
    outputs: (ins, attrs) => {
      keyCore(op, ins[0]);
      return [{ shape: [...(attrs['sampleShape'] as number[])], dtype: attrs['sampleDType'] as DType }];
    },
    run: (k, args) => run(k, args, count(args.attrs['sampleShape'] as number[])),
  };
}

registerRandomOp(RANDOM_OPS.split, {
  coreRanks: [1],
  outputs: (ins, attrs) => {
    keyCore('split', ins[0]);
    return [{ shape: [attrs['n'] as number, 2], dtype: 'int32' }];
  },
  run: (k, a) => k.split(keysOf(a), a.batch, a.attrs['n'] as number, a.outs[0] as Int32Array),
});

registerRandomOp(RANDOM_OPS.foldIn, {
  coreRanks: [1, 0],
  outputs: (ins) => {
    keyCore('foldIn', ins[0]);
    if (ins[1]!.dtype !== 'int32') throw new DTypeError(`random.foldIn: data must be int32, got ${ins[1]!.dtype}`);
    return [{ shape: [2], dtype: 'int32' }];
  },
  run: (k, a) => k.foldIn(keysOf(a), a.ins[1] as Int32Array, a.batch, a.outs[0] as Int32Array),
});

registerRandomOp(
  RANDOM_OPS.uniform,
  sampler('uniform', (k, a, n) => k.uniform(keysOf(a), a.batch, n, sampleDType(a), a.attrs['minval'] as number, a.attrs['maxval'] as number, a.outs[0]!)),
);
registerRandomOp(RANDOM_OPS.normal, sampler('normal', (k, a, n) => k.normal(keysOf(a), a.batch, n, sampleDType(a), a.outs[0]!)));
registerRandomOp(
  RANDOM_OPS.randint,
  sampler('randint', (k, a, n) => k.randint(keysOf(a), a.batch, n, a.attrs['lo'] as number, a.attrs['hi'] as number, a.outs[0] as Int32Array)),
);
registerRandomOp(RANDOM_OPS.bernoulli, sampler('bernoulli', (k, a, n) => k.bernoulli(keysOf(a), a.batch, n, a.attrs['p'] as number, a.outs[0] as Uint8Array)));

/** Binds a random op on its (checked) inputs; its output has the inputs' batch dims in front. */
export function bindRandom(op: string, inputs: readonly Tensor[], attrs: Attrs): Tensor {
  return bindOp(op, inputs, attrs)[0]!;
}

/** Throws DTypeError unless dtype's kind is one of `kinds` ('f' floating, 'c' complex). */
export function checkSampleDType(op: string, dtype: DType, kinds: string, what: string): void {
  if (!kinds.includes(DTYPE_INFO[dtype].kind)) throw new DTypeError(`random.${op}: dtype must be ${what}, got ${dtype}`);
}

/** Throws ValueError unless x is a JS number (sampler parameters are attrs, not tensors). */
export function checkNumber(op: string, name: string, x: unknown): number {
  if (typeof x !== 'number') {
    throw new ValueError(`random.${op}: ${name} must be a number (sampler parameters are compile-time constants, not tensors), got ${describe(x)}`);
  }
  return x;
}
