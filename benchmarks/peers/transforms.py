"""PyTorch peers of benchmarks/suites/transforms.mjs (same inputs, same math).

Debian's python3-torch (CPU). Eager autograd: forward, and forward + backward.
"""

import _bench
from _bench import ramp

try:
    import torch

    torch.set_num_threads(2)
except Exception as e:  # noqa: BLE001
    torch = None
    _IMPORT_ERROR = e


def _need():
    if torch is None:
        raise ImportError(f"torch unavailable: {_IMPORT_ERROR}")


def _mlp(args):
    _need()
    B, D = args["B"], args["D"]
    f32 = lambda n, k, shape, scale=1.0: torch.tensor(ramp(n, k) * scale, dtype=torch.float32).reshape(shape)
    p = {
        "w1": f32(D[0] * D[1], 3, (D[0], D[1]), 0.1), "b1": f32(D[1], 5, (D[1],)),
        "w2": f32(D[1] * D[2], 7, (D[1], D[2]), 0.1), "b2": f32(D[2], 11, (D[2],)),
        "w3": f32(D[2] * D[3], 13, (D[2], D[3]), 0.1), "b3": f32(D[3], 17, (D[3],)),
    }
    x = f32(B * D[0], 1, (B, D[0]))

    def loss(p):
        h = torch.relu(x @ p["w1"] + p["b1"])
        h = torch.relu(h @ p["w2"] + p["b2"])
        return ((h @ p["w3"] + p["b3"]) ** 2).mean()

    return p, loss


def case_mlp_forward(args):
    p, loss = _mlp(args)

    def run():
        with torch.no_grad():
            return loss(p).numpy()

    return run


def case_mlp_backward(args):
    p, loss = _mlp(args)
    for t in p.values():
        t.requires_grad_(True)

    def run():
        for t in p.values():
            t.grad = None
        v = loss(p)
        v.backward()
        return v.detach().numpy()

    return run


def _sim(args):
    _need()
    NP, STEPS, DT = args["NP"], args["STEPS"], args["DT"]
    x0 = torch.tensor(ramp(NP * 2, 3), dtype=torch.float64).reshape(NP, 2)
    v0 = torch.tensor(ramp(NP * 2, 7), dtype=torch.float64).reshape(NP, 2)

    def sim(x, v):
        for _ in range(STEPS):
            v = v - x * DT - v * (0.1 * DT)
            x = x + v * DT
        return (x ** 2).sum()

    return x0, v0, sim


def case_scan_forward(args):
    x0, v0, sim = _sim(args)

    def run():
        with torch.no_grad():
            return sim(x0, v0).numpy()

    return run


def case_scan_backward(args):
    x0, v0, sim = _sim(args)
    x0.requires_grad_(True)
    v0.requires_grad_(True)

    def run():
        x0.grad = None
        v0.grad = None
        v = sim(x0, v0)
        v.backward()
        return v.detach().numpy()

    return run


_bench.main({"mlp_forward": case_mlp_forward, "mlp_backward": case_mlp_backward, "scan_forward": case_scan_forward, "scan_backward": case_scan_backward})
