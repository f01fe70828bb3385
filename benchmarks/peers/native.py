"""NumPy peers of benchmarks/suites/native.mjs (same inputs, same math, same OpenBLAS)."""

import _bench
from _bench import ramp


def case_matmul(args):
    np = _bench.np
    n, dt = args["n"], args["dtype"]
    if dt.startswith("complex"):
        a = (ramp(n * n, 1) + 1j * ramp(n * n, 5)).reshape(n, n).astype(dt)
        b = (ramp(n * n, 3) + 1j * ramp(n * n, 7)).reshape(n, n).astype(dt)
        # Interleaved re/im view (no copy) so the checksum matches rlx's storage.
        real = np.float64 if dt == "complex128" else np.float32
        return lambda: np.matmul(a, b).view(real)
    a = ramp(n * n, 1).reshape(n, n).astype(dt)
    b = ramp(n * n, 3).reshape(n, n).astype(dt)
    return lambda: np.matmul(a, b)


def case_chain(args):
    np = _bench.np
    n = args["n"]
    a, b, c = ramp(n, 1), ramp(n, 3), ramp(n, 7)
    return lambda: np.sqrt(a * a + b * b) * c + 1


def case_triad(args):
    """STREAM-like triad o = a + s*b into a preallocated buffer (two passes in NumPy)."""
    np = _bench.np
    n, s = args["n"], args["s"]
    a, b = ramp(n, 1), ramp(n, 3)
    o = np.empty_like(a)

    def f():
        np.multiply(b, s, out=o)
        np.add(o, a, out=o)
        return o

    return f


def case_sum(args):
    a = ramp(args["n"], 1)
    return lambda: _bench.np.sum(a)


def case_max(args):
    a = ramp(args["n"], 1)
    return lambda: _bench.np.max(a)


def case_bcast(args):
    np = _bench.np
    m = ramp(args["rows"] * args["cols"], 1).reshape(args["rows"], args["cols"])
    v = ramp(args["cols"], 3)
    return lambda: np.sqrt(np.abs((m - v) * m + 1))


def case_five_op(args):
    np = _bench.np
    x, y = ramp(args["n"], 1), ramp(args["n"], 3)
    return lambda: np.abs(np.exp(x * 2 + 1) - y)


_bench.main({"matmul": case_matmul, "chain": case_chain, "triad": case_triad, "sum": case_sum,
             "max": case_max, "bcast": case_bcast, "five_op": case_five_op})
