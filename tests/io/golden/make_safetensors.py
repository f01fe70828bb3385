#!/usr/bin/env python3
"""Golden safetensors files for rlx's io.loadSafetensors, written without rlx.

Debian has no python3-safetensors, so the files are written here from the
format's definition with only struct, json and NumPy: an 8-byte little-endian
header length N, N bytes of JSON {name: {dtype, shape, data_offsets}, "__metadata__"},
then the data, each tensor's little-endian row-major bytes. expected.json holds
every tensor's values as NumPy decodes them, for tests/io/safetensors.test.ts.

Regenerate (deterministic: fixed values and a seeded RNG):

    /usr/bin/python3 tests/io/golden/make_safetensors.py

Files:
  mixed.safetensors      F64, F32, F16, BF16, I32, BOOL, C64, I64 (values that fit int32),
                         a scalar and an empty tensor, metadata; header padded to 8 (aligned: zero-copy)
  unaligned.safetensors  F64 and F32 after a 1-byte BOOL, header not padded (every view misaligned: copied)
  i64_overflow.safetensors  an I64 tensor holding 2^40 (rlx must refuse it by name)
"""
import json
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(7)


def bf16_bits(a):
    """bfloat16 bits of float32 values (round to nearest even), and the values they stand for."""
    u = np.asarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    return r, (r.astype(np.uint32) << 16).view(np.float32)


def write(name, tensors, metadata=None, pad=True, order=None):
    """tensors: list of (name, dtype name, shape, raw little-endian bytes)."""
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for tname, dt, shape, raw in (order or tensors):
        header[tname] = {"dtype": dt, "shape": list(shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    h = json.dumps(header, separators=(",", ":")).encode()
    if pad:
        h += b" " * ((8 - len(h) % 8) % 8)
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + data)


def values(a):
    a = np.asarray(a)
    if np.iscomplexobj(a):
        return {"shape": list(a.shape), "data": [float(x) for z in a.reshape(-1) for x in (z.real, z.imag)]}
    return {"shape": list(a.shape), "data": [float(x) for x in a.reshape(-1)]}


def main():
    expected = {}

    f64 = rng.normal(size=(2, 3))
    f32 = rng.normal(size=(4,)).astype(np.float32)
    f16 = np.array([[0.5, -2.25], [65504.0, 6.1035156e-05]], dtype=np.float16)
    bf_bits, bf_vals = bf16_bits(rng.normal(size=(3,)) * 100)
    i32 = np.array([[-(2 ** 31), 2 ** 31 - 1, 0]], dtype=np.int32)
    boo = np.array([True, False, True, True, False])
    c64 = (rng.normal(size=(2,)) + 1j * rng.normal(size=(2,))).astype(np.complex64)
    i64 = np.array([-5, 2 ** 31 - 1, -(2 ** 31), 7], dtype=np.int64)
    scalar = np.array(3.5, dtype=np.float64)
    empty = np.zeros((0, 3), dtype=np.float32)
    tensors = [
        ("weight", "F64", f64.shape, f64.astype("<f8").tobytes()),
        ("scalar", "F64", (), scalar.astype("<f8").tobytes()),
        ("complex", "C64", c64.shape, c64.astype("<c8").tobytes()),
        ("index", "I64", i64.shape, i64.astype("<i8").tobytes()),
        ("bias", "F32", f32.shape, f32.astype("<f4").tobytes()),
        ("ints", "I32", i32.shape, i32.astype("<i4").tobytes()),
        ("empty", "F32", empty.shape, b""),
        ("half", "F16", f16.shape, f16.astype("<f2").tobytes()),
        ("brain", "BF16", bf_bits.shape, bf_bits.astype("<u2").tobytes()),
        ("mask", "BOOL", boo.shape, boo.astype(np.uint8).tobytes()),
    ]
    write("mixed.safetensors", tensors, metadata={"format": "pt", "note": "written by make_safetensors.py"})
    expected["mixed.safetensors"] = {
        "metadata": {"format": "pt", "note": "written by make_safetensors.py"},
        "tensors": {
            "weight": {"dtype": "float64", **values(f64)},
            "scalar": {"dtype": "float64", **values(scalar)},
            "complex": {"dtype": "complex64", **values(c64)},
            "index": {"dtype": "int32", **values(i64)},
            "bias": {"dtype": "float32", **values(f32)},
            "ints": {"dtype": "int32", **values(i32)},
            "empty": {"dtype": "float32", **values(empty)},
            "half": {"dtype": "float16", **values(f16.astype(np.float32))},
            "brain": {"dtype": "bfloat16", **values(bf_vals)},
            "mask": {"dtype": "bool", **values(boo.astype(np.float64))},
        },
    }

    one = np.array([True])
    g64 = rng.normal(size=(3,))
    g32 = rng.normal(size=(2, 2)).astype(np.float32)
    write("unaligned.safetensors", [
        ("flag", "BOOL", one.shape, one.astype(np.uint8).tobytes()),
        ("a", "F64", g64.shape, g64.astype("<f8").tobytes()),
        ("b", "F32", g32.shape, g32.astype("<f4").tobytes()),
    ], pad=False)
    expected["unaligned.safetensors"] = {"metadata": {}, "tensors": {
        "flag": {"dtype": "bool", **values(one.astype(np.float64))},
        "a": {"dtype": "float64", **values(g64)},
        "b": {"dtype": "float32", **values(g32)},
    }}

    big = np.array([1, 2 ** 40, 3], dtype=np.int64)
    write("i64_overflow.safetensors", [("ids", "I64", big.shape, big.astype("<i8").tobytes())])

    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")
    print("wrote", ", ".join(sorted(expected) + ["i64_overflow.safetensors", "expected.json"]))


if __name__ == "__main__":
    main()
