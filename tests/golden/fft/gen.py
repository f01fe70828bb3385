#!/usr/bin/env python3
"""Golden values for the js FFT kernels (tests/fft/kernels-js.test.ts).

Regenerate with:  /usr/bin/python3 tests/golden/fft/gen.py
(NumPy 1.24, whose numpy.fft is pocketfft; writes fft.json beside this file).

Inputs are deterministic formulas the test re-implements (in float64; libm
sin/cos may differ by an ulp from JavaScript's, far below the tolerances):
  complex row  x[j] = (sin(0.37 j) + 0.1 (j mod 7))  +  i (cos(0.91 j) - 0.05 (j mod 5))
  real row     r[j] =  sin(0.37 j) + 0.1 (j mod 7)
  half spectrum for irfft, k = 0 .. n//2:
               h[k] = (cos(0.23 k) + 0.2 (k mod 3)) + i (sin(0.61 k + 0.5) - 0.1 (k mod 4))
    (deliberately with nonzero Im h[0] and, for even n, Im h[n/2]: numpy's
    irfft ignores them, so the kernel must too)

Outputs, all unnormalized (the kernel contract):
  fft    = numpy.fft.fft(x)
  ifft   = numpy.fft.ifft(x) * n
  rfft   = numpy.fft.rfft(r)
  irfft  = numpy.fft.irfft(h, n) * n
Each is stored as interleaved (re, im) pairs (irfft: reals). For n <= 128
every value is stored; for larger n, to keep the file small, the values at
`idx` (a fixed spread of indices, in units of complex values; irfft: reals)
and two checksums over all values v_k (k = element index, complex values as
their re and im parts):
  sumsq = sum |v_k|^2
  wsum  = sum ((k mod 5) - 2) re v_k + ((k mod 3) - 1) im v_k
"""
import json
import os

import numpy as np

LENGTHS = [1, 2, 3, 4, 5, 7, 8, 12, 16, 17, 30, 64, 97, 100, 128, 243, 625, 1000, 1009, 1024, 2049, 4096]
FULL_MAX = 128
SUBSET = 48


def inputs(n):
    j = np.arange(n, dtype=np.float64)
    x = (np.sin(0.37 * j) + 0.1 * (j % 7)) + 1j * (np.cos(0.91 * j) - 0.05 * (j % 5))
    r = np.sin(0.37 * j) + 0.1 * (j % 7)
    k = np.arange(n // 2 + 1, dtype=np.float64)
    h = (np.cos(0.23 * k) + 0.2 * (k % 3)) + 1j * (np.sin(0.61 * k + 0.5) - 0.1 * (k % 4))
    return x, r, h


def indices(count):
    """A fixed spread of indices: both ends and SUBSET points between."""
    if count <= SUBSET + 4:
        return list(range(count))
    s = {0, 1, 2, count - 2, count - 1}
    s.update((i * (count - 1)) // SUBSET for i in range(SUBSET + 1))
    return sorted(s)


def num(v):
    return float(f"{v:.17g}")


def encode(v):
    v = np.asarray(v)
    count = v.shape[0]
    cplx = np.iscomplexobj(v)
    k = np.arange(count)
    re = v.real.astype(np.float64)
    im = v.imag.astype(np.float64) if cplx else np.zeros(count)
    out = {
        "sumsq": num(np.sum(re * re + im * im)),
        "wsum": num(np.sum(((k % 5) - 2) * re + ((k % 3) - 1) * im)),
    }
    idx = list(range(count)) if count <= FULL_MAX + 2 else indices(count)
    if len(idx) != count:
        out["idx"] = idx
    if cplx:
        out["values"] = [num(t) for i in idx for t in (re[i], im[i])]
    else:
        out["values"] = [num(re[i]) for i in idx]
    return out


def main():
    cases = []
    for n in LENGTHS:
        x, r, h = inputs(n)
        cases.append({
            "n": n,
            "fft": encode(np.fft.fft(x)),
            "ifft": encode(np.fft.ifft(x) * n),
            "rfft": encode(np.fft.rfft(r)),
            "irfft": encode(np.fft.irfft(h, n) * n),
        })
    doc = {"numpy": np.__version__, "cases": cases}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fft.json")
    with open(path, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
