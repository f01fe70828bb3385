#!/usr/bin/python3
"""Golden files for the splat file formats (tests/splat/io-golden.test.ts).

Regenerate (deterministic; needs NumPy 1.24, the system one at /usr/bin/python3):

    /usr/bin/python3 tests/splat/golden/gen_io.py

Writes, in io/ beside this script, reference files made by NumPy alone (no rlx code):
  deg3_le.ply      binary little endian, SH degree 3, the 3DGS property order
  deg1_ascii.ply   ASCII, SH degree 1 (values as repr of the float32)
  deg2_be_mixed.ply binary big endian, SH degree 2, properties shuffled, some
                   double, extra properties (uchar red, float confidence) and
                   an element 'camera' (2 rows) before 'vertex'
  deg0_le.ply      binary little endian, SH degree 0, 7 Gaussians
  cloud.splat      antimatter15 records written from activated values by an
                   independent writer (round half up, sort by -(s0 s1 s2) o,
                   stable)
  rgb.png, rgba.png, gray.png  8-bit PNGs written with zlib and struct
and io.json with what each must decode to: the activated parameters computed
in float64 from the stored values (scales = exp, opacities = 1/(1 + exp(-x)),
quats as stored, sh[n, 0, c] = f_dc_c, sh[n, k, c] = f_rest[c (K-1) + k-1]),
the Gaussians cloud.splat was written from, and the PNG pixel bytes.
"""
import json
import os
import struct
import zlib

import numpy as np

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'io')
SH_C0 = 0.28209479177387814


def names(degree):
    rest = 3 * ((degree + 1) ** 2 - 1)
    return (['x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2'] + [f'f_rest_{i}' for i in range(rest)]
            + ['opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'])


def stored(rng, n, degree):
    """Pre-activation values per property name, exactly representable in float32."""
    v = {}
    for p in names(degree):
        if p in ('nx', 'ny', 'nz'):
            v[p] = np.zeros(n, np.float32)
        elif p == 'opacity':
            v[p] = rng.uniform(-4, 4, n).astype(np.float32)
        elif p.startswith('scale'):
            v[p] = rng.uniform(-5, 0, n).astype(np.float32)
        elif p.startswith('rot'):
            v[p] = rng.normal(0, 1, n).astype(np.float32)
        else:
            v[p] = rng.normal(0, 1, n).astype(np.float32)
    return v


def expected(v, degree):
    """The activated Gaussians, in float64, from the stored float32 values."""
    k = (degree + 1) ** 2
    f = lambda p: v[p].astype(np.float64)
    n = len(v['x'])
    sh = np.zeros((n, k, 3))
    for c in range(3):
        sh[:, 0, c] = f(f'f_dc_{c}')
        for j in range(1, k):
            sh[:, j, c] = f(f'f_rest_{c * (k - 1) + j - 1}')
    return {
        'means': np.stack([f('x'), f('y'), f('z')], 1).tolist(),
        'quats': np.stack([f(f'rot_{i}') for i in range(4)], 1).tolist(),
        'scales': np.exp(np.stack([f(f'scale_{i}') for i in range(3)], 1)).tolist(),
        'opacities': (1 / (1 + np.exp(-f('opacity')))).tolist(),
        'sh': sh.tolist(),
    }


def header(fmt, n, props, before=None):
    lines = ['ply', f'format {fmt} 1.0', 'comment made by tests/splat/golden/gen_io.py']
    if before is not None:
        lines.append(f'element {before[0]} {before[1]}')
        lines += [f'property {t} {p}' for t, p in before[2]]
    lines.append(f'element vertex {n}')
    lines += [f'property {t} {p}' for t, p in props]
    lines.append('end_header')
    return ('\n'.join(lines) + '\n').encode('ascii')


def binary_rows(v, props, endian, n):
    types = {'float': 'f4', 'double': 'f8', 'uchar': 'u1'}
    dt = np.dtype([(p, endian + types[t]) for t, p in props])
    rows = np.zeros(n, dt)
    for t, p in props:
        rows[p] = v[p]
    return rows.tobytes()


def write(name, data):
    with open(os.path.join(HERE, name), 'wb') as fh:
        fh.write(data)


def png(width, height, color_type, pixels):
    """An 8-bit PNG, filter 0 on every row, one IDAT chunk."""
    def chunk(tag, body):
        return struct.pack('>I', len(body)) + tag + body + struct.pack('>I', zlib.crc32(tag + body) & 0xffffffff)
    raw = b''.join(b'\x00' + pixels[y].tobytes() for y in range(height))
    ihdr = struct.pack('>IIBBBBB', width, height, 8, color_type, 0, 0, 0)
    return b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IDAT', zlib.compress(raw, 9)) + chunk(b'IEND', b'')


def main():
    os.makedirs(HERE, exist_ok=True)
    rng = np.random.default_rng(20240517)
    out = {}

    v = stored(rng, 5, 3)
    props = [('float', p) for p in names(3)]
    write('deg3_le.ply', header('binary_little_endian', 5, props) + binary_rows(v, props, '<', 5))
    out['deg3_le.ply'] = expected(v, 3)

    v = stored(rng, 4, 1)
    props = [('float', p) for p in names(1)]
    lines = [' '.join(repr(float(v[p][i])) for _, p in props) for i in range(4)]
    write('deg1_ascii.ply', header('ascii', 4, props) + ('\n'.join(lines) + '\n').encode('ascii'))
    out['deg1_ascii.ply'] = expected(v, 1)

    v = stored(rng, 6, 2)
    order = names(2)[::-1]
    v['red'] = rng.integers(0, 256, 6).astype(np.uint8)
    v['confidence'] = rng.uniform(0, 1, 6).astype(np.float32)
    props = [('double' if i % 3 == 0 else 'float', p) for i, p in enumerate(order)]
    props.insert(5, ('uchar', 'red'))
    props.append(('float', 'confidence'))
    cam = [('float', 'a'), ('float', 'b'), ('double', 'c')]
    camera_rows = np.zeros(2, np.dtype([('a', '>f4'), ('b', '>f4'), ('c', '>f8')]))
    camera_rows['a'] = [1, 2]
    camera_rows['c'] = [3, 4]
    write('deg2_be_mixed.ply', header('binary_big_endian', 6, props, ('camera', 2, cam)) + camera_rows.tobytes() + binary_rows(v, props, '>', 6))
    out['deg2_be_mixed.ply'] = expected(v, 2)

    v = stored(rng, 7, 0)
    props = [('float', p) for p in names(0)]
    write('deg0_le.ply', header('binary_little_endian', 7, props) + binary_rows(v, props, '<', 7))
    out['deg0_le.ply'] = expected(v, 0)

    # .splat: activated float32 Gaussians (colours partly outside [0, 1], one tie in the sort key).
    n = 9
    means = rng.normal(0, 1, (n, 3)).astype(np.float32)
    scales = rng.uniform(0.01, 0.5, (n, 3)).astype(np.float32)
    scales[4] = scales[2]
    opac = rng.uniform(0.05, 0.95, n).astype(np.float32)
    opac[4] = opac[2]
    quats = rng.normal(0, 1, (n, 4)).astype(np.float32)
    colors = rng.uniform(-0.2, 1.2, (n, 3)).astype(np.float32)
    s64, o64 = scales.astype(np.float64), opac.astype(np.float64)
    key = -(s64[:, 0] * s64[:, 1] * s64[:, 2]) * o64
    idx = np.argsort(key, kind='stable')
    unit = lambda x: np.floor(np.clip(x, 0, 1) * 255 + 0.5).astype(np.uint8)
    q = quats.astype(np.float64)
    qn = q / np.linalg.norm(q, axis=1, keepdims=True)
    qb = np.clip(np.floor(qn * 128 + 128 + 0.5), 0, 255).astype(np.uint8)
    rec = np.zeros(n, np.dtype([('p', '<f4', 3), ('s', '<f4', 3), ('rgba', 'u1', 4), ('q', 'u1', 4)]))
    rec['p'] = means[idx]
    rec['s'] = scales[idx]
    rec['rgba'][:, :3] = unit(colors.astype(np.float64))[idx]
    rec['rgba'][:, 3] = unit(o64)[idx]
    rec['q'] = qb[idx]
    write('cloud.splat', rec.tobytes())
    out['cloud.splat'] = {
        'source': {'means': means.tolist(), 'quats': quats.tolist(), 'scales': scales.tolist(), 'opacities': opac.tolist(), 'colors': colors.tolist()},
        'order': idx.tolist(),
        'decoded': {
            'means': rec['p'].astype(np.float64).tolist(),
            'scales': rec['s'].astype(np.float64).tolist(),
            'colors': (rec['rgba'][:, :3] / 255.0).tolist(),
            'opacities': (rec['rgba'][:, 3] / 255.0).tolist(),
            'quats': ((rec['q'].astype(np.float64) - 128) / 128).tolist(),
        },
    }

    rgb = rng.integers(0, 256, (3, 4, 3)).astype(np.uint8)
    rgb[0, 0] = [0, 128, 255]
    rgba = rng.integers(0, 256, (2, 5, 4)).astype(np.uint8)
    gray = rng.integers(0, 256, (4, 3)).astype(np.uint8)
    write('rgb.png', png(4, 3, 2, rgb))
    write('rgba.png', png(5, 2, 6, rgba))
    write('gray.png', png(3, 4, 0, gray))
    out['png'] = {'rgb.png': rgb.tolist(), 'rgba.png': rgba.tolist(), 'gray.png': gray.tolist()}

    with open(os.path.join(HERE, 'io.json'), 'w') as fh:
        json.dump(out, fh, indent=None, separators=(',', ':'))
        fh.write('\n')


if __name__ == '__main__':
    main()
