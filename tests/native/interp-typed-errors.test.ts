// The interpreter's errors leave the native backend as RlxErrors (issue 13:
// "Native errors ... make them RlxError subclasses"). The addon tags each
// error with rlxKind (native/src/interp/napi.cc); interpretedKernel
// (src/backends/native/program.ts) rethrows it through nativeError. The
// kernels below are run through interpretedKernel over an addon that forwards
// to the real one with one argument broken at a time (a bad program word,
// constants of the wrong length or type, a short loop, wrong buffers), so each
// of the C++ checks is reached through the TS path; every error must be an
// RlxError subclass whose message names the addon function, and the raw
// addon's errors keep carrying the tag.

import { expect, it } from 'vitest';
import '../../src/index.js';
import { interpretedKernel, type InterpAddon } from '../../src/backends/native/program.js';
import type { StorageArray } from '../../src/tensor/dtype.js';
import { DTypeError, DeviceError, RlxError, ShapeError, ValueError } from '../../src/tensor/errors.js';
import { describeInterp, addTimesTwo } from './interp-harness.js';

const HEADER = 16,
  LOAD_W = 4,
  INSTR_W = 8;

const ADD = addTimesTwo(6, 0);
const SHAPES = [[6], [6], [6]];
const bufs = (): StorageArray[] => [Float64Array.from([1, 2, 3, 4, 5, 6]), Float64Array.from([10, 20, 30, 40, 50, 60]), new Float64Array(6)];
const K = Float64Array.from([2]);
const detached = () => {
  const x = new Float64Array(6);
  structuredClone(x.buffer, { transfer: [x.buffer] });
  return x;
};
// Word k of instruction i (2 loads in the table).
const instr = (i: number, k: number) => HEADER + 2 * LOAD_W + i * INSTR_W + k;

interface Breakage {
  program?: (p: Int32Array) => Int32Array | unknown;
  consts?: (c: Float64Array) => Float64Array | unknown;
  /** This run's constants (interpRun's 4th argument). */
  runConsts?: (c: Float64Array) => Float64Array | unknown;
  loop?: (l: Float64Array) => Float64Array | unknown;
  buffers?: (b: StorageArray[]) => unknown;
}
const set = (at: number, v: number) => (p: Int32Array) => {
  const q = p.slice();
  q[at] = v;
  return q;
};

/** The real addon with one argument of every call replaced by `b`. */
function broken(addon: InterpAddon, b: Breakage): InterpAddon {
  const f = <T>(g: ((x: T) => unknown) | undefined, x: T) => (g ? g(x) : x) as never;
  return {
    ...addon,
    interpPrepare: (p, c) => addon.interpPrepare(f(b.program, p), f(b.consts, c)),
    interpRun: ((prepared: unknown, loop: Float64Array, buffers: StorageArray[], consts?: Float64Array) =>
      addon.interpRun(prepared, f(b.loop, loop), f(b.buffers, buffers), consts === undefined ? undefined : f(b.runConsts, consts))) as InterpAddon['interpRun'],
    interpRunAsync: (prepared, loop, buffers, consts) => addon.interpRunAsync(prepared, f(b.loop, loop), f(b.buffers, buffers as StorageArray[]), consts === undefined ? undefined : f(b.runConsts, consts)),
  };
}

type Cls = new (...a: never[]) => RlxError;
// [what, breakage, the call that fails, class, message]
const PREPARE: [string, Breakage, Cls, RegExp][] = [
  ['bad magic', { program: set(0, 123) }, ValueError, /bad magic/],
  ['another format version', { program: set(1, 99) }, ValueError, /version 99/],
  ['truncated program', { program: (p) => p.slice(0, p.length - 1) }, ValueError, /program length/],
  ['unknown opcode', { program: set(instr(2, 0), 999) }, ValueError, /bad opcode 999/],
  ['register out of range', { program: set(instr(2, 3), 1000) }, ValueError, /destination register out of range/],
  ['constant index out of range', { consts: () => new Float64Array(0) }, ValueError, /constant index out of range/],
  ['program not an Int32Array', { program: (p) => Float64Array.from(p) }, DTypeError, /program must be an Int32Array/],
  ['constants not a Float64Array', { consts: (c) => Float32Array.from(c) }, DTypeError, /constants must be a Float64Array/],
];
const RUN: [string, Breakage, Cls, RegExp][] = [
  ['constants of the wrong length', { runConsts: () => Float64Array.from([2, 3]) }, ShapeError, /the constants have 2 values but the program has 1/],
  ['constants of the wrong type', { runConsts: () => Float32Array.from([2]) }, DTypeError, /constants must be a Float64Array/],
  ['loop too short', { loop: (l) => l.slice(0, 5) }, ShapeError, /loop has 5 numbers but the program needs 6/],
  ['loop not a Float64Array', { loop: (l) => Array.from(l) }, DTypeError, /loop must be a Float64Array/],
  ['more elements than the output holds', { loop: (l) => Float64Array.from([1, 7, 0, 1, 0, 1]) }, ShapeError, /output: 7 elements do not fit its buffer of 6/],
  ['a load past its buffer', { loop: (l) => Float64Array.from([1, 6, 1, 1, 0, 1]) }, ShapeError, /load 0 reads elements 1\.\.6 of a buffer of 6/],
  ['a buffer of the wrong type', { buffers: (b) => [b[0], new Float32Array(6), b[2]] }, DTypeError, /slot 1 must be the float64 storage TypedArray \(wrong TypedArray type\)/],
  ['a missing buffer', { buffers: (b) => [b[0], undefined, b[2]] }, ValueError, /slot 1 .*missing or not a TypedArray/],
  ['too few buffers', { buffers: (b) => [b[0]] }, ShapeError, /output: slot 2 is not among the 1 buffers passed/],
  ['a detached output', { buffers: (b) => [b[0], b[1], detached()] }, ShapeError, /output: 6 elements do not fit its buffer of 0/],
  ['buffers not an array', { buffers: () => ({}) }, ValueError, /buffers must be an array/],
];

describeInterp('interpreter errors through the native backend', (addon) => {
  for (const [what, b, Cls, msg] of PREPARE) {
    it(`compiling a kernel with ${what}: ${Cls.name} naming interpPrepare`, () => {
      let err: unknown;
      try {
        interpretedKernel(broken(addon, b), ADD, SHAPES);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(Cls);
      expect(err).toBeInstanceOf(RlxError);
      expect((err as Error).message).toMatch(/^interpPrepare: rlx interpreter: /);
      expect((err as Error).message).toMatch(msg);
    });
  }

  for (const [what, b, Cls, msg] of RUN) {
    it(`running a kernel with ${what}: ${Cls.name} naming interpRun / interpRunAsync, output untouched`, async () => {
      const k = interpretedKernel(broken(addon, b), ADD, SHAPES);
      const out = bufs();
      let err: unknown;
      try {
        k.run(out, new Map(), K);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(Cls);
      expect((err as Error).message).toMatch(/^interpRun: rlx interpreter: /);
      expect((err as Error).message).toMatch(msg);
      expect(Array.from(out[2]!)).toEqual([0, 0, 0, 0, 0, 0]);
      const threshold = addon.interpGetAsyncThreshold();
      addon.interpSetAsyncThreshold(0);
      try {
        let aerr: unknown;
        try {
          await k.runAsync!(out, new Map(), K);
        } catch (e) {
          aerr = e;
        }
        expect(aerr).toBeInstanceOf(Cls);
        expect((aerr as Error).message).toMatch(/^interpRunAsync: rlx interpreter: /);
        expect((aerr as Error).message).toMatch(msg);
      } finally {
        addon.interpSetAsyncThreshold(threshold);
      }
    });
  }

  it('an output detached while an async run is in flight: a rejected ValueError naming interpRunAsync', async () => {
    const k = interpretedKernel(addon, ADD, SHAPES);
    const threshold = addon.interpGetAsyncThreshold();
    addon.interpSetAsyncThreshold(0);
    try {
      const b = bufs();
      const p = k.runAsync!(b, new Map(), K);
      expect(p).toBeInstanceOf(Promise);
      structuredClone(b[2]!.buffer, { transfer: [b[2]!.buffer] });
      const err = await p!.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(ValueError);
      expect((err as Error).message).toMatch(/^interpRunAsync: .*output array was detached/);
    } finally {
      addon.interpSetAsyncThreshold(threshold);
    }
  });

  it('the kernel still computes after every rejection (exact values)', async () => {
    const k = interpretedKernel(addon, ADD, SHAPES);
    const b = bufs();
    k.run(b, new Map(), K);
    expect(Array.from(b[2]!)).toEqual([22, 44, 66, 88, 110, 132]);
    const c = bufs();
    await k.runAsync!(c, new Map(), Float64Array.from([3]));
    expect(Array.from(c[2]!)).toEqual([33, 66, 99, 132, 165, 198]);
  });

  it('the raw addon tags every interpreter error with the rlx class (rlxKind)', () => {
    const kindOf = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return (e as { rlxKind?: string }).rlxKind;
      }
      return 'no error';
    };
    expect(kindOf(() => addon.interpSetThreads(-1))).toBe('ValueError');
    expect(kindOf(() => addon.interpSetAsyncThreshold(-1))).toBe('ValueError');
    expect(kindOf(() => (addon.interpRun as (...a: unknown[]) => void)(1, 2))).toBe('ValueError');
    expect(kindOf(() => addon.interpRun({}, new Float64Array(0), []))).toBe('ValueError');
    expect(kindOf(() => addon.interpPrepare(new Int32Array(3), new Float64Array(0)))).toBe('ValueError');
    // The classes these names map to are RlxErrors (src/backends/native/errors.ts).
    for (const C of [ValueError, ShapeError, DTypeError, DeviceError]) expect(new C('x')).toBeInstanceOf(RlxError);
  });
});
