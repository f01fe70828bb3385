"""Golden values for linalg.expm (issue 13): SciPy's own expm test matrices
(scipy/sparse/linalg/tests/test_matfuncs.py: the Burkardt collection with
Moler's badly scaled example, the triangular logm round trip, Pascal, the
exp_sinch overflow case) plus Al-Mohy & Higham's overscaling example and
complex / triangular cases, each with scipy.linalg.expm's value.

Run with Debian's python3 and SciPy 1.10 (apt-get install -y python3-scipy):
    /usr/bin/python3 tests/linalg/golden/gen_expm_golden.py
writes expm_golden.json beside this script.
"""
import json
import os

import numpy as np
import scipy
import scipy.linalg as sla
import scipy.sparse.linalg as spla


def enc(a):
    a = np.asarray(a)
    out = {"shape": list(a.shape), "re": [float(v) for v in np.real(a).ravel()]}
    if np.iscomplexobj(a):
        out["im"] = [float(v) for v in np.imag(a).ravel()]
    return out


def forsythe(n):
    a = np.diag(np.ones(n - 1), 1)
    a[n - 1, 0] = 10.0 ** -n
    return a


cases = {}


def add(name, a, exact=None, rtol=None):
    """exact: a known exp(a) to hold the result to instead of SciPy's value (with rtol)."""
    a = np.asarray(a)
    e = sla.expm(a)
    if exact is None:
        # The two SciPy implementations of the same algorithm agree (a sanity check of the golden).
        e2 = spla.expm(a)
        assert np.allclose(e, e2, rtol=1e-6, atol=1e-12 * np.abs(e).max()), name
        cases[name] = {"a": enc(a), "expm": enc(e)}
    else:
        assert np.allclose(e, exact, rtol=rtol), name
        cases[name] = {"a": enc(a), "expm": enc(exact), "rtol": rtol}


add("burkardt_1_diagonal", [[1.0, 0], [0, 2]])
add("burkardt_2_symmetric", [[1.0, 3], [3, 2]])
add("burkardt_3_laub", [[0.0, 1], [-39, -40]])
add("burkardt_4_moler_van_loan", [[-49.0, 24], [-64, 31]])
add("burkardt_5_nilpotent", [[0.0, 6, 0, 0], [0, 0, 6, 0], [0, 0, 0, 6], [0, 0, 0, 0]])
add("burkardt_6_defective", [[1.0, 1], [0, 1]])
eps = np.spacing(1.0)
add("burkardt_7_near_defective", [[1 + eps, 1], [0, 1 - eps]])
add("burkardt_8_wikipedia", [[21.0, 17, 6], [-5, -1, -6], [4, 4, 16]])
add("burkardt_9_nag", [[1.0, 2, 2, 2], [3, 1, 1, 2], [3, 2, 1, 2], [3, 3, 3, 1]])
add("burkardt_10_ward1", [[4.0, 2, 0], [1, 4, 1], [1, 1, 4]])
add("burkardt_11_ward2", [
    [29.87942128909879, 0.7815750847907159, -2.289519314033932],
    [0.7815750847907159, 25.72656945571064, 8.680737820540137],
    [-2.289519314033932, 8.680737820540137, 34.39400925519054]])
add("burkardt_12_ward3", [[-131.0, 19, 18], [-390, 56, 54], [-387, 57, 52]])
for n in (2, 3, 4, 10):
    add(f"burkardt_13_forsythe_{n}", forsythe(n))
add("burkardt_14_moler", [[0, 1e-8, 0], [-(2e10 + 4e8 / 6.0), -3, 2e10], [200.0 / 3.0, 0, -200.0 / 3.0]])
# Triangular logm of a badly scaled triangular matrix: expm must give it back, to rtol 1e-4 as in
# SciPy's test (the round trip is ill-conditioned: SciPy's two expm differ in the 6th digit).
add("triangular_logm", [
    [-1.12867982029050462e+00, 9.61418377142025565e+04, -4.52485573953179264e+09, 2.92496941103871812e+14],
    [0, -1.20101052953082288e+00, 9.63469687211303099e+04, -4.68104828911105442e+09],
    [0, 0, -1.13289322264498393e+00, 9.53249183094775653e+04],
    [0, 0, 0, -1.17947533272554850e+00]],
    exact=[[3.2346e-1, 3e4, 3e4, 3e4], [0, 3.0089e-1, 3e4, 3e4], [0, 0, 3.221e-1, 3e4], [0, 0, 0, 3.0744e-1]], rtol=1e-4)
# Al-Mohy & Higham 2009, section 1: [[1, b], [0, -1]] overscaled by the 2005 algorithm.
for b in (1e4, 1e8, 1e12):
    add(f"overscaling_b{int(np.log10(b))}", [[1.0, b], [0, -1]])
# The same, lower triangular.
add("overscaling_lower_b8", [[1.0, 0], [1e8, -1]])
# Pascal: the nilpotent subdiagonal diag(1..n, -1) (gh-8029).
add("pascal_9_scale_1e-3", np.diag(np.arange(1.0, 10.0), -1) * 1e-3)
# exp_sinch overflow (gh-11839): -2^11 L, triangular with a zero block.
Lm = np.array([[1.0, -0.5, -0.5, 0, 0, 0, 0], [0, 1, 0, -0.5, -0.5, 0, 0], [0, 0, 1, 0, 0, -0.5, -0.5],
               [0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]])
add("exp_sinch_overflow", -(2.0 ** 11) * Lm)
# Complex: an upper triangular badly scaled matrix, and a dense non-normal one.
add("complex_triangular", [[1 + 2j, 1e6 - 3e5j, 4e9], [0, -1 + 0.5j, 2e5j], [0, 0, 0.5 - 1j]])
rng = np.random.default_rng(13)
dense = (rng.standard_normal((5, 5)) + 1j * rng.standard_normal((5, 5))) @ np.diag([1, 10, 100, 1000, 1e4]) * 1e-2
add("complex_nonnormal", dense)
# Degree selection: tiny norms use Padé 3, 5, 7, 9 (no squaring).
base = rng.standard_normal((4, 4))
for scale in (1e-3, 5e-2, 0.3, 1.0, 30.0):
    add(f"random4_scale_{scale:g}", base * scale / np.linalg.norm(base, 1))

out = {"generator": f"scipy {scipy.__version__}, numpy {np.__version__}: scipy.linalg.expm", "cases": cases}
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "expm_golden.json"), "w") as f:
    json.dump(out, f, indent=None, separators=(",", ":"))
    f.write("\n")
print(len(cases), "cases")
