"""Golden values of numpy.fft's public functions for tests/fft/api.test.ts.

Run with Debian's python3 (NumPy 1.24): /usr/bin/python3 tests/golden/fft/api_gen.py
Inputs are rebuilt in the test from the same formula (flat index i):
  real:    sin(0.7 i + 0.3) + 0.25 * ((5 i) mod 7)
  complex: real(i) + 1j * 0.5 cos(1.3 i)
"""
import json, os
import numpy as np

def real_input(shape):
    i = np.arange(int(np.prod(shape)), dtype=np.float64)
    return (np.sin(0.7 * i + 0.3) + 0.25 * ((5 * i) % 7)).reshape(shape)

def complex_input(shape):
    i = np.arange(int(np.prod(shape)), dtype=np.float64)
    return real_input(shape) + 1j * (0.5 * np.cos(1.3 * i)).reshape(shape)

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

for norm in [None, 'ortho', 'forward']:
    for fn in ['fft', 'ifft']:
        add(fn, 'complex', (3, 5), norm=norm)
        add(fn, 'complex', (3, 5), n=8, norm=norm)
        add(fn, 'complex', (3, 5), n=3, axis=0, norm=norm)
        add(fn, 'real', (4, 7), axis=0, norm=norm)
    add('rfft', 'real', (4, 6), norm=norm)
    add('rfft', 'real', (4, 6), n=9, norm=norm)
    add('rfft', 'real', (4, 6), n=3, axis=0, norm=norm)
    add('irfft', 'complex', (4, 4), norm=norm)
    add('irfft', 'complex', (4, 4), n=7, norm=norm)
    add('irfft', 'complex', (4, 4), n=3, axis=0, norm=norm)
    add('irfft', 'complex', (5, 3), n=10, axis=0, norm=norm)
    for fn in ['fft2', 'ifft2', 'fftn', 'ifftn']:
        add(fn, 'complex', (3, 4, 5), norm=norm)
    add('fft2', 'complex', (3, 4, 5), s=(6, 3), axes=(0, 2), norm=norm)
    add('ifftn', 'complex', (3, 4, 5), s=(2, 3), norm=norm)
    add('fftn', 'complex', (3, 4, 5), axes=(0, 1), norm=norm)
    for fn in ['rfft2', 'rfftn']:
        add(fn, 'real', (4, 6, 5), norm=norm)
    add('rfftn', 'real', (4, 6, 5), s=(3, 8), axes=(0, 1), norm=norm)
    for fn in ['irfft2', 'irfftn']:
        add(fn, 'complex', (4, 6, 5), norm=norm)
    add('irfftn', 'complex', (4, 6, 5), s=(3, 7), axes=(2, 0), norm=norm)
    add('irfft2', 'complex', (4, 6, 5), s=(5, 9), norm=norm)

freq = {
    'fftfreq': [[n, d, flat(np.fft.fftfreq(n, d))] for n, d in [(8, 0.1), (7, 1.0), (1, 1.0), (10, 2.5)]],
    'rfftfreq': [[n, d, flat(np.fft.rfftfreq(n, d))] for n, d in [(8, 2.0), (9, 1.0), (1, 1.0)]],
}
x = np.arange(15.0).reshape(3, 5)
shift = [[axes, flat(np.fft.fftshift(x, axes)), flat(np.fft.ifftshift(x, axes))] for axes in [None, 1, [0], [0, 1]]]

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, 'api.json'), 'w') as f:
    json.dump({'numpy': np.__version__, 'cases': cases, 'freq': freq, 'shift': shift}, f)
print(len(cases), 'cases')
