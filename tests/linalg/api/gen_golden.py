#!/usr/bin/python3
"""Goldens for the public linalg API (tests/linalg/api/golden.test.ts), from
NumPy 1.24 / SciPy 1.10 (Debian's /usr/bin/python3, not the python3 on PATH).

Regenerate (deterministic, fixed inputs):

    /usr/bin/python3 tests/linalg/api/gen_golden.py

which rewrites golden.json next to this file. Every array is encoded as
{"shape": [...], "dtype": "float64" | "complex128" | "int32", "data": [...]}
with row-major data, complex interleaved [re, im, ...] (rlx storage), and the
non-finite values as the strings "inf", "-inf", "nan".

NumPy 1.24 semantics that differ from NumPy 2 and what rlx follows (NumPy 2):
lstsq's default rcond here is passed explicitly as eps * max(m, n) (NumPy 2's
default); solve's 1-D b is a single vector (the same in both for these shapes).
"""
import json
import os

import numpy as np
import scipy.linalg as sla


def num(v):
    v = float(v)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def enc(x, dtype=None):
    x = np.asarray(x)
    if dtype == "int32" or x.dtype.kind in "iub":
        return {"shape": list(x.shape), "dtype": "int32", "data": [int(v) for v in x.ravel()]}
    if np.iscomplexobj(x):
        flat = np.empty(x.size * 2)
        flat[0::2] = x.real.ravel()
        flat[1::2] = x.imag.ravel()
        return {"shape": list(x.shape), "dtype": "complex128", "data": [num(v) for v in flat]}
    return {"shape": list(x.shape), "dtype": "float64", "data": [num(v) for v in x.astype(np.float64).ravel()]}


cases = {}
EPS = np.finfo(np.float64).eps

# ---- Hilbert 10: cond ~1.6e13 -------------------------------------------------
h10 = sla.hilbert(10)
sign, logdet = np.linalg.slogdet(h10)
cases["hilbert10"] = {
    "a": enc(h10),
    "cond": num(np.linalg.cond(h10)),
    "cond1": num(np.linalg.cond(h10, 1)),
    "invResidual": num(np.abs(np.linalg.inv(h10) @ h10 - np.eye(10)).max()),
    "eigvalsh": enc(np.linalg.eigvalsh(h10)),
    "det": num(np.linalg.det(h10)),
    "sign": num(sign),
    "logabsdet": num(logdet),
    "rank": int(np.linalg.matrix_rank(h10)),
}

# ---- lstsq: rank-deficient, full-rank tall, wide --------------------------------
b6 = np.array([[1, 2], [3, -1], [0, 4], [2, 2], [-1, 5], [3, 0]], float)
c4 = np.array([[1, 0, 2, -1], [0, 1, 1, 3]], float)
r6 = b6 @ c4  # 6x4 of rank 2
rhs = np.array([[1, 0], [2, 1], [0, -1], [3, 2], [1, 1], [-2, 0]], float)
tall = np.array([[1, 2, 0], [0, 1, 1], [1, 0, 1], [2, 1, 1], [0, 3, 1]], float)
wide = tall.T.copy()
cplx_r6 = r6 + 1j * (b6 @ np.array([[0, 2, 1, 0], [1, 0, 0, -1]], float))  # complex 6x4, rank ≤ 4
cplx_rank2 = (b6 + 0.5j * b6[:, ::-1]) @ (c4 - 1j * c4[::-1])  # complex 6x4 of rank 2
for name, a, b in [
    ("lstsq_rankdef", r6, rhs),
    ("lstsq_rankdef_vector", r6, rhs[:, 0]),
    ("lstsq_tall", tall, rhs[:5]),
    ("lstsq_tall_vector", tall, rhs[:5, 1]),
    ("lstsq_wide", wide, rhs[:3]),
    ("lstsq_complex_rank2", cplx_rank2, rhs + 1j * rhs[::-1]),
]:
    m, n = a.shape
    x, res, rank, s = np.linalg.lstsq(a, b, rcond=EPS * max(m, n))
    cases[name] = {"a": enc(a), "b": enc(b), "x": enc(x), "residuals": enc(res), "rank": int(rank), "s": enc(s)}
x, res, rank, s = np.linalg.lstsq(r6, rhs, rcond=0.5)
cases["lstsq_rcond"] = {"a": enc(r6), "b": enc(rhs), "rcond": 0.5, "x": enc(x), "residuals": enc(res), "rank": int(rank), "s": enc(s)}

# ---- eig: defective (Jordan) and complex eigenvalues of a real matrix ----------
jordan = np.array([[2, 1, 0, 0], [0, 2, 1, 0], [0, 0, 2, 0], [0, 0, 0, -1]], float)
w, v = np.linalg.eig(jordan)
cases["eig_jordan"] = {"a": enc(jordan), "w": enc(w.astype(complex)), "v": enc(v.astype(complex))}
rot = np.array([[1, -2, 0, 1], [3, 1, 1, 0], [0, 1, 2, -1], [1, 0, 1, 3]], float)
w, v = np.linalg.eig(rot)
cases["eig_real_complex_pairs"] = {"a": enc(rot), "w": enc(w.astype(complex)), "v": enc(v.astype(complex))}
ac = np.array([[1 + 2j, 2 - 1j, 0.5j], [0.25, 3 - 1j, 1 + 1j], [-1j, 2, 1 - 0.5j]])
w, v = np.linalg.eig(ac)
cases["eig_complex"] = {"a": enc(ac), "w": enc(w), "v": enc(v)}

# ---- tiny and huge scales -----------------------------------------------------
base = np.array([[4, -1, 0.5, 2], [1, 5, -2, 0], [0.25, 2, 6, -1], [-1, 0, 1, 3]], float)
rhs4 = np.array([1.0, -2.0, 0.5, 3.0])
for name, scale in [("tiny", 1e-150), ("huge", 1e150)]:
    a = base * scale
    b = rhs4 * scale
    sign, logdet = np.linalg.slogdet(a)
    cases["scale_" + name] = {
        "scale": scale,
        "a": enc(a),
        "b": enc(b),
        "x": enc(np.linalg.solve(a, b)),
        "det": num(np.linalg.det(a)),  # underflows to 0 / overflows to inf: the LU diagonal's product
        "sign": num(sign),
        "logabsdet": num(logdet),
        "s": enc(np.linalg.svd(a, compute_uv=False)),
        "fro": num(np.linalg.norm(a)),
        "nuc": num(np.linalg.norm(a, "nuc")),
        "two": num(np.linalg.norm(a, 2)),
        "one": num(np.linalg.norm(a, 1)),
        "inf": num(np.linalg.norm(a, np.inf)),
        "cond": num(np.linalg.cond(a)),
    }

# ---- expm ---------------------------------------------------------------------
rng = np.random.default_rng(7)
small = rng.standard_normal((4, 4)) * 0.3
mvl = np.array([[-49.0, 24.0], [-64.0, 31.0]])  # Moler & Van Loan: ‖a‖₁ = 113, needs squaring
big = rng.standard_normal((5, 5)) * 8  # ‖a‖₁ ~ 60
nil = np.triu(rng.standard_normal((5, 5)), 1) * 3  # nilpotent: exp is a finite polynomial
cexp = (rng.standard_normal((3, 3)) + 1j * rng.standard_normal((3, 3))) * 2
for name, a in [("small", small), ("moler_van_loan", mvl), ("large_norm", big), ("nilpotent", nil), ("complex", cexp), ("zero", np.zeros((3, 3)))]:
    cases["expm_" + name] = {"a": enc(a), "expm": enc(sla.expm(a)), "norm1": num(np.linalg.norm(a, 1))}
cases["expm_batch"] = {"a": enc(np.stack([small[:3, :3], big[:3, :3]])), "expm": enc(np.stack([sla.expm(small[:3, :3]), sla.expm(big[:3, :3])]))}

# ---- norm ---------------------------------------------------------------------
mr = np.array([[1, -2, 3, 0.5], [-4, 5, -6, 2], [0, 1, 2, -3]], float)
mc = mr + 1j * np.array([[0, 1, -1, 2], [3, 0, 1, -1], [1, 1, 0, 0.5]], float)
vec = np.array([3, 0, -4, 1.5, 0, -2], float)
vc = vec + 1j * np.array([1, 0, 0, -2, 0, 1], float)
t3 = np.arange(24, dtype=float).reshape(2, 3, 4) - 11.5
norms = []
MORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]
VORDS = [None, 0, 1, 2, np.inf, -np.inf, 3, -1, 0.5]


def ordenc(o):
    return None if o is None else (o if isinstance(o, str) else num(o))


for label, x in [("real", mr), ("complex", mc)]:
    for o in MORDS:
        norms.append({"x": label, "ord": ordenc(o), "value": enc(np.linalg.norm(x, o))})
for label, x in [("vec", vec), ("vecc", vc)]:
    for o in VORDS:
        norms.append({"x": label, "ord": ordenc(o), "value": enc(np.linalg.norm(x, o))})
for o, axis, keep in [(None, (1, 2), False), ("fro", (2, 0), True), ("nuc", (1, 2), False), (2, (2, 1), False), (-2, (0, 2), True), (1, (1, 2), False), (np.inf, (1, 2), True), (-np.inf, (2, 1), False), (-1, (0, 1), False),
                      (None, 1, False), (1, -1, True), (np.inf, 0, False), (0, 2, False), (3, 1, True), (None, None, True)]:
    norms.append({"x": "t3", "ord": ordenc(o), "axis": list(axis) if isinstance(axis, tuple) else axis, "keepdims": keep, "value": enc(np.linalg.norm(t3, o, axis=axis, keepdims=keep))})
cases["norm"] = {"inputs": {"real": enc(mr), "complex": enc(mc), "vec": enc(vec), "vecc": enc(vc), "t3": enc(t3)}, "norms": norms}

# ---- cond ---------------------------------------------------------------------
c4m = np.array([[2, -1, 0, 1], [1, 3, 1, 0], [0, 1, 4, -1], [1, 0, -2, 5]], float)
cb = np.stack([c4m[:3, :3], c4m[1:, 1:] + 1j * np.eye(3)])
cases["cond"] = {"a": enc(c4m), "batch": enc(cb), "ps": [ordenc(p) for p in [None, 1, -1, 2, -2, np.inf, -np.inf, "fro"]],
                 "values": [num(np.linalg.cond(c4m, p)) for p in [None, 1, -1, 2, -2, np.inf, -np.inf, "fro"]],
                 "batchValues": [enc(np.linalg.cond(cb, p)) for p in [None, 1, -1, 2, -2, np.inf, -np.inf, "fro"]]}

# singular entries: NumPy's inverse is NaN there and cond reports inf (p = 2/None are rounding-dependent: not stored)
cs = np.array([[[1, 2], [2, 4]], [[2, 1], [1, 3]]], float)
SPS = [1, -1, np.inf, -np.inf, "fro"]
cases["cond_singular"] = {"a": enc(cs), "ps": [ordenc(p) for p in SPS], "values": [enc(np.linalg.cond(cs, p)) for p in SPS]}

# ---- matrixRank ---------------------------------------------------------------
stackr = np.stack([r6, np.outer(b6[:, 0], c4[0]), np.zeros((6, 4)), np.eye(6, 4)])  # ranks 2, 1, 0, 4
cases["matrix_rank"] = {"stack": enc(stackr), "ranks": enc(np.linalg.matrix_rank(stackr), "int32"), "hilbert12": enc(sla.hilbert(12)), "hilbert12Rank": int(np.linalg.matrix_rank(sla.hilbert(12))),
                        "tolRank": int(np.linalg.matrix_rank(sla.hilbert(12), tol=1e-6)), "vecRank": int(np.linalg.matrix_rank(np.array([0.0, 2.0]))), "zeroVecRank": int(np.linalg.matrix_rank(np.zeros(3)))}

# ---- scipy.linalg.lu ----------------------------------------------------------
w46 = np.array([[1, 4, -2, 0, 3, 1], [2, -1, 5, 1, 0, 2], [-3, 0, 1, 4, 2, -1], [0.5, 2, 2, -1, 1, 3]], float)
for name, a in [("lu_4x6", w46), ("lu_6x4", w46.T.copy()), ("lu_complex_4x6", w46 + 1j * w46[::-1, ::-1])]:
    p, l, u = sla.lu(a)
    cases[name] = {"a": enc(a), "p": enc(p), "l": enc(l), "u": enc(u)}

# ---- qr modes -----------------------------------------------------------------
for name, a in [("qr_5x3", tall), ("qr_3x5", wide), ("qr_complex_4x3", w46[:, :3] + 1j * w46[:, 3:])]:
    q, r = np.linalg.qr(a, mode="reduced")
    qc, rc = np.linalg.qr(a, mode="complete")
    cases[name] = {"a": enc(a), "q": enc(q), "r": enc(r), "qc": enc(qc), "rc": enc(rc), "r_only": enc(np.linalg.qr(a, mode="r"))}

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden.json"), "w") as f:
    json.dump({"generator": "tests/linalg/api/gen_golden.py", "numpy": np.__version__, "scipy": __import__("scipy").__version__, "cases": cases}, f, indent=None, separators=(",", ":"))
    f.write("\n")
