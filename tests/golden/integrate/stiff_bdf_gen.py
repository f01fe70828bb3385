#!/usr/bin/python3
"""Golden values of scipy.integrate.solve_ivp(method='BDF') (SciPy 1.10) for
tests/integrate/solve-ivp-bdf.test.ts.

Regenerate (deterministic; needs the system NumPy 1.24 / SciPy 1.10):

    /usr/bin/python3 tests/golden/integrate/stiff_bdf_gen.py

which rewrites tests/golden/integrate/stiff_bdf.json next to this file.

The TS test defines the same right-hand sides and Jacobians, written with the
same operations in the same order, so that with the same Jacobian the step
sequences can be compared step by step. Every case records SciPy's answer:

  t, y          accepted step times and states (y as [len(t)][n]; complex:
                yRe and yIm), i.e. SciPy's y.T; for the grid problems (n = N)
                y holds the last state only ([1][n])
  nfev, njev, nlu, status, message, success
  tEval, yEval  the solution at the case's t_eval points (a second run)
  solT, solY    sol(t) of a dense-output run at a few points
  tEvents, yEvents   for the events case

jac: 'analytic' (the Jacobian below, as a function), 'numjac' (SciPy's finite
differences; rlx's default is jacfwd, exact, so only the step counts' order of
magnitude and the solution compare), 'sparse' (the analytic one as a CSC
matrix), 'constant-sparse' (a constant sparse matrix).
"""
import json
import os

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.integrate import solve_ivp

assert scipy.__version__.startswith('1.10'), scipy.__version__


# Robertson's chemical kinetics (3 species): the classic stiff test problem.
def robertson(t, y):
    return np.array([-0.04 * y[0] + 1e4 * y[1] * y[2],
                     0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] * y[1],
                     3e7 * y[1] * y[1]])


def robertson_jac(t, y):
    return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                     [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                     [0.0, 6e7 * y[1], 0.0]])


MU = 1000.0  # Van der Pol, mu = 1000: relaxation oscillations, very stiff


def vdp(t, y):
    return np.array([y[1], MU * (1 - y[0] * y[0]) * y[1] - y[0]])


def vdp_jac(t, y):
    return np.array([[0.0, 1.0], [-2 * MU * y[0] * y[1] - 1, MU * (1 - y[0] * y[0])]])


# 1-D reaction-diffusion u_t = u_xx + u - u^3 on (0, 1), u = 0 at both ends,
# N interior points: A = tridiag(1, -2, 1) / dx^2 (a few hundred unknowns).
N = 200
DX = 1.0 / (N + 1)
A = sp.diags([np.ones(N - 1), -2 * np.ones(N), np.ones(N - 1)], [-1, 0, 1], format='csr') / (DX * DX)
X = np.arange(1, N + 1) * DX
U0 = np.sin(np.pi * X) + 0.5 * np.sin(3 * np.pi * X)


def rd(t, u):
    return A @ u + (u - u * u * u)


def rd_jac_sparse(t, u):
    return A + sp.diags(1 - 3 * (u * u), 0)


def heat(t, u):
    return A @ u


# y' = diag(lam) y, complex and stiff.
LAM = np.array([-1000 + 20j, -1 + 5j])


def lin_complex(t, y):
    return LAM * y


def lin_complex_jac(t, y):
    return np.diag(LAM)


def relax(t, y):  # y' = 50 (y - cos t): stiff relaxation onto a slow curve as t decreases
    return 50.0 * (y - np.cos(t))


def relax_jac(t, y):
    return np.array([[50.0]])


def blowup(t, y):  # y' = y^2, y(0) = 1: y = 1/(1 - t) blows up at t = 1
    return y * y


def blowup_jac(t, y):
    return np.array([[2 * y[0]]])


PROBLEMS = {
    'robertson': (robertson, {'analytic': robertson_jac}),
    'vdp': (vdp, {'analytic': vdp_jac}),
    'rd': (rd, {'sparse': rd_jac_sparse}),
    'heat': (heat, {'constant-sparse': A.tocsc()}),
    'linComplex': (lin_complex, {'analytic': lin_complex_jac}),
    'relax': (relax, {'analytic': relax_jac}),
    'blowup': (blowup, {'analytic': blowup_jac}),
}

# Robertson: rtol 1e-6 with atol 1e-10, so that y2 (at most 3.7e-5, 7e-8 at
# t = 1e5) is resolved: SciPy's default atol 1e-6 would leave it uncontrolled.
ROB = dict(problem='robertson', t_span=[0.0, 1e5], y0=[1.0, 0.0, 0.0], rtol=1e-6, atol=1e-10)
# Van der Pol mu = 1000 over ~2 periods (the period is ~(3 - 2 ln 2) mu = 1614).
VDP = dict(problem='vdp', t_span=[0.0, 3000.0], y0=[2.0, 0.0], rtol=1e-6, atol=1e-6)

CASES = [
    dict(name='robertson analytic jac', jac='analytic', **ROB,
         t_eval=[1e-3, 0.4, 4.0, 40.0, 400.0, 4e3, 4e4, 1e5], sol_t=[0.3, 7.5, 123.0, 5e4]),
    dict(name='robertson numjac', jac='numjac', **ROB, t_eval=[0.4, 40.0, 4e3, 1e5]),
    dict(name='vdp analytic jac', jac='analytic', **VDP,
         t_eval=[1.0, 100.0, 500.0, 780.0, 1000.0, 2000.0, 3000.0], sol_t=[10.5, 830.0, 2500.0]),
    dict(name='vdp numjac', jac='numjac', **VDP, t_eval=[100.0, 1000.0, 3000.0]),
    dict(name='robertson terminal event', jac='analytic', **ROB,
         events=[{'component': 0, 'offset': 0.5, 'direction': -1, 'terminal': True}]),
    dict(name='reaction-diffusion sparse jac', problem='rd', jac='sparse', t_span=[0.0, 0.5], y0=list(U0),
         rtol=1e-6, atol=1e-8, t_eval=[0.01, 0.1, 0.5]),
    dict(name='heat constant sparse jac', problem='heat', jac='constant-sparse', t_span=[0.0, 0.1], y0=list(U0),
         rtol=1e-5, atol=1e-8, t_eval=[0.01, 0.1]),
    dict(name='complex linear', problem='linComplex', jac='analytic', t_span=[0.0, 10.0], y0=[[1.0, 0.0], [0.5, 0.5]],
         complex=True, rtol=1e-6, atol=1e-9, t_eval=[0.001, 0.5, 2.0, 10.0], sol_t=[0.0123, 3.3]),
    # Backwards in time (50 (y - cos t) decays towards decreasing t, so the
    # problem is stiff and stable that way), with max_step below BDF's steps.
    dict(name='relax backwards max_step', problem='relax', jac='analytic', t_span=[2.0, 0.0], y0=[0.0],
         rtol=1e-5, atol=1e-8, max_step=0.05, t_eval=[1.5, 0.3], sol_t=[1.77, 0.01]),
    dict(name='blowup', problem='blowup', jac='analytic', t_span=[0.0, 2.0], y0=[1.0], rtol=1e-3, atol=1e-6),
]


def event_fn(s):
    def e(t, y):
        return y[s['component']] - s.get('offset', 0.0)
    e.terminal = s.get('terminal', False)
    e.direction = s.get('direction', 0)
    return e


def states(prefix, y):
    """A [len][n] block of states (y given as SciPy's [n][len]); complex split into Re/Im."""
    y = np.asarray(y)
    if np.iscomplexobj(y):
        return {prefix + 'Re': y.real.T.tolist(), prefix + 'Im': y.imag.T.tolist()}
    return {prefix: y.T.tolist()}


def run(case):
    fun, jacs = PROBLEMS[case['problem']]
    y0 = case['y0']
    if case.get('complex'):
        y0 = np.array([complex(a, b) for a, b in y0])
    opts = dict(method='BDF', rtol=case['rtol'], atol=case['atol'])
    if 'max_step' in case:
        opts['max_step'] = case['max_step']
    if case['jac'] != 'numjac':
        opts['jac'] = jacs[case['jac']]
    events = [event_fn(s) for s in case.get('events', [])]
    if events:
        opts['events'] = events
    r = solve_ivp(fun, case['t_span'], y0, **opts)
    out = dict(t=r.t.tolist(), nfev=int(r.nfev), njev=int(r.njev), nlu=int(r.nlu),
               status=int(r.status), message=r.message, success=bool(r.success))
    # Every state for the small systems; the last one only for the grid problems (N unknowns).
    out.update(states('y', r.y if r.y.shape[0] <= 3 else r.y[:, -1:]))
    if events:
        out['tEvents'] = [te.tolist() for te in r.t_events]
        out['yEvents'] = [np.asarray(ye).tolist() for ye in r.y_events]
    if 't_eval' in case:
        re = solve_ivp(fun, case['t_span'], y0, t_eval=case['t_eval'], **opts)
        out['tEval'] = re.t.tolist()
        out.update(states('yEval', re.y))
    if 'sol_t' in case:
        rd_ = solve_ivp(fun, case['t_span'], y0, dense_output=True, **opts)
        out['solT'] = case['sol_t']
        out.update(states('solY', rd_.sol(np.array(case['sol_t']))))
    return out


def main():
    cases = []
    for case in CASES:
        c = dict(case)
        c['expected'] = run(case)
        cases.append(c)
        e = c['expected']
        print(f"{case['name']}: len(t)={len(e['t'])} nfev={e['nfev']} njev={e['njev']} nlu={e['nlu']} status={e['status']}")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'stiff_bdf.json')
    with open(path, 'w') as fh:
        json.dump(cases, fh)
        fh.write('\n')


if __name__ == '__main__':
    main()
