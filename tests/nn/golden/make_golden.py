#!/usr/bin/env python3
"""Golden forward and backward values of torch.nn layers and functionals
(PyTorch 1.13) for rlx's nn namespace.

Each case builds one layer (or calls one functional) with fixed, seeded
parameters and inputs, runs it forward, then backward with a fixed random
cotangent per output, and records what torch computes. tests/nn/parity.test.ts
loads each layer's state dict into the rlx layer (loadStateDict, strict),
replays the same inputs and cotangents through forward and vjp, and compares
(float64 1e-12 relative to the largest reference magnitude, 1e-10 for the long
op chains of attention; float32 1e-5).

torch 1.13 has no RMSNorm and no F.scaled_dot_product_attention (both PyTorch
2.x): their references are written out here as PyTorch 2 defines them, in
torch ops, and differentiated by torch's autograd.

Regenerate (deterministic; needs PyTorch 1.13, Debian's python3-torch):

    /usr/bin/python3 tests/nn/golden/make_golden.py

Layout of nn.json:
  torch: version
  cases: [{
    name, dtype ('float64' | 'float32'), tol (relative),
    module: {layer, args, options} | null   rlx's layer name and constructor arguments (rlx option names)
    fn: name | null                          an nn.functional name (with options) when module is null
    options: {...}                           the functional's or forward's options (rlx names)
    train: bool                              module mode (false: eval)
    state: {key: rec}                        the layer's state_dict()
    inputs: {name: rec}                      forward / functional arguments by name
    gradInputs: [name]                       inputs whose gradients are recorded
    outputs: [rec | null]                    forward's outputs (MHA: output, weights)
    cotangents: [rec | null]                 one per output
    grads: {inputs: {name: rec}, state: {key: rec}}
  }]
  rec = {dtype, shape, data} with data flat, row-major (float32 values as the shortest decimals that round to them).
"""
import json
import math
import os

import numpy as np
import torch
import torch.nn as tnn
import torch.nn.functional as F

torch.manual_seed(1234)
GEN = torch.Generator().manual_seed(20240601)


def rand(*shape, dtype=torch.float64, scale=1.0):
    return (torch.randn(tuple(shape), generator=GEN, dtype=torch.float64) * scale).to(dtype)


def rec(t):
    if t is None:
        return None
    t = t.detach()
    if t.dtype == torch.bool:
        dt, data = "bool", [bool(v) for v in t.flatten().tolist()]
    elif t.dtype in (torch.int64, torch.int32):
        dt, data = "int32", [int(v) for v in t.flatten().tolist()]
    else:
        dt = {torch.float64: "float64", torch.float32: "float32"}[t.dtype]
        data = [float(v) for v in t.flatten().tolist()]
        if dt == "float32":
            # The shortest decimal that rounds back to the same float32 (about half the characters of the exact double).
            data = [float(repr(np.float32(v))) for v in data]
    return {"dtype": dt, "shape": list(t.shape), "data": data}


TDT = {"float64": torch.float64, "float32": torch.float32}
CASES = []


def record(name, dtype, tol, run, inputs, grad_inputs, module=None, spec=None, fn=None, options=None, train=False):
    """Runs `run(inputs)` -> tuple of outputs, backward with random cotangents, appends the case."""
    inputs = {k: (v.clone().requires_grad_(k in grad_inputs) if isinstance(v, torch.Tensor) else v) for k, v in inputs.items()}
    outs = run(inputs)
    if not isinstance(outs, tuple):
        outs = (outs,)
    cts = [None if o is None else rand(*o.shape, dtype=o.dtype) for o in outs]
    params = list(module.named_parameters()) if module is not None else []
    wrt = [inputs[k] for k in grad_inputs] + [p for _, p in params]
    pairs = [(o, c) for o, c in zip(outs, cts) if o is not None]
    gs = torch.autograd.grad([o for o, _ in pairs], wrt, [c for _, c in pairs], allow_unused=True)
    gs = [torch.zeros_like(w) if g is None else g for g, w in zip(gs, wrt)]
    CASES.append({
        "name": name, "dtype": dtype, "tol": tol,
        "module": spec, "fn": fn, "options": options or {}, "train": train,
        "state": {k: rec(v) for k, v in module.state_dict().items()} if module is not None else {},
        "inputs": {k: rec(v) for k, v in inputs.items()},
        "gradInputs": list(grad_inputs),
        "outputs": [rec(o) for o in outs],
        "cotangents": [rec(c) for c in cts],
        "grads": {
            "inputs": {k: rec(g) for k, g in zip(grad_inputs, gs[: len(grad_inputs)])},
            "state": {k: rec(g) for (k, _), g in zip(params, gs[len(grad_inputs):])},
        },
    })


def randomize(m, dtype):
    """Every parameter to seeded random values (weights ~ N(0, 0.5²); norm weights around 1), then the dtype."""
    with torch.no_grad():
        for k, p in m.named_parameters():
            v = rand(*p.shape, scale=0.5)
            if "norm" in k and k.endswith("weight") or k == "weight" and isinstance(m, (tnn.LayerNorm,)):
                v = 1 + v * 0.2
            p.copy_(v)
    return m.to(TDT[dtype])


def module_case(name, dtype, tol, m, spec, inputs, grad_inputs, forward, options=None, train=False):
    m = randomize(m, dtype)
    m.train(train)
    inputs = {k: (v.to(TDT[dtype]) if isinstance(v, torch.Tensor) and v.is_floating_point() else v) for k, v in inputs.items()}
    record(name, dtype, tol, lambda i: forward(m, i), inputs, grad_inputs, module=m, spec=spec, options=options, train=train)


# ---- Linear ------------------------------------------------------------------
for dt, tol in (("float64", 1e-12), ("float32", 1e-5)):
    module_case(f"Linear/bias/{dt}", dt, tol, tnn.Linear(5, 3), {"layer": "Linear", "args": [5, 3], "options": {}},
                {"x": rand(2, 4, 5)}, ["x"], lambda m, i: m(i["x"]))
module_case("Linear/nobias/float64", "float64", 1e-12, tnn.Linear(5, 3, bias=False), {"layer": "Linear", "args": [5, 3], "options": {"bias": False}},
            {"x": rand(3, 5)}, ["x"], lambda m, i: m(i["x"]))

# ---- Conv2d ------------------------------------------------------------------
CONV = [
    ("basic", (3, 4, 3), {}, (2, 3, 7, 7)),
    ("stride-padding", (2, 4, (3, 2)), {"stride": (2, 1), "padding": (1, 2)}, (2, 2, 8, 7)),
    ("dilation-nobias", (2, 3, 3), {"dilation": 2, "padding": 2, "bias": False}, (1, 2, 9, 9)),
    ("groups", (4, 6, 3), {"groups": 2, "stride": 2, "padding": 1}, (2, 4, 7, 6)),
    ("depthwise", (3, 6, 2), {"groups": 3}, (1, 3, 5, 5)),
    ("same-even-kernel", (2, 2, (4, 3)), {"padding": "same", "dilation": (1, 2)}, (1, 2, 6, 7)),
    ("unbatched", (2, 3, 2), {"stride": (1, 2)}, (2, 5, 6)),
]
for label, args, opts, xs in CONV:
    for dt, tol in (("float64", 1e-12),) + ((("float32", 1e-5),) if label in ("basic", "groups") else ()):
        rl = {k: (list(v) if isinstance(v, tuple) else v) for k, v in opts.items()}
        a = [list(x) if isinstance(x, tuple) else x for x in args]
        module_case(f"Conv2d/{label}/{dt}", dt, tol, tnn.Conv2d(*args, **opts), {"layer": "Conv2d", "args": a, "options": rl},
                    {"x": rand(*xs)}, ["x"], lambda m, i: m(i["x"]))

# ---- LayerNorm ---------------------------------------------------------------
for dt, tol in (("float64", 1e-12), ("float32", 1e-5)):
    module_case(f"LayerNorm/last/{dt}", dt, tol, tnn.LayerNorm(6), {"layer": "LayerNorm", "args": [6], "options": {}},
                {"x": rand(2, 3, 6, scale=2) + 1}, ["x"], lambda m, i: m(i["x"]))
module_case("LayerNorm/two-dims-eps/float64", "float64", 1e-12, tnn.LayerNorm([3, 4], eps=1e-3), {"layer": "LayerNorm", "args": [[3, 4]], "options": {"eps": 1e-3}},
            {"x": rand(2, 3, 4)}, ["x"], lambda m, i: m(i["x"]))
module_case("LayerNorm/no-affine/float64", "float64", 1e-12, tnn.LayerNorm(5, elementwise_affine=False), {"layer": "LayerNorm", "args": [5], "options": {"elementwiseAffine": False}},
            {"x": rand(4, 5)}, ["x"], lambda m, i: m(i["x"]))


# ---- RMSNorm (PyTorch 2's definition, written out) ----------------------------
class RMSNorm(tnn.Module):
    def __init__(self, shape, eps=None, affine=True):
        super().__init__()
        self.shape = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
        self.eps = eps
        self.weight = tnn.Parameter(torch.ones(self.shape)) if affine else None

    def forward(self, x):
        dims = tuple(range(-len(self.shape), 0))
        eps = torch.finfo(x.dtype).eps if self.eps is None else self.eps
        y = x * torch.rsqrt(x.pow(2).mean(dims, keepdim=True) + eps)
        return y * self.weight if self.weight is not None else y


for dt, tol in (("float64", 1e-12), ("float32", 1e-5)):
    module_case(f"RMSNorm/default-eps/{dt}", dt, tol, RMSNorm(6), {"layer": "RMSNorm", "args": [6], "options": {}},
                {"x": rand(2, 3, 6)}, ["x"], lambda m, i: m(i["x"]))
module_case("RMSNorm/two-dims-eps/float64", "float64", 1e-12, RMSNorm([3, 4], eps=1e-6), {"layer": "RMSNorm", "args": [[3, 4]], "options": {"eps": 1e-6}},
            {"x": rand(2, 3, 4)}, ["x"], lambda m, i: m(i["x"]))
module_case("RMSNorm/no-affine/float64", "float64", 1e-12, RMSNorm(5, eps=1e-5, affine=False), {"layer": "RMSNorm", "args": [5], "options": {"eps": 1e-5, "elementwiseAffine": False}},
            {"x": rand(4, 5)}, ["x"], lambda m, i: m(i["x"]))

# ---- Embedding ---------------------------------------------------------------
IDX = torch.tensor([[0, 3, 6, 3], [1, 1, 5, 2]])
module_case("Embedding/plain/float64", "float64", 1e-12, tnn.Embedding(7, 4), {"layer": "Embedding", "args": [7, 4], "options": {}},
            {"indices": IDX}, [], lambda m, i: m(i["indices"]))
module_case("Embedding/padding-idx/float32", "float32", 1e-5, tnn.Embedding(7, 4, padding_idx=1), {"layer": "Embedding", "args": [7, 4], "options": {"paddingIdx": 1}},
            {"indices": IDX}, [], lambda m, i: m(i["indices"]))


# ---- MultiheadAttention ------------------------------------------------------
def mha_forward(opts):
    def fwd(m, i):
        return m(i["query"], i["key"], i["value"], attn_mask=i.get("attnMask"), key_padding_mask=i.get("keyPaddingMask"),
                 need_weights=opts.get("needWeights", True), average_attn_weights=opts.get("averageAttnWeights", True))
    return fwd


E, H, L, S, N = 8, 2, 4, 5, 2
causal_bool = torch.triu(torch.ones(L, S, dtype=torch.bool), diagonal=1)  # True = not allowed (MHA convention)
kpm = torch.zeros(N, S, dtype=torch.bool)
kpm[1, -2:] = True
MHA = [
    ("seq-first", {}, {}, lambda: {"query": rand(L, N, E), "key": rand(S, N, E), "value": rand(S, N, E)}, ("float64", "float32")),
    ("batch-first-masks", {"batch_first": True}, {}, lambda: {"query": rand(N, L, E), "key": rand(N, S, E), "value": rand(N, S, E), "attnMask": causal_bool, "keyPaddingMask": kpm}, ("float64", "float32")),
    ("kpm-per-head-weights", {}, {"averageAttnWeights": False}, lambda: {"query": rand(L, N, E), "key": rand(S, N, E), "value": rand(S, N, E), "keyPaddingMask": kpm}, ("float64",)),
    ("nobias-float-mask", {"bias": False}, {}, lambda: {"query": rand(L, N, E), "key": rand(S, N, E), "value": rand(S, N, E), "attnMask": rand(N * H, L, S)}, ("float64",)),
    ("self-no-weights", {"batch_first": True}, {"needWeights": False}, None, ("float64",)),
    ("unbatched", {}, {}, lambda: {"query": rand(L, E), "key": rand(S, E), "value": rand(S, E)}, ("float64",)),
]
for label, targs, fopts, make, dts in MHA:
    for dt in dts:
        tol = 1e-10 if dt == "float64" else 1e-5
        ropts = {{"batch_first": "batchFirst"}.get(k, k): v for k, v in targs.items()}
        if make is None:
            x = rand(N, L, E)
            inputs, gi = {"x": x}, ["x"]
            fwd = lambda m, i, f=fopts: mha_forward(f)(m, {"query": i["x"], "key": i["x"], "value": i["x"]})
        else:
            inputs = make()
            gi = ["query", "key", "value"]
            fwd = mha_forward(fopts)
        module_case(f"MultiheadAttention/{label}/{dt}", dt, tol, tnn.MultiheadAttention(E, H, **targs), {"layer": "MultiheadAttention", "args": [E, H], "options": ropts},
                    inputs, gi, fwd, options=fopts)

# ---- TransformerEncoderLayer (eval: dropout off) --------------------------------
TEL = [
    ("relu-post-seq", {"activation": "relu"}, False, ("float64", "float32")),
    ("gelu-pre-batch", {"activation": "gelu", "norm_first": True, "batch_first": True}, False, ("float64", "float32")),
    ("relu-pre-seq-masks", {"activation": "relu", "norm_first": True}, True, ("float64",)),
    ("gelu-post-batch-masks", {"activation": "gelu", "batch_first": True}, True, ("float64",)),
]
for label, targs, masks, dts in TEL:
    for dt in dts:
        tol = 1e-10 if dt == "float64" else 1e-5
        bf = targs.get("batch_first", False)
        inputs = {"src": rand(N, L, E) if bf else rand(L, N, E)}
        if masks:
            inputs["srcMask"] = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)
            k = torch.zeros(N, L, dtype=torch.bool)
            k[0, -1] = True
            inputs["srcKeyPaddingMask"] = k
        ropts = {{"batch_first": "batchFirst", "norm_first": "normFirst"}.get(k, k): v for k, v in targs.items()}
        ropts.update({"dimFeedforward": 16, "dropout": 0.1})
        module_case(f"TransformerEncoderLayer/{label}/{dt}", dt, tol,
                    tnn.TransformerEncoderLayer(E, H, dim_feedforward=16, dropout=0.1, **targs),
                    {"layer": "TransformerEncoderLayer", "args": [E, H], "options": ropts},
                    inputs, ["src"], lambda m, i: m(i["src"], src_mask=i.get("srcMask"), src_key_padding_mask=i.get("srcKeyPaddingMask")))

# ---- Sequential and the activation modules --------------------------------------
module_case("Sequential/mlp/float64", "float64", 1e-12, tnn.Sequential(tnn.Linear(4, 6), tnn.ReLU(), tnn.Linear(6, 3), tnn.Tanh()),
            {"layer": "Sequential", "args": [["Linear", [4, 6]], ["ReLU", []], ["Linear", [6, 3]], ["Tanh", []]], "options": {}},
            {"x": rand(5, 4)}, ["x"], lambda m, i: m(i["x"]))
ACTS = [("ReLU", tnn.ReLU(), {}), ("GELU", tnn.GELU(), {}), ("GELU-tanh", tnn.GELU(approximate="tanh"), {"approximate": "tanh"}),
        ("SiLU", tnn.SiLU(), {}), ("Tanh", tnn.Tanh(), {}), ("Sigmoid", tnn.Sigmoid(), {})]
for label, m, o in ACTS:
    for dt, tol in (("float64", 1e-12), ("float32", 1e-5)):
        args = [o] if o else []
        module_case(f"{label}/module/{dt}", dt, tol, m, {"layer": label.split("-")[0], "args": args, "options": {}},
                    {"x": rand(3, 4, scale=2)}, ["x"], lambda mm, i: mm(i["x"]))


# ---- functionals ---------------------------------------------------------------
def fn_case(name, fn, dtype, tol, inputs, grad_inputs, run, options=None):
    inputs = {k: (v.to(TDT[dtype]) if isinstance(v, torch.Tensor) and v.is_floating_point() else v) for k, v in inputs.items()}
    record(name, dtype, tol, run, inputs, grad_inputs, fn=fn, options=options)


for dt, tol in (("float64", 1e-12), ("float32", 1e-5)):
    x = {"x": rand(3, 5, scale=2)}
    fn_case(f"functional/relu/{dt}", "relu", dt, tol, x, ["x"], lambda i: F.relu(i["x"]))
    fn_case(f"functional/gelu/{dt}", "gelu", dt, tol, x, ["x"], lambda i: F.gelu(i["x"]))
    fn_case(f"functional/gelu-tanh/{dt}", "gelu", dt, tol, x, ["x"], lambda i: F.gelu(i["x"], approximate="tanh"), {"approximate": "tanh"})
    fn_case(f"functional/silu/{dt}", "silu", dt, tol, x, ["x"], lambda i: F.silu(i["x"]))
    fn_case(f"functional/softmax/{dt}", "softmax", dt, tol, x, ["x"], lambda i: F.softmax(i["x"], dim=-1))
    fn_case(f"functional/softmax-axis0/{dt}", "softmax", dt, tol, x, ["x"], lambda i: F.softmax(i["x"], dim=0), {"axis": 0})
    fn_case(f"functional/logSoftmax/{dt}", "logSoftmax", dt, tol, {"x": rand(2, 4, 3, scale=3)}, ["x"], lambda i: F.log_softmax(i["x"], dim=1), {"axis": 1})

# crossEntropy
NC, C = 6, 4
logits = rand(NC, C, scale=2)
tgt = torch.tensor([0, 3, 1, 1, 2, 3])
tgt_ign = torch.tensor([0, -100, 1, 2, -100, 3])
tgt_ign2 = torch.tensor([0, 2, 1, 2, 3, 3])
probs = torch.softmax(rand(NC, C), dim=1)
wts = torch.rand(C, generator=GEN, dtype=torch.float64) + 0.5
CE = [
    ("indices-mean", {"input": logits, "target": tgt}, {}, ("float64", "float32")),
    ("indices-sum", {"input": logits, "target": tgt}, {"reduction": "sum"}, ("float64",)),
    ("indices-none", {"input": logits, "target": tgt}, {"reduction": "none"}, ("float64",)),
    ("probabilities", {"input": logits, "target": probs}, {}, ("float64", "float32")),
    ("probabilities-smoothing-weight", {"input": logits, "target": probs, "weight": wts}, {"labelSmoothing": 0.2}, ("float64",)),
    ("probabilities-weight-none", {"input": logits, "target": probs, "weight": wts}, {"reduction": "none"}, ("float64",)),
    ("label-smoothing", {"input": logits, "target": tgt}, {"labelSmoothing": 0.1}, ("float64", "float32")),
    ("ignore-index-default", {"input": logits, "target": tgt_ign}, {}, ("float64",)),
    ("ignore-index-in-range", {"input": logits, "target": tgt_ign2}, {"ignoreIndex": 2}, ("float64",)),
    ("weight", {"input": logits, "target": tgt, "weight": wts}, {}, ("float64", "float32")),
    ("weight-smoothing-ignore", {"input": logits, "target": tgt_ign, "weight": wts}, {"labelSmoothing": 0.3}, ("float64",)),
    ("weight-smoothing-ignore-sum", {"input": logits, "target": tgt_ign, "weight": wts}, {"labelSmoothing": 0.3, "reduction": "sum"}, ("float64",)),
    ("weight-smoothing-ignore-none", {"input": logits, "target": tgt_ign, "weight": wts}, {"labelSmoothing": 0.3, "reduction": "none"}, ("float64",)),
    ("spatial", {"input": rand(2, 3, 4), "target": torch.tensor([[0, 1, 2, 2], [1, 1, 0, 2]])}, {"labelSmoothing": 0.05}, ("float64",)),
    ("unbatched", {"input": rand(5), "target": torch.tensor(3)}, {}, ("float64",)),
]
TORCH_CE = {"reduction": "reduction", "labelSmoothing": "label_smoothing", "ignoreIndex": "ignore_index"}
for label, inp, opts, dts in CE:
    for dt in dts:
        # torch's nll_loss has no gradient for the class weights: they are recorded only with probability targets.
        gi = [k for k, v in inp.items() if v.is_floating_point() and (k != "weight" or inp["target"].is_floating_point())]
        topts = {TORCH_CE[k]: v for k, v in opts.items()}
        fn_case(f"functional/crossEntropy/{label}/{dt}", "crossEntropy", dt, 1e-12 if dt == "float64" else 1e-5, inp, gi,
                lambda i, t=topts: F.cross_entropy(i["input"], i["target"], weight=i.get("weight"), **t), opts)

# mseLoss
for red in ("mean", "sum", "none"):
    fn_case(f"functional/mseLoss/{red}/float64", "mseLoss", "float64", 1e-12, {"input": rand(3, 4), "target": rand(3, 4)}, ["input", "target"],
            lambda i, r=red: F.mse_loss(i["input"], i["target"], reduction=r), {"reduction": red})


# scaledDotProductAttention (PyTorch 2's math reference, written out: bool mask true = attend)
def sdpa(q, k, v, mask=None, causal=False, scale=None):
    s = (q @ k.transpose(-2, -1)) * (1 / math.sqrt(q.shape[-1]) if scale is None else scale)
    if causal:
        Lq, Sk = q.shape[-2], k.shape[-2]
        s = s.masked_fill(~torch.ones(Lq, Sk, dtype=torch.bool).tril(), float("-inf"))
    if mask is not None:
        s = s.masked_fill(~mask, float("-inf")) if mask.dtype == torch.bool else s + mask
    return torch.softmax(s, dim=-1) @ v


qkv = lambda: {"q": rand(2, 2, 3, 4), "k": rand(2, 2, 5, 4), "v": rand(2, 2, 5, 3)}
bool_mask = torch.rand(3, 5, generator=GEN) > 0.3
bool_mask[:, 0] = True  # every query attends somewhere
SDPA = [
    ("none", qkv(), {}, {}),
    ("causal", qkv(), {"mask": "causal"}, {"causal": True}),
    ("bool-mask", {**qkv(), "mask": bool_mask}, {}, {}),
    ("float-mask-scale", {**qkv(), "mask": rand(2, 1, 3, 5)}, {"scale": 0.3}, {"scale": 0.3}),
]
for label, inp, opts, targs in SDPA:
    for dt in (("float64", "float32") if label in ("none", "causal") else ("float64",)):
        fn_case(f"functional/scaledDotProductAttention/{label}/{dt}", "scaledDotProductAttention", dt, 1e-12 if dt == "float64" else 1e-5, inp, ["q", "k", "v"],
                lambda i, t=targs: sdpa(i["q"], i["k"], i["v"], mask=i.get("mask"), **t), opts)

# linear, layerNorm, rmsNorm, embedding
fn_case("functional/linear/float64", "linear", "float64", 1e-12, {"x": rand(2, 3, 4), "weight": rand(5, 4), "bias": rand(5)}, ["x", "weight", "bias"],
        lambda i: F.linear(i["x"], i["weight"], i["bias"]))
fn_case("functional/layerNorm/float64", "layerNorm", "float64", 1e-12, {"x": rand(2, 3, 4), "weight": 1 + rand(3, 4, scale=0.2), "bias": rand(3, 4)}, ["x", "weight", "bias"],
        lambda i: F.layer_norm(i["x"], [3, 4], i["weight"], i["bias"], eps=1e-4), {"normalizedShape": [3, 4], "eps": 1e-4})
fn_case("functional/rmsNorm/float64", "rmsNorm", "float64", 1e-12, {"x": rand(2, 3, 4), "weight": 1 + rand(4, scale=0.2)}, ["x", "weight"],
        lambda i: RMSNorm.forward(type("R", (), {"shape": (4,), "eps": None, "weight": i["weight"]})(), i["x"]), {"normalizedShape": [4]})
fn_case("functional/embedding/float64", "embedding", "float64", 1e-12, {"indices": IDX, "weight": rand(7, 3)}, ["weight"],
        lambda i: F.embedding(i["indices"], i["weight"]))

out = {"torch": torch.__version__, "cases": CASES}
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nn.json")
with open(path, "w") as f:
    json.dump(out, f, separators=(",", ":"))
print(f"wrote {len(CASES)} cases to {path} ({os.path.getsize(path) // 1024} KiB)")
