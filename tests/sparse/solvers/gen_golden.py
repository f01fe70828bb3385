"""Golden values for tests/sparse/solvers: SciPy's iteration counts and eigsh eigenvalues.

Run with Debian's SciPy (NOT the python3 on PATH):
    /usr/bin/python3 tests/sparse/solvers/gen_golden.py > tests/sparse/solvers/golden.json

The matrices and the right-hand side are built exactly as in util.ts (same
stencils, same LCG vector), and IC(0)/ILU(0) are re-implemented here on the same
pattern so SciPy's cg/gmres run with the same preconditioners as ours.
"""
import json
import sys

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as sla


def grid(n, d, w, e, s, nn, dtype=float):
    rows, cols, vals = [], [], []
    for j in range(n):
        for i in range(n):
            r = i + n * j
            x = (i + 1) / (n + 1)
            y = (j + 1) / (n + 1)
            ent = [(r, d(x, y))]
            if i > 0: ent.append((r - 1, w(x, y)))
            if i < n - 1: ent.append((r + 1, e(x, y)))
            if j > 0: ent.append((r - n, s(x, y)))
            if j < n - 1: ent.append((r + n, nn(x, y)))
            for c, v in ent:
                rows.append(r); cols.append(c); vals.append(v)
    return sp.csr_matrix((np.array(vals, dtype=dtype), (rows, cols)), shape=(n * n, n * n))


def poisson2d(n):
    return grid(n, lambda x, y: 4.0, *[lambda x, y: -1.0] * 4)


def variable_diffusion(n):
    h = 1 / (n + 1)
    k = lambda x, y: 10 ** (3 * x) * (100 if y > 0.5 else 1)
    return grid(n,
                lambda x, y: k(x - h / 2, y) + k(x + h / 2, y) + k(x, y - h / 2) + k(x, y + h / 2),
                lambda x, y: -k(x - h / 2, y), lambda x, y: -k(x + h / 2, y),
                lambda x, y: -k(x, y - h / 2), lambda x, y: -k(x, y + h / 2))


def convection_diffusion(n, px, py):
    return grid(n, lambda x, y: 4 + px + py, lambda x, y: -1 - px, lambda x, y: -1.0,
                lambda x, y: -1 - py, lambda x, y: -1.0)


def lcg_vector(length, seed=7):
    s = seed
    out = np.empty(length)
    for i in range(length):
        s = (s * 1664525 + 1013904223) % 2**32
        out[i] = s / 2**31 - 1
    return out


def ilu0(A):
    A = A.tocsr().astype(float)
    A.sort_indices()
    n = A.shape[0]
    ip, ix, lu = A.indptr, A.indices, A.data.copy()
    diag = np.array([ip[i] + np.searchsorted(ix[ip[i]:ip[i + 1]], i) for i in range(n)])
    for i in range(n):
        where = {ix[q]: q for q in range(ip[i], ip[i + 1])}
        for kk in range(ip[i], diag[i]):
            k = ix[kk]
            lu[kk] /= lu[diag[k]]
            for q in range(diag[k] + 1, ip[k + 1]):
                w = where.get(ix[q])
                if w is not None:
                    lu[w] -= lu[kk] * lu[q]
    F = sp.csr_matrix((lu, ix, ip), shape=A.shape)
    L = sp.tril(F, -1, format='csr') + sp.eye(n, format='csr')
    U = sp.triu(F, 0, format='csr')
    return sla.LinearOperator(A.shape, lambda x: sla.spsolve_triangular(U, sla.spsolve_triangular(L, x, lower=True), lower=False))


def ic0(A):
    A = sp.tril(A.tocsr().astype(float), format='csr')
    A.sort_indices()
    n = A.shape[0]
    ip, ix, lv = A.indptr, A.indices, A.data.copy()
    rows = [dict() for _ in range(n)]
    for i in range(n):
        for p in range(ip[i], ip[i + 1] - 1):
            j = ix[p]
            s = sum(lv[q] * rows[j].get(ix[q], 0.0) for q in range(ip[i], p))
            lv[p] = (lv[p] - s) / rows[j][j]
            rows[i][j] = lv[p]
        e = ip[i + 1] - 1
        lv[e] = np.sqrt(lv[e] - sum(lv[q] ** 2 for q in range(ip[i], e)))
        rows[i][i] = lv[e]
    L = sp.csr_matrix((lv, ix, ip), shape=A.shape)
    LT = L.T.tocsr()
    return sla.LinearOperator(A.shape, lambda x: sla.spsolve_triangular(LT, sla.spsolve_triangular(L, x, lower=True), lower=False))


def count(solver, A, b, **kw):
    it = [0]
    def cb(*_):
        it[0] += 1
    if solver is sla.gmres:
        x, info = solver(A, b, tol=1e-8, atol=0, restart=30, maxiter=1000, callback=cb, callback_type='pr_norm', **kw)
    elif solver is sla.minres:  # SciPy 1.10's minres has no atol
        x, info = solver(A, b, tol=1e-8, callback=cb, **kw)
    else:
        x, info = solver(A, b, tol=1e-8, atol=0, callback=cb, **kw)
    rel = float(np.linalg.norm(b - A @ x) / np.linalg.norm(b))
    return {'iterations': it[0], 'info': int(info), 'relres': rel}


def main():
    out = {'scipy': scipy.__version__, 'rtol': 1e-8, 'rhs': 'lcg seed 7', 'solvers': {}, 'eigsh': {}}
    P = poisson2d(32)
    b = lcg_vector(P.shape[0])
    D = sp.diags(1 / P.diagonal())
    out['solvers']['poisson2d_32'] = {
        'cg': count(sla.cg, P, b),
        'cg_ic0': count(sla.cg, P, b, M=ic0(P)),
        'gmres': count(sla.gmres, P, b),
        'gmres_ilu0': count(sla.gmres, P, b, M=ilu0(P)),
        'bicgstab': count(sla.bicgstab, P, b),
        'minres': count(sla.minres, P, b),
    }
    V = variable_diffusion(32)
    out['solvers']['variable_diffusion_32'] = {
        'cg': count(sla.cg, V, b, maxiter=20000),
        'cg_jacobi': count(sla.cg, V, b, M=sp.diags(1 / V.diagonal())),
    }
    C = convection_diffusion(32, 2, 1)
    out['solvers']['convection_diffusion_32'] = {
        'gmres': count(sla.gmres, C, b),
        'gmres_ilu0': count(sla.gmres, C, b, M=ilu0(C)),
        'bicgstab': count(sla.bicgstab, C, b),
        'bicgstab_ilu0': count(sla.bicgstab, C, b, M=ilu0(C)),
    }
    P20 = poisson2d(20)
    v0 = lcg_vector(400, 3)
    for which in ['SA', 'LA', 'LM', 'SM']:
        w = sla.eigsh(P20, 6, which=which, v0=v0)[0]
        out['eigsh'][f'poisson2d_20_{which}'] = sorted(map(float, w))
    out['eigsh']['poisson2d_20_sigma_2.1'] = sorted(map(float, sla.eigsh(P20, 4, sigma=2.1, v0=v0)[0]))
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == '__main__':
    main()
