"""PyTorch peers of benchmarks/suites/nn.mjs (same weights, inputs and math).

Debian's python3-torch 1.13 (CPU), torch.set_num_threads(2) like rlx. Weights:
every parameter by state_dict order i gets ramp(n, 3 + 2 i) scaled by
1/sqrt(last dim) for matrices and 0.1 for vectors, as the suite's loadRamps().
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


def _load_ramps(model):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.state_dict().items()):
            n = p.numel()
            scale = 1 / (p.shape[-1] ** 0.5) if p.dim() >= 2 else 0.1
            v = torch.tensor(ramp(n, 3 + 2 * i) * scale, dtype=torch.float32).reshape(p.shape)
            p.copy_(v)
    return model


def _mlp(args):
    _need()
    B, D = args["B"], args["D"]
    model = _load_ramps(torch.nn.Sequential(torch.nn.Linear(D[0], D[1]), torch.nn.ReLU(), torch.nn.Linear(D[1], D[2])))
    x = torch.tensor(ramp(B * D[0], 1) + 0.5, dtype=torch.float32).reshape(B, D[0])
    y = torch.tensor([(i * 7) % 10 for i in range(B)], dtype=torch.int64)
    return model, x, y


def case_mlp_train(args):
    model, x, y = _mlp(args)
    box = [torch.optim.Adam(model.parameters(), lr=args["lr"])]

    def run():
        opt = box[0]
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        return loss.detach().numpy()

    def after_warmup():
        # The initial weights and a fresh Adam state: the timed steps are steps 1.. of training,
        # as on the rlx side (the suite's afterWarmup), so the last losses can be compared.
        _load_ramps(model)
        box[0] = torch.optim.Adam(model.parameters(), lr=args["lr"])

    run.after_warmup = after_warmup
    return run


def case_mlp_forward(args):
    model, x, _ = _mlp(args)

    def run():
        with torch.no_grad():
            return model(x).numpy()

    return run


def case_encoder(args):
    _need()
    d, seq, batch = args["d"], args["seq"], args["batch"]
    layers = [torch.nn.TransformerEncoderLayer(d, args["heads"], dim_feedforward=args["ff"], activation="gelu", batch_first=True) for _ in range(args["layers"])]
    model = _load_ramps(torch.nn.Sequential(*layers)).eval()
    x = torch.tensor(ramp(batch * seq * d, 1), dtype=torch.float32).reshape(batch, seq, d)

    def run():
        with torch.no_grad():
            return model(x).numpy()

    return run


_bench.main({"mlp_train": case_mlp_train, "mlp_forward": case_mlp_forward, "encoder": case_encoder})
