"""Golden values of numpy.fft's n-D transforms and of 1-D transforms along
non-last axes, for tests/fft/api-nd.test.ts (the one-op, strided paths of
src/fft/api.ts): odd, prime and power-of-two sizes, s (padding and
truncation), axes in any order and not trailing, and irfft2 / irfftn of
NON-Hermitian input (NumPy ignores Im X[..., 0] and Im X[..., n/2] only after
its inner inverse transforms; rlx must do the same).

Run with Debian's python3 (NumPy 1.24): /usr/bin/python3 tests/golden/fft/nd_gen.py
Inputs are rebuilt in the test from the same formula (flat index i):
  real:    cos(0.37 i + 0.1) + 0.5 * ((3 i) mod 11) / 11
  complex: real(i) + 1j * sin(0.91 i)
NumPy computes float32 input in float64: the test compares rlx's float32
(complex64) results to these at float32 tolerance.
"""
import json, os
import numpy as np

def real_input(shape):
    i = np.arange(int(np.prod(shape)), dtype=np.float64)
    return (np.cos(0.37 * i + 0.1) + 0.5 * ((3 * i) % 11) / 11).reshape(shape)

def complex_input(shape):
    i = np.arange(int(np.prod(shape)), dtype=np.float64)
    return real_input(shape) + 1j * np.sin(0.91 * i).reshape(shape)

def flat(a):
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return [float(v) for z in a.ravel() for v in (z.real, z.imag)]
    return [float(v) for v in a.ravel()]

cases = []
def add(fn, kind, shape, **kw):
    x = real_input(shape) if kind == 'real' else complex_input(shape)
    out = getattr(np.fft, fn)(x, **kw)
    cases.append({'fn': fn, 'kind': kind, 'shape': list(shape), 'kwargs': kw,
                  'outShape': list(out.shape), 'complex': bool(np.iscomplexobj(out)), 'out': flat(out)})

# 1-D along a non-last axis (strided cores of rank > 1)
add('fft', 'complex', (7, 5, 3), axis=0)
add('ifft', 'complex', (7, 5, 3), axis=1, n=6, norm='ortho')
add('rfft', 'real', (6, 13, 2), axis=1)
add('rfft', 'real', (9, 4), axis=0, n=8)
add('irfft', 'complex', (5, 7, 3), axis=1)
add('irfft', 'complex', (4, 3), axis=0, n=7)
# n-D over trailing axes: odd, prime and power-of-two sizes
add('fft2', 'complex', (2, 17, 13))
add('ifft2', 'complex', (32, 16), norm='forward')
add('fftn', 'complex', (3, 5, 7, 2))
add('ifftn', 'complex', (4, 9, 6), norm='ortho')
add('rfft2', 'real', (3, 11, 14))
add('rfftn', 'real', (5, 6, 7))
add('irfft2', 'complex', (3, 11, 8))
add('irfft2', 'complex', (7, 6), s=(7, 11))
add('irfftn', 'complex', (5, 6, 4), norm='ortho')
# s and axes: non-trailing, out of order, padded and truncated
add('fft2', 'complex', (6, 5, 4), axes=(0, 2))
add('fftn', 'complex', (6, 5, 4, 3), s=(8, 2), axes=(2, 0))
add('ifftn', 'complex', (5, 4, 3), axes=(1,), s=(7,))
add('rfftn', 'real', (6, 5, 4), axes=(2, 0))
add('rfftn', 'real', (6, 5, 4), axes=(1, 0), s=(9, 4))
add('rfft2', 'real', (7, 6, 5), axes=(0, 1), norm='ortho')
add('irfftn', 'complex', (6, 5, 4), axes=(2, 0))
add('irfftn', 'complex', (6, 5, 4), axes=(1, 0), s=(5, 9))
add('irfft2', 'complex', (5, 4, 6), axes=(2, 1), s=(3, 10), norm='forward')
add('irfftn', 'complex', (4, 5, 3, 2), axes=(0, 2, 1))
# repeated axes: NumPy transforms such an axis twice
add('fftn', 'complex', (4, 6), axes=(1, 1))

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'nd.json'), 'w') as f:
    json.dump({'numpy': np.__version__, 'cases': cases}, f)
print(len(cases), 'cases')
