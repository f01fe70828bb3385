# Goldens for tests/sparse/formats/mm-compat.test.ts: Matrix Market texts that
# SciPy reads although they bend the format (integers beyond int32, symmetric files
# storing upper-triangle entries, pattern files with value columns), with the
# dense matrix scipy.io.mmread returns for each. Run with Debian's python
# (numpy 1.24 / scipy 1.10), not the python3 on PATH:
#   /usr/bin/python3 tests/sparse/formats/gen_mm_compat.py
# Writes mm-compat.json: [{name, text, expected}] with complex values as [re, im].
import io, json, os
import numpy as np
import scipy
import scipy.io

here = os.path.dirname(os.path.abspath(__file__))
C = "%%MatrixMarket matrix coordinate "
A = "%%MatrixMarket matrix array "
TEXTS = {
    "integer beyond int32 and -2^31": C + "integer general\n2 3 4\n1 1 -2147483648\n2 2 99999999999\n1 3 2147483648\n2 3 -4294967296\n",
    "integer near 2^53": C + "integer general\n1 2 2\n1 1 9007199254740991\n1 2 -9007199254740992\n",
    "integer symmetric -2^31 off the diagonal": C + "integer symmetric\n2 2 2\n2 1 -2147483648\n2 2 3000000000\n",
    "array integer beyond int32": A + "integer general\n2 2\n4294967296\n-2147483648\n0\n7\n",
    "symmetric, upper-triangle entries": C + "real symmetric\n3 3 3\n1 2 5\n2 3 -1.5\n3 3 2\n",
    "symmetric, both triangles (summed)": C + "real symmetric\n3 3 4\n1 2 5\n2 1 3\n1 1 1\n3 1 0.25\n",
    "skew-symmetric, upper-triangle entries": C + "real skew-symmetric\n3 3 2\n1 2 5\n3 2 -2\n",
    "hermitian, upper-triangle entry conjugated": C + "complex hermitian\n2 2 3\n1 2 3 4\n1 1 2 0\n2 2 -1 0\n",
    "complex symmetric upper": C + "complex symmetric\n2 2 1\n1 2 1.5 -2\n",
    "integer symmetric upper": C + "integer symmetric\n3 3 2\n1 3 7\n2 2 -3\n",
    "pattern with a real value column": C + "pattern general\n2 3 3\n1 2 5\n2 1 3.5\n2 3 -1e300\n",
    "pattern with two value columns": C + "pattern general\n2 2 2\n1 2 5 4\n2 1 3.5 1\n",
    "pattern symmetric with values, upper entry": C + "pattern symmetric\n3 3 3\n1 2 9\n3 3 1\n3 1 2\n",
    "pattern with a non-numeric value column": C + "pattern general\n2 2 1\n1 2 abc\n",
    "pattern mixed value columns": C + "pattern general\n2 2 3\n1 1\n1 2 3\n2 2 1 2\n",
    "general duplicates": C + "real general\n2 2 3\n1 1 1\n1 1 2.5\n2 1 -1\n",
}


def enc(a):
    a = np.asarray(a.toarray() if hasattr(a, "toarray") else a)
    if np.iscomplexobj(a):
        return [[[float(v.real), float(v.imag)] for v in row] for row in a]
    return [[float(v) for v in row] for row in a]


out = []
for name, text in TEXTS.items():
    out.append({"name": name, "text": text, "expected": enc(scipy.io.mmread(io.BytesIO(text.encode())))})
with open(os.path.join(here, "mm-compat.json"), "w") as f:
    json.dump({"scipy": scipy.__version__, "cases": out}, f, indent=1)
print(f"wrote {len(out)} cases (scipy {scipy.__version__})")
