// Fusion: splits the graph into kernels.
//
// A node is "realized" (gets a buffer) when it is an output, a reduction or an
// opaque op, an input that an opaque op needs contiguous (a registered op reads
// a reshaped operand from its base's buffer), a reshape input that
// cannot be viewed without a copy, or an elementwise node whose users fall in
// different kernels. Everything else fuses into its users' loops: elementwise
// chains into one loop, a reduction's elementwise producers into its prologue,
// and elementwise users of a reduction or matmul over its output shape into its
// epilogue. Movement ops never run: they become the strided view of a load,
// and an output that reshapes a computed node aliases that node's buffer.

import { isComplex } from '../../tensor/dtype.js';
import { shapesEqual, isStatic, type Dim } from '../../tensor/shape.js';
import type { Node } from '../ir.js';
import { kindOf, type ReduceOp } from '../primitives.js';
import { type Graph, consumersOf } from '../graph.js';
import type { Expr, Instr, Kernel, Load, SlotInfo, ViewStep } from '../kernel.js';
import { chainFolds } from '../view.js';
import { constValue } from './const-value.js';
import { attrsKey } from '../ir.js';
import { config } from '../config.js';

export interface FusionOptions {
  /** When false every compute node is its own kernel (for measuring what fusion buys). */
  fusion: boolean;
}

export interface FusedProgram {
  kernels: Kernel[];
  slots: SlotInfo[];
  inputSlots: number[];
  outputSlots: number[];
}

/** Ops cheap enough to recompute in every kernel that needs them (no transcendental math). */
const CHEAP = new Set<string>([
  'add', 'sub', 'mul', 'neg', 'abs', 'sign', 'maximum', 'minimum', 'cast', 'where', 'real', 'imag', 'conj', 'complex',
  'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'logicalAnd', 'logicalOr', 'logicalNot', 'stopGradient',
  'reshape', 'permute', 'expand', 'slice',
]);
/** A cheap node is recomputed in at most this many kernels; beyond that it gets a buffer. */
const MAX_RECOMPUTE = 4;

const unitOnly = (a: readonly Dim[], b: readonly Dim[]): boolean => shapesEqual(a.filter((d) => d !== 1), b.filter((d) => d !== 1));

export function fuse(g: Graph, opts: FusionOptions): FusedProgram {
  const nodes = g.nodes;
  const consumers = consumersOf(nodes);
  const outputs = new Set(g.outputs);
  const R = new Set<Node>();
  const kind = (n: Node) => kindOf(n.op);

  const pureMemo = new Map<Node, boolean>();
  const pureView = (x: Node): boolean => {
    if (x.op === 'input' || R.has(x)) return true;
    if (kind(x) !== 'movement') return false;
    let v = pureMemo.get(x);
    if (v === undefined) pureMemo.set(x, (v = pureView(x.inputs[0]!)));
    return v;
  };
  // A view that also conjugates (movement ops and conj over a pure view, e.g.
  // a conjugate transpose): a matmul reads it directly with a conj flag, which
  // BLAS applies (ConjTrans) or the GEMM wrapper handles, instead of a copy.
  const conjView = (x: Node): boolean => {
    for (let y = x; ; y = y.inputs[0]!) {
      if (y.op === 'input' || R.has(y)) return y !== x;
      if (kind(y) !== 'movement' && !(y.op === 'conj' && isComplex(y.dtype))) return false;
    }
  };
  // A conjugating view whose every use is (through more such views) a matmul
  // operand: it needs no buffer, the matmul reads it with its conj flag.
  const conjMemo = new Map<Node, boolean>();
  const conjOperand = (x: Node): boolean => {
    let v = conjMemo.get(x);
    if (v !== undefined) return v;
    v = conjView(x) && !outputs.has(x) && (consumers.get(x) ?? []).every((c) => c.op === 'matmul' || ((kind(c) === 'movement' || c.op === 'conj') && conjOperand(c)));
    conjMemo.set(x, v);
    return v;
  };
  // Whether a node reads its inputs in row-major order all the way down (so a
  // reshape above it needs no copy). Filled in topological order below.
  const flat = new Map<Node, boolean>();
  const flatContiguous = (x: Node): boolean => R.has(x) || (flat.get(x) ?? true);
  const staticChainFolds = (n: Node): boolean => {
    const chain: ViewStep[] = [stepOf(n)];
    let b = n.inputs[0]!;
    while (kind(b) === 'movement' && !R.has(b)) {
      chain.unshift(stepOf(b));
      b = b.inputs[0]!;
    }
    if (!isStatic(b.shape) || chain.some((s) => !isStatic(s.outShape))) return false;
    return chainFolds(b.shape as number[], chain);
  };

  // What a matmul operand that is not a view of a buffer gets realized as:
  // under transposes and broadcasts, the node they view (the matmul then reads
  // it through a strided view, which BLAS takes as flags), not a transposed
  // copy of it (a weight gradient's (g ⊙ mask)ᵀ @ x wrote gᵀ through a
  // column-strided store and lost the GEMM epilogue that computes g ⊙ mask).
  const operandRoot = (x: Node): Node => {
    let y = x;
    while ((y.op === 'permute' || y.op === 'expand') && !R.has(y)) y = y.inputs[0]!;
    return y === x || y.op === 'input' || kind(y) === 'movement' ? x : y;
  };

  // A registered op's operand that reshapes a realized node or an input (colours
  // [N, 3] seen as coefficients [N, 1, 3]) is that node's buffer read under the
  // operand's shape, not a copy: a buffer is contiguous row-major, and a
  // registered kernel takes its operands' shapes from the kernel (inShapes),
  // never from the slots. Other opaque kernels keep their copies.
  const reshapeBase = (x: Node): Node => {
    let y = x;
    while (y.op === 'reshape' && !R.has(y)) y = y.inputs[0]!;
    return y;
  };

  // 1. Realization forced by the kind of node.
  for (const n of nodes) {
    const k0 = kind(n);
    if (outputs.has(n) || k0 === 'reduce' || k0 === 'opaque' || k0 === 'composite') R.add(n);
  }
  for (const n of nodes) {
    const k0 = kind(n);
    flat.set(n, n.op === 'input' || n.op === 'const' || R.has(n) || k0 === 'elementwise' ? n.inputs.every(flatContiguous) : n.op === 'reshape' ? flatContiguous(n.inputs[0]!) : k0 !== 'movement');
  }
  for (const n of nodes) {
    if (n.op === 'input') continue;
    const k = kind(n);
    if (outputs.has(n) || k === 'reduce' || k === 'opaque' || k === 'composite') R.add(n);
    if (n.op === 'registered') {
      for (const x of n.inputs) {
        const b = reshapeBase(x);
        if (b.op !== 'input') R.add(b);
      }
    } else if ((k === 'opaque' && n.op !== 'matmul') || k === 'composite') {
      for (const x of n.inputs) if (x.op !== 'input') R.add(x);
    }
    if (n.op === 'matmul') for (const x of n.inputs) if (!pureView(x) && !conjView(x)) R.add(operandRoot(x));
    if (n.op === 'reshape' && !unitOnly(n.shape, n.inputs[0]!.shape)) {
      const x = n.inputs[0]!;
      const ok = pureView(x) ? staticChainFolds(n) : flatContiguous(x);
      if (!ok && x.op !== 'input') R.add(x);
    }
    if (!opts.fusion && (k === 'elementwise' || k === 'reduce')) R.add(n);
  }

  // 2. Groups, users first: a node joins its users' kernel when they share one.
  // A cheap node (no transcendental math) whose users fall in a few kernels is
  // recomputed in each of them instead of getting a buffer of its own.
  const group = new Map<Node, Node>();
  const groupSize = new Map<Node, number>();
  const recomputedIn = new Map<Node, Set<Node>>();
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i]!;
    if (n.op === 'input' || n.op === 'const') continue;
    if (R.has(n)) {
      group.set(n, n);
      continue;
    }
    if (pureView(n) || constValue(n) !== undefined || conjOperand(n)) continue;
    const gs = new Set<Node>();
    let boundary = false;
    for (const c of consumers.get(n) ?? []) {
      const kc = kind(c);
      const gc = group.get(c);
      const rc = recomputedIn.get(c);
      if ((kc === 'elementwise' || kc === 'movement' || kc === 'reduce') && gc) gs.add(gc);
      else if (rc) for (const g of rc) gs.add(g);
      else boundary = true;
    }
    const g1 = gs.size === 1 && !boundary ? [...gs][0]! : undefined;
    if (g1 && (groupSize.get(g1) ?? 0) < config.maxKernelOps) {
      group.set(n, g1);
      groupSize.set(g1, (groupSize.get(g1) ?? 0) + 1);
    } else if (opts.fusion && !boundary && gs.size > 1 && gs.size <= MAX_RECOMPUTE && CHEAP.has(n.op) && !outputs.has(n)) {
      recomputedIn.set(n, gs);
    } else {
      R.add(n);
      group.set(n, n);
    }
  }

  // 3. Epilogues: elementwise users of a reduction/matmul over its output shape.
  const epilogueOf = new Map<Node, Node>(); // group root -> reduce/matmul node
  for (const r of nodes) {
    if (!R.has(r) || outputs.has(r) || !(kind(r) === 'reduce' || r.op === 'matmul') || !opts.fusion) continue;
    const cs = consumers.get(r) ?? [];
    if (cs.length === 0 || !cs.every((c) => kind(c) === 'elementwise')) continue;
    const roots = new Set(cs.map((c) => group.get(c)));
    if (roots.size !== 1) continue;
    const G = [...roots][0]!;
    if (G === undefined || G === r || epilogueOf.has(G) || kind(G) !== 'elementwise' || !shapesEqual(G.shape, r.shape)) continue;
    if (movesReducedValue(G, r)) continue;
    epilogueOf.set(G, r);
    R.delete(r);
  }

  // An epilogue sees the reduced value only at its own output index: a view
  // (flip, transpose...) of something computed from r inside G would need others.
  function movesReducedValue(G: Node, r: Node): boolean {
    const dep = new Set<Node>([r]);
    for (const m of nodes) {
      if (group.get(m) !== G || !m.inputs.some((x) => dep.has(x))) continue;
      if (kind(m) === 'movement') return true;
      dep.add(m);
    }
    return false;
  }

  // 4. Aliases: an output that is a reshape of a node with a buffer of its own
  // (a matmul's [n, 1] product returned as [n], a reduction's scalar as [1])
  // is that buffer seen under its own shape, not a copy kernel: a buffer is
  // contiguous row-major, so a reshape is the same data. Inputs are not
  // aliased (their storage is the caller's), nor outputs (two outputs would
  // share storage), and a node is aliased by one output at most; the aliased
  // node's slot becomes an output slot too, so nothing reuses or overwrites it.
  const aliasOf = new Map<Node, Node>();
  if (opts.fusion) {
    const aliased = new Set<Node>();
    for (const n of g.outputs) {
      if (n.op !== 'reshape' || aliasOf.has(n)) continue;
      const x = n.inputs[0]!;
      if (!R.has(x) || x.op === 'input' || outputs.has(x) || aliased.has(x)) continue;
      aliasOf.set(n, x);
      aliased.add(x);
    }
  }

  // 5. Slots and kernels, in topological order.
  const slots: SlotInfo[] = [];
  const slotOf = new Map<Node, number>();
  for (const x of g.inputs) {
    slotOf.set(x, slots.length);
    slots.push({ shape: [...x.shape], dtype: x.dtype, role: 'input', buffer: -1 });
  }
  for (const n of nodes) {
    if (R.has(n) && n.op !== 'input') {
      slotOf.set(n, slots.length);
      const base = aliasOf.get(n);
      slots.push({ shape: [...n.shape], dtype: n.dtype, role: outputs.has(n) ? 'output' : 'intermediate', buffer: -1, ...(base !== undefined ? { alias: slotOf.get(base)! } : {}) });
      if (base !== undefined) slots[slotOf.get(base)!]!.role = 'output';
    }
  }

  const buildExpr = (root: Node, start: Node, acc: Node | undefined, fused: string[]): Expr => {
    const instrs: Instr[] = [];
    const loads: Load[] = [];
    const loadIndex = new Map<string, number>();
    const memo = new Map<string, number>();
    const emit = (n: Node, path: ViewStep[], pk: string): number => {
      const key = n.op === 'const' && !R.has(n) ? `c${n.id}` : `${n.id}@${pk}`;
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
      let idx: number;
      if (n === acc) {
        instrs.push({ op: 'acc', dtype: n.dtype });
      } else if (n.op === 'const' && !(R.has(n) && n !== root)) {
        const param = n.attrs['param'] as number | undefined;
        instrs.push({ op: 'const', value: n.attrs['value'] as number | number[], dtype: n.dtype, ...(param !== undefined ? { param } : {}) });
      } else if (n.op === 'input' || (R.has(n) && n !== root)) {
        const chain = [...path].reverse();
        const lk = `${slotOf.get(n)}|${pk}`;
        let li = loadIndex.get(lk);
        if (li === undefined) {
          li = loads.length;
          loads.push({ slot: slotOf.get(n)!, dtype: n.dtype, chain });
          loadIndex.set(lk, li);
        }
        instrs.push({ op: 'load', load: li, dtype: n.dtype });
      } else if (kind(n) === 'movement') {
        const st = stepOf(n);
        fused.push(n.op);
        return memo.set(key, emit(n.inputs[0]!, [...path, st], pk + '/' + stepKey(st))).get(key)!;
      } else {
        if (kind(n) !== 'elementwise') throw new Error(`internal: cannot fuse ${n.op} into a loop`);
        const args = n.inputs.map((x) => emit(x, path, pk));
        fused.push(n.op);
        instrs.push({ op: n.op as Exclude<Instr['op'], 'load' | 'const' | 'acc'>, args, dtype: n.dtype, attrs: n.attrs } as Instr);
      }
      idx = instrs.length - 1;
      memo.set(key, idx);
      return idx;
    };
    emit(start, [], '');
    return { instrs, loads };
  };

  const kernels: Kernel[] = [];
  for (const n of nodes) {
    // A registered call's further outputs are written by the call's kernel (below).
    if (!R.has(n) || n.op === 'input' || n.op === 'part' || aliasOf.has(n)) continue;
    const out = slotOf.get(n)!;
    const fused: string[] = [];
    const host = epilogueOf.get(n);
    const base = { out, outDType: n.dtype, outShape: [...n.shape] };
    const src = host ?? n;
    if (kind(src) === 'reduce') {
      fused.push(src.op);
      const prologue = buildExpr(src, src.inputs[0]!, undefined, fused);
      const epilogue = host ? buildExpr(n, n, host, fused) : undefined;
      kernels.push({ kind: 'reduce', ...base, op: src.op as ReduceOp, inShape: [...src.inputs[0]!.shape], axes: src.attrs['axes'] as number[], prologue, epilogue, fused: fused as Kernel['fused'] });
    } else if (src.op === 'matmul') {
      fused.push('matmul');
      const [a, b] = src.inputs.map((x) => buildExpr(src, x, undefined, fused));
      // An operand expression is a load, possibly followed by conj instructions (conjView).
      const conjOf = (e: Expr) => e.instrs.filter((i) => i.op === 'conj').length % 2 === 1;
      const epilogue = host ? buildExpr(n, n, host, fused) : undefined;
      kernels.push({ kind: 'matmul', ...base, a: a!.loads[0]!, b: b!.loads[0]!, aShape: [...src.inputs[0]!.shape], bShape: [...src.inputs[1]!.shape], aConj: conjOf(a!), bConj: conjOf(b!), epilogue, fused: fused as Kernel['fused'] });
    } else if (kind(n) === 'opaque' || kind(n) === 'composite') {
      kernels.push({
        kind: 'opaque', ...base, op: kind(n) === 'composite' ? 'composite' : (n.op as 'cumsum'), name: n.op,
        inputs: n.inputs.map((x) => slotOf.get(n.op === 'registered' ? reshapeBase(x) : x)!), inShapes: n.inputs.map((x) => [...x.shape]), inDTypes: n.inputs.map((x) => x.dtype),
        attrs: n.attrs, fused: [n.op] as Kernel['fused'],
        ...(n.op === 'registered' ? partSlots(n) : {}),
      });
    } else {
      kernels.push({ kind: 'elementwise', ...base, expr: buildExpr(n, n, undefined, fused), fused: fused as Kernel['fused'] });
    }
  }

  return { kernels, slots, inputSlots: g.inputs.map((x) => slotOf.get(x)!), outputSlots: g.outputs.map((o) => slotOf.get(o)!) };

  /** The slots of a registered call's part nodes in this graph, by output index (CSE leaves one node per index). */
  function partSlots(call: Node): { parts?: number[] } {
    let parts: number[] | undefined;
    for (const c of consumers.get(call) ?? []) {
      if (c.op !== 'part') continue;
      parts ??= [];
      parts[c.attrs['index'] as number] = slotOf.get(c)!;
    }
    if (parts === undefined) return {};
    for (let i = 0; i < parts.length; i++) parts[i] ??= -1;
    return { parts };
  }
}

function stepOf(n: Node): ViewStep {
  return { op: n.op as ViewStep['op'], attrs: n.attrs, inShape: [...n.inputs[0]!.shape], outShape: [...n.shape] };
}
function stepKey(s: ViewStep): string {
  return `${s.op}(${attrsKey(s.attrs)};${s.inShape.join(',')})`;
}
