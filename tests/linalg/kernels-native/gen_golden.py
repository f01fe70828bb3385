#!/usr/bin/python3
"""NumPy goldens for the native linalg kernel tests (golden.test.ts).

Run with Debian's python (numpy 1.24, scipy 1.10), not the python3 on PATH:

    /usr/bin/python3 tests/linalg/kernels-native/gen_golden.py

It writes golden.json next to this file (committed). Matrices are given
row-major as nested lists; complex arrays as {"re": ..., "im": ...}.
"""
import json
import os

import numpy as np
import scipy
import scipy.linalg


def enc(x):
    x = np.asarray(x)
    if np.iscomplexobj(x):
        return {"re": x.real.tolist(), "im": x.imag.tolist()}
    return x.tolist()


out = {"numpy": np.__version__, "scipy": scipy.__version__}

# Hilbert(8): symmetric positive definite, cond ≈ 1.5e10.
h = scipy.linalg.hilbert(8)
out["hilbert8"] = {"a": enc(h), "eigvalsh": enc(np.linalg.eigvalsh(h)), "cond": float(np.linalg.cond(h)), "s": enc(np.linalg.svd(h, compute_uv=False))}

# Rank-deficient least squares: column 3 = column 0 + column 1 (rank 3), NumPy's default rcond.
a = np.array([[1.0, 2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 1.0], [2.0, -1.0, 0.0, 1.0], [1.0, 1.0, 1.0, 2.0], [-1.0, 3.0, 2.0, 2.0], [0.5, 0.0, 1.5, 0.5]])
b = np.array([[1.0, 0.0], [2.0, 1.0], [0.0, -1.0], [1.0, 3.0], [-2.0, 0.5], [0.25, 1.0]])
x, res, rank, s = np.linalg.lstsq(a, b, rcond=None)
out["lstsq_rankdef"] = {"a": enc(a), "b": enc(b), "x": enc(x), "rank": int(rank), "s": enc(s)}

# Rotation by 90°: eigenvalues ±i. Defective Jordan block: one eigenvalue, (nearly) parallel vectors.
for name, m in [("eig_rotation", np.array([[0.0, -1.0], [1.0, 0.0]])), ("eig_jordan", np.array([[2.0, 1.0, 0.0], [0.0, 2.0, 1.0], [0.0, 0.0, 2.0]]))]:
    w, v = np.linalg.eig(m)
    out[name] = {"a": enc(m), "w": enc(w.astype(complex)), "v": enc(v.astype(complex))}

# SVD of a 5×3.
a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.5], [7.0, -8.0, 9.0], [0.5, 1.5, -2.0], [3.0, 0.0, 1.0]])
u, s, vh = np.linalg.svd(a, full_matrices=False)
out["svd_5x3"] = {"a": enc(a), "u": enc(u), "s": enc(s), "vh": enc(vh)}

# QR: r's diagonal signs are LAPACK's (geqrf), real and complex.
a = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0], [-7.0, 8.0, 9.5], [2.0, 0.5, 1.0]])
out["qr_4x3"] = {"a": enc(a), "r": enc(np.linalg.qr(a, mode="r"))}
c = np.array([[1 + 2j, -1j, 3.0], [2 - 1j, 4 + 0.5j, -1 + 1j], [-3j, 1 + 1j, 2 - 2j]])
out["qr_complex_3x3"] = {"a": enc(c), "r": enc(np.linalg.qr(c, mode="r"))}

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden.json")
with open(path, "w") as f:
    json.dump(out, f, separators=(",", ":"))
    f.write("\n")
print("wrote", path)
