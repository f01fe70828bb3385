# Goldens for tests/sparse/formats/hb-golden.test.ts: Harwell–Boeing files written by
# SciPy's scipy.io.hb_write (RUA for real, IUA for integer matrices; SciPy writes
# nothing else), with the dense matrix they were written from and what
# scipy.io.hb_read reads back (null where SciPy cannot read its own file: negative
# values with three-digit exponents run into each other). hb_write prints 17
# significant digits, so every value reads back exactly. Run with Debian's python
# (numpy 1.24 / scipy 1.10), not the python3 on PATH:
#   /usr/bin/python3 tests/sparse/formats/gen_hb.py
# Writes hb-golden.json: {scipy, cases: [{name, text, expected, scipy_read}]}.
import io, json, os, tempfile
import numpy as np
import scipy
import scipy.io
import scipy.sparse as sps

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20240613)


def rand_sparse(m, n, density, values):
    mask = rng.random((m, n)) < density
    a = np.zeros((m, n), dtype=values.dtype)
    a[mask] = values[: mask.sum()]
    return a


def signs(k):
    return np.where(rng.random(k) < 0.5, -1.0, 1.0)


MATS = {
    "small real with negatives": np.array([[1.5, 0, -2e-300], [0, -3.25, 0], [4e10, 0, 5]]),
    "rectangular 4x6, empty rows and columns": np.array([[0, 1, 0, 0, -7.25, 0], [0, 0, 0, 0, 0, 0], [0, 2.5e-8, 0, 0, 3, 0], [0, 0, 0, 0, 1e20, 0]]),
    "1x1": np.array([[-0.1]]),
    "integer (IUA)": np.array([[1, 0, -2], [0, -3, 0], [400, 0, 5], [0, 99999, 0]], dtype=np.int64),
    "three-digit exponents, negative values touching": np.array([[1e-300, 0, -2e-300], [0, -3e300, 0], [-4e-300, 0, 5e-310]]),
    "random 40x25, normal values": rand_sparse(40, 25, 0.15, rng.standard_normal(1000)),
    "random 30x30, magnitudes 1e-300..1e300": rand_sparse(30, 30, 0.2, signs(900) * 10.0 ** rng.uniform(-300, 300, 900)),
    "random 60x7, integers": rand_sparse(60, 7, 0.3, rng.integers(-10**6, 10**6, 420)),
}


def enc(a):
    return [[float(v) for v in row] for row in np.asarray(a)]


out = []
with tempfile.TemporaryDirectory() as d:
    for name, a in MATS.items():
        path = os.path.join(d, "m.rua")
        scipy.io.hb_write(path, sps.csc_matrix(a))
        text = open(path).read()
        try:
            back = scipy.io.hb_read(path).toarray()
            assert np.array_equal(back, a), name
            read = enc(back)
        except ValueError:
            read = None
        out.append({"name": name, "text": text, "expected": enc(a), "scipy_read": read})
with open(os.path.join(here, "hb-golden.json"), "w") as f:
    json.dump({"scipy": scipy.__version__, "cases": out}, f, indent=0)
print(f"wrote {len(out)} cases (scipy {scipy.__version__}); scipy cannot read: {[c['name'] for c in out if c['scipy_read'] is None]}")
