"""SciPy / NumPy peers of benchmarks/suites/linalg.mjs.

Same matrices bit for bit as benchmarks/lib/linalg-cases.mjs (see there):
general A = scale * K1/4096 (+ i scale * K2/4096), rhs b = K3/4096 (+ i K4/4096),
Hermitian positive-definite H = B B^H + n I with B = K5/4096 (+ i K6/4096),
K = _bench.lcg_ints(n*n, seed) integers. The Gram product of integers is exact,
so H does not depend on the GEMM's summation order.

SciPy calls use check_finite=False (rlx does not scan its inputs unless asked)
and, where SciPy offers a choice, the LAPACK driver rlx uses (eigh: ?syevd/?heevd;
svd: ?gesdd). Each case returns (callable, post): post(last result) is what is
checksummed: a quantity without sign/phase freedom (x, L, inv, det,
eigenvalues, singular values, R with rows scaled by the conjugate phase of
their diagonal entry).
"""

import _bench
from _bench import lcg_ints


def _is_c(dtype):
    return dtype.startswith("complex")


def general(n, dtype, scale):
    np = _bench.np
    f = scale / 4096.0
    a = lcg_ints(n * n, 1) * f
    if _is_c(dtype):
        a = a + 1j * (lcg_ints(n * n, 2) * f)
    return np.ascontiguousarray(a.reshape(n, n).astype(dtype))


def rhs(n, dtype):
    b = lcg_ints(n, 3) * (1 / 4096.0)
    if _is_c(dtype):
        b = b + 1j * (lcg_ints(n, 4) * (1 / 4096.0))
    return b.astype(dtype)


def hpd(n, dtype):
    np = _bench.np
    k = lcg_ints(n * n, 5).reshape(n, n)
    if _is_c(dtype):
        k = k + 1j * lcg_ints(n * n, 6).reshape(n, n)
    g = k @ k.conj().T  # exact: integer entries, partial sums < 2^53
    h = g * 2.0**-24
    h[np.diag_indices(n)] += n
    return np.ascontiguousarray(h.astype(dtype))


INPUT_OF = {"solve": "general", "cholesky": "hpd", "qr": "general", "eigh": "hpd",
            "svd": "general", "eig": "general", "inv": "general", "det": "general", "norm": "general"}


def matrix(op, args):
    n, dt = args["n"], args["dtype"]
    return hpd(n, dt) if INPUT_OF[op] == "hpd" else general(n, dt, args["scale"])


def flat(x):
    """Complex results as interleaved re/im float64 (rlx's storage order)."""
    np = _bench.np
    x = np.ascontiguousarray(np.asarray(x))
    return x.view(np.float64) if np.iscomplexobj(x) else x


def normalize_r(r):
    np = _bench.np
    d = np.diag(r)
    m = np.abs(d)
    m[m == 0] = 1
    return flat(r * (np.conj(d) / m)[:, None])


def scipy_case(op):
    def make(args):
        import scipy.linalg as sl

        a = matrix(op, args)
        kw = {"check_finite": False}
        if op == "solve":
            b = rhs(args["n"], args["dtype"])
            return (lambda: sl.solve(a, b, **kw)), flat
        if op == "cholesky":
            # scipy.linalg.cholesky (potrf, other triangle zeroed) returns what rlx
            # returns; cho_factor skips the zeroing.
            return (lambda: sl.cholesky(a, lower=True, **kw)), flat
        if op == "qr":
            return (lambda: sl.qr(a, mode="economic", **kw)), (lambda qr: normalize_r(qr[1]))
        if op == "eigh":
            return (lambda: sl.eigh(a, lower=True, driver="evd", **kw)), (lambda wv: flat(wv[0]))
        if op == "svd":
            return (lambda: sl.svd(a, full_matrices=False, lapack_driver="gesdd", **kw)), (lambda usv: flat(usv[1]))
        if op == "eig":
            return (lambda: sl.eig(a, left=False, right=True, **kw)), (lambda wv: flat(wv[0].astype(complex)))
        if op == "inv":
            return (lambda: sl.inv(a, **kw)), flat
        if op == "det":
            np = _bench.np
            return (lambda: sl.det(a, **kw)), (lambda d: flat(np.asarray([d])))
        if op == "norm":
            np = _bench.np
            # 1-D input: SciPy calls BLAS nrm2 (for a 2-D array it would use NumPy's unscaled dot).
            v = a.ravel()
            return (lambda: sl.norm(v, check_finite=False)), (lambda r: flat(np.asarray([r])))
        raise KeyError(op)

    return make


def numpy_case(op):
    def make(args):
        np = _bench.np
        a = matrix(op, args)
        if op == "solve":
            b = rhs(args["n"], args["dtype"])
            return (lambda: np.linalg.solve(a, b)), flat
        if op == "inv":
            return (lambda: np.linalg.inv(a)), flat
        if op == "norm":
            return (lambda: np.linalg.norm(a)), (lambda v: flat(np.asarray([v])))
        if op == "det":
            return (lambda: np.linalg.det(a)), (lambda d: flat(np.asarray([d])))
        if op == "eigh":
            return (lambda: np.linalg.eigh(a)), (lambda wv: flat(wv[0]))
        if op == "svd":
            return (lambda: np.linalg.svd(a, full_matrices=False)), (lambda usv: flat(usv[1]))
        if op == "eig":
            return (lambda: np.linalg.eig(a)), (lambda wv: flat(wv[0].astype(complex)))
        if op == "cholesky":
            return (lambda: np.linalg.cholesky(a)), flat
        if op == "qr":
            return (lambda: np.linalg.qr(a)), (lambda qr: normalize_r(qr[1]))
        raise KeyError(op)

    return make


OPS = ["solve", "cholesky", "qr", "eigh", "svd", "eig", "inv", "det", "norm"]

if __name__ == "__main__":
    import sys

    req = sys.argv[1] if len(sys.argv) > 1 else ""
    cases = {}
    for op in OPS:
        cases["scipy-" + op] = scipy_case(op)
        cases["numpy-" + op] = numpy_case(op)
    _bench.main(cases, requires=("numpy", "scipy") if '"scipy-' in req else ("numpy",))
