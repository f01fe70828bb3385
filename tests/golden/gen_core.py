#!/usr/bin/python3
"""Golden NumPy values for tricky core tensor cases (tests/golden-core.test.ts).

Regenerate (deterministic: fixed inputs, no randomness; needs NumPy 1.24 and
SciPy 1.10 -- the system ones at /usr/bin/python3, glibc libm):

    /usr/bin/python3 tests/golden/gen_core.py

which rewrites tests/golden/core.json next to this file (one case per line).

Every case is a tiny program in a JSON DSL that this script runs with NumPy and
the TS test runs with rlx:

  {
    "name":     unique description,
    "group":    broadcast-slicing | promotion | complex | real-special |
                float-special | linalg | reduction | error,
    "inputs":   {NAME: {"dtype", "shape", "values"}}  or, for big inputs,
                {NAME: {"dtype", "shape", "arange": [start, step]}} meaning
                element i = start + i*step computed in float64, then cast,
    "ops":      [[OUT, METHOD, SELF, ARG...], ...]  each step calls the rlx
                Tensor method METHOD on the tensor named SELF (an input or an
                earlier OUT) and names the result OUT; METHOD "T" is the
                property, METHOD "where" is the free function rlx.where(SELF,
                ARG, ARG); the last OUT is the result,
    "expected": {"dtype", "shape", "values"}  or  {"error": message},
    "tol":      "exact" or {"rtol": r, "atol": a}   (see below),
    "signedZeros": true when the sign of zero results is part of the answer,
    "str"/"repr": NumPy's str() / repr() of the result (repr with the prefix
                "tensor(") when the case also checks printing,
    "numpyDtype": NumPy's result dtype where rlx deliberately differs,
    "note":     why, for those cases.
  }

  ARG: a string is the name of a tensor; a number is a JS number; true/false;
  null is "not given" (undefined); a list of numbers is an axis list / shape /
  permutation; {"float": "nan" | "inf" | "-inf" | "-0"} is that number;
  {"dtype": D} is a dtype name; {"slice": [AX...]} is rlx.s(...) with AX one
  of "ax" (NumPy ':'), [start, stop, step] (rlx.rg, nulls allowed) or
  {"ix": i} (rlx.ix: NumPy i:i+1, the axis is kept).

  values: row-major, complex interleaved (re, im), bool as 0/1, float32 and
  complex64 values are the exact doubles of the stored values; "nan", "inf",
  "-inf" and "-0" are strings because JSON has no such numbers.

  tol: "exact" -- every element equal (NaN matches NaN), used for int/bool
  results and where IEEE-754 gives one answer; otherwise |got - want| <=
  atol + rtol*|want| per element, where for complex elements |want| is the
  modulus of the whole expected element (so a 1e-17 real part next to an
  imaginary part of 1 passes). Non-finite expected components must match
  exactly. rtol defaults: 1e-12 for float64/complex128, 1e-6 for
  float32/complex64. signedZeros: an expected zero component demands a result
  whose sign agrees (Object.is for an exact zero; a tiny nonzero within the
  tolerance must have the same sign).

Scalars: JS has one number type, and rlx (like NEP 50 with the JS rule
"Number.isInteger -> int kind") treats an integral number as a Python int and
any other number as a Python float. The DSL therefore keeps integral scalars as
Python ints when it runs NumPy. NumPy runs with NEP 50 promotion
(np._set_promotion_state('weak')), which is what rlx implements; where the
legacy NumPy 1.24 rule gives a different dtype, the case says so in
"legacyNumpyDtype".

Deliberate rlx differences that the expected values encode (each such case
carries "numpyDtype" and "note"):
  * rlx has no int64 and no int8: integer results NumPy makes int64 (sum/prod/
    cumsum of bool or int32, argmax/argmin, bool + Python int) are int32 in
    rlx; bool ** bool (NumPy int8) is int32 (rlx's pow on bools).
  * complex sign: rlx implements NumPy 2's z/|z| (NumPy 1.24 still returns
    sign(re)); see tests/golden/gen_scalar_math.py.
  * complex log1p / expm1 at non-finite inputs: rlx follows NumPy 2's
    log1p_complex (NaN in -> NaN+NaNj) and cexp's Annex G rule for
    expm1(x + 0j) = expm1(x) + 0j, as tests/golden/gen_scalar_math.py records.
Everything else is plain NumPy 1.24: a mismatch there is an rlx bug.
"""

import json
import math
import os
import warnings

import numpy as np
import scipy.special as sc

assert np.__version__.startswith("1.24"), "goldens are for NumPy 1.24, got " + np.__version__

warnings.simplefilter("ignore")  # NumPy's ComplexWarning / ddof warnings are expected here
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "core.json")
INF = math.inf
NAN = math.nan
SHARED = {"float64", "float32", "int32", "bool", "complex64", "complex128"}


class tensor(np.ndarray):
    """repr(a.view(tensor)) is NumPy's repr with the class name 'tensor'."""


# ----------------------------------------------------------------------------
# encoding
# ----------------------------------------------------------------------------

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
    flat = np.asarray(a).reshape(-1)
    if flat.dtype.kind == "c":
        out = []
        for z in flat:
            out += [enc(z.real), enc(z.imag)]
        return out
    if flat.dtype.kind in "biu":
        return [int(x) for x in flat]
    return [enc(x) for x in flat]


def dec(v):
    if isinstance(v, str):
        return {"nan": NAN, "inf": INF, "-inf": -INF, "-0": -0.0}[v]
    return v


# ----------------------------------------------------------------------------
# the DSL, run with NumPy
# ----------------------------------------------------------------------------

def axes_arg(a):
    return tuple(a) if isinstance(a, list) else a


def np_slice(x, spec):
    idx = []
    for ax in spec:
        if ax == "ax":
            idx.append(slice(None))
        elif isinstance(ax, dict):
            i = ax["ix"]
            idx.append(slice(i, i + 1 if i != -1 else None))
        else:
            idx.append(slice(*ax))
    return x[tuple(idx)]


def scalar(v):
    """A DSL number as NumPy sees it: integral -> Python int (the JS rule)."""
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)) and float(v).is_integer() and abs(v) < 2**53:
        return int(v)
    return v


def red(fn):
    def f(x, axis=None, keepdims=False):
        return fn(x, axis=axes_arg(axis), keepdims=bool(keepdims))
    return f


def var(x, axis=None, keepdims=False, ddof=0):
    return np.var(x, axis=axes_arg(axis), keepdims=bool(keepdims), ddof=ddof)


def std(x, axis=None, keepdims=False, ddof=0):
    return np.std(x, axis=axes_arg(axis), keepdims=bool(keepdims), ddof=ddof)


def lse(x, axis=None, keepdims=False):
    return sc.logsumexp(x, axis=axes_arg(axis), keepdims=bool(keepdims))


def argred(fn):
    def f(x, axis=None, keepdims=False):
        r = fn(x, axis=axis)
        if keepdims:
            r = np.expand_dims(r, axis) if axis is not None else np.reshape(r, (1,) * x.ndim)
        return r
    return f


def np_sign(x):
    if x.dtype.kind == "c":
        # rlx: NumPy 2's z/|z| (0 at 0), not NumPy 1.24's sign(re); finite inputs only here.
        # componentwise re/|z|, im/|z| (as NumPy 2 does), so zero signs survive
        a = np.abs(x)
        d = np.where(a == 0, 1, a)
        out = np.empty_like(x)
        out.real = np.where(a == 0, 0, x.real / d)
        out.imag = np.where(a == 0, 0, x.imag / d)
        return out
    return np.sign(x)


def np_log1p(x):
    if x.dtype.kind != "c":
        return np.log1p(x)
    # NumPy 1.24's formula log(hypot(1+x, y)) + i atan2(y, 1+x), which is what
    # rlx computes (more accurately for small |z|; the inputs here avoid those);
    # NaN anywhere -> NaN+NaNj (NumPy 2's log1p_complex, rlx's rule).
    out = np.log1p(x)
    nanin = np.isnan(x.real) | np.isnan(x.imag)
    out[nanin] = complex(NAN, NAN)
    return out


def np_expm1(x):
    if x.dtype.kind != "c":
        return np.expm1(x)
    out = np.expm1(x)
    # rlx (tests/golden/gen_scalar_math.py ref_expm1): for finite |re| > 700 the
    # exponential is split, exp(x/2)^2, so that a finite result does not overflow.
    big = np.isfinite(x.real) & np.isfinite(x.imag) & (np.abs(x.real) > 700)
    h = np.exp(x.real[big] / 2.0)
    out[big] = ((h * np.cos(x.imag[big])) * h - 1.0) + 1j * ((h * np.sin(x.imag[big])) * h)
    # rlx: expm1(x + 0j) = expm1(x) + 0j (Annex G cexp rule), also where exp overflows.
    real_axis = (x.imag == 0)
    out.real[real_axis] = np.expm1(x.real[real_axis])
    out.imag[real_axis] = x.imag[real_axis]
    return out


NP = {
    "add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide,
    "pow": np.power, "maximum": np.maximum, "minimum": np.minimum, "atan2": np.arctan2,
    "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
    "gt": np.greater, "ge": np.greater_equal,
    "logicalAnd": np.logical_and, "logicalOr": np.logical_or, "logicalNot": np.logical_not,
    "neg": np.negative, "abs": np.abs, "sign": np_sign, "exp": np.exp, "log": np.log,
    "log1p": np_log1p, "expm1": np_expm1, "sqrt": np.sqrt, "sin": np.sin, "cos": np.cos,
    "tan": np.tan, "tanh": np.tanh, "sinh": np.sinh, "cosh": np.cosh, "asin": np.arcsin,
    "acos": np.arccos, "atan": np.arctan, "floor": np.floor, "ceil": np.ceil,
    "round": np.round, "real": np.real, "imag": np.imag, "conj": np.conj, "angle": np.angle,
    "square": np.square,
    "clip": np.clip,
    "cast": lambda x, d: x.astype(d),
    "sum": red(np.sum), "prod": red(np.prod), "max": red(np.max), "min": red(np.min),
    "mean": red(np.mean), "var": var, "std": std, "logsumexp": lse,
    "argmax": argred(np.argmax), "argmin": argred(np.argmin),
    "cumsum": lambda x, axis=None: np.cumsum(x, axis=axis),
    "matmul": np.matmul, "dot": np.dot, "outer": np.outer,
    "reshape": lambda x, *s: np.reshape(x, tuple(s[0]) if len(s) == 1 and isinstance(s[0], list) else s),
    "transpose": lambda x, perm=None: np.transpose(x, perm),
    "T": lambda x: x.T,
    "swapaxes": np.swapaxes,
    "expandDims": lambda x, a: np.expand_dims(x, axes_arg(a)),
    "squeeze": lambda x, a=None: np.squeeze(x, axes_arg(a)),
    "broadcastTo": lambda x, s: np.broadcast_to(x, tuple(s)),
    "flatten": lambda x: x.reshape(-1),
    "flip": lambda x, a=None: np.flip(x, axes_arg(a)),
    "slice": np_slice,
    "where": np.where,
}


def make_input(spec):
    if "arange" in spec:
        start, step = spec["arange"]
        n = int(np.prod(spec["shape"]))
        v = start + np.arange(n, dtype=np.float64) * step
        return v.astype(spec["dtype"]).reshape(spec["shape"])
    vals = [dec(v) for v in spec["values"]]
    if spec["dtype"].startswith("complex"):
        vals = [complex(vals[i], vals[i + 1]) for i in range(0, len(vals), 2)]
    return np.array(vals, dtype=spec["dtype"]).reshape(spec["shape"])


def run_program(inputs, ops):
    env = {k: make_input(v) for k, v in inputs.items()}
    last = None

    def arg(a):
        if isinstance(a, str):
            return env[a]
        if isinstance(a, dict):
            if "float" in a:
                return dec(a["float"])
            if "dtype" in a:
                return a["dtype"]
            if "slice" in a:
                return a["slice"]
            raise ValueError(a)
        if isinstance(a, list):
            return a
        if a is None:
            return None
        return scalar(a)

    for step in ops:
        out, method, self_name = step[0], step[1], step[2]
        args = [arg(a) for a in step[3:]]
        # trailing nulls mean "not given"
        while args and args[-1] is None:
            args.pop()
        args = [None if a is None else a for a in args]
        env[out] = np.asarray(NP[method](env[self_name], *args))
        last = out
    return env[last]


# ----------------------------------------------------------------------------
# cases
# ----------------------------------------------------------------------------

CASES = []
NAMES = set()

# NumPy dtypes rlx maps to its own (deliberately: rlx has no int64/int8).
DTYPE_MAP = {"int64": "int32", "int8": "int32"}
MAP_NOTE = "rlx has no int64/int8: NumPy's {np} result is int32 in rlx (deliberate)"


def inp(values, dtype, shape=None):
    a = np.array(values, dtype=dtype)
    if shape is not None:
        a = a.reshape(shape)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": flat_values(a)}


def rng_input(dtype, shape, start=0, step=1):
    """A small deterministic input: start + i*step, cast to dtype."""
    n = int(np.prod(shape))
    v = start + np.arange(n, dtype=np.float64) * step
    return inp(v.astype(dtype), dtype, shape)


def case(name, group, inputs, ops, *, rlx_dtype=None, exact=False, rtol=None, atol=None, signed_zeros=False,
         printing=False, note=None, expect_error=False):
    assert name not in NAMES, name
    NAMES.add(name)
    for v in inputs.values():
        assert v["dtype"] in SHARED, (name, v["dtype"])
    c = {"name": name, "group": group, "inputs": inputs, "ops": ops}
    np._set_promotion_state("weak")
    with np.errstate(all="ignore"):
        try:
            r = run_program(inputs, ops)
        except Exception as e:  # noqa: BLE001
            if not expect_error:
                raise
            c["expected"] = {"error": f"{type(e).__name__}: {e}"}
            CASES.append(c)
            return c
    assert not expect_error, f"{name}: NumPy did not raise"
    np._set_promotion_state("legacy")
    with np.errstate(all="ignore"):
        try:
            legacy = run_program(inputs, ops).dtype.name
        except Exception:  # noqa: BLE001
            legacy = "error"
    np._set_promotion_state("weak")

    dt = r.dtype.name
    if rlx_dtype is not None and rlx_dtype != dt:
        # A documented, deliberate difference from the installed NumPy.
        c["numpyDtype"] = dt
        c["note"] = note
        r = r.astype(rlx_dtype)
        dt = rlx_dtype
    elif dt in DTYPE_MAP:
        mapped = DTYPE_MAP[dt]
        info = np.iinfo(np.int32)
        assert r.size == 0 or (int(r.min()) >= info.min and int(r.max()) <= info.max), name
        c["numpyDtype"] = dt
        c["note"] = MAP_NOTE.format(np=dt) + (f"; {note}" if note else "")
        r = r.astype(mapped)
        dt = mapped
    elif note:
        c["note"] = note
    assert dt in SHARED, (name, dt)
    if legacy != "error" and DTYPE_MAP.get(legacy, legacy) != dt:
        c["legacyNumpyDtype"] = legacy
    c["expected"] = {"dtype": dt, "shape": list(r.shape), "values": flat_values(r)}
    if exact or r.dtype.kind in "bi":
        c["tol"] = "exact"
    else:
        default = 1e-12 if dt in ("float64", "complex128") else 1e-6
        c["tol"] = {"rtol": default if rtol is None else rtol, "atol": 0 if atol is None else atol}
    if signed_zeros:
        c["signedZeros"] = True
    if printing:
        c["str"] = str(r)
        c["repr"] = repr(r.view(tensor))
    CASES.append(c)
    return c


def S(*axes):
    return {"slice": list(axes)}


def F(s):
    return {"float": s}


def D(d):
    return {"dtype": d}


# ---- broadcasting combined with (negative-step) slices ----------------------
G = "broadcast-slicing"
case("a[::-1, 1::2] + b[:, None] (int32 + float32 -> float64)", G,
     {"a": rng_input("int32", [4, 5]), "b": inp([0.5, 1.25, -2, 8], "float32")},
     [["v", "slice", "a", S([None, None, -1], [1, None, 2])],
      ["bc", "expandDims", "b", 1],
      ["r", "add", "v", "bc"]], exact=True, printing=True)
case("a[::-2].T * c", G,
     {"a": rng_input("float64", [5, 3], 1, 0.5), "c": inp([1, -2, 4], "float64")},
     [["v", "slice", "a", S([None, None, -2])], ["t", "T", "v"], ["r", "mul", "t", "c"]], exact=True)
case("(a[:, None] + b[None, :])[::-1, 4:0:-2]: slicing a broadcast result", G,
     {"a": rng_input("int32", [4], 10, 10), "b": rng_input("int32", [5], 0, 1)},
     [["ac", "expandDims", "a", 1], ["br", "expandDims", "b", 0], ["s", "add", "ac", "br"],
      ["r", "slice", "s", S([None, None, -1], [4, 0, -2])]], printing=True)
case("a[-3:-1, ::-3]", G, {"a": rng_input("float64", [5, 7])},
     [["r", "slice", "a", S([-3, -1, None], [None, None, -3])]], exact=True)
case("a[10:-10:-2]: out-of-range bounds with a negative step", G, {"a": rng_input("int32", [7])},
     [["r", "slice", "a", S([10, -10, -2])]])
case("a[5:2]: empty slice", G, {"a": rng_input("float64", [6, 3])},
     [["r", "slice", "a", S([5, 2, None])]], exact=True, printing=True)
case("a[2:5:-1]: empty slice with a negative step", G, {"a": rng_input("int32", [6, 3])},
     [["r", "slice", "a", S([2, 5, -1])]])
case("a[5:2] + b[0:1]: size-0 dim broadcast against 1", G,
     {"a": rng_input("float64", [6, 3]), "b": rng_input("float32", [2, 3])},
     [["e", "slice", "a", S([5, 2, None])], ["o", "slice", "b", S([0, 1, None])], ["r", "add", "e", "o"]],
     exact=True)
case("a[:, 4:] + c: (3,0) + (3,1) -> (3,0)", G,
     {"a": rng_input("int32", [3, 4]), "c": rng_input("int32", [3, 1])},
     [["e", "slice", "a", S("ax", [4, None, None])], ["r", "add", "e", "c"]])
case("(0,) + (1,) -> (0,) and its sum is 0", G,
     {"a": rng_input("float64", [4]), "b": inp([7.5], "float64")},
     [["e", "slice", "a", S([3, 3, None])], ["s", "add", "e", "b"], ["r", "sum", "s"]], exact=True)
case("sum over an empty axis of a sliced view", G, {"a": rng_input("float64", [6, 3])},
     [["e", "slice", "a", S([5, 2, None])], ["r", "sum", "e", 0]], exact=True)
case("prod over an empty axis is 1", G, {"a": rng_input("float64", [4, 3])},
     [["e", "slice", "a", S("ax", [3, 0, None])], ["r", "prod", "e", 1]], exact=True)
case("sum of an empty int32 slice", G, {"a": rng_input("int32", [4])},
     [["e", "slice", "a", S([1, 1, None])], ["r", "sum", "e"]])
case("x[::-1, ::2, ::-3] + y[::-3] (3-D view + reversed 1-D)", G,
     {"x": rng_input("float64", [2, 3, 4]), "y": inp([100, 200, 300, 400], "float64")},
     [["v", "slice", "x", S([None, None, -1], [None, None, 2], [None, None, -3])],
      ["w", "slice", "y", S([None, None, -3])], ["r", "add", "v", "w"]], exact=True)
case("broadcastTo(b, (2,3))[::-1, ::-1] * a (2,1)", G,
     {"b": inp([1, 2, 3], "int32"), "a": inp([[10], [-1]], "int32")},
     [["bb", "broadcastTo", "b", [2, 3]], ["v", "slice", "bb", S([None, None, -1], [None, None, -1])],
      ["r", "mul", "v", "a"]])
case("flip(a, 0).T[1:, ::-1] - a[::-1, ix 2].T", G,
     {"a": rng_input("float32", [4, 3], -1, 0.25)},
     [["f", "flip", "a", 0], ["t", "T", "f"], ["v", "slice", "t", S([1, None, None], [None, None, -1])],
      ["c", "slice", "a", S([None, None, -1], {"ix": 2})], ["ct", "T", "c"], ["r", "sub", "v", "ct"]],
     exact=True)
case("reshape of a negative-step view", G, {"a": rng_input("int32", [3, 4])},
     [["v", "slice", "a", S([None, None, -1], [None, None, -1])], ["r", "reshape", "v", [2, 6]]])
case("x[ix -1] keeps the axis; broadcast against a column", G,
     {"x": rng_input("float64", [3, 4]), "c": inp([[1], [2], [3]], "float64")},
     [["v", "slice", "x", S({"ix": -1})], ["r", "mul", "v", "c"]], exact=True)

# ---- promotion corners ------------------------------------------------------
G = "promotion"
i32 = inp([1, -2, 3], "int32")
f32 = inp([0.5, 1.5, -2.25], "float32")
case("int32 + float32 -> float64", G, {"a": i32, "b": f32}, [["r", "add", "a", "b"]], exact=True)
case("float32 + complex64 -> complex64", G,
     {"a": f32, "b": inp([1 + 2j, -1j, 0.25], "complex64")}, [["r", "add", "a", "b"]], exact=True)
case("float64 + complex64 -> complex128", G,
     {"a": inp([0.1, 0.2, 0.3], "float64"), "b": inp([1 + 2j, -1j, 0.1 + 0.1j], "complex64")},
     [["r", "add", "a", "b"]], exact=True)
case("int32 + complex64 -> complex128", G,
     {"a": i32, "b": inp([0.1 + 1j, 2j, 1], "complex64")}, [["r", "add", "a", "b"]], exact=True)
case("int32 / int32 -> float64 (true division, x/0)", G,
     {"a": inp([7, -7, 1, -1, 0], "int32"), "b": inp([2, 2, 0, 0, 0], "int32")},
     [["r", "div", "a", "b"]], exact=True, printing=True)
case("bool + bool -> bool (logical or)", G,
     {"a": inp([True, True, False, False], "bool"), "b": inp([True, False, True, False], "bool")},
     [["r", "add", "a", "b"]], printing=True)
case("bool * bool -> bool (logical and)", G,
     {"a": inp([True, True, False, False], "bool"), "b": inp([True, False, True, False], "bool")},
     [["r", "mul", "a", "b"]])
case("bool * int32 -> int32", G,
     {"a": inp([True, False, True], "bool"), "b": inp([5, 6, -7], "int32")}, [["r", "mul", "a", "b"]])
case("int32 ** int32 -> int32", G,
     {"a": inp([2, 3, -2, 0, 5, 1, -1], "int32"), "b": inp([10, 5, 3, 0, 0, 100, 7], "int32")},
     [["r", "pow", "a", "b"]])
case("int32 ** int32 wraps around on overflow (3**21)", G,
     {"a": inp([3, 2, -3], "int32"), "b": inp([21, 31, 21], "int32")}, [["r", "pow", "a", "b"]])
case("bool ** bool", G,
     {"a": inp([True, True, False, False], "bool"), "b": inp([True, False, True, False], "bool")},
     [["r", "pow", "a", "b"]])
case("bool / bool -> float64", G,
     {"a": inp([True, True, False], "bool"), "b": inp([True, False, True], "bool")},
     [["r", "div", "a", "b"]], exact=True)
case("mean of int32 -> float64", G, {"a": inp([1, 2, 4, 2147483647, 2147483647], "int32")},
     [["r", "mean", "a"]], exact=True)
case("mean of bool -> float64", G, {"a": inp([True, False, True, True], "bool")}, [["r", "mean", "a"]],
     exact=True)
case("sum of bool", G, {"a": inp([[True, False, True], [True, True, True]], "bool")},
     [["r", "sum", "a", 1]])
case("sum of int32 (wrap-free)", G, {"a": inp([[1, -2, 3], [4, 5, -6]], "int32")}, [["r", "sum", "a", 0]])
case("cumsum of bool", G, {"a": inp([True, False, True, True], "bool")}, [["r", "cumsum", "a"]])
case("NEP 50: float32 array + 3.5 stays float32", G, {"a": f32}, [["r", "add", "a", 3.5]], exact=True)
case("NEP 50: float32 array * 0.1 stays float32 (scalar rounded to float32)", G,
     {"a": inp([1, 3, 10], "float32")}, [["r", "mul", "a", 0.1]], exact=True)
case("NEP 50: float32 array * 0.1 rounds 0.1 to float32 first (9*0.1f != 9*0.1)", G,
     {"a": inp([9, 13, 18, 21, 26], "float32")}, [["r", "mul", "a", 0.1]], exact=True)
case("NEP 50: int32 array + 1.5 -> float64", G, {"a": i32}, [["r", "add", "a", 1.5]], exact=True)
case("NEP 50: int32 array + 3 stays int32", G, {"a": i32}, [["r", "add", "a", 3]])
case("NEP 50: int32 array / 2 -> float64", G, {"a": i32}, [["r", "div", "a", 2]], exact=True)
case("NEP 50: float32 array / 3 stays float32", G, {"a": f32}, [["r", "div", "a", 3]], exact=True)
case("NEP 50: bool array + 1 -> default int", G, {"a": inp([True, False], "bool")},
     [["r", "add", "a", 1]])
case("NEP 50: bool array + 1.5 -> float64", G, {"a": inp([True, False], "bool")},
     [["r", "add", "a", 1.5]], exact=True)
case("NEP 50: int32 array + true stays int32", G, {"a": i32}, [["r", "add", "a", True]])
case("NEP 50: float32 array * 1e300 overflows in float32", G, {"a": inp([1, 0, -2], "float32")},
     [["r", "mul", "a", 1e300]], exact=True)
case("NEP 50: complex64 array + 1.5 stays complex64", G, {"a": inp([1 + 1j, -2j], "complex64")},
     [["r", "add", "a", 1.5]], exact=True)
case("NEP 50: a 0-d int32 tensor is not weak: float32 + it -> float64", G,
     {"a": f32, "s": inp(2, "int32")}, [["r", "add", "a", "s"]], exact=True)
case("NEP 50: float32 + 0-d float64 tensor -> float64", G,
     {"a": f32, "s": inp(0.1, "float64")}, [["r", "add", "a", "s"]], exact=True)
case("sqrt of int32 -> float64", G, {"a": inp([4, 2, 0], "int32")}, [["r", "sqrt", "a"]])
case("maximum(float32, int32) -> float64", G, {"a": f32, "b": i32}, [["r", "maximum", "a", "b"]], exact=True)
case("where(bool, int32, float32) -> float64", G,
     {"c": inp([True, False, True], "bool"), "a": i32, "b": f32}, [["r", "where", "c", "a", "b"]], exact=True)
case("int32 < float64 and NaN comparisons -> bool", G,
     {"a": inp([1, 2, 3, 4], "int32"), "b": inp([1.5, 2, NAN, 3.999], "float64")},
     [["r", "lt", "a", "b"]])
case("NaN != NaN, NaN == NaN", G, {"a": inp([NAN, 1, NAN], "float64"), "b": inp([NAN, 1, 0], "float64")},
     [["e", "eq", "a", "b"], ["n", "ne", "a", "b"], ["r", "logicalAnd", "n", "e"]])
case("cast int32 -> float32 rounds 16777217", G, {"a": inp([16777217, -16777219, 2147483647], "int32")},
     [["r", "cast", "a", D("float32")]], exact=True)
case("cast float64 -> int32 truncates toward zero", G,
     {"a": inp([-1.7, 1.7, -0.5, 0.5, -0.0, 2.9999, -2147483648.9], "float64")},
     [["r", "cast", "a", D("int32")]])
case("cast nan / inf / out-of-range float64 -> int32 gives -2**31 (x86)", G,
     {"a": inp([NAN, INF, -INF, 1e10, -1e10, 2147483648.0], "float64")}, [["r", "cast", "a", D("int32")]],
     note="NumPy on x86 (cvttsd2si); docs/dtypes.md makes it rlx's rule on every platform")
case("cast float64 -> bool (nan and -0)", G, {"a": inp([0, -0.0, NAN, 1e-300, -INF], "float64")},
     [["r", "cast", "a", D("bool")]])
case("cast complex128 -> float64 drops the imaginary part", G,
     {"a": inp([1 + 2j, -3 - 0j, complex(NAN, 1)], "complex128")}, [["r", "cast", "a", D("float64")]],
     exact=True)
case("cast complex128 -> bool (any nonzero part)", G,
     {"a": inp([0j, 1j, complex(-0.0, 0), 2], "complex128")}, [["r", "cast", "a", D("bool")]])
case("cast float64 -> complex64 rounds each part", G, {"a": inp([0.1, -1e40, 3], "float64")},
     [["r", "cast", "a", D("complex64")]], exact=True)

# ---- complex branch cuts and special values ---------------------------------
G = "complex"
CPTS_FINITE = [complex(-1, 0), complex(-1, -0.0), complex(2, 0), complex(2, -0.0),
               complex(-2, 0), complex(-2, -0.0), complex(0, 2), complex(-0.0, 2),
               complex(0, -2), complex(-0.0, -2), complex(0, 0), complex(-0.0, 0),
               complex(0, -0.0), complex(-0.0, -0.0), complex(0.5, -0.75), complex(-3, 4)]
CPTS_NONFINITE = [complex(INF, 0), complex(-INF, 0), complex(-INF, -0.0), complex(0, INF),
                  complex(0, -INF), complex(INF, INF), complex(-INF, INF), complex(1, INF),
                  complex(INF, 1), complex(-INF, 1), complex(NAN, 0), complex(0, NAN),
                  complex(NAN, NAN), complex(INF, NAN), complex(NAN, INF)]
CUNARY = ["sqrt", "log", "log1p", "expm1", "exp", "sin", "cos", "tan", "tanh", "sinh", "cosh",
          "asin", "acos", "atan", "abs", "angle", "sign"]
CNOTES = {
    "sign": "rlx's complex sign is NumPy 2's z/|z| (NumPy 1.24 gives sign(re)); deliberate",
    "log1p": "non-finite: rlx follows NumPy 2's log1p_complex (NaN in -> NaN+NaNj); deliberate",
    "expm1": "non-finite: rlx gives expm1(x + 0j) = expm1(x) + 0j (Annex G cexp rule); deliberate",
}
for op in CUNARY:
    pts = CPTS_FINITE
    if op in ("exp", "expm1", "sinh", "cosh", "tanh", "sin", "cos", "tan"):
        pts = pts + [complex(710, 0.5), complex(-746, 1)]  # overflow / underflow
    case(f"complex128 {op}: branch cuts with signed zeros", G, {"z": inp(pts, "complex128")},
         [["r", op, "z"]], signed_zeros=True, note=CNOTES.get(op) if op == "sign" else None)
    if op == "sign":
        continue  # NumPy 1.24 has no reference for NumPy 2's sign at inf/nan
    case(f"complex128 {op}: inf and nan components", G, {"z": inp(CPTS_NONFINITE, "complex128")},
         [["r", op, "z"]], signed_zeros=True, note=CNOTES.get(op) if op in ("log1p", "expm1") else None)
for op in ("sqrt", "log", "asin", "acos", "atan", "angle"):
    case(f"complex64 {op}: branch cuts with signed zeros", G, {"z": inp(CPTS_FINITE, "complex64")},
         [["r", op, "z"]], signed_zeros=True)
case("complex pow corners: 0**0, 0**(1+1j), (-1)**0.5, (1+1j)**2, (1+1j)**3, 0**-1, (-8)**(1/3)", G,
     {"a": inp([0, 0, -1, 1 + 1j, 1 + 1j, 0, -8, 2, 1j, complex(-1, -0.0)], "complex128"),
      "b": inp([0, 1 + 1j, 0.5, 2, 3, -1, 1 / 3, -2, 1j, 0.5], "complex128")},
     [["r", "pow", "a", "b"]], signed_zeros=True)
case("complex128 ** 2 (weak int scalar)", G, {"a": inp([1 + 1j, -2 + 0.5j, complex(-0.0, 3)], "complex128")},
     [["r", "pow", "a", 2]])
case("complex64 ** complex64", G,
     {"a": inp([1 + 1j, -1, 0.5j], "complex64"), "b": inp([0.5, 0.5, 2 - 1j], "complex64")},
     [["r", "pow", "a", "b"]])
case("complex128 abs overflow-safe (hypot)", G,
     {"a": inp([complex(1e300, 1e300), complex(3e-320, 4e-320), complex(-3, -4)], "complex128")},
     [["r", "abs", "a"]])
case("conj / real / imag of complex64 with signed zeros", G,
     {"a": inp([complex(1, 0), complex(-0.0, -2), complex(NAN, INF)], "complex64")},
     [["c", "conj", "a"], ["re", "real", "c"], ["im", "imag", "c"], ["r", "add", "re", "im"]],
     exact=True, signed_zeros=True)

# ---- real special values (elementwise) ---------------------------------------
G = "real-special"
RPTS = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, INF, -INF, NAN, 710.0, -746.0, 1e-300, -1e-300]
for op in ["sqrt", "log", "log1p", "expm1", "exp", "sin", "cos", "tan", "tanh", "sinh", "cosh",
           "asin", "acos", "atan", "abs", "angle", "sign", "floor", "ceil", "round"]:
    case(f"float64 {op}: zeros, infinities, nan, overflow", G, {"x": inp(RPTS, "float64")},
         [["r", op, "x"]], signed_zeros=True)
F32PTS = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, INF, -INF, NAN, 89.0, -104.0, 88.0]
for op in ["exp", "log", "sqrt", "tanh", "round"]:
    case(f"float32 {op}: zeros, infinities, nan, overflow", G, {"x": inp(F32PTS, "float32")},
         [["r", op, "x"]], signed_zeros=True)

# ---- float special values ----------------------------------------------------
G = "float-special"
case("maximum / minimum propagate NaN", G,
     {"a": inp([NAN, 1, 2, NAN, -INF, 3], "float64"), "b": inp([0, NAN, 1, NAN, -INF, INF], "float64")},
     [["mx", "maximum", "a", "b"], ["mn", "minimum", "a", "b"], ["r", "sub", "mx", "mn"]], exact=True)
case("maximum with a NaN scalar", G, {"a": inp([1, -INF, NAN], "float32")},
     [["r", "maximum", "a", F("nan")]], exact=True)
case("max / min of an array with NaN is NaN (per axis)", G,
     {"a": inp([[1, NAN, 3], [4, 5, -INF]], "float64")},
     [["mx", "max", "a", 1], ["mn", "min", "a", 0], ["r", "outer", "mx", "mn"]], exact=True)
case("argmax with NaN: first NaN", G, {"a": inp([1, NAN, 3, NAN, INF], "float64")}, [["r", "argmax", "a"]])
case("argmin with NaN: first NaN", G, {"a": inp([-INF, 3, NAN, -1, NAN], "float32")}, [["r", "argmin", "a"]])
case("argmax ties: first occurrence", G, {"a": inp([3, 1, 3, 2, 3], "int32")}, [["r", "argmax", "a"]])
case("argmin ties along axis 1: first occurrence", G,
     {"a": inp([[2, 1, 5, 1], [0, 0, 0, 0], [9, 8, 8, -1]], "float64")}, [["r", "argmin", "a", 1]])
case("argmax of all -inf is 0; max is -inf", G, {"a": inp([-INF, -INF, -INF], "float64")},
     [["i", "argmax", "a"], ["m", "max", "a"], ["fi", "cast", "i", D("float64")], ["r", "add", "fi", "m"]],
     exact=True)
case("max of -inf rows", G, {"a": inp([[-INF, -INF], [-INF, 2]], "float64")}, [["r", "max", "a", 1]],
     exact=True)
case("argmax of bool (first True)", G, {"a": inp([False, True, True], "bool")}, [["r", "argmax", "a"]])
case("round half to even (float64)", G,
     {"a": inp([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 0.49999999999999994, 4503599627370497, -0.0], "float64")},
     [["r", "round", "a"]], exact=True, signed_zeros=True, printing=True)
case("round half to even (float32)", G,
     {"a": inp([0.5, 1.5, 2.5, -0.5, -2.5, 8388609, 0.49999997], "float32")},
     [["r", "round", "a"]], exact=True, signed_zeros=True)
case("sign(-0.0), sign(nan), sign(-inf)", G, {"a": inp([-0.0, 0.0, NAN, -INF, 1e-320], "float64")},
     [["r", "sign", "a"]], exact=True, signed_zeros=True)
case("sign of int32", G, {"a": inp([-5, 0, 7], "int32")}, [["r", "sign", "a"]])
case("floor / ceil of -0.5, -0.0, 0.5, -1.5", G, {"a": inp([-0.5, -0.0, 0.5, -1.5], "float64")},
     [["f", "floor", "a"], ["c", "ceil", "a"], ["r", "outer", "f", "c"]], exact=True)
case("ceil(-0.5) is -0.0", G, {"a": inp([-0.5, -0.25, 0.25], "float64")}, [["r", "ceil", "a"]],
     exact=True, signed_zeros=True)
case("floor of int32 stays int32 (NumPy >= 2.3; NumPy 1.24 gives float64)", G, {"a": inp([-3, 4], "int32")}, [["r", "floor", "a"]],
     rlx_dtype="int32", note="rlx follows NumPy >= 2.3: floor/ceil of integers keep the integer dtype (docs/dtypes.md)")
case("round of int32 stays int32", G, {"a": inp([-3, 4], "int32")}, [["r", "round", "a"]])
case("logsumexp([-inf, -inf]) = -inf", G, {"a": inp([-INF, -INF], "float64")}, [["r", "logsumexp", "a"]],
     exact=True)
case("logsumexp corners per row: -inf row, +inf, large, nan", G,
     {"a": inp([[-INF, -INF], [INF, 1], [1000, 1000], [NAN, 1], [0, 0], [-INF, 0]], "float64")},
     [["r", "logsumexp", "a", 1]])
case("logsumexp float32 keeps float32", G, {"a": inp([[1, 2, 3], [-1, -2, -30]], "float32")},
     [["r", "logsumexp", "a", -1, True]])
case("var / std with ddof=1", G, {"a": inp([[1, 2, 3, 4], [2, 4, 8, 16], [1, 1, 1, 1]], "float64")},
     [["v", "var", "a", 1, False, 1], ["s", "std", "a", 0, False, 1], ["r", "outer", "v", "s"]])
case("var with ddof=1 of one element is nan", G, {"a": inp([5.0], "float64")}, [["r", "var", "a", None, False, 1]],
     exact=True)
case("var of int32 -> float64", G, {"a": inp([1, 2, 3, 4], "int32")}, [["r", "var", "a"]], exact=True)
case("var of complex128 is real", G, {"a": inp([1 + 1j, -1 - 1j, 2j], "complex128")},
     [["r", "var", "a"]])
case("std of float32 ddof=1 keeps float32", G, {"a": inp([0.1, 0.2, 0.3, 0.4], "float32")},
     [["r", "std", "a", None, False, 1]])
case("cumsum of float32 (short)", G, {"a": inp([0.1] * 10, "float32")}, [["r", "cumsum", "a"]])
case("cumsum of float32 over 100000 elements (float32 accumulation), last 3", G,
     {"a": {"dtype": "float32", "shape": [100000], "arange": [0.1, 0]}},
     [["c", "cumsum", "a"], ["r", "slice", "c", S([-3, None, None])]],
     note="NumPy's cumsum adds sequentially in float32: this checks the accumulation dtype")
case("cumsum with nan and inf", G, {"a": inp([1, INF, -INF, 2], "float64")}, [["r", "cumsum", "a"]],
     exact=True)
case("float32 sum of 1e6 elements (i*1e-3)", G,
     {"a": {"dtype": "float32", "shape": [1000000], "arange": [0, 1e-3]}},
     [["r", "sum", "a"]], rtol=1e-5,
     note="NumPy sums float32 pairwise; rlx may use another order, so rtol 1e-5 (the true sum is about 499999500)")
case("float32 sum of 1e6 elements of 0.1", G,
     {"a": {"dtype": "float32", "shape": [1000, 1000], "arange": [0.1, 0]}},
     [["r", "sum", "a"]], rtol=1e-5,
     note="naive float32 accumulation gives ~100958; NumPy's pairwise sum ~1e5")
case("float32 mean of 1e6 elements keeps float32", G,
     {"a": {"dtype": "float32", "shape": [1000000], "arange": [1, 1e-6]}},
     [["r", "mean", "a"]], rtol=1e-5)
case("pow corners (float64)", G,
     {"a": inp([1, -8, NAN, 0, -0.0, -0.0, -INF, -INF, 2, -1, 0.5, 2, -2, 1], "float64"),
      "b": inp([NAN, 1 / 3, 0, -1, -1, -2, 3, -3, 1024, INF, INF, -INF, 0.5, INF], "float64")},
     [["r", "pow", "a", "b"]], signed_zeros=True)
case("pow(float32, 0.5 scalar)", G, {"a": inp([4, 2, -1, INF], "float32")}, [["r", "pow", "a", 0.5]])
case("atan2 signed zeros and infinities", G,
     {"y": inp([0, 0, -0.0, -0.0, INF, 1, -1, -INF, NAN, 1], "float64"),
      "x": inp([0, -0.0, 0, -0.0, INF, -INF, -INF, -INF, 1, 0], "float64")},
     [["r", "atan2", "y", "x"]], signed_zeros=True)
case("atan2 of int32 -> float64", G, {"y": inp([1, -1], "int32"), "x": inp([0, -1], "int32")},
     [["r", "atan2", "y", "x"]])
case("clip of NaN and out-of-range values", G, {"a": inp([NAN, -5, 5, 0.5], "float64")},
     [["r", "clip", "a", -1, 1]], exact=True)
case("neg of -0.0 and 0.0", G, {"a": inp([0.0, -0.0], "float64")}, [["r", "neg", "a"]], exact=True,
     signed_zeros=True)
case("-0.0 + -0.0 = -0.0, -0.0 + 0.0 = 0.0, -0.0 * 5 = -0.0", G,
     {"a": inp([-0.0, -0.0, -0.0], "float64"), "b": inp([-0.0, 0.0, -0.0], "float64")},
     [["s", "add", "a", "b"], ["r", "mul", "s", 5]], exact=True, signed_zeros=True)

# ---- matmul / outer / dot ----------------------------------------------------
G = "linalg"
case("matmul 1-D @ 1-D -> 0-d", G, {"a": inp([1, 2, 3], "float64"), "b": inp([4, -5, 6], "float64")},
     [["r", "matmul", "a", "b"]], exact=True, printing=True)
case("matmul 1-D @ 2-D", G, {"a": inp([1, 2], "float64"), "b": rng_input("float64", [2, 3])},
     [["r", "matmul", "a", "b"]], exact=True)
case("matmul 2-D @ 1-D", G, {"a": rng_input("float64", [3, 2]), "b": inp([1, -1], "float64")},
     [["r", "matmul", "a", "b"]], exact=True)
case("matmul 1-D @ 3-D (batch)", G, {"a": inp([1, 2, 3], "float64"), "b": rng_input("float64", [2, 3, 4])},
     [["r", "matmul", "a", "b"]], exact=True)
case("matmul 3-D @ 1-D (batch)", G, {"a": rng_input("float64", [2, 4, 3]), "b": inp([1, 0, -1], "float64")},
     [["r", "matmul", "a", "b"]], exact=True)
case("matmul broadcast batch dims (2,1,3,4) @ (5,4,2)", G,
     {"a": rng_input("float64", [2, 1, 3, 4], -10, 1), "b": rng_input("float64", [5, 4, 2], 3, -0.5)},
     [["r", "matmul", "a", "b"]], exact=True)
case("matmul of non-contiguous views a.T[::-1] @ b[:, ::-2]", G,
     {"a": rng_input("float64", [3, 4]), "b": rng_input("float64", [3, 5], 1, 1)},
     [["t", "T", "a"], ["u", "slice", "t", S([None, None, -1])], ["v", "slice", "b", S("ax", [None, None, -2])],
      ["r", "matmul", "u", "v"]], exact=True)
case("matmul int32 -> int32", G, {"a": rng_input("int32", [2, 3]), "b": rng_input("int32", [3, 2], -3, 1)},
     [["r", "matmul", "a", "b"]], printing=True)
case("matmul bool -> bool", G,
     {"a": inp([[True, False], [False, False]], "bool"), "b": inp([[True, True], [False, True]], "bool")},
     [["r", "matmul", "a", "b"]])
case("matmul float32 @ int32 -> float64", G,
     {"a": inp([[0.5, 1.5]], "float32"), "b": inp([[1], [16777217]], "int32")},
     [["r", "matmul", "a", "b"]], exact=True)
case("matmul complex128 2x2", G,
     {"a": inp([[1 + 1j, 2], [0, -1j]], "complex128"), "b": inp([[1j, 1], [1 - 1j, 0.5]], "complex128")},
     [["r", "matmul", "a", "b"]], exact=True, printing=True)
case("matmul complex64 @ float32 -> complex64", G,
     {"a": inp([[1 + 2j, 3]], "complex64"), "b": inp([[0.5], [-1]], "float32")},
     [["r", "matmul", "a", "b"]], exact=True)
case("matmul with k = 0 gives zeros", G,
     {"a": rng_input("float64", [3, 4]), "b": rng_input("float64", [4, 2])},
     [["u", "slice", "a", S("ax", [0, 0, None])], ["v", "slice", "b", S([0, 0, None])], ["r", "matmul", "u", "v"]],
     exact=True)
case("matmul float32 accuracy (k = 1000)", G,
     {"a": {"dtype": "float32", "shape": [2, 1000], "arange": [0.001, 0.001]},
      "b": {"dtype": "float32", "shape": [1000, 2], "arange": [-0.5, 0.0007]}},
     [["r", "matmul", "a", "b"]], rtol=1e-5)
case("outer of 2-D inputs flattens them", G,
     {"a": inp([[1, 2], [3, 4]], "int32"), "b": inp([0.5, -1], "float32")}, [["r", "outer", "a", "b"]], exact=True)
case("outer of complex64 and bool", G,
     {"a": inp([1j, 2], "complex64"), "b": inp([True, False], "bool")}, [["r", "outer", "a", "b"]], exact=True)
case("dot 2-D . 1-D", G, {"a": rng_input("float64", [2, 3]), "b": inp([1, 2, 3], "float64")},
     [["r", "dot", "a", "b"]], exact=True)
case("dot 1-D . 1-D int32", G, {"a": inp([1, 2, 3], "int32"), "b": inp([4, 5, 6], "int32")},
     [["r", "dot", "a", "b"]])
case("dot with a 0-d operand scales", G, {"a": inp(2.5, "float64"), "b": inp([[1, 2], [3, 4]], "float64")},
     [["r", "dot", "a", "b"]], exact=True)
case("dot complex does not conjugate", G,
     {"a": inp([1j, 1], "complex128"), "b": inp([1j, 1j], "complex128")}, [["r", "dot", "a", "b"]], exact=True)

# ---- reductions over several axes on non-contiguous views --------------------
G = "reduction"
X = rng_input("float64", [2, 3, 4], -5, 0.75)
VIEW = [["t", "transpose", "x", [2, 0, 1]], ["v", "slice", "t", S([None, None, -1], "ax", [1, None, None])]]
case("sum over axes (0, 2) keepdims of transpose+slice view", G, {"x": X},
     VIEW + [["r", "sum", "v", [0, 2], True]], exact=True, printing=True)
case("mean over axes (0, 2) keepdims of transpose+slice view", G, {"x": X},
     VIEW + [["r", "mean", "v", [0, 2], True]])
case("var ddof=1 over axes (1, 2) keepdims of a reversed view", G, {"x": X},
     VIEW + [["r", "var", "v", [1, 2], True, 1]])
case("std ddof=1 over axis -1 of a reversed view", G, {"x": X},
     VIEW + [["r", "std", "v", -1, False, 1]])
case("max over axes (-1, -3) of a transposed view", G, {"x": X},
     [["t", "T", "x"], ["r", "max", "t", [-1, -3]]], exact=True)
case("min over axes (0, 1) keepdims of x[:, ::-2, ::3]", G, {"x": X},
     [["v", "slice", "x", S("ax", [None, None, -2], [None, None, 3])], ["r", "min", "v", [0, 1], True]], exact=True)
case("prod of int32 over axes (0, 2) of a reversed transposed view", G,
     {"x": rng_input("int32", [2, 3, 4], -3, 1)},
     [["t", "transpose", "x", [1, 2, 0]], ["v", "slice", "t", S([None, None, -1], [None, None, -2])],
      ["r", "prod", "v", [0, 2]]])
case("sum of int32 over all axes keepdims of a view", G, {"x": rng_input("int32", [2, 3, 4])},
     [["t", "T", "x"], ["v", "slice", "t", S([1, None, None])], ["r", "sum", "v", None, True]])
case("argmax axis 1 keepdims of a transposed view", G,
     {"x": inp([[3, 1, 4], [1, 5, 9], [2, 6, 5], [3, 5, 8]], "float64")},
     [["t", "T", "x"], ["v", "slice", "t", S("ax", [None, None, -1])], ["r", "argmax", "v", 1, True]])
case("argmin over the flattened reversed view", G,
     {"x": inp([[3, 1, 4], [1, 5, 9], [2, 6, 1]], "float32")},
     [["v", "slice", "x", S([None, None, -1], [None, None, -1])], ["r", "argmin", "v"]])
case("logsumexp over axes (0, 2) keepdims of a view", G, {"x": X},
     VIEW + [["r", "logsumexp", "v", [0, 2], True]])
case("cumsum along axis 0 of a reversed view", G, {"x": rng_input("int32", [3, 4])},
     [["v", "slice", "x", S([None, None, -1], [None, None, -1])], ["r", "cumsum", "v", 0]])
case("sum of complex64 over axis 0 of a transposed view", G,
     {"x": inp([[1 + 1j, 2], [3j, -1 - 1j], [0.5, 0.25j]], "complex64")},
     [["t", "T", "x"], ["r", "sum", "t", 1]], exact=True)
case("mean of float32 over axes keeps float32", G, {"x": rng_input("float32", [3, 4, 5], 0, 0.1)},
     [["t", "transpose", "x", [2, 1, 0]], ["r", "mean", "t", [0, 2]]])

# ---- errors ------------------------------------------------------------------
G = "error"
case("max of an empty array raises", G, {"a": rng_input("float64", [3])},
     [["e", "slice", "a", S([2, 2, None])], ["r", "max", "e"]], expect_error=True)
case("matmul with mismatched contraction raises", G,
     {"a": rng_input("float64", [2, 3]), "b": rng_input("float64", [2, 3])},
     [["r", "matmul", "a", "b"]], expect_error=True)
case("broadcast (3,) with (4,) raises", G,
     {"a": rng_input("float64", [3]), "b": rng_input("float64", [4])},
     [["r", "add", "a", "b"]], expect_error=True)
case("argmax of an empty array raises", G, {"a": rng_input("int32", [3])},
     [["e", "slice", "a", S([3, None, None])], ["r", "argmax", "e"]], expect_error=True)


def main():
    with open(OUT, "w") as f:
        f.write("[\n")
        f.write(",\n".join(json.dumps(c, allow_nan=False, separators=(", ", ": ")) for c in CASES))
        f.write("\n]\n")
    print(f"wrote {len(CASES)} cases to {OUT}")


if __name__ == "__main__":
    main()
