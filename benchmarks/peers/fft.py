"""NumPy peers of benchmarks/suites/fft.mjs (same inputs, same transforms).

numpy.fft (pocketfft, single-threaded, complex128 results). Complex results
are checksummed as their interleaved float64 view, as rlx stores them.
"""

import _bench
from _bench import ramp


def _complex(n):
    return ramp(n, 1) + 1j * ramp(n, 3)


def _interleaved(out):
    return _bench.np.ascontiguousarray(out).view(_bench.np.float64)


def case_fft(args):
    np = _bench.np
    x = _complex(args["n"])
    return (lambda: np.fft.fft(x)), _interleaved


def case_rfft(args):
    np = _bench.np
    x = ramp(args["n"], 1)
    return (lambda: np.fft.rfft(x)), _interleaved


def case_fft2(args):
    np = _bench.np
    r, c = args["shape"]
    x = _complex(r * c).reshape(r, c)
    return (lambda: np.fft.fft2(x)), _interleaved


def case_fft_batch(args):
    np = _bench.np
    b, n = args["shape"]
    x = _complex(b * n).reshape(b, n)
    return (lambda: np.fft.fft(x, axis=-1)), _interleaved


_bench.main({"fft": case_fft, "rfft": case_rfft, "fft2": case_fft2, "fft_batch": case_fft_batch})
