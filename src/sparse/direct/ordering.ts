// Fill-reducing orderings for the direct solvers, all computed on the graph of
// A + Aᵀ (off-diagonal pattern, values ignored):
//   - 'amd'     approximate minimum degree (amd.ts), the default: the best fill
//               on 2D/3D PDE matrices of the orderings here;
//   - 'rcm'     reverse Cuthill–McKee, a bandwidth/profile reduction — a clear
//               win over natural order on scrambled matrices, weaker than AMD on
//               grids (the envelope of a grid is still ~n^1.5);
//   - 'natural' the identity.
// Using A + Aᵀ for the LU's column ordering is the "symmetric strategy" of
// UMFPACK/SuperLU: with the pivot threshold preferring the diagonal, the row
// permutation mostly follows the column one and the predicted fill holds.

import { ValueError } from '../../tensor/errors.js';
import { amdOrder } from './amd.js';
import type { CscMatrix } from './csc.js';

export type OrderingName = 'amd' | 'rcm' | 'natural';

/** Adjacency of the graph of A + Aᵀ: no self loops, no duplicate edges. */
export interface Graph {
  n: number;
  ptr: Int32Array;
  adj: Int32Array;
}

/** Build the symmetric pattern of A + Aᵀ from CSC A (rows within a column may be unsorted). */
export function symmetricGraph(a: CscMatrix): Graph {
  const { n, colptr, rowind } = a;
  // Count each off-diagonal (i, j) in both rows, then dedupe with a marker.
  const cnt = new Int32Array(n + 1);
  for (let j = 0; j < n; j++)
    for (let p = colptr[j]; p < colptr[j + 1]; p++) {
      const i = rowind[p];
      if (i !== j) {
        cnt[i + 1]++;
        cnt[j + 1]++;
      }
    }
  for (let i = 0; i < n; i++) cnt[i + 1] += cnt[i];
  const raw = new Int32Array(cnt[n]);
  const next = cnt.slice(0, n);
  for (let j = 0; j < n; j++)
    for (let p = colptr[j]; p < colptr[j + 1]; p++) {
      const i = rowind[p];
      if (i !== j) {
        raw[next[i]++] = j;
        raw[next[j]++] = i;
      }
    }
  const ptr = new Int32Array(n + 1);
  const adj = new Int32Array(raw.length);
  const mark = new Int32Array(n).fill(-1);
  let w = 0;
  for (let i = 0; i < n; i++) {
    for (let p = cnt[i]; p < cnt[i + 1]; p++) {
      const j = raw[p];
      if (mark[j] !== i) {
        mark[j] = i;
        adj[w++] = j;
      }
    }
    ptr[i + 1] = w;
  }
  return { n, ptr, adj: adj.slice(0, w) };
}

/** The permutation q (new position k holds old index q[k]) for the named ordering. */
export function fillReducingOrder(a: CscMatrix, ordering: OrderingName, op: string): Int32Array {
  switch (ordering) {
    case 'natural': {
      const q = new Int32Array(a.n);
      for (let i = 0; i < a.n; i++) q[i] = i;
      return q;
    }
    case 'rcm':
      return rcmOrder(symmetricGraph(a));
    case 'amd':
      return amdOrder(symmetricGraph(a));
    default:
      throw new ValueError(`${op}: ordering must be 'amd', 'rcm' or 'natural', got ${String(ordering)}`);
  }
}

/**
 * Breadth-first level structure from `root` over unvisited-in-this-component
 * nodes; returns the nodes in BFS order (children by increasing degree, the
 * Cuthill–McKee rule) and the number of levels. `stamp` marks visited nodes.
 */
function bfs(g: Graph, root: number, stamp: Int32Array, tag: number, deg: Int32Array, out: Int32Array, levelStart: number[]): number {
  let head = 0,
    tail = 0;
  out[tail++] = root;
  stamp[root] = tag;
  levelStart.length = 0;
  while (head < tail) {
    levelStart.push(head);
    const end = tail;
    for (; head < end; head++) {
      const v = out[head];
      const first = tail;
      for (let p = g.ptr[v]; p < g.ptr[v + 1]; p++) {
        const w = g.adj[p];
        if (stamp[w] !== tag) {
          stamp[w] = tag;
          out[tail++] = w;
        }
      }
      // Insertion sort of this node's new children by degree (lists are short).
      for (let s = first + 1; s < tail; s++) {
        const x = out[s];
        let t = s - 1;
        while (t >= first && deg[out[t]] > deg[x]) {
          out[t + 1] = out[t];
          t--;
        }
        out[t + 1] = x;
      }
    }
  }
  return tail;
}

/**
 * Reverse Cuthill–McKee (George & Liu, "Computer Solution of Large Sparse
 * Positive Definite Systems", ch. 4): per connected component, start from a
 * pseudo-peripheral node (repeat BFS from a min-degree node of the last level
 * while the eccentricity grows), number by BFS, and reverse the whole order.
 */
export function rcmOrder(g: Graph): Int32Array {
  const { n } = g;
  const deg = new Int32Array(n);
  for (let i = 0; i < n; i++) deg[i] = g.ptr[i + 1] - g.ptr[i];
  const done = new Uint8Array(n);
  const stamp = new Int32Array(n).fill(-1);
  const order = new Int32Array(n);
  const buf = new Int32Array(n);
  const levels: number[] = [];
  let tag = 0,
    k = 0;
  for (let s = 0; s < n; s++) {
    if (done[s]) continue;
    // Component of s: start from its minimum-degree node.
    let root = s;
    let size = bfs(g, s, stamp, tag++, deg, buf, levels);
    for (let t = 0; t < size; t++) if (deg[buf[t]] < deg[root]) root = buf[t];
    size = bfs(g, root, stamp, tag++, deg, buf, levels);
    let ecc = levels.length;
    for (let iter = 0; iter < 8; iter++) {
      let cand = buf[levels[levels.length - 1]];
      for (let t = levels[levels.length - 1]; t < size; t++) if (deg[buf[t]] < deg[cand]) cand = buf[t];
      bfs(g, cand, stamp, tag++, deg, buf, levels);
      if (levels.length <= ecc) break;
      ecc = levels.length;
      root = cand;
    }
    size = bfs(g, root, stamp, tag++, deg, buf, levels);
    for (let t = 0; t < size; t++) {
      order[k++] = buf[t];
      done[buf[t]] = 1;
    }
  }
  order.reverse();
  return order;
}
