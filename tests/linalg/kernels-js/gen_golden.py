#!/usr/bin/python3
"""Golden LAPACK values (via NumPy 1.24 / SciPy 1.10) for the js linalg kernels.

Regenerate (deterministic, fixed inputs):

    /usr/bin/python3 tests/linalg/kernels-js/gen_golden.py

which rewrites golden.json next to this file. Matrices are row-major flat
lists; complex arrays are interleaved [re, im, re, im, ...] like rlx storage.
"""
import json
import os

import numpy as np
import scipy.linalg as sla


def flat(x):
    x = np.asarray(x)
    if np.iscomplexobj(x):
        out = np.empty(x.size * 2)
        out[0::2] = x.real.ravel()
        out[1::2] = x.imag.ravel()
        return out.tolist()
    return x.astype(np.float64).ravel().tolist()


cases = {}

h8 = sla.hilbert(8)
cases["hilbert8_eigvalsh"] = {"a": flat(h8), "n": 8, "w": flat(np.linalg.eigvalsh(h8))}

b6 = np.array([[1, 2], [3, -1], [0, 4], [2, 2], [-1, 5], [3, 0]], float)
c4 = np.array([[1, 0, 2, -1], [0, 1, 1, 3]], float)
r6 = b6 @ c4  # rank 2
cases["rankdef6x4_svd"] = {"a": flat(r6), "m": 6, "n": 4, "s": flat(np.linalg.svd(r6, compute_uv=False))}

ac = np.array([[1 + 2j, 2 - 1j, 0.5j], [0.25, 3 - 1j, 1 + 1j], [-1j, 2, 1 - 0.5j]])
acw = np.array([[2, 1 + 1j, 0, 1j, 3], [1, 0, -1j, 2, 1 - 1j], [0.5, 4, 1, 1, -2j]])
cases["complex3x5_svd"] = {"a": flat(acw), "m": 3, "n": 5, "s": flat(np.linalg.svd(acw, compute_uv=False))}

rot = np.array([[1, -2, 0, 1], [3, 1, 1, 0], [0, 1, 2, -1], [1, 0, 1, 3]], float)
w, v = np.linalg.eig(rot)
cases["real4_eig"] = {"a": flat(rot), "n": 4, "w": flat(w.astype(complex)), "v": flat(v.astype(complex))}
w, v = np.linalg.eig(ac)
cases["complex3_eig"] = {"a": flat(ac), "n": 3, "w": flat(w), "v": flat(v)}
jordan = np.array([[2, 1, 0], [0, 2, 1], [0, 0, 2]], float)
w, v = np.linalg.eig(jordan)
cases["jordan3_eig"] = {"a": flat(jordan), "n": 3, "w": flat(w.astype(complex)), "v": flat(v.astype(complex))}

d5 = np.array([[2, -1, 0, 3, 1], [4, 1, -2, 0, 5], [0, 3, 1, 1, -1], [1, 0, 2, -3, 2], [-2, 1, 1, 4, 0]], float)
lu, piv = sla.lu_factor(d5)
cases["det5_lu"] = {"a": flat(d5), "n": 5, "det": float(np.linalg.det(d5)), "lu": flat(lu), "piv": piv.tolist()}
lu, piv = sla.lu_factor(ac)
cases["complex3_lu"] = {"a": flat(ac), "n": 3, "lu": flat(lu), "piv": piv.tolist()}

rhs = np.array([[1, 0], [2, 1], [0, -1], [3, 2], [1, 1], [-2, 0]], float)
x, res, rank, s = np.linalg.lstsq(r6, rhs, rcond=None)
cases["rankdef6x4_lstsq"] = {"a": flat(r6), "rhs": flat(rhs), "m": 6, "n": 4, "k": 2, "x": flat(x), "rank": int(rank), "s": flat(s)}

q43 = np.array([[1, 2, 3], [-4, 5, 6], [7, -8, 9], [0, 1, -1]], float)
q, r = np.linalg.qr(q43)
qc, rc = np.linalg.qr(q43, mode="complete")
cases["real4x3_qr"] = {"a": flat(q43), "m": 4, "n": 3, "q": flat(q), "r": flat(r), "qc": flat(qc), "rc": flat(rc)}
q, r = np.linalg.qr(ac)
cases["complex3_qr"] = {"a": flat(ac), "m": 3, "n": 3, "q": flat(q), "r": flat(r)}

herm = ac @ ac.conj().T + np.eye(3)
cases["complex3_cholesky"] = {"a": flat(herm), "n": 3, "l": flat(np.linalg.cholesky(herm)), "w": flat(np.linalg.eigvalsh(herm))}

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden.json")
with open(out, "w") as f:
    # One case per line: readable diffs without a 2000-line file.
    f.write('{"numpy": "%s", "scipy": "%s", "cases": {\n' % (np.__version__, __import__("scipy").__version__))
    f.write(",\n".join("%s: %s" % (json.dumps(k), json.dumps(v)) for k, v in cases.items()))
    f.write("\n}}\n")
print("wrote", out)
