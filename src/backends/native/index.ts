// The native backend: fused elementwise and reduction kernels on the addon's
// block interpreter, matmul on cblas (its epilogue on the interpreter), the
// data-movement kernels (cumsum, gather, scatterAdd, concat, pad) on the addon
// too (opaque.ts), and control flow orchestrating compiled bodies (js kernels).

import { allocStorage, type DType, type StorageArray } from '../../tensor/dtype.js';
import type { Node } from '../../compiler/ir.js';
import { cpuDispatch } from '../dispatch.js';
import type { ElementwiseKernel, Instr, Kernel, Load, MatmulKernel } from '../../compiler/kernel.js';
import type { Backend, CompiledKernel, DimEnv, DispatchChoice } from '../backend.js';
import { opaqueKernel } from '../js/index.js';
import { runOp, runOpAsync } from '../../compiler/op-registry.js';
import { hasRule } from '../js/codegen-expr.js';
import type { NativeAddon } from './addon.js';
import { interpretedKernel, type InterpAddon, type SlotShapes } from './program.js';
import { GEMM_DTYPES, compiledMatmulRun, gemmAsync, matmulSpec } from './gemm.js';
import { resolvedSize } from '../../tensor/shape.js';
import { compileOpaque } from './opaque.js';
import { nativeAlloc, nativeAllocUninit } from './alloc.js';

// BLAS has no integer GEMM: int32/bool products become a broadcast multiply + sum.
const HOOKS = { device: 'native', hasRule, special: (m: Node) => (m.op === 'matmul' && !(GEMM_DTYPES as readonly string[]).includes(m.dtype) ? ('decompose' as const) : undefined) };
const dispatch = (n: Node): DispatchChoice | undefined => cpuDispatch(n, HOOKS);

/** A matmul-with-epilogue kernel keeps its GEMM accumulator between synchronous runs up to this size. */
export const KEPT_ACC_MAX_BYTES = 4 * 2 ** 20;

/** The matmul epilogue as an elementwise kernel reading the GEMM result from `accSlot`. */
function epilogueKernel(k: MatmulKernel, accSlot: number, accDType: DType): ElementwiseKernel {
  const ep = k.epilogue!;
  const accLoad: Load = { slot: accSlot, dtype: accDType, chain: [] };
  const li = ep.loads.length;
  const instrs = ep.instrs.map((i): Instr => (i.op === 'acc' ? { op: 'load', load: li, dtype: accDType } : i));
  return { kind: 'elementwise', out: k.out, outDType: k.outDType, outShape: k.outShape, fused: k.fused, expr: { instrs, loads: [...ep.loads, accLoad] } };
}

function compileMatmul(addon: NativeAddon, k: MatmulKernel, slotShapes: SlotShapes, scratch: (d: DType, n: number) => StorageArray): CompiledKernel {
  if (!k.epilogue) {
    return {
      run: compiledMatmulRun(k, slotShapes),
      runAsync: async (bufs, env) => void (await gemmAsync(matmulSpec(k, bufs, slotShapes, env))),
    };
  }
  // GEMM into a scratch buffer (an extra slot, fully written by the GEMM), then the epilogue over it into the output.
  const accDType = k.a.dtype;
  const accSlot = slotShapes.length;
  const shapes = [...slotShapes, k.outShape];
  const gemmK: MatmulKernel = { ...k, out: accSlot, outDType: accDType, epilogue: undefined };
  const epi = interpretedKernel(addon as unknown as InterpAddon, epilogueKernel(k, accSlot, accDType), shapes);
  const runGemm = compiledMatmulRun(gemmK, shapes);
  // The accumulator of the last synchronous run, reused by the next one (a run is never re-entered:
  // the GEMM and the epilogue finish before it returns). A fresh one per call was an ArrayBuffer of
  // external memory a call (the MLP step's [128, 256] forward: 128 KiB, 1.5 a step), which brought V8's
  // next mark-compact, and its concurrent marking on the cores the GEMM uses, closer. Only up to
  // KEPT_ACC_MAX_BYTES; awaited runs (which may overlap) take fresh ones.
  let kept: StorageArray | undefined;
  const accOf = (n: number): StorageArray => {
    if (kept !== undefined && kept.length === n) return kept;
    const acc = scratch(accDType, n);
    kept = acc.byteLength <= KEPT_ACC_MAX_BYTES ? acc : undefined;
    return acc;
  };
  return {
    run(bufs: StorageArray[], env: DimEnv, consts?: Float64Array) {
      const all = [...bufs, accOf(resolvedSize(k.outShape, env))];
      runGemm(all, env);
      epi.run(all, env, consts);
    },
    async runAsync(bufs: StorageArray[], env: DimEnv, consts?: Float64Array) {
      const all = [...bufs, scratch(accDType, resolvedSize(k.outShape, env))];
      await gemmAsync(matmulSpec(gemmK, all, shapes, env));
      await epi.runAsync!(all, env, consts);
    },
  };
}

/** A Backend over a loaded addon. */
export function createNativeBackend(addon: NativeAddon): Backend {
  const alloc = nativeAlloc(addon);
  const allocUninit = nativeAllocUninit(addon, alloc);
  return {
    name: 'native',
    dispatch,
    compileKernel(k: Kernel, slotShapes: SlotShapes): CompiledKernel {
      switch (k.kind) {
        case 'elementwise':
        case 'reduce':
          return interpretedKernel(addon as unknown as InterpAddon, k, slotShapes);
        case 'matmul':
          return compileMatmul(addon, k, slotShapes, allocUninit);
        case 'opaque':
          // Registered ops on the native kernels their modules registered (kernel-registry.ts); data movement in C++.
          // Awaited, a large call runs on the pool where the op offers runAsync (op-registry.ts: runOpAsync).
          if (k.name === 'registered') return opaqueKernel(k, (a) => runOp('native', a, allocUninit), (a) => runOpAsync('native', a, allocUninit)); // as runOp below
          return compileOpaque(addon, k, slotShapes);
      }
    },
    alloc,
    allocUninit,
    runOp: (a) => runOp('native', a, allocUninit),
  };
}
