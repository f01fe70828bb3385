// Realizing a lone linalg node whose inputs are all realized: the backend's
// linalg kernel is called at once, without capturing a graph, looking up the
// compile cache and running a one-kernel Executable.
//
// Why: det(a).realize(), inv(a).realize() and the like are the common use of
// the linalg ops, and the graph machinery around their single opaque kernel
// cost 10-15 µs a call in a benchmark's first hundred calls (V8 still
// interpreting it), ~15% of a 128×128 det. The result is the same by
// construction: that graph compiles to exactly this call (the backend's
// runOp is the body of its compiled linalg kernel), its output is a fresh
// zeroed buffer from backend.alloc as the memory plan gives an opaque kernel's
// output (uninitialized for an op whose kernels write every element), and the node is realized in place as run() does. Only what the
// graph path would do differently is left to it: a backend without runOp,
// a dispatch answer other than 'native' (which the graph path legalizes or
// rejects), inputs that are neither buffers nor contiguous views of one (a
// view, such as solve's vector right-hand side reshaped to a column, is
// passed as the range of its base's data that the compiled graph would read).
//
// The node stays lazy until it is realized, so errors are raised at the same
// point (realize), autodiff still sees the graph, and explain() still
// compiles it.

import { getBackend, defaultDevice } from '../backends/registry.js';
import { DTYPE_INFO, type DType, type StorageArray } from '../tensor/dtype.js';
import { viewRootOf } from './view-roots.js';
import type { Node } from './ir.js';
import { config } from './config.js';
import { callOutputs } from './primitives.js';
import { opDef } from './op-registry.js';

/** Computes a registered node (a call, or a part with its call) in place, with every output of the call, when its inputs are buffers (or contiguous views of them) on a backend with runOp; false otherwise (nothing done). */
export function realizeOpDirect(root: Node): boolean {
  // A part is computed with its call (and the call's other outputs).
  const n = root.op === 'part' ? root.inputs[0]! : root;
  if (n.op !== 'registered' || !config.directOp) return false;
  const backend = getBackend(n.device ?? defaultDevice());
  if (backend.runOp === undefined) return false; // a device backend (webgpu): its inputs must not be read back here
  const xs = n.inputs;
  const ins: StorageArray[] = new Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (x.op === 'buffer') {
      ins[i] = x.data!;
      continue;
    }
    const v = viewRootOf(x);
    if (v === undefined || v.base.op !== 'buffer') return false;
    const L = DTYPE_INFO[x.dtype].lanes;
    ins[i] = v.base.data!.subarray(v.offset * L, (v.offset + v.length) * L);
  }
  if (backend.dispatch(n) !== 'native') return false;
  const inShapes: number[][] = new Array(xs.length);
  const inDTypes: DType[] = new Array(xs.length);
  for (let i = 0; i < xs.length; i++) {
    inShapes[i] = xs[i]!.shape as number[];
    inDTypes[i] = xs[i]!.dtype;
  }
  const outs = callOutputs(n);
  const data: StorageArray[] = new Array(outs.length);
  // Outputs the kernel writes in full need no zeroing (OpDef.writesAll), as in the graph path.
  const uninit = backend.allocUninit !== undefined && opDef(n.attrs['op'] as string).writesAll === true;
  for (let i = 0; i < outs.length; i++) {
    const o = outs[i]!;
    let size = 1;
    for (const d of o.shape) size *= d as number;
    data[i] = uninit ? backend.allocUninit!(o.dtype, size) : backend.alloc(o.dtype, size);
  }
  backend.runOp({ out: data[0]!, ...(outs.length > 1 ? { parts: data } : {}), ins, inShapes, inDTypes, attrs: n.attrs });
  for (let i = 0; i < outs.length; i++) outs[i]!.realize(data[i]!);
  return true;
}
