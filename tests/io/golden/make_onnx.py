#!/usr/bin/env python3
"""ONNX models exported by PyTorch 1.13's torch.onnx, with inputs and PyTorch's outputs, for tests/io/onnx.test.ts.

torch.onnx.export serialises the protobuf itself (the python `onnx` package, which Debian does not ship, is not
needed). Files (each well under 1 MB):

  mlp.onnx           Linear(16, 32) -> ReLU -> Linear(32, 32) -> GELU -> Linear(32, 8) -> Tanh, opset 14,
                     batch axis dynamic ("batch"): Gemm, Relu, Div/Erf/Add/Mul (GELU), Tanh, Constant
  encoder14.onnx     2 x TransformerEncoderLayer(64, 4, dim_feedforward=128, dropout=0, gelu, batch_first) in an
                     nn.Sequential, opset 14, batch and sequence axes dynamic: the exporter computes the attention
                     reshapes from Shape/Gather/Unsqueeze/Concat/Cast and LayerNorm as ReduceMean/Sub/Pow/Sqrt/Div
  encoder17.onnx     the same model at opset 17, static shapes [2, 5, 64]: LayerNormalization
  encoder_state.safetensors  the same model's state_dict (nn.Sequential names: "0.self_attn.in_proj_weight", ...),
                     written from the format's definition with struct and json (no python3-safetensors on Debian)
  onnx_io.safetensors        inputs and PyTorch's outputs (eval mode, torch.no_grad()):
                     mlp_x [4, 16], mlp_y [4, 8]; enc_x [2, 5, 64], enc_y; enc_x2 [3, 7, 64], enc_y2 (other dynamic
                     sizes, for encoder14.onnx)

Every parameter is random (the LayerNorm weights and biases too, so the exporter cannot merge equal initializers).

Regenerate (deterministic):

    /usr/bin/python3 tests/io/golden/make_onnx.py
"""
import json
import os
import struct

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def write_safetensors(path, tensors, metadata=None):
    header, data = {}, b""
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, a in tensors.items():
        raw = np.ascontiguousarray(a, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * ((8 - len(h) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + data)


def randomize(model, scale=0.2):
    with torch.no_grad():
        for name, p in model.named_parameters():
            if name.endswith("norm1.weight") or name.endswith("norm2.weight"):
                p.copy_(1 + scale * torch.randn_like(p))
            elif p.dim() == 1:
                p.copy_(scale * torch.randn_like(p))
    return model.eval()


def main():
    torch.manual_seed(0)
    mlp = torch.nn.Sequential(
        torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 32), torch.nn.GELU(), torch.nn.Linear(32, 8), torch.nn.Tanh()
    )
    randomize(mlp)
    mlp_x = torch.randn(4, 16)
    torch.onnx.export(mlp, (mlp_x,), os.path.join(HERE, "mlp.onnx"), opset_version=14, input_names=["x"], output_names=["y"], dynamic_axes={"x": {0: "batch"}, "y": {0: "batch"}})

    enc = torch.nn.Sequential(*[torch.nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0, activation="gelu", batch_first=True) for _ in range(2)])
    randomize(enc)
    enc_x = torch.randn(2, 5, 64)
    enc_x2 = torch.randn(3, 7, 64)
    dyn = {"x": {0: "batch", 1: "seq"}, "y": {0: "batch", 1: "seq"}}
    torch.onnx.export(enc, (enc_x,), os.path.join(HERE, "encoder14.onnx"), opset_version=14, input_names=["x"], output_names=["y"], dynamic_axes=dyn)
    torch.onnx.export(enc, (enc_x,), os.path.join(HERE, "encoder17.onnx"), opset_version=17, input_names=["x"], output_names=["y"])
    write_safetensors(os.path.join(HERE, "encoder_state.safetensors"), {k: v.numpy() for k, v in enc.state_dict().items()}, {"format": "pt"})

    with torch.no_grad():
        outs = {"mlp_x": mlp_x, "mlp_y": mlp(mlp_x), "enc_x": enc_x, "enc_y": enc(enc_x), "enc_x2": enc_x2, "enc_y2": enc(enc_x2)}
    write_safetensors(os.path.join(HERE, "onnx_io.safetensors"), {k: v.numpy() for k, v in outs.items()}, {"torch": torch.__version__})
    print("torch", torch.__version__, {k: tuple(v.shape) for k, v in outs.items()})


if __name__ == "__main__":
    main()
