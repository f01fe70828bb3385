"""NumPy twins of benchmarks/suites/physics.mjs: the examples' algorithms
written with the same operations in the same order, in float64.

navier_stokes: examples/navier-stokes.mjs (spectral(), vorticityRhs()) and
integrate.rk4's step (src/integrate/rk4.ts): pseudo-spectral vorticity form
with numpy.fft.rfft2/irfft2 (pocketfft, one thread), the 2/3 rule, classical RK4.
"""

import math
import time

import _bench


def _initial_vorticity(N, seed):
    """Same recipe as initialVorticity() in the suite: random phases on 1 <= |k| <= 4, amplitude 1/|k|."""
    np = _bench.np
    s = seed
    modes = []
    for a in range(-4, 5):
        for b in range(0, 5):
            kk = math.hypot(a, b)
            if 1 <= kk <= 4:
                s = (s * 16807) % 2147483647
                modes.append((a, b, 1 / kk, 2 * math.pi * (s / 2147483647)))
    x = (2 * math.pi * np.arange(N)) / N
    X, Y = x.reshape(N, 1), x.reshape(1, N)
    w = np.zeros((N, N))
    for a, b, c, ph in modes:
        w = w + c * np.cos(a * X + b * Y + ph)
    return w


def _vorticity_rhs(N, nu):
    """examples/navier-stokes.mjs: spectral(N) and vorticityRhs(N, nu), op for op."""
    np = _bench.np
    fft = np.fft
    kx = fft.fftfreq(N, 1 / N).reshape(N, 1)
    ky = fft.rfftfreq(N, 1 / N).reshape(1, N // 2 + 1)
    k2 = kx * kx + ky * ky
    with np.errstate(divide="ignore"):
        invK2 = np.where(k2 > 0, 1 / k2, 0.0)
    ikx, iky = 1j * kx, 1j * ky
    cut = (2 / 3) * (N / 2)
    mask = np.where((np.abs(kx) < cut) & (np.abs(ky) < cut), 1.0, 0.0)

    def to_grid(h):
        return fft.irfft2(h, s=(N, N))

    def rhs(w):
        wh = fft.rfft2(w)
        psi = wh * invK2
        u, v = to_grid(psi * iky), to_grid(-(psi * ikx))
        wx, wy = to_grid(wh * ikx), to_grid(wh * iky)
        adv = fft.rfft2(u * wx + v * wy) * mask
        return to_grid(-adv - wh * k2 * nu)

    return rhs


def case_navier_stokes(args):
    np = _bench.np
    N, nu, h, steps = args["N"], args["nu"], args["dt"], args["steps"]
    f = _vorticity_rhs(N, nu)
    w0 = _initial_vorticity(N, args["seed"])
    times = []

    def fn():
        t0 = time.perf_counter()
        v = w0
        for _ in range(steps):  # integrate.rk4's step, same combination order
            k1 = f(v)
            k2 = f(v + k1 * (h / 2))
            k3 = f(v + k2 * (h / 2))
            k4 = f(v + k3 * h)
            v = v + (k1 + (k2 + k3) * 2 + k4) * (h / 6)
        times.append(time.perf_counter() - t0)
        return v

    box = {}

    def post(v):
        box["v"] = v
        return v

    def info():
        per_step = sorted(times[-5:])[len(times[-5:]) // 2] / steps * 1e3
        return {"ms/step": round(per_step, 2), "steps/s": round(1000 / per_step, 1), "enstrophy": float("%.12g" % (np.mean(box["v"] ** 2) / 2))}

    return fn, post, info


_bench.main({"navier_stokes": case_navier_stokes})
