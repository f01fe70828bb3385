#!/usr/bin/env python3
"""PyTorch 1.13 references for the MiniLM-shaped encoder test (tests/nn/minilm.test.ts).

The issue's check: 6 x TransformerEncoderLayer(384, 12, dim_feedforward=1536, gelu, batch_first) with random
weights exported from PyTorch to safetensors matches PyTorch within 1e-4. Its float32 state dict is 43 MB, too big
to commit, so the check is split in two, each honest about what it proves:

  1. minilm_layer_f16.safetensors: a PyTorch-written file of ONE such layer (torch's own seeded initialisation,
     stored as F16, 3.5 MB; the float32 model runs on exactly those float16 values) under its nn.Sequential key
     names ("0.self_attn.in_proj_weight", ...). rlx must read PyTorch's file as it is and reproduce its output.
  2. The full 6-layer encoder with "random" weights from a closed-form formula that both sides evaluate
     (formula_weights below; the test has the same function in TypeScript). The float32 bytes of the whole
     state dict are hashed here (sha256 in the metadata of minilm_io.safetensors) and in the test, so the test
     knows it runs PyTorch's exact weights before it compares outputs.

  3. minilm6_graph.onnx: the 6-layer model exported by torch.onnx (opset 14) without its weights
     (export_params=False: each parameter is a graph input named by its state-dict key, 79 kB): io.loadOnnx
     imports PyTorch's graph, the test feeds the formula weights, and the output must match too.

minilm_io.safetensors holds the input x [2, 16, 384] (torch.randn, seeded) and PyTorch's outputs of both models
(eval mode, torch.no_grad()). Neither torch's nor the Python safetensors package writes the files: Debian has no
python3-safetensors, so they are written from the format's definition with struct and json (as
tests/io/golden/make_safetensors.py does).

Regenerate (deterministic):

    /usr/bin/python3 tests/nn/golden/make_minilm.py
"""
import hashlib
import json
import math
import os
import struct

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
D, HEADS, FF, LAYERS, BATCH, SEQ = 384, 12, 1536, 6, 2, 16
DTYPES = {np.dtype(np.float32): "F32", np.dtype(np.float16): "F16"}


def write_safetensors(path, tensors, metadata=None):
    """tensors: {name: numpy array}; header padded to 8 bytes so every tensor is aligned."""
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, a in tensors.items():
        raw = np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<")).tobytes()
        header[name] = {"dtype": DTYPES[a.dtype], "shape": list(a.shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + data)


def encoder(layers):
    torch.manual_seed(0)
    blocks = [torch.nn.TransformerEncoderLayer(D, HEADS, FF, dropout=0.0, activation="gelu", batch_first=True) for _ in range(layers)]
    return torch.nn.Sequential(*blocks).eval()


def fnv1a(s):
    """32-bit FNV-1a of the UTF-8 bytes: a per-tensor salt both languages compute identically."""
    h = 0x811C9DC5
    for b in s.encode():
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


def fmix32(h):
    """MurmurHash3's finaliser on uint32 arrays (wrapping multiplies, as Math.imul in the test)."""
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def formula_weights(name, shape):
    """Uniform-looking values in a layer's usual range, from the key name and the element index only.

    u = fmix32(i XOR fnv1a(name)) >> 8 is a 24-bit integer, v = (u - 2^23) / 2^23 in [-1, 1) exactly; then
    2-D weights: v / 2^round(log2 sqrt(fan_in)); norm weights: 1 + v / 8; norm biases: v / 16; other biases: v / 32.
    Everything is exact in float64 and rounded once to float32, so both sides get the same bits.
    """
    n = int(np.prod(shape))
    with np.errstate(over="ignore"):
        u = fmix32(np.arange(n, dtype=np.uint32) ^ np.uint32(fnv1a(name))) >> np.uint32(8)
    v = (u.astype(np.float64) - 2.0**23) / 2.0**23
    if len(shape) == 2:
        vals = v / 2.0 ** round(math.log2(math.sqrt(shape[1])))
    elif ".norm" in name and name.endswith("weight"):
        vals = 1.0 + v / 8
    elif ".norm" in name:
        vals = v / 16
    else:
        vals = v / 32
    return vals.astype(np.float32).reshape(shape)


def main():
    torch.manual_seed(1234)
    x = torch.randn(BATCH, SEQ, D)

    # 1. One layer, PyTorch's own initialisation, exported as float16.
    one = encoder(1)
    sd16 = {k: v.detach().to(torch.float16) for k, v in one.state_dict().items()}
    one.load_state_dict({k: v.to(torch.float32) for k, v in sd16.items()})
    write_safetensors(os.path.join(HERE, "minilm_layer_f16.safetensors"), {k: v.numpy() for k, v in sd16.items()}, {"format": "pt"})
    with torch.no_grad():
        y1 = one(x)

    # 2. Six layers, formula weights.
    six = encoder(LAYERS)
    names = list(six.state_dict().keys())
    sd = {k: formula_weights(k, tuple(v.shape)) for k, v in six.state_dict().items()}
    six.load_state_dict({k: torch.from_numpy(v) for k, v in sd.items()})
    digest = hashlib.sha256(b"".join(sd[k].astype("<f4").tobytes() for k in names)).hexdigest()
    with torch.no_grad():
        y6 = six(x)

    # The same model through torch.onnx, graph only: export_params=False makes every parameter a graph input
    # under its state-dict name (no constant folding, so none is pre-transposed or merged); the test feeds them.
    torch.onnx.export(
        six, (x,), os.path.join(HERE, "minilm6_graph.onnx"), opset_version=14, input_names=["x"], output_names=["y"],
        export_params=False, do_constant_folding=False,
    )

    write_safetensors(
        os.path.join(HERE, "minilm_io.safetensors"),
        {"x": x.numpy(), "layer_f16_out": y1.numpy(), "formula6_out": y6.numpy()},
        {"torch": torch.__version__, "formula6_sha256": digest, "formula6_keys": json.dumps(names)},
    )
    print("torch", torch.__version__, "| formula sha256", digest, "| |y1|max", float(y1.abs().max()), "|y6|max", float(y6.abs().max()))


if __name__ == "__main__":
    main()
