// The pipeline: verify → legalize → fold/simplify → view folding → CSE → DCE →
// transposed products → fusion → memory planning → lowering. Each pass is its own file under passes/.

import { getBackend } from '../backends/registry.js';
import { config } from './config.js';
import { Executable, type CompileReport, type PassRecord } from './executable.js';
import type { Graph } from './graph.js';
import { verify } from './passes/verify.js';
import { legalize, type DispatchRecord } from './passes/legalize.js';
import { constFold } from './passes/const-fold.js';
import { simplify } from './passes/simplify.js';
import { viewFold } from './passes/view-fold.js';
import { cse } from './passes/cse.js';
import { dce } from './passes/dce.js';
import { matmulTranspose } from './passes/matmul-transpose.js';
import { fuse } from './passes/fusion.js';
import { planMemory } from './passes/memory-plan.js';
import type { ConstProgram } from './const-params.js';

export interface CompileOptions {
  device: string;
  fusion?: boolean;
  /** Entries of the constant vector the graph's parameter literals take (Captured.consts.length). */
  consts?: number;
  /** Ops over literals that capture() folded already (reported with the constant-fold pass's own). */
  folded?: number;
}

/** Compiles a captured graph for a device. */
export function compileGraph(g0: Graph, opts: CompileOptions): Executable {
  const backend = getBackend(opts.device);
  const passes: PassRecord[] = [];
  const dispatch: DispatchRecord[] = [];
  const step = (name: string, f: (g: Graph) => Graph | { graph: Graph; detail?: string }, g: Graph): Graph => {
    const before = g.nodes.length;
    const r = f(g);
    const out = 'graph' in r ? r.graph : r;
    passes.push({ name, nodesBefore: before, nodesAfter: out.nodes.length, ...('detail' in r && r.detail ? { detail: r.detail } : {}) });
    return out;
  };
  let g = verify(g0);
  g = step('legalize', (x) => legalize(x, backend, dispatch), g);
  let consts: ConstProgram | undefined;
  g = step('constant-fold', (x) => {
    const r = constFold(x, opts.consts ?? 0);
    consts = r.consts;
    return { graph: r.graph, detail: `${r.folded + (opts.folded ?? 0)} folded` };
  }, g);
  g = step('simplify', simplify, g);
  g = step('view-fold', viewFold, g);
  g = step('cse', (x) => {
    const r = cse(x);
    return { graph: r.graph, detail: `${r.merged} merged` };
  }, g);
  g = step('dce', (x) => {
    const r = dce(x);
    return { graph: r.graph, detail: `${r.removed} removed` };
  }, g);
  g = step('matmul-transpose', (x) => {
    const r = matmulTranspose(x);
    return { graph: r.graph, detail: `${r.turned} turned` };
  }, g);
  verify(g);
  const prog = fuse(g, { fusion: opts.fusion ?? config.fusion });
  const plan = planMemory(prog.kernels, prog.slots);
  const slotShapes = prog.slots.map((s) => s.shape);
  const compiled = prog.kernels.map((k) => backend.compileKernel(k, slotShapes));
  const report: CompileReport = {
    device: backend.name,
    passes,
    dispatch,
    kernels: prog.kernels,
    slots: prog.slots,
    plan,
    inputNames: g.inputs.map((x) => x.attrs['name'] as string | undefined),
  };
  return new Executable(backend, compiled, report, prog.inputSlots, prog.outputSlots, consts);
}
