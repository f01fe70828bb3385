#!/usr/bin/env python3
"""Golden trajectories of torch.optim (PyTorch 1.13) for rlx's optim namespace.

Runs torch's SGD, Adam and AdamW (single-tensor code paths, the 1.13 default),
its learning-rate schedulers and torch.nn.utils.clip_grad_norm_ on fixed small
parameter tensors and a fixed, seeded sequence of gradients, and writes what
torch computes to optim.json next to this file. tests/optim/torch-parity.test.ts
replays the same gradients through rlx and compares (float64 at 1e-12
relative, float32 at 1e-6).

Regenerate (deterministic; needs PyTorch 1.13 and NumPy, Debian's python3-torch):

    /usr/bin/python3 tests/optim/golden/make_golden.py

Layout of optim.json:
  params0: {dtype: {name: {shape, data}}}    initial parameters (float32 values as exact doubles)
  grads:   {dtype: [{name: {shape, data}}]}  one gradient tree per step
  cases:   [{name, optimizer, options, schedule?, clip?, dtype,
             trajectory: [{name: data}] (params after each step), lrs (lr used at each step)}]
  schedules: [{name, spec, lrs}]             lr at step counts 0..len-1
  clip: [{name, maxNorm, normType, dtype, grads, norm, clipped}]
The options use rlx's names (lr, momentum, dampening, nesterov, weightDecay,
betas, eps, amsgrad); `schedule` and `clip` are specs the test rebuilds.
"""
import json
import math
import os

import numpy as np
import torch

STEPS = 10
SHAPES = {"w": [3, 2], "b": [3], "s": []}
rng = np.random.default_rng(20240518)
# Parameters of magnitude in [0.5, 2] with random signs, so relative errors are meaningful.
P0 = {k: (rng.uniform(0.5, 2.0, size=s) * rng.choice([-1.0, 1.0], size=s)) for k, s in SHAPES.items()}
# Gradients whose scale varies over the steps (so AMSGrad's running max matters).
SCALES = [1.0, 0.3, 2.0, 0.1, 1.5, 0.05, 0.7, 3.0, 0.2, 1.0]
G = [{k: rng.normal(size=s) * SCALES[t] for k, s in SHAPES.items()} for t in range(STEPS)]

DT = {"float64": torch.float64, "float32": torch.float32}


def enc(t):
    a = t.detach().cpu().to(torch.float64).numpy()
    return {"shape": list(a.shape), "data": [float(x) for x in a.reshape(-1)]}


def torch_tree(tree, dtype):
    return {k: torch.tensor(v, dtype=DT[dtype]) for k, v in tree.items()}


def make_optimizer(kind, params, o):
    if kind == "sgd":
        return torch.optim.SGD(params, lr=o["lr"], momentum=o.get("momentum", 0), dampening=o.get("dampening", 0),
                               nesterov=o.get("nesterov", False), weight_decay=o.get("weightDecay", 0))
    cls = torch.optim.Adam if kind == "adam" else torch.optim.AdamW
    kw = dict(lr=o["lr"], betas=tuple(o.get("betas", (0.9, 0.999))), eps=o.get("eps", 1e-8), amsgrad=o.get("amsgrad", False))
    if "weightDecay" in o:
        kw["weight_decay"] = o["weightDecay"]
    return cls(params, **kw)


def make_scheduler(opt, spec):
    """A torch scheduler for an rlx schedule spec (the base lr is the optimizer's)."""
    kind = spec["kind"]
    if kind == "cosine":
        return torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=spec["steps"], eta_min=spec.get("minLr", 0))
    if kind == "step":
        return torch.optim.lr_scheduler.StepLR(opt, step_size=spec["stepSize"], gamma=spec["gamma"])
    if kind == "linear":  # from/to as factors of the base lr
        base = opt.param_groups[0]["lr"]
        return torch.optim.lr_scheduler.LinearLR(opt, start_factor=spec["from"] / base, end_factor=spec["to"] / base, total_iters=spec["steps"])
    if kind == "warmup":
        base = opt.param_groups[0]["lr"]
        first = torch.optim.lr_scheduler.LinearLR(opt, start_factor=spec["startLr"] / base, end_factor=1.0, total_iters=spec["steps"])
        then = make_scheduler(opt, spec["then"])
        return torch.optim.lr_scheduler.SequentialLR(opt, [first, then], milestones=[spec["steps"]])
    raise ValueError(kind)


def run_case(name, kind, options, dtype, schedule=None, clip=None):
    params = torch_tree(P0, dtype)
    for p in params.values():
        p.requires_grad_(True)
    names = list(params)
    opt = make_optimizer(kind, [params[k] for k in names], options)
    sched = make_scheduler(opt, schedule) if schedule else None
    traj, lrs = [], []
    for t in range(STEPS):
        for k in names:
            params[k].grad = torch.tensor(G[t][k], dtype=DT[dtype])
        if clip is not None:
            torch.nn.utils.clip_grad_norm_([params[k] for k in names], clip)
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        if sched:
            sched.step()
        traj.append({k: enc(params[k])["data"] for k in names})
    case = {"name": name, "optimizer": kind, "options": options, "dtype": dtype, "trajectory": traj, "lrs": lrs}
    if schedule:
        case["schedule"] = schedule
    if clip is not None:
        case["clip"] = clip
    return case


CASES = [
    ("sgd plain", "sgd", {"lr": 0.1}, None, None),
    ("sgd momentum", "sgd", {"lr": 0.1, "momentum": 0.9}, None, None),
    ("sgd momentum dampening weight decay", "sgd", {"lr": 0.05, "momentum": 0.9, "dampening": 0.3, "weightDecay": 0.01}, None, None),
    ("sgd nesterov weight decay", "sgd", {"lr": 0.05, "momentum": 0.8, "nesterov": True, "weightDecay": 0.05}, None, None),
    ("adam", "adam", {"lr": 0.01}, None, None),
    ("adam weight decay", "adam", {"lr": 0.01, "weightDecay": 0.1}, None, None),
    ("adam amsgrad betas eps", "adam", {"lr": 0.02, "betas": [0.8, 0.99], "eps": 1e-6, "weightDecay": 0.01, "amsgrad": True}, None, None),
    ("adamw", "adamw", {"lr": 0.01}, None, None),
    ("adamw amsgrad weight decay", "adamw", {"lr": 0.02, "weightDecay": 0.1, "amsgrad": True}, None, None),
    ("adam step schedule", "adam", {"lr": 0.05}, {"kind": "step", "lr": 0.05, "stepSize": 3, "gamma": 0.5}, None),
    ("sgd momentum cosine", "sgd", {"lr": 0.1, "momentum": 0.9}, {"kind": "cosine", "lr": 0.1, "steps": 10, "minLr": 0.001}, None),
    ("adamw warmup cosine", "adamw", {"lr": 0.03}, {"kind": "warmup", "lr": 0.03, "steps": 3, "startLr": 0.003, "then": {"kind": "cosine", "lr": 0.03, "steps": 7}}, None),
    ("sgd momentum clipped", "sgd", {"lr": 0.1, "momentum": 0.9}, None, 0.5),
    ("adam clipped", "adam", {"lr": 0.01}, None, 1.0),
]

SCHEDULES = [
    ("cosine", {"kind": "cosine", "lr": 0.1, "steps": 10, "minLr": 0.01}, 11),
    ("cosine to zero", {"kind": "cosine", "lr": 0.5, "steps": 7}, 8),
    ("step", {"kind": "step", "lr": 0.1, "stepSize": 3, "gamma": 0.5}, 20),
    ("linear", {"kind": "linear", "from": 0.025, "to": 0.1, "steps": 4}, 10),
    ("warmup then cosine", {"kind": "warmup", "lr": 0.1, "steps": 5, "startLr": 0.01, "then": {"kind": "cosine", "lr": 0.1, "steps": 10, "minLr": 0.0}}, 16),
    ("warmup then step", {"kind": "warmup", "lr": 0.2, "steps": 4, "startLr": 0.02, "then": {"kind": "step", "lr": 0.2, "stepSize": 2, "gamma": 0.3}}, 14),
]


def schedule_lrs(spec, n):
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=spec["lr"] if "lr" in spec else spec["to"])
    sched = make_scheduler(opt, spec)
    lrs = []
    for _ in range(n):
        lrs.append(opt.param_groups[0]["lr"])
        opt.step()
        sched.step()
    return lrs


def clip_case(name, dtype, max_norm, norm_type, scale):
    grads = {k: torch.tensor(v * scale, dtype=DT[dtype]) for k, v in G[0].items()}
    ps = []
    for k in SHAPES:
        p = torch.zeros(SHAPES[k], dtype=DT[dtype], requires_grad=True)
        p.grad = grads[k].clone()
        ps.append(p)
    norm = torch.nn.utils.clip_grad_norm_(ps, max_norm, norm_type=norm_type)
    return {"name": name, "dtype": dtype, "maxNorm": max_norm, "normType": "inf" if norm_type == math.inf else norm_type,
            "grads": {k: enc(grads[k]) for k in SHAPES}, "norm": float(norm),
            "clipped": {k: enc(p.grad)["data"] for k, p in zip(SHAPES, ps)}}


def main():
    torch.set_num_threads(1)
    out = {
        "torch": torch.__version__,
        "steps": STEPS,
        "params0": {dt: {k: enc(v) for k, v in torch_tree(P0, dt).items()} for dt in DT},
        "grads": {dt: [{k: enc(v) for k, v in torch_tree(g, dt).items()} for g in G] for dt in DT},
        "cases": [run_case(n, k, o, dt, s, c) for dt in DT for (n, k, o, s, c) in CASES],
        "schedules": [{"name": n, "spec": s, "lrs": schedule_lrs(s, m)} for (n, s, m) in SCHEDULES],
        "clip": [clip_case("clips, 2-norm", "float64", 1.0, 2.0, 1.0),
                 clip_case("below the max, 2-norm", "float64", 100.0, 2.0, 1.0),
                 clip_case("clips, inf-norm", "float64", 0.5, math.inf, 1.0),
                 clip_case("clips, 2-norm, float32", "float32", 1.0, 2.0, 3.0)],
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "optim.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    print(f"wrote {path}: {len(out['cases'])} optimizer cases, {len(out['schedules'])} schedules, {len(out['clip'])} clip cases")


if __name__ == "__main__":
    main()
