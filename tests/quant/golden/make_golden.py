# Golden values for tests/quant: PyTorch 1.13's quantize_per_tensor,
# quantize_per_channel and fake_quantize_* (values and gradients), and
# NumPy's percentile. Run with Debian's python3 (torch 1.13, NumPy 1.24):
#   /usr/bin/python3 tests/quant/golden/make_golden.py
# Scales follow quant.quantize's formulas, computed here in float32 with NumPy
# (symmetric: max|x| / qmax; asymmetric: (max(x,0) - min(x,0)) / (2^bits - 1),
# z = clamp(qmin - round(min(x,0) / scale))); the codes and gradients are
# PyTorch's.
import json, os
import numpy as np
import torch

rng = np.random.default_rng(18)
f32 = np.float32
out = {"torch": torch.__version__, "numpy": np.__version__}

def sym_scale(amax, qmax):
    return np.maximum(f32(amax) / f32(qmax), f32(2.0 ** -126)).astype(f32)

def asym_params(lo, hi, qmin, qmax):
    lo = np.minimum(f32(lo), f32(0)).astype(f32)
    hi = np.maximum(f32(hi), f32(0)).astype(f32)
    scale = np.maximum((hi - lo) / f32(qmax - qmin), f32(2.0 ** -126)).astype(f32)
    zp = np.clip(qmin - np.round(lo / scale), qmin, qmax).astype(np.int64)
    return scale, zp

def codes_fq(x, scale, zp, axis, qmin, qmax):
    """Codes from torch.fake_quantize_*: round(fq / scale) + zp (fq is (code - zp) * scale)."""
    xt = torch.tensor(x)
    if axis is None:
        fq = torch.fake_quantize_per_tensor_affine(xt, float(scale), int(zp), qmin, qmax).numpy()
        return (np.round(fq / scale) + zp).astype(np.int64)
    st, zt = torch.tensor(scale, dtype=torch.float32), torch.tensor(zp, dtype=torch.int32)
    fq = torch.fake_quantize_per_channel_affine(xt, st, zt, axis, qmin, qmax).numpy()
    shp = [1] * x.ndim; shp[axis] = -1
    return (np.round(fq / scale.reshape(shp)) + zp.reshape(shp)).astype(np.int64)

# 1. per tensor, symmetric int8: random values plus exact ties (scale 2^-4: max|x| = 127/16)
x = rng.normal(size=(6, 10)).astype(f32)
ties = (np.arange(-8, 8) + 0.5).astype(f32) / f32(16)
x_t = np.concatenate([x.ravel(), ties, [f32(127 / 16), f32(-127 / 16)]]).astype(f32)
cases = []
for name, xx in [("random", x.ravel()), ("ties", x_t)]:
    s = sym_scale(np.abs(xx).max(), 127)
    q = torch.quantize_per_tensor(torch.tensor(xx), float(s), 0, torch.qint8).int_repr().numpy()
    cases.append({"name": name, "x": xx.tolist(), "scale": float(s), "codes": q.astype(int).tolist()})
out["perTensorSym8"] = cases

# 2. per channel (axis 1 of [5, 4, 3]), symmetric int8
x = (rng.normal(size=(5, 4, 3)) * np.array([0.01, 1, 100, 3])[None, :, None]).astype(f32)
s = sym_scale(np.abs(x).max(axis=(0, 2)), 127)
q = torch.quantize_per_channel(torch.tensor(x), torch.tensor(s, dtype=torch.float64), torch.zeros(4, dtype=torch.int64), 1, torch.qint8).int_repr().numpy()
out["perChannelSym8"] = {"x": x.ravel().tolist(), "shape": list(x.shape), "axis": 1, "scales": s.tolist(), "codes": q.ravel().astype(int).tolist()}

# 3. per tensor, asymmetric int8 (quantize_per_tensor with our zero point)
x = (rng.normal(size=(7, 9)) + 1.5).astype(f32)
s, z = asym_params(x.min(), x.max(), -128, 127)
q = torch.quantize_per_tensor(torch.tensor(x), float(s), int(z), torch.qint8).int_repr().numpy()
mine = np.clip(np.round(x * (f32(1) / s)) + z, -128, 127)
assert (mine == q).all(), "rounding order: FMA vs round-then-add differ on these values"
out["perTensorAsym8"] = {"x": x.ravel().tolist(), "shape": list(x.shape), "scale": float(s), "zeroPoint": int(z), "codes": q.ravel().astype(int).tolist()}

# 4. per block of 8 along the last axis, 4 bit, symmetric and asymmetric (torch's per-channel fake quant over [rows*groups, 8])
x = rng.normal(size=(3, 32)).astype(f32)
xg = x.reshape(-1, 8)
s = sym_scale(np.abs(xg).max(axis=1), 7)
c_sym = codes_fq(xg, s, np.zeros(len(s), dtype=np.int64), 0, -7, 7)
sa, za = asym_params(xg.min(axis=1), xg.max(axis=1), -8, 7)
c_asym = codes_fq(xg, sa, za, 0, -8, 7)
out["perBlock4"] = {"x": x.ravel().tolist(), "shape": list(x.shape), "groupSize": 8,
                    "sym": {"scales": s.tolist(), "codes": c_sym.ravel().astype(int).tolist()},
                    "asym": {"scales": sa.tolist(), "zeroPoints": za.astype(int).tolist(), "codes": c_asym.ravel().astype(int).tolist()}}

# 5. fake quant with a given scale: values and gradients (PyTorch's clip mask)
fq = []
x = np.concatenate([rng.normal(size=40) * 2, (np.arange(-10, 10) + 0.5) * 0.25]).astype(f32)
for bits, sym, scale, zp in [(8, True, 0.0125, 0), (4, True, 0.25, 0), (8, False, 0.02, -20), (4, False, 0.3, 3)]:
    qmin, qmax = (-(2 ** (bits - 1)) + 1, 2 ** (bits - 1) - 1) if sym else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    xt = torch.tensor(x, requires_grad=True)
    y = torch.fake_quantize_per_tensor_affine(xt, float(f32(scale)), zp, qmin, qmax)
    y.sum().backward()
    fq.append({"bits": bits, "symmetric": sym, "scale": float(f32(scale)), "zeroPoint": zp, "x": x.tolist(), "y": y.detach().numpy().tolist(), "grad": xt.grad.numpy().tolist()})
out["fakeQuantPerTensor"] = fq

# 6. fake quant per channel (axis 0 of [4, 12]), min-max scales from x, 8-bit symmetric: values and gradients (all 1: nothing clips)
x = (rng.normal(size=(4, 12)) * np.array([0.1, 1, 10, 0.001])[:, None]).astype(f32)
s = sym_scale(np.abs(x).max(axis=1), 127)
xt = torch.tensor(x, requires_grad=True)
y = torch.fake_quantize_per_channel_affine(xt, torch.tensor(s), torch.zeros(4, dtype=torch.int32), 0, -127, 127)
(y * torch.arange(48, dtype=torch.float32).reshape(4, 12)).sum().backward()
out["fakeQuantPerChannel"] = {"x": x.ravel().tolist(), "shape": list(x.shape), "scales": s.tolist(), "y": y.detach().numpy().ravel().tolist(), "grad": xt.grad.numpy().ravel().tolist()}

# 7. NumPy's percentile (linear interpolation) of |x| over two calibration batches
x1 = rng.standard_t(3, size=(50, 6)).astype(f32)
x2 = rng.standard_t(3, size=(30, 6)).astype(f32)
allv = np.abs(np.concatenate([x1.ravel(), x2.ravel()]))
out["percentile"] = {"x1": x1.ravel().tolist(), "x2": x2.ravel().tolist(), "inFeatures": 6,
                     "p": {str(p): float(np.percentile(allv, p)) for p in [50, 99, 99.9, 100]}}

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "quant.json"), "w") as f:
    json.dump(out, f)
print("wrote quant.json")
