// The js backend: the pure-TypeScript numerical reference. Every op, every dtype.
// Fused loops are generated as JS source (see codegen-*.ts); whole-op kernels
// are plain functions (opaque.ts).

import { type StorageArray, allocStorage } from '../../tensor/dtype.js';
import { resolveShape } from '../../tensor/shape.js';
import type { Node } from '../../compiler/ir.js';
import { cpuDispatch } from '../dispatch.js';
import type { Kernel, OpaqueKernel } from '../../compiler/kernel.js';
import type { Backend, CompiledKernel, DimEnv, DispatchChoice } from '../backend.js';
import { hasRule } from './codegen-expr.js';
import { genElementwise, genMatmul, genReduce, type Generated, type SlotShapes } from './codegen-loops.js';
import { makeKernel } from './runtime.js';
import { OPAQUE_KERNELS, type OpaqueArgs } from './opaque.js';
import { CONTROL_FLOW_ASYNC } from './control-flow.js';
import { runOp } from '../../compiler/op-registry.js';

const envKey = (env: DimEnv) => (env.size === 0 ? '' : [...env].map(([k, v]) => `${k}=${v}`).join(','));

const HOOKS = { device: 'js', hasRule };
const NO_CONSTS = new Float64Array(0);
const dispatch = (n: Node): DispatchChoice | undefined => cpuDispatch(n, HOOKS);

function compiled(g: Generated, label: string): CompiledKernel {
  const fn = makeKernel(g.source);
  let lastKey: string | undefined;
  let lastParams: number[] = [];
  return {
    source: `// ${label}\n${g.source}`,
    run(buffers: StorageArray[], env: DimEnv, consts: Float64Array = NO_CONSTS) {
      const key = envKey(env);
      if (key !== lastKey) {
        lastParams = g.params(env);
        lastKey = key;
      }
      fn(buffers, lastParams, consts);
    },
  };
}

function compileKernel(k: Kernel, slotShapes: SlotShapes): CompiledKernel {
  switch (k.kind) {
    case 'elementwise':
      return compiled(genElementwise(k, slotShapes), `elementwise ${k.fused.join(' ')}`);
    case 'reduce':
      return compiled(genReduce(k, slotShapes, k.epilogue ? (k.epilogue.instrs.find((i) => i.op === 'acc')?.dtype ?? k.outDType) : k.outDType), `reduce ${k.op}`);
    case 'matmul':
      return compiled(genMatmul(k, slotShapes), 'matmul');
    case 'opaque': {
      const impl = OPAQUE_KERNELS[k.name];
      if (!impl) throw new Error(`internal: js backend has no kernel for ${k.name}`);
      // An awaited loop lets the event loop turn between its steps (control-flow.ts).
      return opaqueKernel(k, impl, CONTROL_FLOW_ASYNC[k.name]);
    }
  }
}

/**
 * A whole-op kernel running `impl` over the kernel's buffers (shared with the
 * native backend). `implAsync`, for an awaited run: a Promise while the work
 * goes on off this thread, or undefined when it ran here already.
 */
export function opaqueKernel(k: OpaqueKernel, impl: (a: OpaqueArgs) => void, implAsync?: (a: OpaqueArgs) => Promise<void> | undefined): CompiledKernel {
  const parts = k.parts;
  const args = (buffers: StorageArray[], env: DimEnv): OpaqueArgs => ({
    ...(parts !== undefined ? { parts: parts.map((s) => (s >= 0 ? buffers[s] : undefined)) } : {}),
    out: buffers[k.out]!,
    ins: k.inputs.map((s) => buffers[s]!),
    inShapes: k.inShapes.map((s) => resolveShape(s, env)),
    outShape: resolveShape(k.outShape, env),
    dtype: k.outDType,
    inDTypes: k.inDTypes,
    attrs: k.attrs,
  });
  return {
    run: (buffers: StorageArray[], env: DimEnv) => impl(args(buffers, env)),
    ...(implAsync !== undefined ? { runAsync: (buffers: StorageArray[], env: DimEnv) => implAsync(args(buffers, env)) } : {}),
  };
}

export const jsBackend: Backend = {
  name: 'js',
  dispatch,
  compileKernel,
  alloc: allocStorage,
  runOp: (a) => runOp('js', a), // as OPAQUE_KERNELS.registered
};
