#!/usr/bin/env python3
"""An independent safetensors reader (struct, json, NumPy) that prints a file as JSON.

tests/io/safetensors.test.ts writes files with rlx's io.saveSafetensors and
checks them with this reader: the header as parsed here, the padding, that the
data offsets tile the data, and every tensor's values as NumPy decodes them.

    /usr/bin/python3 tests/io/golden/read_safetensors.py FILE

prints {"header_length", "metadata", "tensors": {name: {dtype, shape, offsets, data}}};
complex values interleaved (re, im); BF16 decoded by shifting its bits into a float32.
"""
import json
import struct
import sys

import numpy as np

NP = {"F64": "<f8", "F32": "<f4", "F16": "<f2", "I32": "<i4", "I64": "<i8", "C64": "<c8", "BOOL": "u1"}


def main(path):
    raw = open(path, "rb").read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8:8 + n].decode("utf-8"))
    data = raw[8 + n:]
    out = {"header_length": n, "metadata": header.pop("__metadata__", {}), "tensors": {}}
    spans = sorted(tuple(e["data_offsets"]) for e in header.values())
    pos = 0
    for b, e in spans:
        assert b == pos, f"gap or overlap at {b}"
        pos = e
    assert pos == len(data), "data not covered"
    for name, e in header.items():
        b, end = e["data_offsets"]
        chunk = data[b:end]
        if e["dtype"] == "BF16":
            a = (np.frombuffer(chunk, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
        else:
            a = np.frombuffer(chunk, dtype=NP[e["dtype"]])
        a = a.reshape(e["shape"])
        flat = [float(x) for z in a.reshape(-1) for x in ((z.real, z.imag) if np.iscomplexobj(a) else (z,))]
        out["tensors"][name] = {"dtype": e["dtype"], "shape": e["shape"], "offsets": [b, end], "data": flat}
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
