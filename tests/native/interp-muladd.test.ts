// The interpreter folds a float64 product into the add or sub that is its
// only reader (native/src/interp/prepare.cc, fuseMulAdd): one pass computes
// x·y ± z, rounded twice as the two instructions are. These programs are
// written by hand, register by register, so that each hazard of the rewrite
// is reached whatever the compiler's register allocation does: a product
// read twice, a product's argument register rewritten before its reader, a
// product register rewritten and read again, a fused instruction's third
// argument that is itself a product with another reader, a product in a
// reduction's prologue. Expected values are the same double operations done
// one at a time in JS (Object.is: signed zeros and NaN too).

import { expect, it } from 'vitest';
import '../../src/index.js';
import { OPCODES, PROGRAM_MAGIC, PROGRAM_VERSION, OPCODE_NAMES, REDUCE_CODES, dtypeCode } from '../../src/backends/native/program.js';
import { describeInterp, rng } from './interp-harness.js';

const F64 = dtypeCode('float64');
type Op = keyof typeof OPCODES;
/** [op, dst, a0, a1?]: a float64 instruction; a load's a0 is its load index. */
type Ins = [Op, number, number, number?];

/** An elementwise program over `nLoads` float64 slots (0..nLoads-1, contiguous), the output in slot nLoads. */
function program(nLoads: number, nRegs: number, instrs: readonly Ins[], reduce = false, nPro = instrs.length): Int32Array {
  const header = [PROGRAM_MAGIC, PROGRAM_VERSION, reduce ? 1 : 0, instrs.length, nPro, nRegs, nLoads, nLoads, F64, reduce ? REDUCE_CODES.sum : -1, reduce ? F64 : -1, OPCODE_NAMES.length, 0, 0, 0, 0];
  const loads = Array.from({ length: nLoads }, (_, i) => [i, F64, 0, 0]).flat();
  const body = instrs.flatMap(([op, dst, a0, a1]) => [OPCODES[op], F64, F64, dst, a0, op === 'load' ? -1 : (a1 ?? -1), -1, 0]);
  return Int32Array.from([...header, ...loads, ...body]);
}

/** The loop of an elementwise run over n elements of every load. */
const loopOf = (nLoads: number, n: number) => Float64Array.from([1, n, ...Array.from({ length: nLoads }, () => [0, 1]).flat()]);

/** Values with the special cases among them: ±0, ±Inf, NaN, large and tiny magnitudes. */
function values(n: number, seed: number): Float64Array {
  const r = rng(seed);
  const special = [0, -0, Infinity, -Infinity, NaN, 1e308, -1e-308, 3, -2.5];
  return Float64Array.from({ length: n }, (_, i) => (i % 7 === 3 ? special[(i * 5 + seed) % special.length]! : (r() - 0.5) * 10 ** Math.floor(r() * 6 - 3)));
}

/** Runs `prog` on inputs of n elements and compares every element with `expected` bit for bit (NaN as NaN). */
function check(addon: Parameters<Parameters<typeof describeInterp>[1]>[0], prog: Int32Array, nLoads: number, n: number, expected: (x: number[]) => number) {
  const ins = Array.from({ length: nLoads }, (_, k) => values(n, 11 + k));
  const out = new Float64Array(n);
  addon.interpRun(prog, new Float64Array(0), loopOf(nLoads, n), [...ins, out]);
  for (let i = 0; i < n; i++) {
    const want = expected(ins.map((v) => v[i]!));
    if (!Object.is(out[i], want)) expect.fail(`element ${i}: got ${out[i]}, want ${want} (inputs ${ins.map((v) => v[i]).join(', ')})`);
  }
}

describeInterp('interpreter: products folded into their add or sub', (addon) => {
  // n = 600: more than two blocks of 256 and a ragged last one.
  const n = 600;

  it('x·y + z, z + x·y, x·y − z, z − x·y', () => {
    const base: Ins[] = [['load', 0, 0], ['load', 1, 1], ['load', 2, 2], ['mul', 3, 0, 1]];
    check(addon, program(3, 5, [...base, ['add', 4, 3, 2]]), 3, n, ([x, y, z]) => x! * y! + z!);
    check(addon, program(3, 5, [...base, ['add', 4, 2, 3]]), 3, n, ([x, y, z]) => z! + x! * y!);
    check(addon, program(3, 5, [...base, ['sub', 4, 3, 2]]), 3, n, ([x, y, z]) => x! * y! - z!);
    check(addon, program(3, 5, [...base, ['sub', 4, 2, 3]]), 3, n, ([x, y, z]) => z! - x! * y!);
  });

  it('a chain of products and sums (a Runge–Kutta stage: y + (Σ k_j·k_j+1)·y)', () => {
    // r6 = k1·k2, r7 = r6 + k3·k4 (r8 the product), r9 = r7·y, r10 = y + r9
    const prog = program(5, 11, [['load', 0, 0], ['load', 1, 1], ['load', 2, 2], ['load', 3, 3], ['load', 4, 4], ['mul', 6, 0, 1], ['mul', 8, 2, 3], ['add', 7, 6, 8], ['mul', 9, 7, 4], ['add', 10, 4, 9]]);
    check(addon, prog, 5, n, ([a, b, c, d, y]) => y! + (a! * b! + c! * d!) * y!);
  });

  it('a product read twice is computed once, as a value of its own', () => {
    // t = x·y; u = t + z; out = u · t
    const prog = program(3, 6, [['load', 0, 0], ['load', 1, 1], ['load', 2, 2], ['mul', 3, 0, 1], ['add', 4, 3, 2], ['mul', 5, 4, 3]]);
    check(addon, prog, 3, n, ([x, y, z]) => (x! * y! + z!) * (x! * y!));
  });

  it("a product whose argument register is rewritten before its reader", () => {
    // t = x·y (r2); r0 = load z (x's register reused); out = t + r0
    const prog = program(3, 4, [['load', 0, 0], ['load', 1, 1], ['mul', 2, 0, 1], ['load', 0, 2], ['add', 3, 2, 0]]);
    check(addon, prog, 3, n, ([x, y, z]) => x! * y! + z!);
  });

  it('a product register rewritten and read again after its reader', () => {
    // t = x·y (r3); u = t + z (r4); r3 = u · z; out = r3 − u
    const prog = program(3, 6, [['load', 0, 0], ['load', 1, 1], ['load', 2, 2], ['mul', 3, 0, 1], ['add', 4, 3, 2], ['mul', 3, 4, 2], ['sub', 5, 3, 4]]);
    check(addon, prog, 3, n, ([x, y, z]) => {
      const u = x! * y! + z!;
      return u * z! - u;
    });
  });

  it("a fused add's other operand that is a product with a second reader", () => {
    // p = a·b (r4), q = c·d (r5), s = p + q (r6: p folded in, q its third argument), out = s + q
    const prog = program(4, 8, [['load', 0, 0], ['load', 1, 1], ['load', 2, 2], ['load', 3, 3], ['mul', 4, 0, 1], ['mul', 5, 2, 3], ['add', 6, 4, 5], ['add', 7, 6, 5]]);
    check(addon, prog, 4, n, ([a, b, c, d]) => a! * b! + c! * d! + c! * d!);
  });

  it('a product of a value with itself, and x·x − x·x', () => {
    const prog = program(2, 5, [['load', 0, 0], ['load', 1, 1], ['mul', 2, 0, 0], ['mul', 3, 1, 1], ['sub', 4, 2, 3]]);
    check(addon, prog, 2, n, ([x, y]) => x! * x! - y! * y!);
  });

  it("a reduction's prologue: Σ (x·y + z)", () => {
    const prog = program(3, 5, [['load', 0, 0], ['load', 1, 1], ['load', 2, 2], ['mul', 3, 0, 1], ['add', 4, 3, 2]], true);
    const m = 1000;
    const r = rng(5);
    const ins = [0, 1, 2].map(() => Float64Array.from({ length: m }, () => r() - 0.5));
    const out = new Float64Array(1);
    // reduce loop: [K, Q, kept dims, reduced dims, per prologue load: offset, strides[K+Q]]
    addon.interpRun(prog, new Float64Array(0), Float64Array.from([0, 1, m, 0, 1, 0, 1, 0, 1]), [...ins, out]);
    let want = 0;
    for (let i = 0; i < m; i++) want += ins[0]![i]! * ins[1]![i]! + ins[2]![i]!;
    expect(out[0]).toBeCloseTo(want, 12);
  });
});
