// Approximate minimum degree ordering on a symmetric graph (the pattern of A + Aᵀ).
//
// The algorithm is that of Amestoy, Davis & Duff ("An approximate minimum degree
// ordering algorithm", SIAM J. Matrix Anal. Appl. 1996; also ch. 7 of Davis,
// "Direct Methods for Sparse Linear Systems"), written here from the description
// with plain per-node lists instead of AMD's single in-place workspace:
//
// - Quotient graph. Eliminating a variable p turns it into an *element* whose
//   variable set Lp is the fill clique of p. A variable i keeps two lists: A[i],
//   the variables still adjacent to it through original edges, and E[i], the
//   elements it belongs to. Elements adjacent to p are absorbed into p, so the
//   graph never grows beyond nnz(A) + O(n) — the point of the quotient graph.
// - Approximate degree. Exact external degrees are costly; for i in Lp we bound
//     d(i) ≤ |A[i] \ Lp| + |Lp \ i| + Σ_{e ∈ E[i], e ≠ p} |Le \ Lp|
//   where every |Le \ Lp| comes out of one pass over the E lists of Lp (the
//   w(e) counters), and also by d_old(i) + |Lp \ i| and by the number of
//   uneliminated variables. This is AMD's bound; it is exact more often than not.
// - Aggressive absorption: an element with |Le \ Lp| = 0 is a subset of Lp and is
//   dropped. Edges of A[i] inside Lp are pruned (the element p covers them).
// - Dense rows (degree > 10·√n) are ordered last, as AMD does, so that one dense
//   row cannot make every degree update quadratic.
// Not done (deliberately, for code size): supervariable detection and mass
// elimination. They change speed and tie-breaking, not correctness; on 2D/3D
// grids the fill is still far below natural or RCM order.

import type { Graph } from './ordering.js';

export function amdOrder(g: Graph): Int32Array {
  const { n, ptr, adj } = g;
  const order = new Int32Array(n);
  if (n === 0) return order;

  const dense = new Uint8Array(n);
  const denseCut = Math.max(16, 10 * Math.sqrt(n));
  let nDense = 0;
  for (let i = 0; i < n; i++)
    if (ptr[i + 1] - ptr[i] > denseCut) {
      dense[i] = 1;
      nDense++;
    }

  // status: 0 live variable, 1 live element, 2 absorbed element, 3 dense (set aside)
  const status = new Uint8Array(n);
  const A: (number[] | null)[] = new Array(n);
  const E: (number[] | null)[] = new Array(n);
  const Le: (number[] | null)[] = new Array(n).fill(null);
  const deg = new Int32Array(n);
  // Live lengths of A[i] and E[i]: lists are compacted in place and never
  // shrunk (Array length changes were a third of the run time, with GC).
  const alen = new Int32Array(n);
  const elen = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    E[i] = [];
    if (dense[i]) {
      status[i] = 3;
      A[i] = null;
      continue;
    }
    const list: number[] = [];
    for (let p = ptr[i]; p < ptr[i + 1]; p++) if (!dense[adj[p]]) list.push(adj[p]);
    A[i] = list;
    alen[i] = list.length;
    deg[i] = list.length;
  }

  // Degree buckets: doubly linked lists, head[d] is the last inserted (LIFO, like AMD).
  const head = new Int32Array(n).fill(-1);
  const next = new Int32Array(n).fill(-1);
  const prev = new Int32Array(n).fill(-1);
  const insert = (i: number, d: number) => {
    next[i] = head[d];
    prev[i] = -1;
    if (head[d] >= 0) prev[head[d]] = i;
    head[d] = i;
  };
  const remove = (i: number) => {
    if (prev[i] >= 0) next[prev[i]] = next[i];
    else head[deg[i]] = next[i];
    if (next[i] >= 0) prev[next[i]] = prev[i];
  };
  for (let i = 0; i < n; i++) if (!dense[i]) insert(i, deg[i]);

  const mark = new Int32Array(n).fill(-1); // mark[v] === p: v is in Lp of the current pivot p
  const wStamp = new Int32Array(n).fill(-1); // wStamp[e] === p: w[e] holds |Le \ Lp| for this p
  const w = new Int32Array(n);
  let minDeg = 0;
  const nLive = n - nDense;

  for (let k = 0; k < nLive; k++) {
    while (head[minDeg] < 0) minDeg++;
    const p = head[minDeg];
    remove(p);
    order[k] = p;
    status[p] = 1;

    // Lp = (A[p] ∪ ⋃_{e ∈ E[p]} Le) \ {p}, restricted to live variables; absorb those elements.
    const Lp: number[] = [];
    mark[p] = p;
    const Ap = A[p]!,
      Ep = E[p]!;
    for (let t = 0, tn = alen[p]; t < tn; t++) {
      const j = Ap[t];
      if (status[j] === 0 && mark[j] !== p) {
        mark[j] = p;
        Lp.push(j);
      }
    }
    for (let t = 0, tn = elen[p]; t < tn; t++) {
      const e = Ep[t];
      if (status[e] !== 1) continue;
      for (const j of Le[e]!)
        if (status[j] === 0 && mark[j] !== p) {
          mark[j] = p;
          Lp.push(j);
        }
      status[e] = 2;
      Le[e] = null;
    }
    Le[p] = Lp;
    A[p] = null;
    E[p] = null;
    const remaining = nLive - k - 1;

    // Pass 1: w[e] = |Le \ Lp| for every live element touching Lp.
    for (const i of Lp) {
      remove(i);
      const Ei = E[i]!;
      for (let t = 0, tn = elen[i]; t < tn; t++) {
        const e = Ei[t];
        if (status[e] !== 1) continue;
        if (wStamp[e] !== p) {
          wStamp[e] = p;
          w[e] = Le[e]!.length;
        }
        w[e]--;
      }
    }

    // Pass 2: prune lists, bound the degree, reinsert.
    const lpOther = Lp.length - 1;
    for (const i of Lp) {
      const Ei = E[i]!;
      let ext = 0,
        m = 0;
      for (let t = 0, tn = elen[i]; t < tn; t++) {
        const e = Ei[t];
        if (status[e] !== 1) continue;
        if (w[e] === 0) {
          status[e] = 2; // aggressive absorption: Le ⊆ Lp
          Le[e] = null;
          continue;
        }
        Ei[m++] = e;
        ext += w[e];
      }
      Ei[m++] = p; // in place, or a push when the list is full
      elen[i] = m;
      const Ai = A[i]!;
      m = 0;
      for (let t = 0, tn = alen[i]; t < tn; t++) {
        const j = Ai[t];
        if (status[j] === 0 && mark[j] !== p) Ai[m++] = j;
      }
      alen[i] = m;
      let d = Math.min(remaining, deg[i] + lpOther, m + lpOther + ext);
      if (d < 0) d = 0;
      deg[i] = d;
      insert(i, d);
      if (d < minDeg) minDeg = d;
    }
  }
  // Dense nodes last, in index order.
  let k = nLive;
  for (let i = 0; i < n; i++) if (dense[i]) order[k++] = i;
  return order;
}
