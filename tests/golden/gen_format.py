#!/usr/bin/env python3
"""Golden outputs for rlx tensor printing (src/tensor/format.ts), made by NumPy.

rlx prints tensors the way NumPy 1.24 prints arrays. This script records what
NumPy prints, str(a) and repr(a), for a fixed list of arrays, so that
tests/format.test.ts can check rlx character for character.

Regenerate (deterministic: fixed inputs and a seeded RNG; needs NumPy 1.24,
the system one at /usr/bin/python3):

    /usr/bin/python3 tests/golden/gen_format.py

which rewrites tests/golden/format.json next to this file.

Each case is {name, dtype, shape, values, str, repr, options?}:
  - values: the elements in row-major order as JSON numbers, complex
    interleaved (re, im), bool as 0/1; "nan", "inf", "-inf" and "-0" as strings;
    float16/float32 values are the exact doubles of the stored values;
  - repr: NumPy's repr of the array viewed as an ndarray subclass named
    `tensor`, i.e. NumPy's own layout for the prefix "tensor(" (continuation
    lines indented by 8, the line width counting the longer prefix);
  - options: print options for the case (np.printoptions), absent = defaults.
bfloat16 has no NumPy dtype, so it has no goldens (tests check it by hand).
"""
import json
import math
import os

import numpy as np

assert np.__version__.startswith("1.24"), "goldens are for NumPy 1.24, got " + np.__version__


class tensor(np.ndarray):
    """repr(a.view(tensor)) is NumPy's repr with the class name 'tensor'."""


def enc(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0 and math.copysign(1.0, x) < 0:
        return "-0"
    if x == int(x) and abs(x) < 2**53:
        return int(x)
    return x


def flat_values(a):
    flat = a.reshape(-1)
    if a.dtype.kind == "c":
        out = []
        for z in flat:
            out += [enc(z.real), enc(z.imag)]
        return out
    if a.dtype.kind == "b":
        return [int(x) for x in flat]
    if a.dtype.kind == "i":
        return [int(x) for x in flat]
    return [enc(x) for x in flat]


CASES = []


def case(name, data, dtype, shape=None, **options):
    a = np.array(data, dtype=dtype)
    if shape is not None:
        a = a.reshape(shape)
    with np.printoptions(**options):
        s = str(a)
        r = repr(a.view(tensor))
    c = {"name": name, "dtype": a.dtype.name, "shape": list(a.shape), "values": flat_values(a), "str": s, "repr": r}
    if options:
        c["options"] = options
    CASES.append(c)


nan, inf = np.nan, np.inf

# --- float64 basics
case("f64 small ints", [1.0, 2.0, 3.0], "float64")
case("f64 2x2", [[1.0, 2.0], [3.0, 4.0]], "float64")
case("f64 mixed decimals", [1.5, 2.25, 1000.0], "float64")
case("f64 negative", [-1.5, 2.0, -300.125], "float64")
case("f64 thirds", [1 / 3, 2 / 3, 1.0], "float64")
case("f64 rounding at 8 digits", [0.123456785, 1.000000005, 2.5e-5 + 1], "float64")
case("f64 ties", [0.125, 0.375, 2.5, 0.5e-8, 1.5e-8], "float64")
case("f64 large -> sci", [1e10, 1.0], "float64")
case("f64 1e8 boundary", [1e8, 1.0], "float64")
case("f64 just below 1e8", [99999999.0, 1.0], "float64")
case("f64 big integers", [123456789.0, 1.5], "float64")
case("f64 tiny -> sci", [1e-5, 1.0], "float64")
case("f64 1e-4 boundary", [0.0001, 1.0], "float64")
case("f64 ratio 1000", [1.0, 1000.0], "float64")
case("f64 ratio 1001", [1.0, 1001.0], "float64")
case("f64 sci mixed digits", [1.5e-10, 2.0, 3.25e12], "float64")
case("f64 3-digit exponents", [1e-300, 1.0, 1e300], "float64")
case("f64 max and subnormal", [1.7976931348623157e308, 5e-324], "float64")
case("f64 negative zero", [-0.0, 1.0], "float64")
case("f64 only negative zero", [-0.0, 0.0], "float64")
case("f64 zeros", [0.0, 0.0, 0.0], "float64")
case("f64 nan inf", [nan, inf, -inf, 1.5], "float64")
case("f64 only nan", [nan, nan], "float64")
case("f64 only inf", [inf, -inf], "float64")
case("f64 nan with sci", [nan, 1e10, -inf], "float64")
case("f64 nan wide", [nan, 123.456], "float64")
case("f64 pi e", [math.pi, math.e, -math.pi * 1e3], "float64")
case("f64 0.1 0.2 0.3", [0.1, 0.2, 0.1 + 0.2], "float64")

# --- float32 / float16: shortest digits of the stored value
case("f32 0.1", [0.1, 0.2, 0.3], "float32")
case("f32 third pi", [1 / 3, math.pi, 1e-3], "float32")
case("f32 1e-4 stored", [1e-4, 1.0], "float32")
case("f32 sci", [0.1, 1.5e10], "float32")
case("f32 big", [123456789.0, 16777217.0], "float32")
case("f32 ratio rounding", [1.0, 1000.00006], "float32")
case("f32 subnormal", [1e-45, 1.0], "float32")
case("f32 nan inf", [nan, -inf, 0.1], "float32")
case("f16 values", [0.1, 0.2, 0.3, 1 / 3], "float16")
case("f16 extremes", [65504.0, 6e-8, 1.0], "float16")
case("f16 int-like", [1.0, 2048.0, 2049.0, 4096.0], "float16")
case("f16 neg", [-0.0, -1.5, 0.000123], "float16")

# --- ints and bools
case("i32 vector", [1, -20, 300], "int32")
case("i32 2d", [[1, 2, 3], [40, 50, -6]], "int32")
case("i32 extremes", [-2147483648, 2147483647, 0], "int32")
case("i32 zeros", [0, 0], "int32")
case("bool vector", [True, False, True], "bool")
case("bool 2d", [[True, False], [False, False]], "bool")
case("bool all false", [False, False], "bool")

# --- complex
case("c128 basic", [1 + 2j, -3.5 - 4j], "complex128")
case("c128 zero imag", [1 + 0j, 2 + 0j], "complex128")
case("c128 nan inf", [complex(nan, 1), complex(1, inf), complex(-inf, -inf)], "complex128")
case("c128 sci", [1e10 + 1j, 1e-10 - 2j], "complex128")
case("c128 neg zero", [complex(-0.0, -0.0), complex(1.5, -0.0)], "complex128")
case("c64 0.1", [0.1 + 0.2j, 1 / 3 - 1j], "complex64")
case("c64 2d", [[1 + 1j, 2 - 2j], [3.5 + 0j, -1e-3j]], "complex64")

# --- 0-d
case("0d f64", 3.14, "float64")
case("0d f64 int", 2.0, "float64")
case("0d f64 big", 1e20, "float64")
case("0d f64 1e16", 1e16, "float64")
case("0d f64 below 1e16", 9999999999999998.0, "float64")
case("0d f64 tiny", 1.5e-5, "float64")
case("0d f64 -0", -0.0, "float64")
case("0d f64 nan", nan, "float64")
case("0d f64 -inf", -inf, "float64")
case("0d f32 0.1", 0.1, "float32")
case("0d f32 big", 123456789.0, "float32")
case("0d f32 1e-4", 1e-4, "float32")
case("0d f16", 0.1, "float16")
case("0d f16 max", 65504.0, "float16")
case("0d i32", -7, "int32")
case("0d bool", True, "bool")
case("0d bool false", False, "bool")
case("0d c128", 1 + 2j, "complex128")
case("0d c128 pure imag", 2.5j, "complex128")
case("0d c128 -0 real", complex(-0.0, 1), "complex128")
case("0d c128 nan imag", complex(0, nan), "complex128")
case("0d c128 inf parts", complex(-inf, inf), "complex128")
case("0d c128 sci", complex(1e20, -1e-20), "complex128")
case("0d c64", 0.1 - 0.2j, "complex64")

# --- empty
case("empty f64", [], "float64")
case("empty f64 0x3", np.zeros((0, 3)), "float64")
case("empty f32 2x0x3", np.zeros((2, 0, 3)), "float32")
case("empty i32", [], "int32")
case("empty bool", [], "bool")
case("empty c64 3x0", np.zeros((3, 0)), "complex64")
case("empty c128", [], "complex128")

# --- n-d
case("3d f64", np.arange(24.0), "float64", (2, 3, 4))
case("3d f32 fractions", np.arange(12) / 7, "float32", (2, 3, 2))
case("4d i32", np.arange(16) - 8, "int32", (2, 2, 2, 2))
case("4d bool", np.arange(16) % 3 == 0, "bool", (2, 1, 2, 4))
case("3d c128", np.arange(8) + 1j * np.arange(8)[::-1], "complex128", (2, 2, 2))
case("column", [[1.0], [2.5], [3.0]], "float64")
case("1x1x1", [[[7]]], "int32")

# --- summarized (size > threshold)
case("long f64", np.arange(2000.0), "float64")
case("long i32", np.arange(1001), "int32")
case("long f32 sci", np.linspace(0, 1e9, 1500), "float32")
case("long bool", np.arange(1200) % 2 == 0, "bool")
case("long c128", np.arange(1100) * (1 + 0.5j), "complex128")
case("2d summarized", np.arange(40 * 30.0) / 3, "float64", (40, 30))
case("3d summarized", np.arange(10 * 12 * 14), "int32", (10, 12, 14))
case("2d summarize rows only", np.arange(600 * 2.0), "float64", (600, 2))
case("summary width from shown", np.concatenate([[1.0], np.zeros(2000), [1e10]]), "float64")

# --- wrapping
case("wide f64", np.arange(40) * 1.125, "float64")
case("wide 2d", np.arange(60) / 7, "float64", (3, 20))
case("wide i32", np.arange(50) * 1000, "int32")
case("wide c128", np.arange(12) * (1.5 - 0.25j), "complex128")
case("wide f32 dtype on new line", np.arange(16) * 1.5, "float32")
case("wide 3d", np.arange(2 * 2 * 30) * 0.5, "float32", (2, 2, 30))

# --- print options
case("precision 3", [math.pi, 1 / 3, 2.0], "float64", precision=3)
case("precision 0", [1.5, 2.5, 0.4], "float64", precision=0)
case("suppress", [1e-10, 1.0, 123.456], "float64", suppress=True)
case("suppress big", [1e9, 1.0], "float64", suppress=True)
case("linewidth 40", np.arange(20.0), "float64", linewidth=40)
case("linewidth 10", [1.0, 2.0, 3.0, 4.0], "float64", linewidth=10)
case("threshold 10 edge 2", np.arange(30), "int32", threshold=10, edgeitems=2)
case("threshold 5 2d", np.arange(36.0), "float64", (6, 6), threshold=5, edgeitems=1)
case("floatmode fixed", [1.5, 2.0, 1 / 3], "float64", floatmode="fixed", precision=4)
case("floatmode fixed sci", [1.5e-10, 2.0], "float64", floatmode="fixed", precision=3)
case("floatmode unique", [1 / 3, 0.1, 1e-3], "float64", floatmode="unique")
case("floatmode unique sci", [1 / 3, 1e-10], "float64", floatmode="unique")
case("floatmode maxprec_equal", [1.5, 2.25, 3.0], "float64", floatmode="maxprec_equal")
case("sign +", [1.5, -2.0, nan, inf], "float64", sign="+")
case("sign space", [1.5, 2.0], "float64", sign=" ")
case("sign space neg", [1.5, -2.0], "float64", sign=" ")
case("sign + complex", [1 + 1j, -1 - 1j], "complex128", sign="+")
case("nanstr infstr", [nan, inf, 1.0], "float64", nanstr="NaN", infstr="Inf")

# --- seeded random cases (many magnitudes, shapes, dtypes)
rng = np.random.default_rng(20240611)
SHAPES = [(5,), (7,), (3, 4), (2, 3, 2), (1, 9), (4, 1), (13,), (2, 2, 2, 2)]
for i in range(80):
    dtype = ["float64", "float32", "float16", "complex64", "complex128", "int32"][i % 6]
    shape = SHAPES[rng.integers(len(SHAPES))]
    n = int(np.prod(shape))
    scale = 10.0 ** rng.integers(-12, 13)
    x = rng.standard_normal(n) * scale
    if rng.random() < 0.3:
        x = np.round(x, int(rng.integers(0, 4)))
    if rng.random() < 0.2:
        x[rng.integers(n)] = [nan, inf, -inf, 0.0, -0.0][rng.integers(5)]
    if dtype.startswith("complex"):
        x = x + 1j * rng.standard_normal(n) * 10.0 ** rng.integers(-6, 7)
    if dtype == "int32":
        x = np.clip(np.nan_to_num(x), -(2**31), 2**31 - 1)
    if dtype == "float16":
        x = np.clip(np.nan_to_num(x, nan=1.0, posinf=60000.0, neginf=-60000.0), -60000, 60000)
    with np.errstate(all="ignore"):
        case("random %d" % i, x, dtype, shape)

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "format.json")
with open(out, "w") as fh:
    # one case per line: small file, readable diffs
    fh.write("[\n" + ",\n".join(json.dumps(c) for c in CASES) + "\n]\n")
print("wrote %d cases to %s" % (len(CASES), out))
