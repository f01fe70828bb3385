"""NumPy peers of benchmarks/suites/core.mjs (same inputs, same math)."""

import _bench
from _bench import ramp


def case_chain(args):
    np = _bench.np
    n = args["n"]
    a, b, c = ramp(n, 1), ramp(n, 3), ramp(n, 7)
    return lambda: np.sqrt(a * a + b * b) * c + 1


def case_five_op(args):
    np = _bench.np
    n = args["n"]
    x, y = ramp(n, 1), ramp(n, 3)
    return lambda: np.abs(np.exp(x * 2 + 1) - y)


def case_add(args):
    n = args["n"]
    a, b = ramp(n, 1), ramp(n, 3)
    return lambda: a + b


def case_copy(args):
    a = ramp(args["n"], 1)
    return lambda: a.copy()


_bench.main({"chain": case_chain, "five_op": case_five_op, "add": case_add, "copy": case_copy})
