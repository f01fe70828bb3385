"""SciPy side of bench-cg.test.ts: cg rtol 1e-8 on poisson2d(512), median of 3.
Run with /usr/bin/python3 (Debian SciPy)."""
import time

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as sla

m = 512
T = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(m, m))
A = (sp.kron(sp.eye(m), T) + sp.kron(T, sp.eye(m))).tocsr()  # index i + m*j, as util.ts
n = m * m
s = 7
b = np.empty(n)
for i in range(n):
    s = (s * 1664525 + 1013904223) % 2**32
    b[i] = s / 2**31 - 1
times = []
for _ in range(3):
    it = [0]
    def cb(_):
        it[0] += 1
    t = time.perf_counter()
    x, info = sla.cg(A, b, tol=1e-8, atol=0, callback=cb)
    times.append(time.perf_counter() - t)
    assert info == 0
print(f"scipy {scipy.__version__} cg poisson2d(512): iterations {it[0]}, median {sorted(times)[1]:.3f} s ({', '.join(f'{t:.3f}' for t in times)}), "
      f"relres {np.linalg.norm(b - A @ x) / np.linalg.norm(b):.2e}")
