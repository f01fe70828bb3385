#!/usr/bin/python3
"""Golden values from SciPy (SuperLU via scipy.sparse.linalg.spsolve) for the
js sparse direct solvers.

Regenerate (deterministic, fixed inputs) with Debian's python, which has scipy:

    /usr/bin/python3 tests/sparse/direct-js/gen_golden.py

which rewrites golden.json next to this file. Matrices are CSR arrays;
complex arrays are interleaved [re, im, re, im, ...] like rlx storage.
Right-hand sides are n×k row-major (k = 1 is a plain vector).
"""
import json
import os

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as spla


def flat(x):
    x = np.asarray(x)
    if np.iscomplexobj(x):
        out = np.empty(x.size * 2)
        out[0::2] = x.real.ravel()
        out[1::2] = x.imag.ravel()
        return out.tolist()
    return x.astype(np.float64).ravel().tolist()


def case(a, b, dtype):
    a = sp.csr_matrix(a)
    a.sort_indices()
    x = spla.spsolve(a.tocsc(), b)
    xt = spla.spsolve(a.T.tocsc(), b)
    xh = spla.spsolve(a.conj().T.tocsc(), b)
    sign, logabs = np.linalg.slogdet(a.toarray())
    return {
        "dtype": dtype,
        "n": a.shape[0],
        "k": 1 if b.ndim == 1 else b.shape[1],
        "indptr": a.indptr.tolist(),
        "indices": a.indices.tolist(),
        "data": flat(a.data),
        "b": flat(b),
        "x": flat(x),
        "xT": flat(xt),
        "xH": flat(xh),
        "sign": flat(np.array([sign])) if np.iscomplexobj(a.data) else float(sign),
        "logabsdet": float(logabs),
    }


cases = {}

# 1. Non-symmetric with a zero diagonal: needs pivoting; negative determinant.
a1 = np.array(
    [
        [0, 2, 0, 0, 1, 0],
        [3, 0, 1, 0, 0, 0],
        [0, 1, 0, 4, 0, 0],
        [0, 0, 2, 0, 0, -1],
        [1, 0, 0, 0, 0, 5],
        [0, 0, 0, 1, 2, 0],
    ],
    float,
)
b1 = np.array([1.0, -2.0, 3.0, 0.5, 0.0, 4.0])
cases["zero_diag6"] = case(a1, b1, "float64")

# 2. Convection–diffusion on a 4×4 grid (n = 16), two right-hand sides.
m = 4
t = sp.diags([-1.5, 3.5, -0.5], [-1, 0, 1], shape=(m, m))
i = sp.identity(m)
a2 = (sp.kron(i, t) + sp.kron(sp.diags([-1.2, 1.0, -0.8], [-1, 0, 1], shape=(m, m)), i)).toarray()
b2 = np.arange(2 * m * m, dtype=float).reshape(m * m, 2) / 7.0 - 1.0
cases["convdiff16_k2"] = case(a2, b2, "float64")

# 3. Complex non-Hermitian 7×7 with a structurally zero diagonal entry.
rng = np.random.default_rng(12345)
a3 = np.zeros((7, 7), complex)
mask = rng.random((7, 7)) < 0.35
a3[mask] = rng.standard_normal(mask.sum()) + 1j * rng.standard_normal(mask.sum())
for k in range(7):
    a3[k, (k + 2) % 7] = 3 + 1j * (k - 3)
a3[3, 3] = 0
b3 = rng.standard_normal(7) + 1j * rng.standard_normal(7)
cases["complex7"] = case(a3, b3, "complex128")

out = {"scipy": scipy.__version__, "numpy": np.__version__, "cases": cases}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
print("wrote", path)
