// Control-flow kernels of the js backend (the native backend runs the same
// ones): they run a compiled body executable step by step on the host,
// writing results into the packed output.
//
// Each loop is written once, as steps that yield the body runs they need (an
// executable and its inputs) and get the body's outputs back. The sync driver
// runs each body at once; the async driver (an awaited realization) awaits
// each body's runAsync, so its long kernels (GEMM, factorizations) leave this
// thread, and gives the event loop a turn every few milliseconds, so a long
// loop of short steps does not starve timers either.

import { DTYPE_INFO, type StorageArray } from '../../tensor/dtype.js';
import { getBody } from '../../compiler/bodies.js';
import type { BoundExecutable, RunInput } from '../../compiler/executable.js';
import type { OpaqueArgs } from './opaque.js';

const prod = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/** A body run that a loop's steps ask for. */
interface BodyRun {
  exe: BoundExecutable;
  inputs: RunInput[];
}
type Steps = Generator<BodyRun, void, StorageArray[]>;

/** Runs a loop's steps on this thread. */
function drive(steps: Steps): void {
  for (let r = steps.next(); !r.done; ) r = steps.next(r.value.exe.run(r.value.inputs));
}

/** How long an awaited loop runs before it lets the event loop turn (timers, I/O). */
const YIELD_MS = 8;
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs a loop's steps awaiting each body (off-thread where its kernels allow), yielding to the event loop every YIELD_MS. */
async function driveAsync(steps: Steps): Promise<void> {
  let since = performance.now();
  for (let r = steps.next(); !r.done; ) {
    const outs = await r.value.exe.runAsync(r.value.inputs);
    if (performance.now() - since > YIELD_MS) {
      await turn();
      since = performance.now();
    }
    r = steps.next(outs);
  }
}

/** scan: inputs [consts, init carries, xs]; output [carries, ys stacked] packed. */
function* scanSteps({ out, ins, inShapes, attrs, dtype }: OpaqueArgs): Steps {
  const b = getBody(attrs['body'] as number);
  const L = attrs['length'] as number,
    reverse = attrs['reverse'] as boolean;
  const nConst = attrs['nConst'] as number,
    nCarry = attrs['nCarry'] as number;
  const lanes = DTYPE_INFO[dtype].lanes;
  const consts = ins.slice(0, nConst).map((data, i) => ({ data, shape: inShapes[i]! }));
  let carry = ins.slice(nConst, nConst + nCarry).map((data, i) => ({ data, shape: inShapes[nConst + i]! }));
  const xs = ins.slice(nConst + nCarry).map((data, i) => {
    const shape = inShapes[nConst + nCarry + i]!;
    const sliceShape = shape.slice(1);
    return { data, sliceShape, len: prod(sliceShape) * (data.length / Math.max(prod(shape), 1) || 1) };
  });
  const carryShapes = carry.map((c) => c.shape);
  const ySizes = b.outAvals.slice(nCarry).map((a) => prod(a.shape as number[]) * lanes);
  let at = carryShapes.reduce((a, s) => a + prod(s) * lanes, 0);
  const yOff = ySizes.map((s) => {
    const o = at;
    at += s * L;
    return o;
  });
  for (let s = 0; s < L; s++) {
    const t = reverse ? L - 1 - s : s;
    const stepIn = [...consts, ...carry, ...xs.map((x) => ({ data: x.data.subarray(t * x.len, (t + 1) * x.len) as StorageArray, shape: x.sliceShape }))];
    const outs = yield { exe: b.exe, inputs: stepIn };
    carry = outs.slice(0, nCarry).map((data, i) => ({ data, shape: carryShapes[i]! }));
    for (let k = 0; k < ySizes.length; k++) out.set(outs[nCarry + k]!, yOff[k]! + t * ySizes[k]!);
  }
  let o = 0;
  for (const c of carry) {
    out.set(c.data, o);
    o += c.data.length;
  }
}

/** while: inputs [cond consts, body consts, carries]; output the final carries packed. */
function* whileSteps({ out, ins, inShapes, attrs }: OpaqueArgs): Steps {
  const c = getBody(attrs['cond'] as number),
    b = getBody(attrs['body'] as number);
  const nc = attrs['nCondConst'] as number,
    nb = attrs['nBodyConst'] as number;
  const withShapes = (from: number, to: number) => ins.slice(from, to).map((data, i) => ({ data, shape: inShapes[from + i]! }));
  const cConsts = withShapes(0, nc),
    bConsts = withShapes(nc, nc + nb);
  let carry = withShapes(nc + nb, ins.length);
  const shapes = carry.map((x) => x.shape);
  for (;;) {
    const [p] = yield { exe: c.exe, inputs: [...cConsts, ...carry] };
    if (p![0] === 0) break;
    carry = (yield { exe: b.exe, inputs: [...bConsts, ...carry] }).map((data, i) => ({ data, shape: shapes[i]! }));
  }
  let o = 0;
  for (const x of carry) out.set(x.data, o), (o += x.data.length);
}

/** cond: inputs [pred, true consts, false consts, operands]; output the branch's results packed. */
function* condSteps({ out, ins, inShapes, attrs }: OpaqueArgs): Steps {
  const nt = attrs['nTrueConst'] as number,
    nf = attrs['nFalseConst'] as number;
  const pick = ins[0]![0] !== 0;
  const b = getBody((pick ? attrs['onTrue'] : attrs['onFalse']) as number);
  const consts = pick ? [1, 1 + nt] : [1 + nt, 1 + nt + nf];
  const args = [...ins.slice(consts[0], consts[1]).map((data, i) => ({ data, shape: inShapes[consts[0]! + i]! })), ...ins.slice(1 + nt + nf).map((data, i) => ({ data, shape: inShapes[1 + nt + nf + i]! }))];
  let o = 0;
  for (const r of yield { exe: b.exe, inputs: args }) out.set(r, o), (o += r.length);
}

export const scanKernel = (a: OpaqueArgs): void => drive(scanSteps(a));
export const whileKernel = (a: OpaqueArgs): void => drive(whileSteps(a));
export const condKernel = (a: OpaqueArgs): void => drive(condSteps(a));

/** The control-flow kernels for an awaited realization (driveAsync), by op. */
export const CONTROL_FLOW_ASYNC: Readonly<Record<string, (a: OpaqueArgs) => Promise<void>>> = {
  scan: (a) => driveAsync(scanSteps(a)),
  while: (a) => driveAsync(whileSteps(a)),
  cond: (a) => driveAsync(condSteps(a)),
};
