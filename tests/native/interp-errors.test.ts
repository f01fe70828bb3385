// The interpreter's boundary: a malformed program, loop or buffer list is a
// thrown Error naming the problem, raised before any memory is read or
// written, and the process keeps computing afterwards. The programs here are
// valid ones from program.ts with one field broken at a time, so each check
// of native/src/interp/prepare.cc and run.cc is reached on its own.

import { expect, it } from 'vitest';
import '../../src/index.js';
import type { ElementwiseKernel, ReduceKernel } from '../../src/compiler/kernel.js';
import { encodeElementwise, encodeReduce, OPCODES, dtypeCode, type EncodedKernel } from '../../src/backends/native/program.js';
import { describeInterp, addTimesTwo } from './interp-harness.js';

const HEADER = 16,
  LOAD_W = 4,
  INSTR_W = 8;

const ADD = addTimesTwo(6);
// out[i] = sum_j x[i, j] over x: [2, 3] float64 in slot 0, out (slot 1) [2].
const SUM: ReduceKernel = {
  kind: 'reduce',
  op: 'sum',
  out: 1,
  outDType: 'float64',
  outShape: [2],
  inShape: [2, 3],
  axes: [1],
  fused: ['sum'],
  prologue: { loads: [{ slot: 0, dtype: 'float64', chain: [] }], instrs: [{ op: 'load', load: 0, dtype: 'float64' }] },
};

const enc = encodeElementwise(ADD, [[6], [6], [6]]);
const LOOP = enc.loop(new Map());
const bufs = () => [Float64Array.from([1, 2, 3, 4, 5, 6]), Float64Array.from([10, 20, 30, 40, 50, 60]), new Float64Array(6)];

/** A copy of the program with word `at` set to v. */
function patched(e: EncodedKernel | Int32Array, at: number, v: number): Int32Array {
  const p = (e instanceof Int32Array ? e : e.program).slice();
  p[at] = v;
  return p;
}
const instr = (e: EncodedKernel, k: number, field: number) => HEADER + e.program[6]! * LOAD_W + k * INSTR_W + field;

describeInterp('interpreter argument validation', (addon) => {
  it('a valid program runs (direct and prepared forms)', () => {
    const b = bufs();
    addon.interpRun(enc.program, enc.consts, LOOP, b);
    expect(Array.from(b[2]!)).toEqual([22, 44, 66, 88, 110, 132]);
    const p = addon.interpPrepare(enc.program, enc.consts);
    const c = bufs();
    addon.interpRun(p, LOOP, c);
    expect(Array.from(c[2]!)).toEqual([22, 44, 66, 88, 110, 132]);
  });

  const badPrograms: [string, () => [Int32Array, Float64Array], RegExp][] = [
    ['bad magic', () => [patched(enc, 0, 123), enc.consts], /bad magic/],
    ['another format version', () => [patched(enc, 1, 99), enc.consts], /version 99/],
    ['another opcode table', () => [patched(enc, 11, 40), enc.consts], /built for 40 opcodes/],
    ['truncated', () => [enc.program.slice(0, enc.program.length - 1), enc.consts], /program length/],
    ['too short for a header', () => [enc.program.slice(0, 3), enc.consts], /too short/],
    ['unknown opcode', () => [patched(enc, instr(enc, 2, 0), 999), enc.consts], /bad opcode 999/],
    ['destination register out of range', () => [patched(enc, instr(enc, 2, 3), 1000), enc.consts], /destination register out of range/],
    ['argument register out of range', () => [patched(enc, instr(enc, 2, 5), -7), enc.consts], /argument register out of range/],
    ['reads a register nothing wrote', () => [patched(enc, instr(enc, 2, 5), enc.program[5]! - 1), enc.consts], /does not hold a float64 value|overlaps/],
    ['argument of the wrong dtype', () => [patched(patched(enc, instr(enc, 2, 1), dtypeCode('float32')), instr(enc, 2, 2), dtypeCode('float32')), enc.consts], /argument 0 \(register \d+\) does not hold a float32 value/],
    ['result overlapping an argument', () => [patched(enc, instr(enc, 2, 3), enc.program[instr(enc, 2, 4)]!), enc.consts], /overlaps an argument/],
    ['load index out of range', () => [patched(enc, instr(enc, 0, 4), 5), enc.consts], /load index out of range/],
    ['constant index out of range', () => [enc.program, new Float64Array(0)], /constant index out of range/],
    ['reserved field set', () => [patched(enc, instr(enc, 2, 7), 1), enc.consts], /reserved field/],
    ['an op whose result dtype is not the primitive\'s', () => [patched(enc, instr(enc, 2, 0), OPCODES.lt), enc.consts], /lt\): on float64 gives bool, not float64/],
    ['an extra argument', () => [patched(enc, instr(enc, 2, 0), OPCODES.exp), enc.consts], /unused argument fields must be -1/],
    ['an elementwise program with a reduce op', () => [patched(enc, 9, 0), enc.consts], /no reduction/],
    ['a load in a section that does not exist', () => [patched(enc, HEADER + 2, 1), enc.consts], /no epilogue/],
  ];
  for (const [what, make, msg] of badPrograms) {
    it(`rejects a program: ${what}`, () => {
      const [p, c] = make();
      expect(() => addon.interpPrepare(p, c)).toThrow(msg);
      expect(() => addon.interpRun(p, c, LOOP, bufs())).toThrow(msg);
    });
  }

  it('rejects arguments of the wrong kind', () => {
    expect(() => addon.interpPrepare(Float64Array.from(enc.program) as unknown as Int32Array, enc.consts)).toThrow(/program must be an Int32Array/);
    expect(() => addon.interpPrepare(enc.program, new Float32Array(1) as unknown as Float64Array)).toThrow(/constants must be a Float64Array/);
    expect(() => addon.interpRun({}, LOOP, bufs())).toThrow(/not a program from interpPrepare/);
    expect(() => addon.interpRun(addon.interpPrepare(enc.program, enc.consts), Array.from(LOOP) as unknown as Float64Array, bufs())).toThrow(/loop must be a Float64Array/);
    expect(() => addon.interpRun(addon.interpPrepare(enc.program, enc.consts), LOOP, {} as unknown as Float64Array[])).toThrow(/buffers must be an array/);
    expect(() => (addon.interpRun as (...a: unknown[]) => void)(1, 2)).toThrow(/interpRun\(prepared, loop, buffers\)/);
    expect(() => addon.interpSetThreads(-1)).toThrow(/n must be in/);
  });

  const prepared = () => addon.interpPrepare(enc.program, enc.consts);
  const loopWith = (at: number, v: number) => {
    const l = LOOP.slice();
    l[at] = v;
    return l;
  };
  // LOOP = [R=1, 6, off0, st0, off1, st1]
  const badRuns: [string, () => [Float64Array, (Float64Array | Float32Array | undefined)[]], RegExp][] = [
    ['loop too short', () => [LOOP.slice(0, 5), bufs()], /loop has 5 numbers but the program needs 6/],
    ['rank beyond the limit', () => [loopWith(0, 40), bufs()], /bad rank/],
    ['negative dim', () => [loopWith(1, -1), bufs()], /dim 0 is not a nonnegative integer/],
    ['fractional dim', () => [loopWith(1, 2.5), bufs()], /dim 0 is not a nonnegative integer/],
    ['NaN stride', () => [loopWith(3, NaN), bufs()], /stride 0 is not an integer/],
    ['offset past the end', () => [loopWith(2, 1), bufs()], /load 0 reads elements 1\.\.6 of a buffer of 6/],
    ['negative stride reaching below 0', () => [loopWith(5, -1), bufs()], /load 1 reads elements -5\.\.0 of a buffer of 6/],
    ['huge stride', () => [loopWith(3, 2 ** 52), bufs()], /load 0.*(reaches past|reads elements)/],
    ['more elements than the output holds', () => [loopWith(1, 7), bufs()], /output: 7 elements do not fit its buffer of 6/],
    ['too many elements', () => [Float64Array.from([2, 2 ** 30, 2 ** 30, 0, 0, 0, 0, 0, 0]), bufs()], /too many elements/],
    ['a buffer of the wrong type', () => [LOOP, [Float64Array.from([1, 2, 3, 4, 5, 6]), new Float32Array(6), new Float64Array(6)]], /load 1: slot 1 must be the float64 storage TypedArray \(wrong TypedArray type\)/],
    ['a missing buffer', () => [LOOP, [new Float64Array(6), undefined, new Float64Array(6)]], /slot 1 .*missing or not a TypedArray/],
    ['too few buffers', () => [LOOP, [new Float64Array(6)]], /output: slot 2 is not among the 1 buffers passed/],
  ];
  for (const [what, make, msg] of badRuns) {
    it(`rejects a run: ${what}, without writing the output`, () => {
      const [loop, b] = make();
      expect(() => addon.interpRun(prepared(), loop, b as Float64Array[])).toThrow(msg);
      const out = b[2];
      if (out) expect(Array.from(out).every((v) => v === 0)).toBe(true);
    });
  }

  it('rejects a reduction whose output shares memory with its input', () => {
    const e = encodeReduce(SUM, [[2, 3], [2]]);
    const mem = new Float64Array(8);
    const x = mem.subarray(0, 6),
      out = mem.subarray(5, 7);
    expect(() => addon.interpRun(e.program, e.consts, e.loop(new Map()), [x, out])).toThrow(/shares memory with load 0/);
    const ok = [Float64Array.from([1, 2, 3, 4, 5, 6]), new Float64Array(2)];
    addon.interpRun(e.program, e.consts, e.loop(new Map()), ok);
    expect(Array.from(ok[1]!)).toEqual([6, 15]);
  });

  it('rejects an invariant load that is not a broadcast scalar', () => {
    const k: ElementwiseKernel = { ...ADD, expr: { ...ADD.expr, loads: [{ slot: 0, dtype: 'float64', chain: [] }, ADD.expr.loads[1]!] } };
    const e = encodeElementwise(k, [[1], [6], [6]]); // slot 0 all-ones: invariant
    // (e.loop() would refuse the [1] view over [6]; the loop is written by hand)
    expect(() => addon.interpRun(e.program, e.consts, Float64Array.from([1, 6, 0, 1, 0, 1]), bufs())).toThrow(/marked invariant but has a nonzero stride/);
    // Read once per run even over zero elements: its offset is checked regardless.
    expect(() => addon.interpRun(e.program, e.consts, Float64Array.from([1, 0, 1e9, 0, 0, 1]), bufs())).toThrow(/load 0 \(invariant\) reads element 1000000000 of a buffer of 6/);
  });

  it('keeps computing after every rejection', () => {
    const b = bufs();
    addon.interpRun(prepared(), LOOP, b);
    expect(Array.from(b[2]!)).toEqual([22, 44, 66, 88, 110, 132]);
  });
});
