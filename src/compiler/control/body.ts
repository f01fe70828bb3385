// Sub-graphs of control flow ("bodies"): traced once on proxies, with every
// outside value the body closes over lifted into an explicit input, compiled
// into their own executable and kept in a registry keyed by structure (so the
// same body traced again reuses its executable).

import { Node, topoSort } from '../ir.js';
import { bind } from '../primitives.js';
import { Tensor } from '../../tensor/tensor.js';
import { executableFor } from '../realize.js';
import { capture } from '../graph.js';
import { isSpecialLiteral } from '../passes/const-value.js';
import { defaultDevice } from '../../backends/registry.js';
import { addBody, bodyIdOf, getBody, type Aval, type Body } from '../bodies.js';

let nextProxy = 1;

/** A fresh proxy input of the given abstract value. */
export function proxy(a: Aval, tag = 'p', device?: string): Tensor {
  const n = new Node('input', [], { name: `${tag}${nextProxy++}` }, a.shape, a.dtype);
  n.device = device; // control flow nested in the body runs on the same device
  return new Tensor(n);
}

/**
 * Traces fn on proxies of `inAvals`; returns the registered body and the outside
 * nodes it closes over (to be passed as the first inputs of the control node).
 */
export function traceBody(fn: (...xs: Tensor[]) => Tensor[], inAvals: readonly Aval[], device?: string): { body: Body; consts: Node[] } {
  const proxies = inAvals.map((a) => proxy(a, 'p', device).node);
  const outs = fn(...proxies.map((p) => new Tensor(p))).map((t) => t.node);
  return registerGraph(proxies, outs, device);
}

/** The device a control node's body runs on: the first pinned one among its operands. */
export function deviceOfOperands(ts: readonly { node: Node }[]): string | undefined {
  for (const t of ts) if (t.node.device !== undefined) return t.node.device;
  return undefined;
}

/** Registers an already-built graph from `proxies` to `outs` as a body (lifting closures). */
export function registerGraph(proxies: readonly Node[], outs: readonly Node[], device?: string): { body: Body; consts: Node[] } {
  const order = topoSort(outs);
  const pset = new Set(proxies);
  const dep = new Set<Node>();
  for (const n of order) if (pset.has(n) || n.inputs.some((x) => dep.has(x))) dep.add(n);
  // Outside values: not depending on a proxy, used by the body (or returned).
  // Literals stay in the body only when a pass may rewrite on their value
  // (x*1...): any other literal is lifted too, so that bodies differing only in
  // a scalar share one registration and one executable (the key below, like
  // every capture key, does not spell parameter values: compiler/const-params.ts).
  const lifted: Node[] = [];
  const isOutside = (n: Node) => !dep.has(n) && (n.op !== 'const' || !isSpecialLiteral(n.attrs['value'] as number | number[]));
  const seen = new Set<Node>();
  const lift = (n: Node) => {
    if (!seen.has(n)) seen.add(n), lifted.push(n);
  };
  for (const n of order) if (dep.has(n)) for (const x of n.inputs) if (isOutside(x)) lift(x);
  for (const o of outs) if (isOutside(o)) lift(o);
  const constProxies = lifted.map((n) => proxy({ shape: n.shape, dtype: n.dtype }, 'c').node);
  const map = new Map<Node, Node>(lifted.map((n, i) => [n, constProxies[i]!]));
  for (const n of order) {
    if (map.has(n) || !dep.has(n) || pset.has(n)) continue;
    const ins = n.inputs.map((x) => map.get(x) ?? x);
    if (ins.every((x, i) => x === n.inputs[i])) continue;
    map.set(n, bind(n.op, ins, n.attrs));
  }
  const newOuts = outs.map((o) => map.get(o) ?? o);
  const inputs = [...constProxies, ...proxies];
  const dev = device ?? lifted.find((n) => n.device !== undefined)?.device ?? defaultDevice();
  const cap = capture(newOuts, `body:${dev}`, inputs);
  // Every literal left in the body is keyed by value, so no parameter remains.
  if (cap.consts.length !== 0) throw new Error('internal: a control-flow body kept a parameter literal');
  const key = cap.key;
  const id = bodyIdOf(key);
  if (id !== undefined) return { body: getBody(id), consts: lifted };
  const { exe } = executableFor(newOuts, dev, inputs);
  const body = addBody(key, (bid) => ({ id: bid, exe, nConst: lifted.length, outAvals: newOuts.map((o) => ({ shape: o.shape, dtype: o.dtype })), inputs, outputs: newOuts }));
  return { body, consts: lifted };
}
