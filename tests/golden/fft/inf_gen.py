"""NumPy 1.24's numpy.fft.fft and rfft of rows holding one infinite sample,
for tests/fft/kernels-inf.test.ts (how the js kernels treat ±Inf).

Run with Debian's python3 (NumPy 1.24): /usr/bin/python3 tests/golden/fft/inf_gen.py
Each case: a row of n zeros (sin(j) + 2 for 'ramp' rows) with x[at] = sign·∞.
Outputs are stored as strings ('inf', '-inf', 'nan' or the repr of a float).
"""
import json, os, warnings
import numpy as np

warnings.simplefilter('ignore')

def row(n, at, sign, base):
    x = np.zeros(n) if base == 'zeros' else np.sin(np.arange(n)) + 2
    x[at] = sign * np.inf
    return x

def enc(a):
    return [repr(float(v)) for z in a for v in (z.real, z.imag)]


cases = []
for n in [2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 16, 20, 25, 30, 32, 64, 100, 101, 509]:
    for at in sorted({0, 1 % n, n // 2, n - 1}):
        for sign in [1, -1]:
            for base in ['zeros', 'ramp'] if n <= 32 else ['zeros']:
                x = row(n, at, sign, base)
                cases.append({'n': n, 'at': at, 'sign': sign, 'base': base,
                              'fft': enc(np.fft.fft(x)), 'rfft': enc(np.fft.rfft(x))})

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'inf.json'), 'w') as f:
    json.dump({'numpy': np.__version__, 'cases': cases}, f)
print(len(cases), 'cases')
