#!/usr/bin/python3
"""Golden SSIM values for tests/splat/ssim.test.ts, written straight from the formula.

Regenerate (deterministic; NumPy 1.24, SciPy 1.10 -- the system ones):

    /usr/bin/python3 tests/splat/golden/ssim_gen.py

which rewrites tests/splat/golden/ssim.json next to this file.

The reference is the 3DGS training code's ssim (gaussian-splatting,
utils/loss_utils.py): a normalised 2-D Gaussian window w = g gᵀ with
g_k ∝ exp(-(k - size//2)² / 2σ²), each channel convolved with w with
zero padding of size//2 and 'same' output (torch conv2d, padding=size//2),
then

    SSIM = ((2 μa μb + C1)(2 σab + C2)) / ((μa² + μb² + C1)(σa² + σb² + C2)),
    σa² = w*(a²) - μa²,  σab = w*(ab) - μa μb,  C1 = (0.01 L)², C2 = (0.03 L)²,

averaged over pixels and channels. Here the convolution is the full 2-D one of
scipy.signal.convolve2d(mode='same', boundary='fill', fillvalue=0) -- not
separable passes, so it is independent of rlx's implementation -- and each
map is checked against scipy.ndimage.convolve(mode='constant', cval=0) too.

Inputs are stored in the JSON (float64, repr precision); each case holds
the images, the options and the expected mean SSIM; one case also holds the
full SSIM map.
"""

import json
import os

import numpy as np
from scipy import ndimage, signal


def window(size, sigma):
    k = np.arange(size, dtype=np.float64)
    g = np.exp(-((k - size // 2) ** 2) / (2.0 * sigma * sigma))
    g = g / g.sum()
    return np.outer(g, g)


def blur(img2d, w):
    a = signal.convolve2d(img2d, w, mode="same", boundary="fill", fillvalue=0.0)
    b = ndimage.convolve(img2d, w, mode="constant", cval=0.0)
    assert np.allclose(a, b, rtol=1e-13, atol=1e-15), "convolve2d and ndimage.convolve disagree"
    return a


def ssim_map(a, b, size=11, sigma=1.5, L=1.0):
    """a, b: [..., H, W, C] or [H, W] float64; returns the SSIM map of the same shape."""
    gray = a.ndim == 2
    if gray:
        a, b = a[..., None], b[..., None]
    w = window(size, sigma)
    c1, c2 = (0.01 * L) ** 2, (0.03 * L) ** 2
    out = np.empty_like(a)
    lead = a.shape[:-3]
    for idx in np.ndindex(*lead, a.shape[-1]):
        pre, c = idx[:-1], idx[-1]
        x = a[pre + (slice(None), slice(None), c)]
        y = b[pre + (slice(None), slice(None), c)]
        mx, my = blur(x, w), blur(y, w)
        sxx = blur(x * x, w) - mx * mx
        syy = blur(y * y, w) - my * my
        sxy = blur(x * y, w) - mx * my
        out[pre + (slice(None), slice(None), c)] = ((2 * mx * my + c1) * (2 * sxy + c2)) / (
            (mx * mx + my * my + c1) * (sxx + syy + c2)
        )
    return out[..., 0] if gray else out


def main():
    rng = np.random.default_rng(20240517)
    cases = []

    def add(name, a, b, opts, with_map=False):
        o = {"windowSize": 11, "sigma": 1.5, "dataRange": 1.0}
        o.update(opts)
        m = ssim_map(a, b, o["windowSize"], o["sigma"], o["dataRange"])
        case = {
            "name": name,
            "shape": list(a.shape),
            "a": a.ravel().tolist(),
            "b": b.ravel().tolist(),
            "options": opts,
            "ssim": float(m.mean()),
        }
        if with_map:
            case["map"] = m.ravel().tolist()
        cases.append(case)

    # RGB, b a noisy and dimmed copy of a: SSIM well inside (0, 1).
    a = rng.uniform(0, 1, (24, 20, 3))
    b = np.clip(0.8 * a + 0.1 + 0.1 * rng.normal(size=a.shape), 0, 1)
    add("rgb 24x20 noisy copy", a, b, {}, with_map=True)
    # Smooth structure + edge, so the window's weighting matters.
    i, j = np.meshgrid(np.arange(32), np.arange(28), indexing="ij")
    a = np.stack([0.5 + 0.4 * np.sin(0.3 * i + 0.2 * j), (i > 15).astype(float) * 0.8 + 0.1, 0.5 + 0.3 * np.cos(0.25 * j)], -1)
    b = np.roll(a, 1, axis=1) * 0.9 + 0.05
    add("rgb 32x28 shifted structure", a, b, {})
    # Gray [H, W], smaller than the window on one axis.
    a = rng.uniform(0, 1, (7, 15))
    b = rng.uniform(0, 1, (7, 15))
    add("gray 7x15 independent", a, b, {})
    # 8-bit range, L = 255.
    a = rng.uniform(0, 255, (16, 16, 1))
    b = np.clip(a + rng.normal(scale=20, size=a.shape), 0, 255)
    add("one channel 16x16, dataRange 255", a, b, {"dataRange": 255.0})
    # Another window.
    a = rng.uniform(0, 1, (12, 13, 2))
    b = 0.5 * a + 0.5 * rng.uniform(0, 1, a.shape)
    add("two channels 12x13, window 7, sigma 1", a, b, {"windowSize": 7, "sigma": 1.0})
    # Batch axis [2, H, W, 3].
    a = rng.uniform(0, 1, (2, 10, 9, 3))
    b = np.clip(a + 0.2 * rng.normal(size=a.shape), 0, 1)
    add("batch 2x10x9x3", a, b, {})

    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ssim.json")
    with open(path, "w") as f:
        f.write('{"generator": "tests/splat/golden/ssim_gen.py", "cases": [\n')
        f.write(",\n".join(json.dumps(c) for c in cases))
        f.write("\n]}\n")
    for c in cases:
        print(f'{c["name"]}: {c["ssim"]:.10f}')


if __name__ == "__main__":
    main()
