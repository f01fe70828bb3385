# Goldens for tests/sparse/formats/golden.test.ts, computed by SciPy.
# Run with Debian's python (numpy 1.24 / scipy 1.10), not the python3 on PATH:
#   /usr/bin/python3 tests/sparse/formats/gen_golden.py
# Writes fixtures/*.mtx (by scipy.io.mmwrite) and golden.json:
#   inputs and dense results of kronsum / kron / diags / poisson2d(4) / SpGEMM /
#   eye, and for each .mtx fixture the dense matrix scipy.io.mmread returns
#   (symmetric, skew-symmetric and hermitian storage expanded).
# Complex values are [re, im] pairs.
import json, os
import numpy as np
import scipy
import scipy.sparse as sp
import scipy.io

here = os.path.dirname(os.path.abspath(__file__))
fix = os.path.join(here, "fixtures")
os.makedirs(fix, exist_ok=True)
rng = np.random.default_rng(1234)


def enc(a):
    a = np.asarray(a.toarray() if sp.issparse(a) else a)
    if np.iscomplexobj(a):
        return [[[float(v.real), float(v.imag)] for v in row] for row in a]
    return [[float(v) for v in row] for row in a]


def rand_sparse(m, n, density, cplx=False):
    A = sp.random(m, n, density=density, random_state=rng, format="csr")
    A.data = np.round(A.data * 10 - 5, 2)
    if cplx:
        B = sp.csr_matrix(A, dtype=complex)
        B.data = B.data + 1j * np.round(rng.uniform(-5, 5, B.nnz), 2)
        return B
    return A


cases = []
A = rand_sparse(3, 3, 0.6)
B = rand_sparse(2, 2, 0.75)
cases.append({"op": "kronsum", "inputs": [enc(A), enc(B)], "expected": enc(sp.kronsum(A, B))})
C = rand_sparse(3, 2, 0.5, cplx=True)
D = rand_sparse(2, 4, 0.5)
cases.append({"op": "kron", "inputs": [enc(C), enc(D)], "expected": enc(sp.kron(C, D))})
cases.append({"op": "kronsum", "inputs": [enc(rand_sparse(2, 2, 0.9, cplx=True)), enc(rand_sparse(3, 3, 0.5))], "expected": None})
cases[-1]["expected"] = enc(sp.kronsum(sp.csr_matrix(np.array(cases[-1]["inputs"][0])[..., 0] + 1j * np.array(cases[-1]["inputs"][0])[..., 1]), sp.csr_matrix(np.array(cases[-1]["inputs"][1]))))
for m, n in [(5, 4), (4, 6), (7, 7)]:
    X = rand_sparse(m, n, 0.35)
    Y = rand_sparse(n, 3, 0.4)
    cases.append({"op": "spgemm", "inputs": [enc(X), enc(Y)], "expected": enc(X @ Y)})
Xc = rand_sparse(4, 5, 0.4, cplx=True)
Yc = rand_sparse(5, 3, 0.5, cplx=True)
cases.append({"op": "spgemm", "inputs": [enc(Xc), enc(Yc)], "expected": enc(Xc @ Yc)})

diag_cases = [
    {"diagonals": [[1, 2, 3], [4, 5, 6], [7]], "offsets": [0, 1, -2], "shape": [3, 4]},
    {"diagonals": [[1, -2, 1]], "offsets": [0], "shape": None},
    {"diagonals": [[1], [-2], [1]], "offsets": [-1, 0, 1], "shape": [5, 5]},
    {"diagonals": [[1, 2, 3, 4, 5], [7, 8, 9]], "offsets": [0, -1], "shape": [4, 2]},
    {"diagonals": [[1, 2, 3], [3, 4, 5]], "offsets": [2, -1], "shape": [3, 5]},
]
for dc in diag_cases:
    shape = tuple(dc["shape"]) if dc["shape"] else None
    cases.append({"op": "diags", **dc, "expected": enc(sp.diags([np.array(d, dtype=float) for d in dc["diagonals"]], dc["offsets"], shape=shape))})

T = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(4, 4))
cases.append({"op": "poisson2d", "n": 4, "expected": enc(sp.kronsum(T, T))})
T3 = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(3, 3))
cases.append({"op": "poisson3d", "n": 3, "expected": enc(sp.kronsum(sp.kronsum(T3, T3), T3))})
cases.append({"op": "eye", "n": 4, "m": 6, "k": -1, "expected": enc(sp.eye(4, 6, k=-1))})
cases.append({"op": "eye", "n": 5, "m": 3, "k": 2, "expected": enc(sp.eye(5, 3, k=2))})

# Matrix Market fixtures written by scipy, read back by scipy.
fixtures = {}


def fixture(name, M, **kw):
    path = os.path.join(fix, name)
    scipy.io.mmwrite(path, M, **kw)
    back = scipy.io.mmread(path)
    fixtures[name] = {"expected": enc(back), "complex": bool(np.iscomplexobj(back.toarray() if sp.issparse(back) else back))}


S = rand_sparse(5, 5, 0.3)
Ssym = (S + S.T).tocoo()
fixture("real_general.mtx", rand_sparse(6, 4, 0.4).tocoo())
fixture("real_symmetric.mtx", Ssym, symmetry="symmetric")
K = rand_sparse(5, 5, 0.4)
fixture("real_skew.mtx", (K - K.T).tocoo(), symmetry="skew-symmetric")
H = rand_sparse(4, 4, 0.5, cplx=True)
Hh = H + H.conj().T
fixture("complex_hermitian.mtx", sp.coo_matrix(Hh), symmetry="hermitian")
fixture("complex_general.mtx", rand_sparse(3, 5, 0.5, cplx=True).tocoo())
I = sp.coo_matrix(np.array([[1, 0, -3], [0, 7, 0], [12, 0, 0]], dtype=np.int64))
fixture("integer_general.mtx", I, field="integer")
P = rand_sparse(4, 6, 0.4)
P.data[:] = 1
fixture("pattern_general.mtx", P.tocoo(), field="pattern")
fixture("array_real.mtx", np.round(rng.uniform(-3, 3, (3, 4)), 3))
Ad = np.round(rng.uniform(-3, 3, (4, 4)), 3)
fixture("array_symmetric.mtx", Ad + Ad.T, symmetry="symmetric")
fixture("array_complex.mtx", np.round(rng.uniform(-3, 3, (2, 3)), 2) + 1j * np.round(rng.uniform(-3, 3, (2, 3)), 2))

out = {"scipy": scipy.__version__, "numpy": np.__version__, "cases": cases, "fixtures": fixtures}
with open(os.path.join(here, "golden.json"), "w") as f:
    json.dump(out, f, indent=1)
print("wrote", len(cases), "cases,", len(fixtures), "fixtures")
