// Every opcode x dtype of the block interpreter against the js backend, on
// hand-built one-op kernels (so each primitive is reached for every dtype the
// js backend has a rule for, without user-level promotion getting in between),
// over special values (NaN, ±inf, ±0, ties, int32 limits, subnormals, branch
// cuts) and random ones.
//
// Tolerances (each op's worst case is printed with RLX_INTERP_REPORT=1):
// - bit-identical (Object.is, -0 and NaN included) for everything that is
//   IEEE arithmetic, comparison, selection, conversion or a port of the same
//   algorithm over sqrt/hypot only: add sub mul div neg abs sign floor ceil
//   round sqrt rsqrt maximum minimum, comparisons, logical ops, where, cast,
//   complex, real/imag/conj/angle, int32 (wrap-around) and bool ops, and for
//   complex: add sub mul div sqrt rsqrt sign abs, integer powers;
// - ops that call the platform libm (exp log log1p expm1 sin cos tan tanh sinh
//   cosh asin acos atan atan2 pow erf sigmoid softplus gelu and their complex
//   forms): glibc and V8's fdlibm may differ by an ulp or two, so float64
//   within 4 ulps (rtol 2^-50), float32 within 1 float32 ulp (rtol 2^-23;
//   float32 results are rounded from double per op, so they agree except next
//   to a float32 rounding boundary), complex within 1e-13 of |want| (errors of
//   a few libm calls, amplified near cancellation points).

import { afterAll, expect, it } from 'vitest';
import '../../src/index.js'; // first: the compiler's modules import each other in this order
import type { ElementwiseKernel, Instr } from '../../src/compiler/kernel.js';
import { BINARY_OPS, PRIMITIVES, UNARY_OPS, type ElementwiseOp } from '../../src/compiler/primitives.js';
import type { Node } from '../../src/compiler/ir.js';
import { hasRule } from '../../src/backends/js/codegen-expr.js';
import { jsBackend } from '../../src/backends/js/index.js';
import { DTYPES, type DType, type StorageArray, allocStorage, isComplex } from '../../src/tensor/dtype.js';
import { f32ToF16Bits, f32ToBf16Bits, f16BitsToF32, bf16BitsToF32 } from '../../src/tensor/half.js';
import { encodeElementwise, interpretedKernel, OPCODE_NAMES, PROGRAM_VERSION, type InterpAddon } from '../../src/backends/native/program.js';
import { describeInterp, EXACT, expectMatch, maxUlps, rng, type Tol } from './interp-harness.js';

const LIBM = new Set(['angle', 'exp', 'log', 'log1p', 'expm1', 'sin', 'cos', 'tan', 'tanh', 'sinh', 'cosh', 'asin', 'acos', 'atan', 'atan2', 'pow', 'erf', 'sigmoid', 'softplus', 'gelu']);
// On real dtypes these are bit-identical to js (fdlibm's exp as V8 runs it, the js erf port: interp/vmath.cc); their complex forms are libm's.
const EXACT_REAL = new Set(['exp', 'erf', 'sigmoid', 'gelu']);
const F64_LIBM: Tol = { rtol: 2 ** -50, atol: 2 ** -1074 };
const F32_LIBM: Tol = { rtol: 2 ** -23, atol: 2 ** -149 };
const C_LIBM: Tol = { rtol: 1e-13, atol: 1e-300 };

const FLOAT_SPECIALS = [
  NaN, Infinity, -Infinity, 0, -0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 1, -1, 2, -2, 3, 0.1, -0.1, 1e-300, -1e-300, 5e-324, -5e-324,
  1e300, -1e300, 1.7976931348623157e308, 0.49999999999999994, 4503599627370497, 709.5, -745.5, 710, 22, -22, 0.84375, 1.25, 6, 28,
  -6, -28, 1e-9, 3.725290298461914e-9, 65504, 65520, 65519.99, 6.103515625e-5, 3.4028235677973366e38, 1e-45, 1e10, -1e10,
  2147483647.5, -2147483648.5, 2147483648, -2147483649, 4294967296.5, 100.7, 0.75, -0.75, 1e-20, Math.PI, -Math.PI / 2,
];
const INT_SPECIALS = [0, 1, -1, 2, -2, 3, 7, -7, 31, 32, 100, 46340, 46341, -46341, 65535, 65536, 2147483647, -2147483648, 2147483646, -2147483647, 123456789];
const CPLX_PARTS = [0, -0, 1, -1, 0.5, 2, -3, Infinity, -Infinity, NaN, 1e-300, 1e300, 1e-10, 25];

/** n values of kind for dtype d (as numbers; complex: 2n numbers), specials first. */
function numbers(d: DType, n: number, seed: number): number[] {
  const r = rng(seed);
  const out: number[] = [];
  if (d === 'bool') {
    for (let i = 0; i < n; i++) out.push(i < 2 ? i : r() < 0.5 ? 0 : 1);
    return out;
  }
  if (d === 'int8' || d === 'uint8') {
    // Every value of the type (the ends first), then random ones.
    const [lo, hi] = d === 'int8' ? [-128, 127] : [0, 255];
    const ends = [lo, hi, 0, 1, lo + 1, hi - 1];
    for (let i = 0; i < n; i++) out.push(i < ends.length ? ends[i]! : i < ends.length + 256 ? lo + ((i - ends.length) % (hi - lo + 1)) : lo + Math.floor(r() * (hi - lo + 1)));
    return out;
  }
  if (d === 'int32') {
    for (let i = 0; i < n; i++) {
      if (i < INT_SPECIALS.length) out.push(INT_SPECIALS[i]!);
      else if (i % 2) out.push(Math.floor(r() * 4294967296) - 2147483648);
      else out.push(Math.floor(r() * 21) - 10);
    }
    return out;
  }
  const real = (i: number): number => {
    if (i < FLOAT_SPECIALS.length) return FLOAT_SPECIALS[i]!;
    const u = r();
    switch (i % 4) {
      case 0: return u * 8 - 4;
      case 1: return u * 60 - 30;
      case 2: return (r() < 0.5 ? -1 : 1) * 10 ** (u * 20 - 10);
      default: return Math.round(u * 10 - 5) + (r() < 0.3 ? 0.5 : 0);
    }
  };
  if (!isComplex(d)) {
    for (let i = 0; i < n; i++) out.push(real(i));
    return out;
  }
  for (let i = 0; i < n; i++) {
    const g = CPLX_PARTS.length;
    if (i < g * g) out.push(CPLX_PARTS[i % g]!, CPLX_PARTS[Math.floor(i / g)]!);
    else if (i % 3 === 0) out.push(-1 - r() * 4, r() < 0.5 ? (r() < 0.5 ? 0 : -0) : (r() - 0.5) * 1e-16); // near the negative real cut
    else if (i % 3 === 1) {
      const t = r() * 2 * Math.PI,
        m = 1 + (r() - 0.5) * 1e-6; // near the unit circle
      out.push(m * Math.cos(t), m * Math.sin(t));
    } else out.push(real(i), real(i + 7));
  }
  return out;
}

/** Storage of dtype d holding `nums`. */
function storage(d: DType, nums: number[]): StorageArray {
  const lanes = isComplex(d) ? 2 : 1;
  const s = allocStorage(d, nums.length / lanes);
  if (d === 'float16') nums.forEach((v, i) => (s[i] = f32ToF16Bits(v)));
  else if (d === 'bfloat16') nums.forEach((v, i) => (s[i] = f32ToBf16Bits(Math.fround(v))));
  else nums.forEach((v, i) => (s[i] = v));
  return s;
}

/** Output dtype of op on inputs of dtype d (the primitive's own rule). */
function outDTypeOf(op: ElementwiseOp, ins: DType[], attrs: Record<string, unknown> = {}): DType {
  const nodes = ins.map((dtype) => ({ shape: [1], dtype }) as unknown as Node);
  return PRIMITIVES[op].infer(nodes, attrs).dtype;
}

/** A one-op kernel over n elements: slots 0..k-1 are the inputs, slot k the output. */
function oneOp(op: ElementwiseOp, ins: DType[], n: number, attrs: Record<string, unknown> = {}): ElementwiseKernel {
  const outDType = outDTypeOf(op, ins, attrs);
  const instrs: Instr[] = ins.map((dtype, i) => ({ op: 'load', load: i, dtype }));
  instrs.push({ op, args: ins.map((_, i) => i), dtype: outDType, attrs } as Instr);
  return {
    kind: 'elementwise',
    out: ins.length,
    outDType,
    outShape: [n],
    fused: [op],
    expr: { loads: ins.map((dtype, slot) => ({ slot, dtype, chain: [] })), instrs },
  };
}

/** Runs k on js and on the interpreter over copies of `inputs`; returns [interp, js] outputs. */
function runBoth(addon: InterpAddon, k: ElementwiseKernel, inputs: StorageArray[]): [StorageArray, StorageArray] {
  const n = k.outShape[0] as number;
  const shapes = [...inputs.map(() => [n]), [n]];
  const env = new Map<string, number>();
  const a = [...inputs.map((x) => x.slice()), allocStorage(k.outDType, n)];
  const b = [...inputs.map((x) => x.slice()), allocStorage(k.outDType, n)];
  jsBackend.compileKernel(k, shapes).run(b, env);
  interpretedKernel(addon, k, shapes).run(a, env);
  return [a[inputs.length]!, b[inputs.length]!];
}

const report: string[] = [];
afterAll(() => {
  if (process.env['RLX_INTERP_REPORT'] === '1' && report.length) console.log(`interpreter vs js, worst differences:\n${report.join('\n')}`);
});

function tolFor(op: string, out: DType, inD: DType, isPowInt = false): Tol {
  if (!LIBM.has(op) || isPowInt) return EXACT;
  if (isComplex(inD) || isComplex(out)) return C_LIBM;
  if (EXACT_REAL.has(op)) return EXACT;
  return out === 'float32' || out === 'float16' || out === 'bfloat16' ? F32_LIBM : F64_LIBM;
}

function check(addon: InterpAddon, op: ElementwiseOp, ins: DType[], nums: number[][], attrs: Record<string, unknown> = {}): void {
  const lanes = isComplex(ins[0]!) ? 2 : 1;
  const n = nums[0]!.length / lanes;
  const k = oneOp(op, ins, n, attrs);
  const out = k.outDType;
  // float16/bfloat16 are compared as values: a NaN's sign and payload are not
  // meaningful (V8's and glibc's NaNs differ in both).
  const decode = (s: StorageArray): ArrayLike<number> => (out === 'float16' ? Array.from(s, f16BitsToF32) : out === 'bfloat16' ? Array.from(s, bf16BitsToF32) : s);
  const [got, want] = runBoth(addon, k, ins.map((d, i) => storage(d, nums[i]!))).map(decode) as [ArrayLike<number>, ArrayLike<number>];
  const tol = tolFor(op, out, ins[0]!, op === 'pow' && ins[0] === 'int32');
  const input = (i: number) => ins.map((d, j) => (isComplex(d) ? `${nums[j]![2 * i]}${nums[j]![2 * i + 1]! < 0 || Object.is(nums[j]![2 * i + 1], -0) ? '' : '+'}${nums[j]![2 * i + 1]}i` : String(nums[j]![i]))).join(', ');
  const what = `${op}(${ins.join(', ')}) -> ${out}`;
  if (tol !== EXACT) {
    const u = maxUlps(got, want, out !== 'float64' && out !== 'complex128');
    if (u > 0) report.push(`${what}: ${u.toFixed(2)} ulp`);
  }
  expectMatch(got, want, tol, what, isComplex(out), input);
}

describeInterp('interpreter opcodes vs the js backend', (addon) => {
  it('the addon and program.ts agree on the opcode table and the format version', () => {
    expect(addon.interpOpcodes()).toEqual(OPCODE_NAMES);
    expect(addon.interpVersion).toBe(PROGRAM_VERSION);
  });

  const unary = UNARY_OPS.filter((o) => o !== 'cast');
  for (const op of unary) {
    it(`unary ${op} on every dtype the js backend serves`, () => {
      let served = 0;
      for (const d of DTYPES) {
        if (!hasRule(op, d)) continue;
        served++;
        check(addon, op, [d], [numbers(d, 900, 7)]);
      }
      expect(served).toBeGreaterThan(0);
    });
  }

  const binary = BINARY_OPS.filter((o) => o !== 'complex');
  for (const op of binary) {
    it(`binary ${op} on every dtype the js backend serves (grid of specials x specials, random pairs)`, () => {
      for (const d of DTYPES) {
        if (!hasRule(op, d)) continue;
        const lanes = isComplex(d) ? 2 : 1;
        const base = numbers(d, 60, 11);
        const g = Math.min(base.length / lanes, isComplex(d) ? 40 : 60);
        const xs: number[] = [],
          ys: number[] = [];
        for (let i = 0; i < g; i++)
          for (let j = 0; j < g; j++) {
            xs.push(...base.slice(i * lanes, (i + 1) * lanes));
            ys.push(...base.slice(j * lanes, (j + 1) * lanes));
          }
        xs.push(...numbers(d, 500, 3));
        ys.push(...numbers(d, 500, 5));
        check(addon, op, [d, d], [xs, ys]);
      }
    });
  }

  it('complex(re, im) for float32 and float64', () => {
    for (const d of ['float32', 'float64'] as const) check(addon, 'complex', [d, d], [numbers(d, 300, 1), numbers(d, 300, 2)]);
  });

  it('where(cond, x, y) on every dtype', () => {
    for (const d of DTYPES) {
      const lanes = isComplex(d) ? 2 : 1;
      const n = 400;
      check(addon, 'where', ['bool', d, d], [numbers('bool', n, 9), numbers(d, n, 4).slice(0, n * lanes), numbers(d, n, 6).slice(0, n * lanes)]);
    }
  });

  it('cast between every pair of dtypes (NumPy astype: truncation, INT32_MIN out of range, int8/uint8 modulo 256, f16/bf16 rounding)', () => {
    for (const from of DTYPES)
      for (const to of DTYPES) {
        check(addon, 'cast', [from], [numbers(from, 700, 13)], { dtype: to });
      }
  });

  it('an op the js backend has no rule for is rejected when the program is prepared', () => {
    const k = oneOp('exp', ['int32'], 4);
    const enc = encodeElementwise(k, [[4], [4]]);
    expect(() => addon.interpPrepare(enc.program, enc.consts)).toThrow(/exp.*no kernel for int32/);
  });
});
