#!/usr/bin/python3
"""Golden values of scipy.integrate.solve_ivp (SciPy 1.10) for
tests/integrate/solve-ivp.test.ts.

Regenerate (deterministic; needs the system NumPy 1.24 / SciPy 1.10):

    /usr/bin/python3 tests/golden/integrate/solve_ivp_gen.py

which rewrites tests/golden/integrate/solve_ivp.json next to this file.

Every case names a problem of PROBLEMS below (the TS test defines the same
right-hand sides, written with the same operations in the same order, so the
step sequences can be compared step by step), a method and options, and
records SciPy's answer:

  t, y          accepted step times (or the t_eval points) and the states,
                y as [len(t)][n] (complex: yRe and yIm), i.e. SciPy's y.T
  nfev, njev, nlu, status, message, success
  tEvents, yEvents   per event function (events cases)
  solY          sol(t) at the case's sol_t (dense-output cases), [len(sol_t)][n],
                and solScalar = sol(sol_t[0]) (complex: solYRe/solYIm, ...Re/...Im)

Events are described as {"component": i, "offset": c, "direction": d,
"terminal": b}: e(t, y) = y[i] - c.
"""
import json
import os

import numpy as np
import scipy
from scipy.integrate import solve_ivp

assert scipy.__version__.startswith('1.10'), scipy.__version__

MU_A = 0.012277471  # Arenstorf: the Moon's mass ratio
ARENSTORF_Y0 = [0.994, 0.0, 0.0, -2.00158510637908252240537862224]
ARENSTORF_T = 17.0652165601579625588917206249


def decay(t, y):
    return -0.5 * y


def rotation(t, y):  # y0' = y1, y1' = -y0
    return np.array([y[1], -y[0]])


def rotation_complex(t, y):  # y' = 2i y
    return 2j * y


def lotka(t, y):
    x, p = y
    return np.array([1.5 * x - x * p, -3.0 * p + x * p])


def vdp(t, y):  # Van der Pol, mu = 1
    return np.array([y[1], 1.0 * (1.0 - y[0] * y[0]) * y[1] - y[0]])


def arenstorf(t, y):
    x, v, u, w = y  # position (x, v), velocity (u, w)
    mu, mu1 = MU_A, 1.0 - MU_A
    r1 = (x + mu) * (x + mu) + v * v
    r2 = (x - mu1) * (x - mu1) + v * v
    d1 = r1 * np.sqrt(r1)
    d2 = r2 * np.sqrt(r2)
    return np.array([u, w,
                     x + 2.0 * w - mu1 * (x + mu) / d1 - mu * (x - mu1) / d2,
                     v - 2.0 * u - mu1 * v / d1 - mu * v / d2])


def gauss(t, y):  # y' = -t y: y = exp(-t^2/2) y0
    return -t * y


def blowup(t, y):  # y' = y^2 from y(0) = 1: y = 1 / (1 - t), infinite at t = 1
    return y * y


def projectile(t, y):  # height, velocity
    return np.array([y[1], -9.81 + 0.0 * y[0]])


PROBLEMS = {'decay': decay, 'rotation': rotation, 'rotationComplex': rotation_complex,
            'lotka': lotka, 'vdp': vdp, 'arenstorf': arenstorf, 'gauss': gauss,
            'blowup': blowup, 'projectile': projectile}


def make_event(spec):
    i, c = spec['component'], spec.get('offset', 0.0)

    def e(t, y):
        return y[i] - c
    e.terminal = spec.get('terminal', False)
    e.direction = spec.get('direction', 0)
    return e


def rows(a):
    """[n][m] SciPy layout -> [m][n] rows, as plain floats."""
    return np.asarray(a).T.tolist()


def run(case):
    f = PROBLEMS[case['problem']]
    y0 = case['y0']
    if case.get('complex'):
        y0 = np.array([complex(re, im) for re, im in y0])
    kw = dict(method=case['method'], rtol=case.get('rtol', 1e-3), atol=case.get('atol', 1e-6))
    if 't_eval' in case:
        kw['t_eval'] = case['t_eval']
    if case.get('dense'):
        kw['dense_output'] = True
    if 'max_step' in case:
        kw['max_step'] = case['max_step']
    if 'first_step' in case:
        kw['first_step'] = case['first_step']
    if 'events' in case:
        kw['events'] = [make_event(s) for s in case['events']]
    r = solve_ivp(f, case['t_span'], y0, **kw)
    out = dict(case)
    exp = {'t': np.asarray(r.t).tolist(), 'nfev': int(r.nfev), 'njev': int(r.njev), 'nlu': int(r.nlu),
           'status': int(r.status), 'message': r.message, 'success': bool(r.success)}
    ys = np.asarray(r.y)
    if case.get('complex'):
        exp['yRe'], exp['yIm'] = rows(ys.real), rows(ys.imag)
    else:
        exp['y'] = rows(ys)
    if r.t_events is not None:
        exp['tEvents'] = [np.asarray(te).tolist() for te in r.t_events]
        exp['yEvents'] = [np.asarray(ye).tolist() for ye in r.y_events]
    if case.get('dense'):
        qt = case['sol_t']
        sy, s0 = np.asarray(r.sol(qt)), np.asarray(r.sol(qt[0]))
        if case.get('complex'):
            exp['solYRe'], exp['solYIm'] = rows(sy.real), rows(sy.imag)
            exp['solScalarRe'], exp['solScalarIm'] = s0.real.tolist(), s0.imag.tolist()
        else:
            exp['solY'], exp['solScalar'] = rows(sy), s0.tolist()
    out['expected'] = exp
    return out


CASES = []
for m in ['RK45', 'RK23', 'DOP853']:
    CASES += [
        dict(name=f'decay {m} default tolerances', problem='decay', method=m, t_span=[0, 10], y0=[2.0, -1.0]),
        dict(name=f'decay {m} backwards', problem='decay', method=m, t_span=[5, 0], y0=[1.0, 3.0], rtol=1e-6, atol=1e-9),
        dict(name=f'rotation {m}', problem='rotation', method=m, t_span=[0, 10], y0=[1.0, 0.0], rtol=1e-6, atol=1e-8),
        dict(name=f'rotation complex {m}', problem='rotationComplex', method=m, t_span=[0, 5], complex=True,
             y0=[[1.0, 0.0], [0.5, -0.5]], rtol=1e-5, atol=1e-8),
        dict(name=f'lotka {m}', problem='lotka', method=m, t_span=[0, 15], y0=[10.0, 5.0]),
        dict(name=f'lotka {m} tight', problem='lotka', method=m, t_span=[0, 15], y0=[10.0, 5.0],
             rtol=1e-5 if m == 'RK23' else 1e-7, atol=1e-9),
        dict(name=f'vdp {m}', problem='vdp', method=m, t_span=[0, 20], y0=[2.0, 0.0], rtol=1e-5, atol=1e-8),
        dict(name=f'gauss {m} (t-dependent)', problem='gauss', method=m, t_span=[0, 3], y0=[1.0], rtol=1e-6, atol=1e-10),
        dict(name=f'blowup {m}: step size collapses', problem='blowup', method=m, t_span=[0, 2], y0=[1.0]),
        dict(name=f'lotka {m} t_eval', problem='lotka', method=m, t_span=[0, 15], y0=[10.0, 5.0],
             t_eval=np.linspace(0, 15, 31).tolist()),
        dict(name=f'decay {m} t_eval backwards', problem='decay', method=m, t_span=[4, -1], y0=[1.0, 2.0],
             t_eval=[4.0, 3.0, 1.5, 0.25, -1.0]),
        dict(name=f'vdp {m} dense output', problem='vdp', method=m, t_span=[0, 8], y0=[2.0, 0.0], rtol=1e-6, atol=1e-9,
             dense=True, sol_t=[0.0, 0.3, 1.7, 2.5, 4.0, 6.123, 7.99, 8.0]),
        dict(name=f'rotation complex {m} dense output', problem='rotationComplex', method=m, t_span=[0, 3], complex=True,
             y0=[[1.0, 0.0], [0.0, 1.0]], dense=True, sol_t=[0.1, 1.0, 2.9]),
        dict(name=f'vdp {m} events (both directions, downwards only)', problem='vdp', method=m, t_span=[0, 20],
             y0=[2.0, 0.0], rtol=1e-6, atol=1e-9,
             events=[dict(component=0), dict(component=1, offset=0.5, direction=-1)]),
        dict(name=f'projectile {m} terminal event at the ground', problem='projectile', method=m, t_span=[0, 10],
             y0=[0.0, 10.0], events=[dict(component=0, direction=-1, terminal=True)]),
        dict(name=f'lotka {m} terminal event + t_eval + dense', problem='lotka', method=m, t_span=[0, 15],
             y0=[10.0, 5.0], t_eval=np.linspace(0, 15, 16).tolist(), dense=True, sol_t=[0.5, 2.0],
             events=[dict(component=1, offset=1.0, direction=-1, terminal=True), dict(component=0, offset=3.0)]),
        dict(name=f'vdp {m} max_step 0.3 first_step 1e-3', problem='vdp', method=m, t_span=[0, 6], y0=[2.0, 0.0],
             max_step=0.3, first_step=1e-3),
        dict(name=f'zero-length interval {m}', problem='decay', method=m, t_span=[1.5, 1.5], y0=[1.0, 2.0], dense=True,
             sol_t=[1.5, 2.0]),
    ]
CASES += [
    dict(name='arenstorf DOP853 rtol 1e-10', problem='arenstorf', method='DOP853', t_span=[0, ARENSTORF_T],
         y0=ARENSTORF_Y0, rtol=1e-10, atol=1e-10),
    dict(name='arenstorf DOP853 rtol 1e-7', problem='arenstorf', method='DOP853', t_span=[0, ARENSTORF_T],
         y0=ARENSTORF_Y0, rtol=1e-7, atol=1e-7),
    dict(name='arenstorf RK45 rtol 1e-7', problem='arenstorf', method='RK45', t_span=[0, ARENSTORF_T],
         y0=ARENSTORF_Y0, rtol=1e-7, atol=1e-7),
    dict(name='arenstorf RK23 rtol 1e-5', problem='arenstorf', method='RK23', t_span=[0, ARENSTORF_T],
         y0=ARENSTORF_Y0, rtol=1e-5, atol=1e-5),
]

if __name__ == '__main__':
    out = [run(c) for c in CASES]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'solve_ivp.json')
    with open(path, 'w') as fh:
        fh.write('[\n' + ',\n'.join(json.dumps(c) for c in out) + '\n]\n')
    for c in out:
        e = c['expected']
        print(f"{c['name']}: {len(e['t'])} points, nfev {e['nfev']}, status {e['status']}")
