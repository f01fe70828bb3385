// Runs a graph's kernels on the WebGPU device the way a GPU executable will
// (tests/webgpu only, until the webgpu backend is registered): the graph is
// compiled for 'js' (capture, passes, fusion, memory plan), each kernel is
// lowered to WGSL (elementwise, reduce or matmul) and dispatched over GPU copies of
// the same inputs and constant vector, and the outputs are read back. Every
// slot gets its own GPU buffer (the js plan's in-place reuse would bind one
// buffer as both read and read_write, which WebGPU forbids).

import type { Tensor } from '../../src/index.js';
import { executableFor } from '../../src/compiler/realize.js';
import { constVector } from '../../src/compiler/const-params.js';
import type { StorageArray } from '../../src/tensor/dtype.js';
import { webgpuDevice, type GpuBuffer } from '../../src/backends/webgpu/device.js';
import { wgslElementwise, type WgslKernel } from '../../src/backends/webgpu/wgsl-elementwise.js';
import { wgslReduce } from '../../src/backends/webgpu/wgsl-reduce.js';
import { wgslMatmul } from '../../src/backends/webgpu/wgsl-matmul.js';
import { constBits } from '../../src/backends/webgpu/wgsl-expr.js';

export function runOnGpu(outs: Tensor[], maxGroupsX = 65535): StorageArray[] {
  const d = webgpuDevice();
  const { exe, leaves } = executableFor(outs.map((t) => t.node), 'js');
  const report = exe.exe.report;
  const shapes = report.slots.map((s) => s.shape);
  const gpu = new Map<number, GpuBuffer>();
  const bytes = (s: number) => report.slots[s]!.shape.reduce((a: number, b) => a * (b as number), 1) * 4;
  exe.exe.inputSlots.forEach((s, i) => gpu.set(s, d.createBuffer(bytes(s), leaves[i]!.data!)));
  const K = constVector(exe.exe.consts, exe.consts);
  const made: GpuBuffer[] = [];
  for (const k of report.kernels) {
    let w: WgslKernel;
    if (k.kind === 'elementwise') w = wgslElementwise(k, shapes);
    else if (k.kind === 'reduce') w = wgslReduce(k, shapes);
    else if (k.kind === 'matmul') w = wgslMatmul(k, shapes);
    else throw new Error(`test graph has a ${k.kind} kernel`);
    const bits = constBits(K, w.consts);
    const kBuf = d.createBuffer(bits.byteLength, bits);
    made.push(kBuf);
    if (!gpu.has(k.out)) gpu.set(k.out, d.createBuffer(bytes(k.out)));
    const P = w.params(new Map());
    const pBuf = d.createBuffer(P.byteLength, P);
    made.push(pBuf);
    const groups = w.groups(P);
    d.dispatch(d.pipeline(w.code), [gpu.get(k.out)!, ...w.inputSlots.map((s) => gpu.get(s)!), pBuf, ...(w.usesConsts ? [kBuf] : [])], [Math.min(groups, maxGroupsX), Math.ceil(groups / maxGroupsX)]);
  }
  const results = exe.exe.outputSlots.map((s) => {
    const raw = d.readSync(gpu.get(s)!);
    return report.slots[s]!.dtype === 'int32' ? new Int32Array(raw) : new Float32Array(raw);
  });
  for (const b of [...gpu.values(), ...made]) d.free(b);
  return results;
}

/** A hand-written shader for the device-layer tests: y = 2x + 1 over y's length (binding 0 x, 1 y). */
export const EXP = `
@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read_write> y: array<f32>;
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3u) {
  if (g.x < arrayLength(&y)) { y[g.x] = 2.0 * x[g.x] + 1.0; }
}`;
