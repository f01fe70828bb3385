"""SciPy's side of benchmarks/probes/rk45-inside.mjs: solve_ivp RK45 on the
integrate suite's 1000-dim linear system (the same bits, peers/integrate.py),
with the time of every `A @ y` inside the solve summed, and the rest.

    /usr/bin/python3 benchmarks/probes/rk45-inside.py
"""

import time

import numpy as np
from scipy.integrate import solve_ivp

N, C, K, T1 = 1000, 0.1, 7, 20


def ramp(n, k=1):
    """benchmarks/lib/inputs.mjs's ramp() (peers/_bench.py's)."""
    i = np.arange(n, dtype=np.int64)
    return ((i * k) % 1009) / 1009.0 - 0.5


# peers/integrate.py's _linear_matrix: A = -(c I + (R - Rᵀ)/16), R = ramp(n², k) as n×n.
R = ramp(N * N, K).reshape(N, N)
A = (R - R.T) / 16
A[np.diag_indices(N)] += C
A = -A
y0 = ramp(N, 1)
spent = [0.0]


def f(_t, y):
    t0 = time.perf_counter()
    v = A @ y
    spent[0] += time.perf_counter() - t0
    return v


for _ in range(3):
    solve_ivp(f, (0, T1), y0, method="RK45")
REPS = 12
totals, gemv = [], []
for _ in range(REPS):
    spent[0] = 0.0
    t0 = time.perf_counter()
    r = solve_ivp(f, (0, T1), y0, method="RK45")
    totals.append(time.perf_counter() - t0)
    gemv.append(spent[0])
per_solve = sum(totals) / REPS * 1e3
per_gemv = sum(gemv) / REPS * 1e3
print(f"scipy: {per_solve:.1f} ms a solve (mean of {REPS}, after 3 warm-up solves), numpy {np.__version__}")
print(f"  A @ y: {r.nfev} calls a solve (every evaluation of f, nfev), mean {per_gemv / r.nfev * 1e3:.1f} µs, {per_gemv:.2f} ms a solve")
print(f"  the rest (solve_ivp's Python and NumPy, the timers): {per_solve - per_gemv:.1f} ms a solve")
