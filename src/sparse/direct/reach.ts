// Symbolic step of the Gilbert–Peierls sparse triangular solve (Gilbert &
// Peierls 1988; Davis, "Direct Methods for Sparse Linear Systems", §3.2).
//
// Solving L x = b with sparse b, the nonzeros of x are exactly the nodes
// reachable from the nonzero rows of b in the graph of L (edge j → i for each
// L(i, j) ≠ 0). A depth-first search gives that set *and* a topological order
// of it (reverse postorder), which is the order the numeric solve must use — in
// time proportional to the flops, not to n. That is what makes a left-looking
// LU cost O(flops) overall.
//
// During the LU, L's columns hold ORIGINAL row indices and only the columns of
// already pivoted rows exist: row j has out-edges iff pinv[j] ≥ 0 (it was the
// pivot of column pinv[j]); unpivoted rows are leaves.
//
// Only L(Lp[J] .. Lend[J]) of each column is searched: lu-factor.ts applies
// Eisenstat & Liu's symmetric pruning, moving to the tail the entries whose
// reachability is already implied through a later pivot. The reach set is
// unchanged (so is the topological validity of the order); the search is shorter.

export interface ReachWork {
  /** output: xi[top..n-1] is the reach in topological order */
  xi: Int32Array;
  /** DFS node stack */
  stack: Int32Array;
  /** per-stack-level position in the node's adjacency */
  pos: Int32Array;
  /** mark[j] === stamp: visited in this search */
  mark: Int32Array;
}

export function reachWork(n: number): ReachWork {
  return { xi: new Int32Array(n), stack: new Int32Array(n), pos: new Int32Array(n), mark: new Int32Array(n).fill(-1) };
}

/**
 * Reach of column `col` of B (CSC Bp/Bi) in the graph of L (Lp/Lend/Li,
 * columns indexed by pivot step). Returns top; the reach is w.xi[top..n-1]. `stamp`
 * must differ from every stamp used before on this workspace.
 */
export function reach(
  n: number,
  Bp: Int32Array,
  Bi: Int32Array,
  col: number,
  Lp: Int32Array,
  Lend: Int32Array,
  Li: Int32Array,
  pinv: Int32Array,
  w: ReachWork,
  stamp: number,
): number {
  const { xi, stack, pos, mark } = w;
  let top = n;
  for (let q = Bp[col]; q < Bp[col + 1]; q++) {
    const start = Bi[q];
    if (mark[start] === stamp) continue;
    // Iterative DFS from `start`.
    let head = 0;
    stack[0] = start;
    mark[start] = stamp;
    const J0 = pinv[start];
    pos[0] = J0 < 0 ? 0 : Lp[J0];
    while (head >= 0) {
      const j = stack[head];
      const J = pinv[j];
      const end = J < 0 ? 0 : Lend[J];
      let p = pos[head];
      let descended = false;
      for (; p < end; p++) {
        const i = Li[p];
        if (mark[i] === stamp) continue;
        mark[i] = stamp;
        pos[head] = p + 1;
        stack[++head] = i;
        const I = pinv[i];
        pos[head] = I < 0 ? 0 : Lp[I];
        descended = true;
        break;
      }
      if (!descended) {
        head--;
        xi[--top] = j;
      }
    }
  }
  return top;
}
