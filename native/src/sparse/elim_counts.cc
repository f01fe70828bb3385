// Column counts of the Cholesky factor (see elim_counts.h).
#include "sparse/elim_counts.h"

#include <cstddef>

namespace rlx::sparse {

void ColumnCounts::run(int n, const int* xadj, const int* adj, const int* q) {
  const size_t un = static_cast<size_t>(n);
  // The graph renumbered into the order (rows in position order), so the passes below read it sequentially.
  pos_.resize(un), rp_.resize(un + 1), ri_.resize(static_cast<size_t>(xadj[n]));
  for (int k = 0; k < n; k++) pos_[q[k]] = k;
  rp_[0] = 0;
  for (int k = 0, e = 0; k < n; k++) {
    const int v = q[k];
    for (int p = xadj[v]; p < xadj[v + 1]; p++) ri_[e++] = pos_[adj[p]];
    rp_[k + 1] = e;
  }
  const int *rp = rp_.data(), *ri = ri_.data();
  // Elimination tree, with path compression through `anc`.
  parent_.assign(un, -1), anc_.assign(un, -1);
  int *parent = parent_.data(), *anc = anc_.data();
  for (int k = 0; k < n; k++)
    for (int p = rp[k]; p < rp[k + 1]; p++)
      for (int i = ri[p]; i != -1 && i < k;) {
        const int next = anc[i];
        anc[i] = k;
        if (next == -1) parent[i] = k;
        i = next;
      }
  // Postorder (children in increasing order).
  head_.assign(un, -1), sibling_.assign(un, -1), post_.resize(un), stack_.resize(un);
  int *head = head_.data(), *sibling = sibling_.data(), *post = post_.data(), *stack = stack_.data();
  for (int j = n - 1; j >= 0; j--)
    if (parent[j] != -1) sibling[j] = head[parent[j]], head[parent[j]] = j;
  for (int r = 0, k = 0; r < n; r++) {
    if (parent[r] != -1) continue;
    int top = 0;
    stack[0] = r;
    while (top >= 0) {
      const int j = stack[top], c = head[j];
      if (c == -1) {
        top--;
        post[k++] = j;
      } else {
        head[j] = sibling[c];
        stack[++top] = c;
      }
    }
  }
  // first[j]: the first postorder index in j's subtree; delta: count increments, summed up the tree at the end.
  first_.assign(un, -1), delta_.resize(un), maxfirst_.assign(un, -1), prevleaf_.assign(un, -1);
  int *first = first_.data(), *delta = delta_.data(), *maxfirst = maxfirst_.data(), *prevleaf = prevleaf_.data();
  for (int k = 0; k < n; k++) {
    int j = post[k];
    delta[j] = first[j] == -1;  // a leaf of the tree
    for (; j != -1 && first[j] == -1; j = parent[j]) first[j] = k;
  }
  for (int j = 0; j < n; j++) anc[j] = j;
  for (int k = 0; k < n; k++) {
    const int j = post[k];
    if (parent[j] != -1) delta[parent[j]]--;
    for (int p = rp[j]; p < rp[j + 1]; p++) {
      const int i = ri[p];
      // Is j a leaf of row i's subtree (no earlier-visited descendant of j holds an entry of row i)?
      if (i <= j || first[j] <= maxfirst[i]) continue;
      maxfirst[i] = first[j];
      const int prev = prevleaf[i];
      prevleaf[i] = j;
      delta[j]++;
      if (prev == -1) continue;
      // A later leaf: the row was already counted from the least common ancestor up.
      int r = prev;
      while (r != anc[r]) r = anc[r];
      for (int s = prev; s != r;) {
        const int t = anc[s];
        anc[s] = r;
        s = t;
      }
      delta[r]--;
    }
    if (parent[j] != -1) anc[j] = parent[j];
  }
  for (int j = 0; j < n; j++)
    if (parent[j] != -1) delta[parent[j]] += delta[j];  // parent[j] > j: children are summed first
}

}  // namespace rlx::sparse
