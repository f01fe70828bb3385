// vmap: batching by interpretation. f is traced once on per-example proxies
// (symbolic inputs with the batch axis removed); the resulting graph is then
// re-bound node by node with each primitive's batching rule.

import { Tensor } from '../../tensor/tensor.js';
import { TransformError } from '../../tensor/errors.js';
import { fmtShape } from '../../tensor/shape.js';
import { Node, topoSort } from '../ir.js';
import { bind } from '../primitives.js';
import { flatten, unflatten, type PyTree, type TensorTree } from './pytree.js';
import { BATCH_RULES } from './rules/batch.js';
import { STRUCTURAL_BATCH } from './structural-rules.js';
import { batchFirst, moveAxis } from './rules/batch-helpers.js';
import type { RulePrimitive } from './rule-types.js';

interface BVal {
  t: Tensor;
  dim: number | null;
}

export interface VmapOptions {
  /** Batch axis per positional argument (null = not batched); a single value applies to all. Default 0. */
  inAxes?: number | null | (number | null)[];
  /** Where the batch axis goes in each output (default 0); a single value applies to all. */
  outAxes?: number | (number | null)[];
  /** Batch size, required only when no argument is batched. */
  axisSize?: number;
}

let proxyCount = 0;
/** Proxies of the vmaps being traced now (an inner vmap sees an outer one's proxies as leaves). */
const liveProxies = new Set<Node>();

/** Re-binds the graph above `outs` with batching rules, starting from `env`. */
export function batchGraph(outs: readonly Node[], env: Map<Node, BVal>): BVal[] {
  for (const n of topoSort(outs)) {
    if (env.has(n)) continue;
    if (n.isLeaf) {
      if (n.op === 'input' && n.attrs['vmapProxy'] && !liveProxies.has(n)) throw new TransformError('vmap: a proxy escaped its vmap');
      env.set(n, { t: new Tensor(n), dim: null });
      continue;
    }
    const ins = n.inputs.map((x) => env.get(x)!);
    if (ins.every((v) => v.dim === null)) {
      const same = ins.every((v, i) => v.t.node === n.inputs[i]);
      env.set(n, { t: same ? new Tensor(n) : new Tensor(bind(n.op, ins.map((v) => v.t.node), n.attrs)), dim: null });
      continue;
    }
    const rule = STRUCTURAL_BATCH[n.op] ?? BATCH_RULES[n.op as RulePrimitive];
    if (!rule) throw new TransformError(`vmap: primitive '${n.op}' has no batching rule`);
    const r = rule({ node: n, attrs: n.attrs, inputs: ins.map((v) => v.t), out: new Tensor(n) }, ins.map((v) => v.dim));
    env.set(n, { t: r.out, dim: r.dim });
  }
  return outs.map((o) => env.get(o)!);
}

function perArg<T>(spec: T | T[] | undefined, n: number, dflt: T, what: string): T[] {
  if (spec === undefined) return Array(n).fill(dflt);
  if (!Array.isArray(spec)) return Array(n).fill(spec);
  if (spec.length !== n) throw new TransformError(`vmap: ${what} has ${spec.length} entries for ${n} ${what === 'inAxes' ? 'arguments' : 'outputs'}`);
  return spec;
}

/**
 * vmap(f, {inAxes, outAxes}): f mapped over a batch axis of its arguments.
 * Typed: the mapped function takes f's parameters and returns f's result's
 * structure with Tensor leaves (batched tensors are still Tensors).
 * @example
 * ```ts
 * const rowSums = vmap((r: Tensor) => r.sum());   // mapped over axis 0
 * rowSums(tensor([[1, 2], [3, 4]])).tolist();      // [3, 7]
 * ```
 */
export function vmap<F extends (...args: any[]) => PyTree>(f: F, opts?: VmapOptions): (...args: Parameters<F>) => TensorTree<ReturnType<F>>;
export function vmap(f: (...args: any[]) => PyTree, opts: VmapOptions = {}) {
  return (...args: unknown[]): PyTree => {
    const axes = perArg(opts.inAxes, args.length, 0 as number | null, 'inAxes');
    const env = new Map<Node, BVal>();
    const mine: Node[] = [];
    try {
      return run();
    } finally {
      for (const p of mine) liveProxies.delete(p);
    }
    function run(): PyTree {
    let size: number | undefined = opts.axisSize;
    let sizeFrom = opts.axisSize !== undefined ? 'axisSize' : '';
    const callArgs = args.map((a, i) => {
      const { leaves, def } = flatten(a as PyTree);
      const ax = axes[i]!;
      if (ax === null) return unflatten(def, leaves);
      const proxies = leaves.map((t, j) => {
        const s = t.node.shape;
        const d = ax < 0 ? ax + s.length : ax;
        if (d < 0 || d >= s.length) throw new TransformError(`vmap: inAxes ${ax} is out of range for argument ${i} of shape ${fmtShape(s)}`);
        const b = s[d] as number;
        if (size === undefined) (size = b), (sizeFrom = `argument ${i} axis ${d}`);
        else if (size !== b) throw new TransformError(`vmap: mismatched batch sizes: ${sizeFrom} has ${size}, argument ${i}${leaves.length > 1 ? ` leaf ${j}` : ''} axis ${d} has ${b}`);
        const p = new Node('input', [], { name: `vmap${proxyCount++}`, vmapProxy: true }, s.filter((_, k) => k !== d), t.dtype);
        env.set(p, { t, dim: d });
        mine.push(p);
        liveProxies.add(p);
        return new Tensor(p);
      });
      return unflatten(def, proxies);
    });
    if (size === undefined) throw new TransformError('vmap: no argument is batched; pass axisSize');
    const batchedDevice = [...env.values()].find((v) => v.t.device !== undefined)?.t.device;
    const out = f(...callArgs);
    const { leaves, def } = flatten(out);
    const res = batchGraph(leaves.map((l) => l.node), env);
    const oaxes = perArg(opts.outAxes, leaves.length, 0 as number | null, 'outAxes');
    const final = res.map((r, i) => {
      const oa = oaxes[i];
      if (oa === null || oa === undefined) {
        if (r.dim !== null) throw new TransformError(`vmap: output ${i} is batched but outAxes is null`);
        return r.t;
      }
      const rank = r.t.ndim + (r.dim === null ? 1 : 0);
      const d = oa < 0 ? oa + rank : oa;
      if (d < 0 || d >= rank) throw new TransformError(`vmap: outAxes ${oa} is out of range for output ${i} of rank ${rank}`);
      if (r.dim !== null) return moveAxis(r.t, r.dim, d);
      // An output that does not depend on the batched arguments (a constant) is broadcast along
      // the batch; it lives where they do (a literal alone has no device).
      const t = moveAxis(batchFirst(r.t, null, size!), 0, d);
      if (t.node.device === undefined && t.node !== r.t.node) t.node.device = batchedDevice;
      return t;
    });
    return unflatten(def, final);
    }
  };
}
