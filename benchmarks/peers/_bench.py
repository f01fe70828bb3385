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
    return v


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
    fn = cases[req["case"]](req.get("args", {}))
    out = None
    for _ in range(timing["warmup"]):
        out = fn()
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
    if out is not None and hasattr(out, "shape"):
        res["checksum"] = checksum(out)
    _emit(res)


if __name__ == "__main__":
    # `python3 _bench.py --versions`: interpreter and numpy versions for run.mjs.
    main({})
