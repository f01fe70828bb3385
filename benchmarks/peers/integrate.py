"""SciPy peers of benchmarks/suites/integrate.mjs: scipy.integrate.solve_ivp on
the same problems, methods, tolerances and Jacobians as the rlx rows.

The linear system's matrix is built with the same operations in the same order
as linearMatrix() in the suite (ramp inputs, a power-of-two scale), so both
sides integrate the same bits. The checksummed result is the final state; the
notes carry nfev (njev, nlu) and the number of accepted steps.
"""

import _bench
from _bench import ramp


def _linear_matrix(n, c, k):
    np = _bench.np
    r = ramp(n * n, k).reshape(n, n)
    a = (r - r.T) / 16
    a[np.diag_indices(n)] += c  # c + 0 for the (zero) diagonal of r - r.T, as the suite's (i === j ? c : 0) + x
    return -a


def _counts(box):
    def info():
        r = box[0]
        return {"steps": len(r.t) - 1, "nfev": int(r.nfev), "njev": int(r.njev), "nlu": int(r.nlu), "status": int(r.status)}
    return info


def case_linear(args):
    from scipy.integrate import solve_ivp
    np = _bench.np
    n = args["n"]
    A = _linear_matrix(n, args["c"], args["k"])
    y0 = ramp(n, 1)
    box = [None]

    def fn():
        box[0] = solve_ivp(lambda t, y: A @ y, (0, args["t1"]), y0, method="RK45")
        return box[0]

    return fn, (lambda r: r.y[:, -1].copy()), (lambda: {"steps": len(box[0].t) - 1, "nfev": int(box[0].nfev)})


def _robertson():
    np = _bench.np

    def f(t, y):
        a, b, d = y
        return np.array([-0.04 * a + b * d * 1e4, 0.04 * a - b * d * 1e4 - b * b * 3e7, b * b * 3e7])

    def jac(t, y):
        a, b, d = y
        return np.array([[-0.04, 1e4 * d, 1e4 * b], [0.04, -1e4 * d - 6e7 * b, -1e4 * b], [0, 6e7 * b, 0]])

    return f, jac, 1e5, [1.0, 0.0, 0.0]


def _vdp1000():
    np = _bench.np

    def f(t, y):
        x, v = y
        return np.array([v, (1 - x * x) * v * 1000 - x])

    def jac(t, y):
        x, v = y
        return np.array([[0.0, 1.0], [-2000 * x * v - 1, 1000 * (1 - x * x)]])

    return f, jac, 3000.0, [2.0, 0.0]


PROBLEMS = {"robertson": _robertson, "vdp1000": _vdp1000}


def case_stiff(args):
    from scipy.integrate import solve_ivp
    f, jac, t1, y0 = PROBLEMS[args["problem"]]()
    kw = {"method": args["method"], "rtol": args["rtol"], "atol": args["atol"]}
    if args["analytic"]:
        kw["jac"] = jac
    box = [None]

    def fn():
        box[0] = solve_ivp(f, (0, t1), y0, **kw)
        return box[0]

    return fn, (lambda r: r.y[:, -1].copy()), _counts(box)


_bench.main({"linear": case_linear, "stiff": case_stiff}, requires=("numpy", "scipy"))
