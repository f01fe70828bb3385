// Control flow on the webgpu device: scan, while and cond, with their bodies'
// executables compiled for webgpu (control/body.ts compiles a body for the
// device of its operands or the default device) and run step by step through
// the device runtime, every value staying on the GPU: a step's inputs are the
// consts, the carries of the last step and, for scan, the step's slice of
// each xs (copied into a buffer of its own); its outputs are the next
// carries and, for scan, the ys copied into the packed output. The host
// drives the loop as the CPU backends do (backends/js/control-flow.ts, the
// same semantics and packed layout: carries first, then each ys stacked, in
// the packed dtype). Only `while` and `cond` read values back: one word per
// predicate (a blocking read; scan reads nothing).
//
// Buffers: the inputs of the control node belong to the graph; the outputs of
// each body run are this loop's until the next step has consumed them, then
// go back to the pool at once (a long loop does not wait for the garbage
// collector to reclaim its dead carries).

import type { DType } from '../../tensor/dtype.js';
import { LegalizationError } from '../../tensor/errors.js';
import { resolveShape, type Dim } from '../../tensor/shape.js';
import { getBody, type Body } from '../../compiler/bodies.js';
import { Node } from '../../compiler/ir.js';
import type { OpaqueKernel } from '../../compiler/kernel.js';
import type { DimEnv } from '../backend.js';
import { webgpuDevice, type GpuBuffer } from './device.js';
import { bufferPool, GpuStorage, pipelineOf } from './resources.js';
import { cast, fromStorage, HALF_WGSL, STORAGE, toStorage } from './wgsl-expr.js';

/** A value on the GPU: `storage` (its buffer, dtype, size) with its shape. */
interface Val {
  st: GpuStorage;
  shape: number[];
}

const prod = (s: readonly number[]) => s.reduce((a, b) => a * b, 1);

/** WGSL copying n words from S[srcOff..] to OUT[dstOff..], converting dtype `from` to `to` (P = [n, srcOff, dstOff]). */
function copyCode(from: DType, to: DType): string {
  const value = from === to ? 'S[P[1] + i]' : toStorage(cast(fromStorage('S[P[1] + i]', from), from, to), to);
  return `${HALF_WGSL}
@group(0) @binding(0) var<storage, read_write> OUT: array<${STORAGE[to]}>;
@group(0) @binding(1) var<storage, read> S: array<${STORAGE[from]}>;
@group(0) @binding(2) var<storage, read> P: array<u32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3u, @builtin(num_workgroups) nwg: vec3u) {
  let i = gid.x + gid.y * nwg.x * 256u;
  if (i >= P[0]) { return; }
  OUT[P[2] + i] = ${value};
}`;
}

/** Records a copy of n elements (dtype conversion included); its parameter buffer goes back to the pool at once (commands run in order). */
function copy(src: GpuBuffer, from: DType, srcOff: number, dst: GpuBuffer, to: DType, dstOff: number, n: number): void {
  if (n === 0) return;
  const d = webgpuDevice();
  const p = bufferPool();
  const P = Uint32Array.of(n, srcOff, dstOff);
  const pb = p.take(P.byteLength);
  d.write(pb, P);
  const groups = Math.ceil(n / 256);
  const maxX = d.info.limits['maxComputeWorkgroupsPerDimension'] ?? 65535;
  d.dispatch(pipelineOf(copyCode(from, to)), [dst, src, pb], [Math.min(groups, maxX), Math.ceil(groups / maxX)]);
  p.give(pb);
}

/** A fresh buffer holding n elements of x from element `at` (a scan step's slice of xs). */
function sliceOf(x: Val, at: number, shape: number[]): Val {
  const n = prod(shape);
  const buf = bufferPool().take(n * 4);
  copy(x.st.buffer, x.st.dtype, at, buf, x.st.dtype, 0, n);
  return { st: new GpuStorage(buf, x.st.dtype, n), shape };
}

/** A leaf node over a GPU value, for a body's runOnDevice. */
function leaf(v: Val): Node {
  const n = new Node('buffer', [], {}, v.shape, v.st.dtype);
  n.realizeOn(v.st);
  return n;
}

/** Runs a body on GPU values; its outputs, with their shapes. */
function runBody(b: Body, op: string, args: readonly Val[]): Val[] {
  if (b.exe.exe.backend.name !== 'webgpu') throw new LegalizationError(op, b.outAvals[0]?.dtype ?? '-', 'webgpu', `its body was compiled for '${b.exe.exe.backend.name}' (pin the operands to webgpu or setDefaultDevice('webgpu') before tracing)`);
  const outs = b.exe.runOnDevice(args.map(leaf)) as GpuStorage[];
  return outs.map((st, i) => ({ st, shape: b.outAvals[i]!.shape as number[] }));
}

/** Gives back the loop's own values among `dead` that none of `live` still holds. */
function drop(dead: readonly Val[], live: readonly Val[], borrowed: ReadonlySet<GpuStorage>): void {
  const keep = new Set([...live.map((v) => v.st), ...borrowed]);
  const gone = new Set<GpuStorage>();
  for (const v of dead) if (!keep.has(v.st) && !gone.has(v.st)) gone.add(v.st), v.st.release();
}

/** Copies values one after another into the packed output from element `at`, in its dtype. */
function pack(vals: readonly Val[], out: GpuBuffer, dtype: DType, at: number): number {
  for (const v of vals) {
    copy(v.st.buffer, v.st.dtype, 0, out, dtype, at, v.st.size);
    at += v.st.size;
  }
  return at;
}

/** Reads a scalar predicate (one word) back: nonzero is true. */
function truthOf(v: Val): boolean {
  const w = new Uint32Array(webgpuDevice().readSync(v.st.buffer, 4))[0]!;
  return v.st.dtype === 'float32' ? new Float32Array(Uint32Array.of(w).buffer)[0] !== 0 : v.st.dtype === 'float16' || v.st.dtype === 'bfloat16' ? (w & 0x7fff) !== 0 : w !== 0;
}

/** Runs a control-flow kernel (scan, while, cond) into `out`; inputs are the graph's buffers (borrowed). */
export function runControlFlow(k: OpaqueKernel, slotBuffer: (s: number) => GpuBuffer, env: DimEnv): void {
  const ins: Val[] = k.inputs.map((s, i) => {
    const shape = resolveShape(k.inShapes[i] as Dim[], env);
    return { st: new GpuStorage(slotBuffer(s), k.inDTypes[i]!, prod(shape), [], false), shape };
  });
  const borrowed = new Set(ins.map((v) => v.st));
  const out = slotBuffer(k.out);
  const a = k.attrs;
  if (k.name === 'scan') {
    const b = getBody(a['body'] as number);
    const L = a['length'] as number,
      reverse = a['reverse'] as boolean,
      nConst = a['nConst'] as number,
      nCarry = a['nCarry'] as number;
    const consts = ins.slice(0, nConst);
    let carry = ins.slice(nConst, nConst + nCarry);
    const xs = ins.slice(nConst + nCarry);
    const ySizes = b.outAvals.slice(nCarry).map((y) => prod(y.shape as number[]));
    // Packed layout (as the CPU kernels): the carries, then each ys stacked over the L steps.
    const yOff: number[] = [];
    let at = carry.reduce((sum, c) => sum + c.st.size, 0);
    for (const n of ySizes) yOff.push(at), (at += n * L);
    for (let s = 0; s < L; s++) {
      const t = reverse ? L - 1 - s : s;
      const slices = xs.map((x) => sliceOf(x, t * prod(x.shape.slice(1)), x.shape.slice(1)));
      const outs = runBody(b, 'scan', [...consts, ...carry, ...slices]);
      const next = outs.slice(0, nCarry);
      outs.slice(nCarry).forEach((y, j) => copy(y.st.buffer, y.st.dtype, 0, out, k.outDType, yOff[j]! + t * ySizes[j]!, ySizes[j]!));
      drop([...carry, ...slices, ...outs.slice(nCarry)], next, borrowed);
      carry = next;
    }
    pack(carry, out, k.outDType, 0);
    drop(carry, [], borrowed);
  } else if (k.name === 'while') {
    const c = getBody(a['cond'] as number),
      b = getBody(a['body'] as number);
    const nc = a['nCondConst'] as number,
      nb = a['nBodyConst'] as number;
    const cConsts = ins.slice(0, nc),
      bConsts = ins.slice(nc, nc + nb);
    let carry = ins.slice(nc + nb);
    for (;;) {
      const [p] = runBody(c, 'whileLoop', [...cConsts, ...carry]);
      const go = truthOf(p!);
      drop([p!], carry, borrowed);
      if (!go) break;
      const next = runBody(b, 'whileLoop', [...bConsts, ...carry]);
      drop(carry, next, borrowed);
      carry = next;
    }
    pack(carry, out, k.outDType, 0);
    drop(carry, [], borrowed);
  } else if (k.name === 'cond') {
    const nt = a['nTrueConst'] as number,
      nf = a['nFalseConst'] as number;
    const pick = truthOf(ins[0]!);
    const b = getBody((pick ? a['onTrue'] : a['onFalse']) as number);
    const consts = pick ? ins.slice(1, 1 + nt) : ins.slice(1 + nt, 1 + nt + nf);
    const outs = runBody(b, 'cond', [...consts, ...ins.slice(1 + nt + nf)]);
    pack(outs, out, k.outDType, 0);
    drop(outs, [], borrowed);
  } else {
    throw new Error(`internal: ${k.name} is not control flow`);
  }
}
