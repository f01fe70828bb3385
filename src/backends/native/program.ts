// Encoding fused kernels for the native block interpreter (native/src/interp).
//
// An ElementwiseKernel or ReduceKernel (compiler/kernel.ts) becomes three
// typed arrays the C++ side validates and runs without per-element dispatch:
//
//   program  Int32Array    header, load table, instructions (one per Instr)
//   consts   Float64Array  literal values ([re, im] for complex); entries of
//                          parameter literals (compiler/const-params.ts) are
//                          replaced at each run by the values of that run
//                          (interpRun's 4th argument), so the program and its
//                          validation do not depend on them
//   loop     Float64Array  sizes and per-load offset/strides for one binding
//                          of the dynamic dims (like the js ParamFn)
//
// Layout (kept in sync with native/src/interp/program.h, which checks it):
//
//   header  [MAGIC, VERSION, kind (0 elementwise, 1 reduce), nInstrs,
//            nPrologue (instructions of section 0; the rest is the epilogue),
//            nRegs, nLoads, outSlot, outDType, reduceOp (-1), reduceDType (-1),
//            OPCODE_COUNT, 0, 0, 0, 0]
//   loads   nLoads x [slot, dtype, section, flags (1: invariant scalar)]
//   instrs  nInstrs x [opcode, inDType, outDType, dst, a0, a1, a2, 0]
//           load: a0 = load index; const: a0 = const index; acc: none;
//           cast: a0 (inDType -> outDType); where: a0 cond, a1, a2;
//           others: a0 [, a1] of inDType. Unused fields are -1.
//   loop    elementwise [R, dims[R], per load: offset, strides[R]]
//           reduce      [K, Q, kept dims[K], reduced dims[Q],
//                        per prologue load: offset, strides[K+Q],
//                        per epilogue load: offset, strides[K]]
//
// Values live in registers of one block of doubles each; a complex value takes
// two consecutive registers. Registers are allocated here by liveness, so a
// 1000-op kernel needs about as many registers as values live at once; a
// result never shares a register with its own arguments, and constants and
// invariant loads get registers of their own (the interpreter fills them once
// per run). Dtype codes are indices into DTYPES.

import { DTYPES, type DType, type StorageArray, isComplex } from '../../tensor/dtype.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import type { ElementwiseKernel, Expr, Load, ReduceKernel } from '../../compiler/kernel.js';
import type { ElementwiseOp, ReduceOp } from '../../compiler/primitives.js';
import { resolveChain } from '../../compiler/view.js';
import type { CompiledKernel, DimEnv } from '../backend.js';
import { callNative, nativeError } from './errors.js';
import { INTERP_PROGRAM_VERSION } from './interp-api.js';

export const PROGRAM_MAGIC = 0x49584c52; // "RLXI"
// 2: int8 and uint8 joined DTYPES (dtype codes 1 and 2; later codes moved up).
// Checked against the addon's interpVersion when it is loaded (interp-api.ts).
export const PROGRAM_VERSION = INTERP_PROGRAM_VERSION;
const HEADER = 16;
const LOAD_WIDTH = 4;
const INSTR_WIDTH = 8;
const LOAD_INVARIANT = 1;

type OpcodeName = 'load' | 'const' | 'acc' | ElementwiseOp;

/** Opcode of every instruction (exhaustive over the elementwise primitives; order = native/src/interp/program.h). */
export const OPCODES: { readonly [P in OpcodeName]: number } = {
  load: 0, const: 1, acc: 2, cast: 3, where: 4, complex: 5,
  neg: 6, abs: 7, sign: 8, exp: 9, log: 10, log1p: 11, expm1: 12, sqrt: 13, rsqrt: 14, sin: 15, cos: 16, tan: 17,
  tanh: 18, sinh: 19, cosh: 20, asin: 21, acos: 22, atan: 23, floor: 24, ceil: 25, round: 26, erf: 27, sigmoid: 28,
  softplus: 29, gelu: 30, real: 31, imag: 32, conj: 33, angle: 34, logicalNot: 35, stopGradient: 36,
  add: 37, sub: 38, mul: 39, div: 40, pow: 41, maximum: 42, minimum: 43, atan2: 44, eq: 45, ne: 46, lt: 47, le: 48,
  gt: 49, ge: 50, logicalAnd: 51, logicalOr: 52,
};
/** Opcode names in opcode order (the addon's interpOpcodes() must return the same list). */
export const OPCODE_NAMES: readonly string[] = Object.entries(OPCODES)
  .sort((a, b) => a[1] - b[1])
  .map(([k]) => k);

export const REDUCE_CODES: { readonly [R in ReduceOp]: number } = { sum: 0, prod: 1, max: 2, min: 3, argmax: 4, argmin: 5 };

export const dtypeCode = (d: DType): number => DTYPES.indexOf(d);

export type SlotShapes = readonly (readonly Dim[])[];

/** A kernel encoded for the interpreter. program and consts are fixed; loop(env) per binding. */
export interface EncodedKernel {
  program: Int32Array;
  consts: Float64Array;
  /** Pairs (entry of consts, offset in the executable's constant vector) of the parameter literals' entries. */
  params: Int32Array;
  loop(env: DimEnv): Float64Array;
  /** A readable listing of the program (explain's source). */
  text: string;
}

/** The interpreter's exports on the native addon (native/src/interp/napi.cc). */
export interface InterpAddon {
  /** Validates and keeps a program; the handle is passed to interpRun. */
  interpPrepare(program: Int32Array, consts: Float64Array): unknown;
  /**
   * Runs a prepared program over `buffers` (indexed by slot; only the slots it
   * uses are read); `consts`, when given, replaces the prepared constants for
   * this run (same length).
   */
  interpRun(prepared: unknown, loop: Float64Array, buffers: readonly (StorageArray | undefined)[], consts?: Float64Array): void;
  /**
   * Validates now; runs on the libuv pool (Promise) when the work reaches the
   * async threshold, else at once on the calling thread (undefined). The pool
   * works on private copies: an output array detached while it runs rejects
   * (ValueError) and is not written.
   */
  interpRunAsync(prepared: unknown, loop: Float64Array, buffers: readonly (StorageArray | undefined)[], consts?: Float64Array): Promise<void> | undefined;
  /** Work (elements x instructions) from which interpRunAsync leaves the main thread. */
  interpSetAsyncThreshold(work: number): void;
  interpGetAsyncThreshold(): number;
  /** Validates and runs in one call (no reuse of the validation). */
  interpRun(program: Int32Array, consts: Float64Array, loop: Float64Array, buffers: readonly (StorageArray | undefined)[]): void;
  /** Sets the thread count (0 = hardware concurrency); returns the count in effect. */
  interpSetThreads(n: number): number;
  interpGetThreads(): number;
  /** Work (elements x instructions) below which a kernel runs on the calling thread only. */
  interpSetThreshold(work: number): void;
  interpGetThreshold(): number;
  interpOpcodes(): string[];
  readonly interpVersion: number;
  /** The calling convention's version (interp-api.ts checks it when the addon is loaded). */
  readonly interpApi?: number;
}

// ---------------------------------------------------------------------------
// Register allocation

class Registers {
  count = 0;
  private free = new Set<number>();

  alloc(width: 1 | 2): number {
    if (width === 1) {
      for (const r of this.free) {
        this.free.delete(r);
        return r;
      }
      return this.count++;
    }
    for (const r of this.free) {
      if (this.free.has(r + 1)) {
        this.free.delete(r);
        this.free.delete(r + 1);
        return r;
      }
    }
    // Extend: a free register at the top can be the first of the pair.
    if (this.free.has(this.count - 1)) {
      this.free.delete(this.count - 1);
      this.count++;
      return this.count - 2;
    }
    this.count += 2;
    return this.count - 2;
  }

  /** Registers never used before (for values filled once per run, which nothing may overwrite). */
  fresh(width: 1 | 2): number {
    this.count += width;
    return this.count - width;
  }

  release(r: number, width: 1 | 2): void {
    this.free.add(r);
    if (width === 2) this.free.add(r + 1);
  }

  /** Everything not in `keep` becomes free (between sections). */
  resetExcept(keep: ReadonlySet<number>): void {
    this.free = new Set([...Array(this.count).keys()].filter((r) => !keep.has(r)));
  }
}

const widthOf = (d: DType): 1 | 2 => (isComplex(d) ? 2 : 1);

/** Whether a load reads one element for the whole kernel (the js backend's 'scalar' mode). */
const isInvariant = (l: Load, slotShapes: SlotShapes): boolean => slotShapes[l.slot]!.every((d) => d === 1);

interface Encoder {
  words: number[];
  consts: number[];
  /** (entry of consts, parameter offset) pairs. */
  params: number[];
  constRegs: Map<string, number>;
  regs: Registers;
  hoisted: Set<number>;
  lines: string[];
}

const regName = (r: number, d: DType) => (isComplex(d) ? `r${r}:${r + 1}` : `r${r}`);

/** Emits one expression as a section; loadBase is the global index of its first load. */
function encodeExpr(e: Encoder, expr: Expr, loadBase: number, invariant: readonly boolean[]): void {
  const n = expr.instrs.length;
  if (n === 0) throw new Error('internal: empty expression');
  const lastUse = new Array<number>(n).fill(-1);
  expr.instrs.forEach((ins, k) => {
    if ('args' in ins) for (const a of ins.args) lastUse[a] = k;
  });
  lastUse[n - 1] = n; // the section's result stays live to its end
  const reg: number[] = [];
  const dtypeOf = (k: number): DType => expr.instrs[k]!.dtype;
  expr.instrs.forEach((ins, k) => {
    const d = ins.dtype;
    const dt = dtypeCode(d);
    switch (ins.op) {
      case 'const': {
        const v = ins.value;
        const vals = Array.isArray(v) ? [v[0]!, v[1]!] : [v as number];
        if (isComplex(d) !== (vals.length === 2)) throw new Error(`internal: ${d} constant ${JSON.stringify(v)}`);
        const p = ins.param;
        const key = p !== undefined ? `${d}:param${p}` : `${d}:${vals.map((x) => (Object.is(x, -0) ? '-0' : String(x))).join(',')}`;
        let r = e.constRegs.get(key);
        if (r === undefined) {
          r = e.regs.fresh(widthOf(d));
          e.constRegs.set(key, r);
          e.hoisted.add(r);
          if (isComplex(d)) e.hoisted.add(r + 1);
          e.words.push(OPCODES.const, dt, dt, r, e.consts.length, -1, -1, 0);
          if (p !== undefined) {
            // The value of each run replaces this entry (interpretedKernel).
            e.lines.push(`${regName(r, d)} = const.${d} K[${p}${isComplex(d) ? `, ${p + 1}` : ''}]`);
            e.params.push(e.consts.length, p);
            if (isComplex(d)) e.params.push(e.consts.length + 1, p + 1);
          } else {
            e.lines.push(`${regName(r, d)} = const.${d} ${vals.join(', ')}`);
          }
          e.consts.push(...vals);
        }
        reg.push(r);
        return;
      }
      case 'load': {
        const l = expr.loads[ins.load]!;
        if (l.dtype !== d) throw new Error(`internal: load of ${l.dtype} typed ${d}`);
        const g = loadBase + ins.load;
        const r = invariant[g] ? e.regs.fresh(widthOf(d)) : e.regs.alloc(widthOf(d));
        if (invariant[g]) {
          e.hoisted.add(r);
          if (isComplex(d)) e.hoisted.add(r + 1);
        }
        e.words.push(OPCODES.load, dt, dt, r, g, -1, -1, 0);
        e.lines.push(`${regName(r, d)} = load.${d} L${g}${invariant[g] ? ' (invariant)' : ''}`);
        reg.push(r);
        break;
      }
      case 'acc': {
        const r = e.regs.alloc(widthOf(d));
        e.words.push(OPCODES.acc, dt, dt, r, -1, -1, -1, 0);
        e.lines.push(`${regName(r, d)} = acc.${d}`);
        reg.push(r);
        break;
      }
      default: {
        const args = ins.args;
        const inD = ins.op === 'where' ? d : dtypeOf(args[0]!);
        const r = e.regs.alloc(widthOf(d));
        const a = [args[0] ?? -1, args[1] ?? -1, args[2] ?? -1].map((x) => (x < 0 ? -1 : reg[x]!));
        e.words.push(OPCODES[ins.op], dtypeCode(inD), dt, r, a[0]!, a[1]!, a[2]!, 0);
        e.lines.push(`${regName(r, d)} = ${ins.op}.${inD}${inD !== d ? `->${d}` : ''} ${args.map((x) => regName(reg[x]!, dtypeOf(x))).join(', ')}`);
        reg.push(r);
        // Free arguments whose last use is here (after allocating the result, so they never coincide).
        for (const x of new Set(args)) {
          const rx = reg[x]!;
          if (lastUse[x] === k && !e.hoisted.has(rx)) e.regs.release(rx, widthOf(dtypeOf(x)));
        }
        break;
      }
    }
    // A value nobody reads (dead code) is freed at once.
    if (lastUse[k] === -1 && !e.hoisted.has(reg[k]!)) e.regs.release(reg[k]!, widthOf(d));
  });
}

function header(kind: number, nInstrs: number, nPro: number, nRegs: number, nLoads: number, out: number, outD: DType, red: ReduceOp | undefined, redD: DType | undefined): number[] {
  return [PROGRAM_MAGIC, PROGRAM_VERSION, kind, nInstrs, nPro, nRegs, nLoads, out, dtypeCode(outD), red ? REDUCE_CODES[red] : -1, redD ? dtypeCode(redD) : -1, OPCODE_NAMES.length, 0, 0, 0, 0];
}

function newEncoder(): Encoder {
  return { words: [], consts: [], params: [], constRegs: new Map(), regs: new Registers(), hoisted: new Set(), lines: [] };
}

const sameDims = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((d, i) => d === b[i]);

/** offset and strides of a load resolved for one binding, checked against the iteration shape. */
function view(l: Load, slotShapes: SlotShapes, env: DimEnv, shape: readonly number[], what: string): { offset: number; strides: number[] } {
  const v = resolveChain(slotShapes[l.slot]!, l.chain, env);
  if (!sameDims(v.shape, shape)) throw new Error(`internal: ${what} load of slot ${l.slot} has shape [${v.shape}] but the kernel iterates [${shape}]`);
  return v;
}

function assemble(e: Encoder, head: number[], loads: [Load, number, boolean][], loop: (env: DimEnv) => Float64Array, title: string): EncodedKernel {
  const table = loads.flatMap(([l, sec, inv]) => [l.slot, dtypeCode(l.dtype), sec, inv ? LOAD_INVARIANT : 0]);
  const program = Int32Array.from([...head, ...table, ...e.words]);
  const loadLines = loads.map(([l, sec], i) => `L${i} = slot ${l.slot} (${l.dtype}${sec ? ', epilogue' : ''})`);
  return { program, consts: Float64Array.from(e.consts), params: Int32Array.from(e.params), loop, text: [title, ...loadLines, ...e.lines].join('\n') };
}

// ---------------------------------------------------------------------------

/** Encodes an elementwise kernel (the interpreter's twin of genElementwise). */
export function encodeElementwise(k: ElementwiseKernel, slotShapes: SlotShapes): EncodedKernel {
  const loads = k.expr.loads;
  const invariant = loads.map((l) => isInvariant(l, slotShapes));
  const e = newEncoder();
  encodeExpr(e, k.expr, 0, invariant);
  const last = k.expr.instrs[k.expr.instrs.length - 1]!;
  if (last.dtype !== k.outDType) throw new Error(`internal: elementwise result ${last.dtype} stored as ${k.outDType}`);
  const nInstrs = e.words.length / INSTR_WIDTH;
  const head = header(0, nInstrs, nInstrs, Math.max(1, e.regs.count), loads.length, k.out, k.outDType, undefined, undefined);
  const loop = (env: DimEnv): Float64Array => {
    const shape = resolveShape(k.outShape, env);
    const out = [shape.length, ...shape];
    for (const l of loads) {
      const v = view(l, slotShapes, env, shape, 'elementwise');
      out.push(v.offset, ...v.strides);
    }
    return Float64Array.from(out);
  };
  return assemble(e, head, loads.map((l, i) => [l, 0, invariant[i]!]), loop, `elementwise ${k.fused.join(' ')} -> slot ${k.out} (${k.outDType})`);
}

/** The dtype a reduction accumulates into and hands its epilogue (as the js backend computes it). */
export function reduceDTypeOf(k: ReduceKernel): DType {
  return k.epilogue ? (k.epilogue.instrs.find((i) => i.op === 'acc')?.dtype ?? k.outDType) : k.outDType;
}

/** Encodes a reduction with its prologue and optional epilogue (the twin of genReduce). */
export function encodeReduce(k: ReduceKernel, slotShapes: SlotShapes): EncodedKernel {
  const redD = reduceDTypeOf(k);
  const pl = k.prologue.loads,
    el = k.epilogue?.loads ?? [];
  const invariant = [...pl, ...el].map((l) => isInvariant(l, slotShapes));
  const e = newEncoder();
  encodeExpr(e, k.prologue, 0, invariant);
  const nPro = e.words.length / INSTR_WIDTH;
  if (k.epilogue) {
    // The epilogue runs after the whole prologue: only hoisted registers survive.
    e.regs.resetExcept(e.hoisted);
    encodeExpr(e, k.epilogue, pl.length, invariant);
  }
  const nInstrs = e.words.length / INSTR_WIDTH;
  const r = k.inShape.length;
  const kept = [...Array(r).keys()].filter((i) => !k.axes.includes(i));
  const order = [...kept, ...k.axes];
  const head = header(1, nInstrs, nPro, Math.max(1, e.regs.count), pl.length + el.length, k.out, k.outDType, k.op, redD);
  const loop = (env: DimEnv): Float64Array => {
    const inShape = resolveShape(k.inShape, env);
    const keptDims = kept.map((i) => inShape[i]!);
    const out = [kept.length, k.axes.length, ...order.map((i) => inShape[i]!)];
    for (const l of pl) {
      const v = view(l, slotShapes, env, inShape, 'prologue');
      out.push(v.offset, ...order.map((i) => v.strides[i]!));
    }
    for (const l of el) {
      const v = view(l, slotShapes, env, keptDims, 'epilogue');
      out.push(v.offset, ...v.strides);
    }
    return Float64Array.from(out);
  };
  const loads: [Load, number, boolean][] = [...pl.map((l, i): [Load, number, boolean] => [l, 0, invariant[i]!]), ...el.map((l, i): [Load, number, boolean] => [l, 1, invariant[pl.length + i]!])];
  return assemble(e, head, loads, loop, `reduce ${k.op} over axes [${k.axes}] of [${k.inShape}] (${k.fused.join(' ')}) -> slot ${k.out} (${k.outDType}); epilogue from instruction ${nPro}`);
}

/** Encodes an elementwise or reduce kernel. */
export function encodeKernel(k: ElementwiseKernel | ReduceKernel, slotShapes: SlotShapes): EncodedKernel {
  return k.kind === 'elementwise' ? encodeElementwise(k, slotShapes) : encodeReduce(k, slotShapes);
}

/** A run's promise with its rejection (tagged by the addon) rethrown as an RlxError. */
function typedAsync(p: Promise<void> | undefined): Promise<void> | undefined {
  return p === undefined ? undefined : p.catch((e: unknown) => {
    throw nativeError('interpRunAsync', e);
  });
}

const envKey = (env: DimEnv) => (env.size === 0 ? '' : [...env].map(([key, v]) => `${key}=${v}`).join(','));

/**
 * A CompiledKernel running `k` on the interpreter: the program is validated
 * once (interpPrepare), the loop description computed once per binding of the
 * dynamic dims, and each run is one call into the addon.
 */
export function interpretedKernel(addon: InterpAddon, k: ElementwiseKernel | ReduceKernel, slotShapes: SlotShapes): CompiledKernel {
  const enc = encodeKernel(k, slotShapes);
  // Every call into the addon rethrows its errors (tagged with rlxKind,
  // native/src/interp/napi.cc) as RlxErrors naming the function.
  const prepared = callNative('interpPrepare', () => addon.interpPrepare(enc.program, enc.consts));
  let lastKey: string | undefined;
  let lastLoop: Float64Array = new Float64Array(0);
  const loopFor = (env: DimEnv): Float64Array => {
    const key = envKey(env);
    if (key !== lastKey) {
      lastLoop = enc.loop(env);
      lastKey = key;
    }
    return lastLoop;
  };
  const params = enc.params;
  if (params.length === 0) {
    return {
      source: enc.text,
      run(buffers: StorageArray[], env: DimEnv) {
        try {
          addon.interpRun(prepared, loopFor(env), buffers);
        } catch (e) {
          throw nativeError('interpRun', e);
        }
      },
      // Large runs go to the libuv pool; small ones run inline (no promise, no hop).
      // The addon copies the loop while validating, so lastLoop may change meanwhile.
      runAsync(buffers: StorageArray[], env: DimEnv) {
        return typedAsync(callNative('interpRunAsync', () => addon.interpRunAsync(prepared, loopFor(env), buffers)));
      },
    };
  }
  // Parameter literals: this run's values in place of the prepared ones (the
  // addon copies them while validating, so one scratch array serves every run).
  const values = Float64Array.from(enc.consts);
  const constsFor = (K: Float64Array | undefined): Float64Array => {
    if (K === undefined) throw new Error('internal: a kernel with parameter literals run without their values');
    for (let i = 0; i < params.length; i += 2) values[params[i]!] = K[params[i + 1]!]!;
    return values;
  };
  return {
    source: enc.text,
    run(buffers: StorageArray[], env: DimEnv, K?: Float64Array) {
      const c = constsFor(K);
      try {
        addon.interpRun(prepared, loopFor(env), buffers, c);
      } catch (e) {
        throw nativeError('interpRun', e);
      }
    },
    runAsync(buffers: StorageArray[], env: DimEnv, K?: Float64Array) {
      const c = constsFor(K);
      return typedAsync(callNative('interpRunAsync', () => addon.interpRunAsync(prepared, loopFor(env), buffers, c)));
    },
  };
}
