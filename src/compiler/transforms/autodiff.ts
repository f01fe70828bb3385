// Forward- and reverse-mode differentiation of lazy graphs, graph to graph.
//
// Both walk the DAG between the differentiated inputs and the outputs and apply
// each primitive's rule (rules/jvp.ts, rules/vjp.ts). Symbolic zeros are `null`:
// a node whose inputs carry no tangent gets none, and no multiply-by-zero nodes
// are built. A realized node that depends on a tracked input is seen through its
// history, so materializing inside a differentiated function is safe.
//
// A registered call has several outputs: the call node (output 0) and its
// 'part' nodes. Its rule takes or gives the derivatives of all of them at
// once: forward mode keeps the tangents of the parts for when the walk reaches
// them; reverse mode reaches every part before the call (parts use the call)
// and hands the call's rule the cotangents gathered on each.

import { type Node, topoSortHistory, parentsOf, producerOf, attrsOf, nextNodeId, releaseDead, markIntermediatePart } from '../ir.js';
import { Tensor } from '../../tensor/tensor.js';
import { isInexact } from '../../tensor/dtype.js';
import { fmtShape, shapesEqual } from '../../tensor/shape.js';
import type { AdPrimitive, RuleCtx, RulePrimitive } from './rule-types.js';
import { JVP_RULES } from './rules/jvp.js';
import { VJP_RULES } from './rules/vjp.js';
import { STRUCTURAL_JVP, STRUCTURAL_VJP } from './structural-rules.js';
import { TransformError } from '../../tensor/errors.js';
import { opJvp, opVjp } from './rules/op-rules.js';
import { callOutputs } from '../primitives.js';

const differentiable = (n: Node) => isInexact(n.dtype);

export function ruleCtx(n: Node): RuleCtx {
  return { node: n, attrs: attrsOf(n), inputs: parentsOf(n).map((x) => new Tensor(x)), out: new Tensor(n) };
}

/** Nodes in `order` that depend on one of `sources`. */
function dependents(order: readonly Node[], sources: ReadonlySet<Node>): Set<Node> {
  const dep = new Set<Node>();
  for (const n of order) if (sources.has(n) || parentsOf(n).some((x) => dep.has(x))) dep.add(n);
  return dep;
}

function checkSame(what: string, n: Node, t: Tensor): Tensor {
  if (!shapesEqual(t.node.shape, n.shape)) throw new Error(`internal: ${what} rule of '${producerOf(n)}' gave shape ${fmtShape(t.node.shape)} for a node of shape ${fmtShape(n.shape)}`);
  const c = t.dtype === n.dtype ? t : t.cast(n.dtype);
  // A tangent or cotangent lives where its primal does (a primal moved by .on(device) moves its derivative too).
  return n.device !== undefined && c.node.device !== undefined && c.node.device !== n.device ? c.on(n.device) : c;
}

/** Tangents of `outs` given tangents of `wrt` (null = zero). */
export function forwardMode(outs: readonly Node[], wrt: readonly Node[], tangents: readonly (Tensor | null)[]): (Tensor | null)[] {
  const order = topoSortHistory(outs);
  const tan = new Map<Node, Tensor>();
  wrt.forEach((w, i) => {
    const t = tangents[i];
    if (t) tan.set(w, t);
  });
  const dep = dependents(order, new Set(wrt));
  // Tangents of a registered call's parts, by part node (set when the walk reaches the call).
  const partTan = new Map<Node, Tensor>();
  for (const n of order) {
    if (tan.has(n) || !dep.has(n) || parentsOf(n).length === 0) continue;
    const op = producerOf(n) as RulePrimitive | 'part';
    if (op === 'part') {
      const t = partTan.get(n);
      if (t && differentiable(n)) tan.set(n, checkSame('jvp', n, t));
      continue;
    }
    const ps = parentsOf(n);
    const ts = ps.map((x) => tan.get(x) ?? null);
    if (ts.every((t) => t === null)) continue;
    if (op === 'registered') {
      const outs = callOutputs(n);
      const touts = opJvp(ruleCtx(n), ts);
      outs.forEach((o, i) => {
        const t = touts[i];
        if (!t || !differentiable(o)) return;
        if (o === n) tan.set(n, checkSame('jvp', n, t));
        else partTan.set(o, t);
      });
      continue;
    }
    if (!differentiable(n)) continue;
    const rule = STRUCTURAL_JVP[op] ?? JVP_RULES[op as AdPrimitive];
    if (!rule) throw new TransformError(`jvp: primitive '${op}' has no JVP rule`);
    const t = rule(ruleCtx(n), ts);
    if (t) tan.set(n, checkSame('jvp', n, t));
  }
  return outs.map((o) => tan.get(o) ?? null);
}

/** Cotangents of `wrt` given cotangents of `outs` (null = zero). */
/**
 * Cotangents of `wrt` given cotangents of `outs` (null = zero). `returned`:
 * when the graph is a traced function's (grad, vjp), everything it returned;
 * outputs of its registered calls that nothing used and it did not return
 * are then its intermediates (ir.ts, markIntermediatePart).
 */
export function reverseMode(outs: readonly Node[], cts: readonly (Tensor | null)[], wrt: readonly Node[], returned?: readonly Node[]): (Tensor | null)[] {
  const since = nextNodeId();
  // Cotangents a rule gave for inputs that take none (not differentiated, or not depending on wrt): never used.
  const discarded: Node[] = [];
  const order = topoSortHistory(outs);
  const dep = dependents(order, new Set(wrt));
  const ct = new Map<Node, Tensor>();
  const add = (n: Node, g: Tensor) => {
    const v = checkSame('vjp', n, g);
    const prev = ct.get(n);
    ct.set(n, prev ? prev.add(v) : v);
  };
  outs.forEach((o, i) => {
    const c = cts[i];
    if (c && dep.has(o) && differentiable(o)) add(o, c);
  });
  for (let i = order.length - 1; i >= 0; i--) {
    const n = order[i]!;
    const ps = parentsOf(n);
    if (ps.length === 0) continue;
    const op = producerOf(n) as RulePrimitive | 'part';
    // A part's cotangent is complete here (its users come later in `order`): the call's rule takes it.
    if (op === 'part') continue;
    const g = ct.get(n);
    let gs: (Tensor | null)[];
    if (op === 'registered') {
      const outs = callOutputs(n);
      const cts = outs.map((o) => ct.get(o) ?? null);
      if (cts.every((c) => c === null)) continue;
      gs = opVjp(ruleCtx(n), cts);
    } else {
      if (!g) continue;
      const rule = STRUCTURAL_VJP[op] ?? VJP_RULES[op as AdPrimitive];
      if (!rule) throw new TransformError(`vjp: primitive '${op}' has no VJP rule`);
      gs = rule(ruleCtx(n), g);
    }
    ps.forEach((x, k) => {
      const gx = gs[k];
      if (gx && dep.has(x) && differentiable(x)) add(x, gx);
      else if (gx) discarded.push(gx.node);
    });
  }
  if (returned !== undefined)
    for (const n of order)
      if (n.parts !== undefined && dep.has(n)) for (const p of n.parts) if (p !== n && p.users === 0 && !returned.includes(p)) markIntermediatePart(p);
  const grads = wrt.map((w) => ct.get(w) ?? null);
  // Their uses would make the nodes they read look used outside the gradient's graph (realize.ts computes such nodes
  // as extra outputs, in fresh buffers: a loss's image cotangent, 5.8 MB a splat training step).
  releaseDead(discarded, grads.filter((g): g is Tensor => g !== null).map((g) => g.node), since);
  return grads;
}

/** Throws unless every node is differentiable (float or complex). */
export function requireDifferentiable(what: string, nodes: readonly Node[]): void {
  nodes.forEach((n, i) => {
    if (!differentiable(n)) throw new TransformError(`${what} ${i} has dtype ${n.dtype}; only float and complex values are differentiable`);
  });
}
