// Nodes computed together: realizing one member of a group also computes the
// members not computed yet, in the same graph. valueAndGrad groups its value
// with its gradients (JAX's value_and_grad computes both): one graph holding
// the forward and the backward keeps the forward's intermediates inside it,
// where its buffers are planned and reused from one step to the next
// (compiler/scratch.ts), instead of handing them out as fresh outputs for a
// later backward graph. Measured on the splat suite's training step (render
// of 100k Gaussians, L2 loss, value then the five gradients realized one by
// one): 57.4-58.8 ms a step realized apart, 53.3-53.5 ms together.
//
// Only members nothing uses yet come along: a gradient already consumed by
// other lazy ops (an optimizer's update, say) is computed with them, so a
// loss read later (losses kept lazily and printed at the end) does not redo
// the backward. A group holds its members strongly from each member (WeakMap),
// so an unconsumed member dropped by the caller is still computed when another
// is realized: the price of computing them together. Members pinned to another
// device than the one realized are left to their own realization.

import type { Node } from './ir.js';

const GROUPS = new WeakMap<Node, readonly Node[]>();

/** Makes the nodes a group (those not computed yet and not symbolic; fewer than two: nothing). */
export function realizeTogether(nodes: readonly Node[]): void {
  const members = [...new Set(nodes)].filter((n) => n.op !== 'buffer' && !n.symbolic);
  if (members.length < 2) return;
  for (const n of members) GROUPS.set(n, members);
}

/** roots and the members of their groups not computed yet that nothing uses (on the same device); roots itself when there are none. */
export function withGroupMembers(roots: readonly Node[]): readonly Node[] {
  let out: Node[] | undefined;
  for (const r of roots) {
    const g = GROUPS.get(r);
    if (g === undefined) continue;
    for (const m of g) {
      if (m.op === 'buffer' || m.users > 0 || m.device !== r.device || (out ?? roots).includes(m)) continue;
      (out ??= [...roots]).push(m);
    }
  }
  return out ?? roots;
}
