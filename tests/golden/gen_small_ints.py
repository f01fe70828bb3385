#!/usr/bin/env python3
"""Golden values for rlx's int8 and uint8 dtypes, made by NumPy.

rlx's int8/uint8 follow NumPy: casts (astype), wrap-around arithmetic,
comparisons, reductions, matmul, NEP 50 weak scalars and printing. This
script records what NumPy 1.24 computes for fixed inputs, so that
tests/ops/small-ints-numpy.test.ts checks rlx on every backend against it.

Regenerate (deterministic: fixed inputs and a seeded RNG; needs NumPy 1.24,
the system one at /usr/bin/python3):

    /usr/bin/python3 tests/golden/gen_small_ints.py

which rewrites tests/golden/small_ints.json next to this file.

Encoding: numbers as JSON numbers; NaN, inf, -inf as the strings "nan",
"inf", "-inf". dtypes as NumPy names; where NumPy's result dtype is one rlx
lacks (int16, int64, uint64), the test maps it (documented there).

float -> int8/uint8 of NaN, inf or values outside int32 is undefined
behavior in C and NumPy; on x86 NumPy converts through int32 (cvttsd2si,
giving -2**31) and keeps the low byte, which is what these goldens record
and what rlx does on every platform (src/tensor/dtype.ts floatToInt).
"""
import json
import math
import os
import warnings

import numpy as np

warnings.simplefilter('ignore')  # overflow / invalid-value warnings of the casts are the point

SMALL = ['int8', 'uint8']


def enc(v):
    v = float(v)
    if math.isnan(v):
        return 'nan'
    if math.isinf(v):
        return 'inf' if v > 0 else '-inf'
    return int(v) if v == int(v) and abs(v) < 2**53 else v


def lst(a):
    return [enc(x) for x in np.asarray(a).ravel()]


FLOATS = [0.0, -0.0, 0.5, -0.5, 0.99, -0.99, 1.5, -1.5, 2.5, 126.9, 127.0, 127.5, 128.0, -128.0, -128.9, -129.0, 200.7,
          255.0, 255.5, 256.0, 256.5, 300.7, -300.7, 511.0, -1.0, -255.0, -256.0, 1e4 + 0.3, -1e4, 65535.0, 65536.0,
          2147483647.0, -2147483648.0, 2147483648.0, -2147483649.0, 2147483653.0, 4294967301.0, 1e10, -1e10, 1e20, -1e300,
          float('nan'), float('inf'), float('-inf'), 5e-324, 1.0 / 3]
INTS = [0, 1, -1, 127, 128, -128, -129, 255, 256, -255, -256, 1000, -1000, 65535, 65536, 2147483647, -2147483648, 16909060, -16909060]


def casts():
    out = []
    f64 = np.array(FLOATS, np.float64)
    f32 = f64.astype(np.float32)
    f16 = np.array([0.5, -1.5, 127.9, -128.5, 255.9, 300.0, 65504.0, -65504.0, float('nan'), float('inf')], np.float16)
    i32 = np.array(INTS, np.int32)
    all8 = {'int8': np.arange(-128, 128, dtype=np.int8), 'uint8': np.arange(0, 256, dtype=np.int32).astype(np.uint8)}
    for src_name, src in [('float64', f64), ('float32', f32), ('float16', f16), ('int32', i32)]:
        for to in SMALL:
            out.append({'from': src_name, 'to': to, 'values': lst(src), 'want': lst(src.astype(to))})
    for src_name in SMALL:
        for to in ['int8', 'uint8', 'int32', 'float16', 'float32', 'float64', 'bool']:
            out.append({'from': src_name, 'to': to, 'values': lst(all8[src_name]), 'want': lst(all8[src_name].astype(to))})
    return out


def operands(dt, n, seed):
    rng = np.random.default_rng(seed)
    info = np.iinfo(dt)
    ends = [info.min, info.max, 0, 1, info.min + 1, info.max - 1, -1 if info.min < 0 else 2, 100, info.max // 2]
    rand = rng.integers(info.min, info.max + 1, size=n - len(ends))
    return np.array(ends + list(rand), dtype=dt)


BINARY = ['add', 'subtract', 'multiply', 'maximum', 'minimum', 'equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal']
UNARY = ['negative', 'absolute', 'sign', 'sqrt', 'exp', 'sin']


def arithmetic():
    out = []
    for i, dt in enumerate(SMALL):
        a = operands(dt, 64, 10 + i)
        b = operands(dt, 64, 20 + i)[::-1].copy()
        for op in BINARY:
            r = getattr(np, op)(a, b)
            out.append({'op': op, 'dtypes': [dt, dt], 'a': lst(a), 'b': lst(b), 'dtype': str(r.dtype), 'want': lst(r)})
        e = (np.arange(64) % 8).astype(dt)
        r = np.power(a, e)
        out.append({'op': 'power', 'dtypes': [dt, dt], 'a': lst(a), 'b': lst(e), 'dtype': str(r.dtype), 'want': lst(r)})
        for op in UNARY:
            r = getattr(np, op)(a)
            out.append({'op': op, 'dtypes': [dt], 'a': lst(a), 'dtype': str(r.dtype), 'want': lst(r)})
    # Mixed: int8 with uint8 (NumPy int16; rlx int32, same values), int8/uint8 with int32 and floats.
    a8, u8 = operands('int8', 32, 30), operands('uint8', 32, 31)
    i32 = np.array(INTS[:16] * 2, np.int32)
    f32 = np.linspace(-300.5, 300.5, 32).astype(np.float32)
    for x, y in [(a8, u8), (a8, i32), (u8, i32), (a8, f32), (u8, f32), (a8, np.float16(f32.astype(np.float16)))]:
        for op in ['add', 'subtract', 'multiply', 'maximum']:
            r = getattr(np, op)(x, y)
            out.append({'op': op, 'dtypes': [str(x.dtype), str(y.dtype)], 'a': lst(x), 'b': lst(y), 'dtype': str(r.dtype), 'want': lst(r)})
    return out


def reductions():
    out = []
    for i, dt in enumerate(SMALL):
        x = operands(dt, 24, 40 + i).reshape(4, 6)
        small = (np.arange(12) % 5 + (0 if dt == 'uint8' else -2)).astype(dt).reshape(3, 4)  # products fit int32
        cases = [('sum', x, None), ('sum', x, 1), ('max', x, None), ('min', x, 0), ('argmax', x, None), ('argmin', x, 1),
                 ('prod', small, 1), ('prod', small, None), ('cumsum', x, 1), ('mean', x, 0)]
        for op, arr, axis in cases:
            r = np.asarray(getattr(np, op)(arr, axis=axis))
            out.append({'op': op, 'dtype_in': dt, 'shape': list(arr.shape), 'x': lst(arr), 'axis': axis, 'dtype': str(r.dtype),
                        'shape_out': list(r.shape), 'want': lst(r)})
    return out


def matmuls():
    out = []
    rng = np.random.default_rng(50)
    for dt in SMALL:
        info = np.iinfo(dt)
        a = rng.integers(info.min, info.max + 1, size=(3, 5)).astype(dt)
        b = rng.integers(info.min, info.max + 1, size=(5, 2)).astype(dt)
        r = a @ b
        out.append({'dtype_in': dt, 'a': lst(a), 'a_shape': [3, 5], 'b': lst(b), 'b_shape': [5, 2], 'dtype': str(r.dtype), 'want': lst(r)})
    return out


def weak_scalars():
    """NEP 50 (np._set_promotion_state('weak')): what a tensor with a Python scalar gives."""
    out = []
    np._set_promotion_state('weak')
    try:
        for dt in SMALL:
            x = operands(dt, 12, 60)
            for op, s in [('add', 3), ('subtract', 1), ('multiply', 2), ('add', 0.5), ('multiply', -1.5), ('add', True), ('maximum', 7),
                          ('add', 300), ('add', -1), ('add', 128), ('multiply', 255), ('subtract', -129)]:
                try:
                    r = getattr(np, op)(x, s)
                    out.append({'op': op, 'dtype_in': dt, 'x': lst(x), 'scalar': s, 'dtype': str(r.dtype), 'want': lst(r)})
                except OverflowError as e:
                    out.append({'op': op, 'dtype_in': dt, 'x': lst(x), 'scalar': s, 'error': 'OverflowError', 'message': str(e)})
    finally:
        np._set_promotion_state('legacy')
    return out


class tensor(np.ndarray):
    """repr(a.view(tensor)) is NumPy's layout for the prefix 'tensor(' (see gen_format.py)."""


def formats():
    out = []
    arrays = [np.array([1, -128, 127, 0], np.int8), np.array([[1, -128], [127, 0]], np.int8), np.array([0, 255, 7], np.uint8),
              np.array(-5, np.int8), np.array(200, np.uint8), np.zeros((0,), np.int8), np.arange(2000).astype(np.uint8),
              np.arange(-20, 20).astype(np.int8).reshape(2, 4, 5)]
    for a in arrays:
        out.append({'dtype': str(a.dtype), 'shape': list(a.shape), 'values': lst(a), 'str': str(a), 'repr': repr(a.view(tensor))})
    return out


def main():
    golden = {
        'numpy': np.__version__,
        'note': 'int8/uint8 goldens; regenerate with tests/golden/gen_small_ints.py',
        'casts': casts(),
        'arithmetic': arithmetic(),
        'reductions': reductions(),
        'matmul': matmuls(),
        'weak': weak_scalars(),
        'format': formats(),
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'small_ints.json')
    with open(path, 'w') as f:
        json.dump(golden, f)
        f.write('\n')
    print(f'wrote {path}: ' + ', '.join(f'{k} {len(v)}' for k, v in golden.items() if isinstance(v, list)))


if __name__ == '__main__':
    main()
