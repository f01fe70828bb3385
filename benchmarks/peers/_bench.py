"""Shared timing loop for Python peers (mirrors benchmarks/lib/worker.mjs).

A peer script defines cases and calls main():

    import _bench

    def case_chain(args):
        np = _bench.np
        a = _bench.ramp(args["n"], 1)
        return lambda: np.sqrt(a * a)          # the callable that is timed

    _bench.main({"chain": case_chain})

run.mjs starts `python3 benchmarks/peers/<script>.py '<JSON>'` with JSON
{"case": ..., "args": {...}, "timing": {"warmup", "reps", "inner", "gc"}} and
reads the last stdout line: {"samples": [seconds per call...], "checksum": ...,
"versions": {...}}, or {"unavailable": "numpy unavailable: ..."} when a
required module cannot be imported (the harness then prints that in the row).
"""

import gc
import json
import platform
import sys
import time

np = None


def ramp(n, k=1):
    """Same values as benchmarks/lib/inputs.mjs ramp(): ((i*k) % 1009)/1009 - 0.5."""
    i = np.arange(n, dtype=np.int64)
    return ((i * k) % 1009) / 1009.0 - 0.5


def lcg_ints(n, seed=1):
    """Same values as benchmarks/lib/inputs.mjs lcgInts(): Park-Miller x <- 16807 x mod (2^31 - 1)
    from x = seed, output (x mod 4096) - 2048, as float64. Vectorized by jumping
    ahead one block: x[i + B] = 16807^B x[i] mod m (products < 2^62 fit int64)."""
    m, a = 2147483647, 16807
    B = max(1, min(n, 4096))
    x = np.empty(n, dtype=np.int64)
    v = seed
    for i in range(B):
        v = (a * v) % m
        x[i] = v
    aB = pow(a, B, m)
    for s in range(B, n, B):
        e = min(s + B, n)
        x[s:e] = (x[s - B:e - B] * aB) % m
    return (x % 4096 - 2048).astype(np.float64)


def checksum(out):
    a = np.asarray(out, dtype=np.float64).ravel()
    nan = int(np.isnan(a).sum())
    return {
        "length": int(a.size),
        "sum": float(np.nansum(a)),
        "sumAbs": float(np.nansum(np.abs(a))),
        "nan": nan,
    }


def versions():
    v = {"python": platform.python_version()}
    if np is not None:
        v["numpy"] = np.__version__
    if "scipy" in sys.modules:
        v["scipy"] = sys.modules["scipy"].__version__
    return v


class Unavailable(Exception):
    """Raised by a case that the peer cannot run (e.g. SciPy has no such
    preconditioner): the row shows the message instead of a time."""


def _emit(obj):
    sys.stdout.write("\n" + json.dumps(obj) + "\n")
    sys.stdout.flush()


def _require(modules):
    global np
    for m in modules:
        try:
            mod = __import__(m)
        except Exception as e:  # ImportError, or a broken install
            _emit({"unavailable": "%s unavailable (%s: %s)" % (m, type(e).__name__, e)})
            sys.exit(0)
        if m == "numpy":
            np = mod


def main(cases, requires=("numpy",)):
    global np
    if len(sys.argv) > 1 and sys.argv[1] == "--versions":
        try:
            import numpy as np
        except Exception:
            np = None
        _emit(versions())
        return
    _require(requires)
    req = json.loads(sys.argv[1])
    timing = req["timing"]
    try:
        made = cases[req["case"]](req.get("args", {}))
    except Unavailable as e:
        _emit({"unavailable": str(e)})
        return
    # A case returns the callable to time, or (callable, post): post(last result)
    # gives what is checksummed, computed after timing (e.g. only the
    # singular values of an SVD, which are unique where the vectors are not),
    # or (callable, post, info): info() (untimed, after post) returns a dict
    # shown in the row's notes (e.g. an iteration count).
    info = None
    if isinstance(made, tuple) and len(made) == 3:
        fn, post, info = made
    else:
        fn, post = made if isinstance(made, tuple) else (made, None)
    out = None
    # Warm-up: timing["warmup"] calls, and more until timing["warmupMs"] have
    # passed (the same rule as benchmarks/lib/worker.mjs), at most 100000.
    t_end = time.perf_counter() + timing.get("warmupMs", 0) / 1000
    w = 0
    while w < timing["warmup"] or (time.perf_counter() < t_end and w < 100000):
        out = fn()
        w += 1
    # fn.after_warmup(), when the case sets it: e.g. a training step puts the model and optimizer
    # back to their initial state, so the timed steps start where the rlx side's do (its afterWarmup).
    if hasattr(fn, "after_warmup"):
        fn.after_warmup()
    # timing["gc"] "none": no collection here either (benchmarks/lib/worker.mjs says why).
    if timing.get("gc") != "none":
        gc.collect()
    samples = []
    inner = timing["inner"]
    perf = time.perf_counter
    for _ in range(timing["reps"]):
        if timing.get("gc") == "sample":
            gc.collect()
        t0 = perf()
        for _ in range(inner):
            out = fn()
        t1 = perf()
        samples.append((t1 - t0) / inner)
    res = {"samples": samples, "versions": versions()}
    if post is not None:
        out = post(out)
    if out is not None and hasattr(out, "shape"):
        res["checksum"] = checksum(out)
    if info is not None:
        res["info"] = info() if callable(info) else info
    _emit(res)


if __name__ == "__main__":
    # `python3 _bench.py --versions`: interpreter and numpy versions for run.mjs.
    main({})
