"""SciPy peers of benchmarks/suites/sparse.mjs.

Same inputs bit for bit as benchmarks/lib/sparse-cases.mjs: A = poisson2d(n),
the 5-point Dirichlet Laplacian as kronsum(T, T) of T = tridiag(-1, 2, -1)
(CSR float64, canonical: 4 on the diagonal, -1 off it, exact); x and b =
_bench.ramp(n*n, 1); the eigsh start vector v0 = lcg_ints(n*n, 7) / 4096.

Cases return (fn, post, info): post(last result) is checksummed (y, x, or the
eigenvalues), info() (untimed) is shown in the row's notes.
"""

import inspect

import _bench
from _bench import lcg_ints, ramp


def poisson2d(n):
    import scipy.sparse as sp

    t = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n), format="csr")
    a = sp.kronsum(t, t, format="csr")
    a.sort_indices()
    return a


def case_spmv(args):
    a = poisson2d(args["n"])
    x = ramp(a.shape[0], 1)
    # A @ x allocates y (csr_matvec, one thread); SciPy has no out= for it.
    return (lambda: a @ x), None, (lambda: {"nnz": int(a.nnz), "threads": 1})


def case_cg(args):
    import scipy
    import scipy.sparse as sp
    import scipy.sparse.linalg as sl

    precond = args["precond"]
    if precond not in ("none", "jacobi"):
        raise _bench.Unavailable(
            "scipy %s has no %s preconditioner (scipy.sparse.linalg has spilu, a threshold ILU via SuperLU, "
            "not IC(0)/ILU(0))" % (scipy.__version__, precond))
    a = poisson2d(args["n"])
    b = ramp(a.shape[0], 1)
    m = sp.diags(1.0 / a.diagonal(), format="csr") if precond == "jacobi" else None
    # SciPy >= 1.12 names the relative tolerance rtol= (tol= removed in 1.14);
    # 1.10/1.11 call it tol=. atol=0 makes the test ||r|| <= rtol*||b||, as in rlx
    # (1.10's atol=None is a deprecated "legacy" mode).
    kw = "rtol" if "rtol" in inspect.signature(sl.cg).parameters else "tol"
    its = [0]

    def count(_xk):
        its[0] += 1

    def solve():
        its[0] = 0
        x, info = sl.cg(a, b, atol=0.0, M=m, callback=count, **{kw: args["rtol"]})
        if info != 0:
            raise RuntimeError("scipy cg did not converge (info %d)" % info)
        return x

    return solve, None, (lambda: {"iterations": its[0], "tolKeyword": kw})


def case_spsolve(args):
    import scipy.sparse.linalg as sl

    a = poisson2d(args["n"]).tocsc()
    b = ramp(a.shape[0], 1)
    # SuperLU (use_umfpack=False: scikit-umfpack would otherwise be used when
    # installed), default permc_spec (COLAMD).
    return (lambda: sl.spsolve(a, b, use_umfpack=False)), None, (lambda: {"method": "SuperLU COLAMD"})


def case_heat(args):
    import scipy.sparse as sp
    import scipy.sparse.linalg as sl

    n, steps = args["n"], args["steps"]
    h = sp.diags([1.02, -0.01, -0.01], [0, -1, 1], shape=(n, n), format="csc")
    lu = sl.splu(h)
    u0 = ramp(n, 1)

    def run():
        u = u0
        for _ in range(steps):
            u = lu.solve(u)
        return u

    return run, None, (lambda: {"method": "SuperLU", "steps": steps})


def case_eigsh(args):
    np = _bench.np
    import scipy.sparse.linalg as sl

    a = poisson2d(args["n"])
    nn = a.shape[0]
    k = args["k"]
    v0 = lcg_ints(nn, 7) / 4096.0
    mode = args["mode"]
    kw = {"sigma": 0.0} if mode == "sigma0" else {"which": mode}

    def info():
        # One more (untimed) run with a counting operator: how many times ARPACK
        # applied OP (A, or the shift-invert solve with the same SuperLU factor).
        calls = [0]
        if mode == "sigma0":
            lu = sl.splu(a.tocsc())

            def op(v):
                calls[0] += 1
                return lu.solve(np.asarray(v, dtype=np.float64).ravel())

            sl.eigsh(a, k, sigma=0.0, v0=v0, OPinv=sl.LinearOperator(a.shape, matvec=op, dtype=np.float64))
        else:
            def op(v):
                calls[0] += 1
                return a @ v

            sl.eigsh(sl.LinearOperator(a.shape, matvec=op, dtype=np.float64), k, which=mode, v0=v0)
        return {"opCalls": calls[0]}

    # Eigenvectors are computed (the default), as rlx always does.
    return (lambda: sl.eigsh(a, k, v0=v0, **kw)), (lambda wv: np.sort(wv[0])), info


if __name__ == "__main__":
    _bench.main(
        {"scipy-spmv": case_spmv, "scipy-cg": case_cg, "scipy-spsolve": case_spsolve, "scipy-eigsh": case_eigsh, "scipy-heat": case_heat},
        requires=("numpy", "scipy"),
    )
