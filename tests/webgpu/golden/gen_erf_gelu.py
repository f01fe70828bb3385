#!/usr/bin/python3
"""Golden erf and GELU at float32 inputs for tests/webgpu/rules.test.ts.

Regenerate (deterministic; written with numpy 1.24, scipy 1.10, mpmath 1.2 on
glibc 2.36):

    /usr/bin/python3 tests/webgpu/golden/gen_erf_gelu.py

which rewrites tests/webgpu/golden/erf_gelu.json: float32 inputs x (as the
float64 numbers they are exactly), erf(x) and gelu(x) rounded to float64.

  * erf(x) and gelu(x) = 0.5 x erfc(-x/sqrt 2) (the exact-erf GELU of
    PyTorch's approximate='none') from mpmath at 50 digits.
  * Cross-checked against SciPy and the C library: scipy.special.erf, and
    0.5 x (1 + erf(x/sqrt 2)) for x >= 0, 0.5 x erfc(-x/sqrt 2) for x < 0
    with glibc's erfc (Python's math.erfc); the script stops if they differ
    from mpmath by more than 1e-11 relative (float64 rounding of x/sqrt 2
    alone costs ~2(x/sqrt 2)^2 * 1.1e-16 relative in the far tail).

The inputs cover every branch of the float32 erf/gelu (|x| < 0.84375, < 1.25,
< 1/0.35, < 4, beyond; gelu's negative tail down to where it underflows):
magnitudes 1e-30 .. 30 on a log grid (both signs), a 0.05 grid on [-15, 6],
and the float32 neighbours of each branch boundary.
"""
import json
import math
import os

import mpmath
import numpy as np
from scipy import special

mpmath.mp.dps = 50

f32 = lambda v: float(np.float32(v))
xs = set()
for m in np.logspace(-30, math.log10(30), 240):
    xs.add(f32(m))
    xs.add(f32(-m))
for v in np.arange(-15, 6.0001, 0.05):
    xs.add(f32(v))
for b in [0.84375, 1.25, 1 / 0.35, 4.0, 0.84375 * math.sqrt(2), 1.25 * math.sqrt(2), math.sqrt(2) / 0.35]:
    for s in (1, -1):
        c = np.float32(s * b)
        for v in (np.nextafter(c, np.float32(-np.inf)), c, np.nextafter(c, np.float32(np.inf))):
            xs.add(float(v))
xs.discard(0.0)
xs = sorted(xs)


def gelu(x):
    if x >= 0:
        return 0.5 * x * (1 + float(special.erf(x / math.sqrt(2))))
    return 0.5 * x * math.erfc(-x / math.sqrt(2))


def gelu_mp(x):
    x = mpmath.mpf(x)
    return 0.5 * x * mpmath.erfc(-x / mpmath.sqrt(2))


erf = [float(mpmath.erf(x)) for x in xs]
ge = [float(gelu_mp(x)) for x in xs]
for x, e, g in zip(xs, erf, ge):
    for got, want in ((float(special.erf(x)), e), (gelu(x), g)):
        assert abs(got - want) <= 1e-11 * abs(want) + 1e-300, (x, got, want)

out = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'erf_gelu.json')
with open(out, 'w') as fh:
    json.dump({'x': xs, 'erf': erf, 'gelu': ge}, fh, separators=(',', ':'))
    fh.write('\n')
print(f'{len(xs)} points -> {out}')
