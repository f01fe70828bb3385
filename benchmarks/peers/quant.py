"""PyTorch peers of benchmarks/suites/quant.mjs.

Debian's python3-torch 1.13 (CPU), torch.set_num_threads(2) like rlx.
dynamic_linear: torch.ao.nn.quantized.dynamic.Linear (fbgemm, else onednn, int8 GEMM; it
quantizes the float input per call and returns float), its weight quantized
from the same int8 code pattern as the suite's b with scale 1; no checksum (the
rlx row's output is the exact int32 product). mm_f32: torch.mm on the suite's
float32 inputs (checksummed against rlx's matmul).
"""

import _bench

try:
    import torch

    torch.set_num_threads(2)
except Exception as e:  # noqa: BLE001
    torch = None
    _IMPORT_ERROR = e


def _need():
    if torch is None:
        raise _bench.Unavailable(f"torch unavailable: {_IMPORT_ERROR}")


def _codes8(n, k):
    i = torch.arange(n, dtype=torch.int64)
    return torch.remainder(i * 37 + k * 101, 256) - 128


def case_dynamic_linear(args):
    _need()
    M, K, N = args["M"], args["K"], args["N"]
    # fbgemm where the build has it (Debian's 1.13 has qnnpack and onednn only: onednn, x86's int8 path, then)
    engines = torch.backends.quantized.supported_engines
    torch.backends.quantized.engine = next(e for e in ("fbgemm", "onednn", "qnnpack") if e in engines)
    lin = torch.ao.nn.quantized.dynamic.Linear(K, N, bias_=False, dtype=torch.qint8)
    w = torch.quantize_per_tensor(_codes8(N * K, 2).reshape(N, K).float(), 1.0, 0, torch.qint8)
    lin.set_weight_bias(w, None)
    x = _codes8(M * K, 1).reshape(M, K).float()

    def run():
        with torch.no_grad():
            return lin(x)

    return run, lambda out: None


def case_mm_f32(args):
    _need()
    n = args["n"]
    a = _codes8(n * n, 1).float() / 128  # the suite's v(n², 1)
    b = _codes8(n * n, 2).float() / 128

    def run():
        return torch.mm(a.reshape(n, n), b.reshape(n, n)).numpy()

    return run


_bench.main({"dynamic_linear": case_dynamic_linear, "mm_f32": case_mm_f32})
