#!/usr/bin/python3
"""Golden values of scipy.integrate.solve_ivp(method='Radau') (SciPy 1.10) for
tests/integrate/solve-ivp-radau.test.ts.

Regenerate (deterministic; needs the system NumPy 1.24 / SciPy 1.10):

    /usr/bin/python3 tests/golden/integrate/stiff_radau_gen.py

which rewrites tests/golden/integrate/stiff_radau.json next to this file.

Every case names a problem of PROBLEMS below (the TS test defines the same
right-hand sides and Jacobians, with the same operations in the same order) and
records SciPy's answer:

  ts            the accepted step times (sol.ts of a dense-output run)
  t, y          the t_eval points (or the accepted steps) and the states, [len(t)][n]
  nfev, njev, nlu, status, message, success
  solY          sol(t) at the case's sol_t (dense-output cases), [len(sol_t)][n]
  tEvents, yEvents   per event function (events cases): e(t, y) = y[i] - offset

jac: 'analytic' passes the problem's Jacobian function, 'sparse' the same as a
CSR matrix, None lets SciPy approximate it by finite differences (num_jac).

SciPy 1.10's Radau refuses a complex y0. The 'complex' cases run SciPy's Radau
extended to the complex domain here (radau_complex below: the complex
eigenvalue pair's system split into mu and conj(mu), three LUs per refresh;
see src/integrate/solve-ivp-radau-newton.ts), and record the realified
problem's SciPy counts (2n real unknowns) for comparison; the exact solution is
the test's reference for the values.
"""
import json
import os
import warnings

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.integrate import solve_ivp
from scipy.integrate._ivp import base as ivp_base, radau as ivp_radau

assert scipy.__version__.startswith('1.10'), scipy.__version__

MU = 1000.0


def vdp(t, y):  # Van der Pol, mu = 1000
    return np.array([y[1], MU * (1.0 - y[0] * y[0]) * y[1] - y[0]])


def vdp_jac(t, y):
    return np.array([[0.0, 1.0], [-2.0 * MU * y[0] * y[1] - 1.0, MU * (1.0 - y[0] * y[0])]])


def vdp10(t, y):  # Van der Pol, mu = 10
    return np.array([y[1], 10.0 * (1.0 - y[0] * y[0]) * y[1] - y[0]])


def vdp10_jac(t, y):
    return np.array([[0.0, 1.0], [-2.0 * 10.0 * y[0] * y[1] - 1.0, 10.0 * (1.0 - y[0] * y[0])]])


def robertson(t, y):
    return np.array([-0.04 * y[0] + 1e4 * y[1] * y[2],
                     0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] * y[1],
                     3e7 * y[1] * y[1]])


def robertson_jac(t, y):
    return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                     [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                     [0.0, 6e7 * y[1], 0.0]])


# u_t = u_xx - u^3 on (0, 1), u = 0 at both ends, N interior points: A = -poisson1d(N) / dx^2.
N_HEAT = 200
DX = 1.0 / (N_HEAT + 1)
A_HEAT = sp.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(N_HEAT, N_HEAT), format='csr') * (1.0 / (DX * DX))


def heat(t, y):
    return A_HEAT @ y - y * y * y


def heat_jac_sparse(t, y):
    return (A_HEAT - sp.diags(3.0 * y * y, 0, format='csr')).tocsr()


def heat_jac_dense(t, y):
    return A_HEAT.toarray() - np.diag(3.0 * y * y)


def heat_y0():
    x = DX * np.arange(1, N_HEAT + 1)
    return (2.0 * np.sin(np.pi * x)).tolist()


def blowup(t, y):  # y' = y^2, y(0) = 1: y = 1/(1 - t)
    return y * y


def blowup_jac(t, y):
    return np.array([[2.0 * y[0]]])


# Complex: y' = M y, M = [[L1, 1], [0, L2]].
L1, L2 = -500.0 + 50.0j, -2.0 + 10.0j
M_CPLX = np.array([[L1, 1.0], [0.0, L2]])


def lin_complex(t, y):
    return M_CPLX @ y


def lin_complex_jac(t, y):
    return M_CPLX


def lin_realified(t, y):  # (Re y, Im y) of the same problem
    z = y[:2] + 1j * y[2:]
    w = M_CPLX @ z
    return np.concatenate([w.real, w.imag])


def lin_realified_jac(t, y):
    return np.block([[M_CPLX.real, -M_CPLX.imag], [M_CPLX.imag, M_CPLX.real]])


PROBLEMS = {
    'vdp1000': (vdp, {'analytic': vdp_jac}),
    'vdp10': (vdp10, {'analytic': vdp10_jac}),
    'robertson': (robertson, {'analytic': robertson_jac}),
    'heat': (heat, {'sparse': heat_jac_sparse, 'analytic': heat_jac_dense}),
    'blowup': (blowup, {'analytic': blowup_jac}),
    'linComplex': (lin_complex, {'analytic': lin_complex_jac}),
}


# ---- SciPy's Radau in the complex domain (for the complex cases' counts) ----------------------

def collocation_complex(fun, t, y, h, Z0, scale, tol, LU_real, LU_complex, solve_lu):
    """radau.solve_collocation_system with complex W: U = W1 + i W2 (mu), V = W1 - i W2 (conj mu)."""
    R = ivp_radau
    n = y.shape[0]
    M_real, M_complex = R.MU_REAL / h, R.MU_COMPLEX / h
    W = R.TI.dot(Z0).astype(complex)
    Z = Z0
    F = np.empty((3, n), dtype=complex)
    ch = h * R.C
    dW_norm_old = None
    dW = np.empty_like(W)
    converged = False
    rate = None
    for k in range(R.NEWTON_MAXITER):
        for i in range(3):
            F[i] = fun(t + ch[i], y + Z[i])
        if not np.all(np.isfinite(F)):
            break
        f_real = F.T.dot(R.TI_REAL) - M_real * W[0]
        r1 = F.T.dot(R.TI[1]) - (M_complex.real * W[1] - M_complex.imag * W[2])
        r2 = F.T.dot(R.TI[2]) - (M_complex.imag * W[1] + M_complex.real * W[2])
        dW_real = solve_lu(LU_real, f_real)
        dU = solve_lu(LU_complex, r1 + 1j * r2)
        dV = solve_lu(conj_lu(LU_complex), r1 - 1j * r2)
        dW[0] = dW_real
        dW[1] = (dU + dV) / 2
        dW[2] = (dU - dV) / 2j
        dW_norm = ivp_radau.norm(dW / scale)
        if dW_norm_old is not None:
            rate = dW_norm / dW_norm_old
        if (rate is not None and (rate >= 1 or rate ** (R.NEWTON_MAXITER - k) / (1 - rate) * dW_norm > tol)):
            break
        W += dW
        Z = R.T.dot(W)
        if (dW_norm == 0 or rate is not None and rate / (1 - rate) * dW_norm < tol):
            converged = True
            break
        dW_norm_old = dW_norm
    return converged, k + 1, Z, rate


CURRENT = {}


def conj_lu(LU):
    """The LU of conj(mu)/h I - J beside the one of mu/h I - J: made at its first use (the collocation call
    right after the pair was factored, so CURRENT['h'] is the h they were made for), counted in nlu."""
    if LU[2] is None:
        J = LU[1]
        A = np.conj(ivp_radau.MU_COMPLEX) / CURRENT['h'] * np.identity(J.shape[0]) - J
        LU[2] = CURRENT['solver'].lu_plain(A)
    return LU[2]


class RadauComplex(ivp_radau.Radau):
    """SciPy's Radau with a complex y0 allowed; each LU remembers the Jacobian it was made from."""
    def _validate_jac(self, jac, sparsity):
        # Radau casts a callable jac's value to float; here it stays complex.
        J = np.asarray(jac(self.t, self.y), dtype=complex)
        self.njev = 1

        def jac_wrapped(t, y, _=None):
            self.njev += 1
            return np.asarray(jac(t, y), dtype=complex)
        return jac_wrapped, J

    def __init__(self, fun, t0, y0, t_bound, **kw):
        orig = ivp_base.check_arguments
        ivp_base.check_arguments = lambda f, y, support_complex: orig(f, y, True)
        try:
            super().__init__(fun, t0, y0, t_bound, **kw)
        finally:
            ivp_base.check_arguments = orig
        CURRENT['solver'] = self
        CURRENT['J'] = self.J
        lu, solve, jac = self.lu, self.solve_lu, self.jac
        self.lu_plain = lu
        self.lu = lambda A: [lu(A), CURRENT['J'], None]
        self.solve_lu = lambda LU, b: solve(LU[0] if isinstance(LU, list) else LU, b)
        if jac is not None:
            def jac_kept(*a):  # jac(t, y, f), as Radau calls it
                CURRENT['J'] = jac(*a)
                return CURRENT['J']
            self.jac = jac_kept


def run_complex(case):
    """The complex case in the complex-domain Radau above, h tracked through the factorizations."""
    f, jacs = PROBLEMS[case['problem']]
    y0 = np.array([complex(re, im) for re, im in case['y0']])
    orig_coll = ivp_radau.solve_collocation_system

    def coll(fun, t, y, h, *rest):
        CURRENT['h'] = h
        return collocation_complex(fun, t, y, h, *rest)
    ivp_radau.solve_collocation_system = coll
    try:
        r = solve_ivp(f, case['t_span'], y0, method=RadauComplex, rtol=case['rtol'], atol=case['atol'],
                      jac=jacs['analytic'], t_eval=case.get('t_eval'), dense_output=True)
    finally:
        ivp_radau.solve_collocation_system = orig_coll
    ys = np.asarray(r.y)
    exp = {'ts': np.asarray(r.sol.ts).tolist(), 't': np.asarray(r.t).tolist(), 'yRe': ys.real.T.tolist(),
           'yIm': ys.imag.T.tolist(), 'nfev': int(r.nfev), 'njev': int(r.njev), 'nlu': int(r.nlu),
           'status': int(r.status), 'message': r.message, 'success': bool(r.success)}
    y0r = np.concatenate([y0.real, y0.imag])
    rr = solve_ivp(lin_realified, case['t_span'], y0r, method='Radau', rtol=case['rtol'], atol=case['atol'],
                   jac=lin_realified_jac)
    exp['realified'] = {'steps': len(rr.t) - 1, 'nfev': int(rr.nfev), 'njev': int(rr.njev), 'nlu': int(rr.nlu)}
    return exp


def make_event(spec):
    i, c = spec['component'], spec.get('offset', 0.0)

    def e(t, y):
        return y[i] - c
    e.terminal = spec.get('terminal', False)
    e.direction = spec.get('direction', 0)
    return e


def run(case):
    out = dict(case)
    if case.get('complex'):
        out['expected'] = run_complex(case)
        return out
    f, jacs = PROBLEMS[case['problem']]
    jac = None if case['jac'] is None else jacs[case['jac']]
    kw = dict(method='Radau', rtol=case.get('rtol', 1e-3), atol=case.get('atol', 1e-6), jac=jac, dense_output=True)
    if 't_eval' in case:
        kw['t_eval'] = case['t_eval']
    if 'events' in case:
        kw['events'] = [make_event(s) for s in case['events']]
    if 'max_step' in case:
        kw['max_step'] = case['max_step']
    if 'first_step' in case:
        kw['first_step'] = case['first_step']
    y0 = heat_y0() if case['y0'] == 'heat' else case['y0']
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        r = solve_ivp(f, case['t_span'], y0, **kw)
    exp = {'ts': np.asarray(r.sol.ts).tolist() if r.sol is not None else None, 't': np.asarray(r.t).tolist(),
           'y': np.asarray(r.y).T.tolist(), 'nfev': int(r.nfev), 'njev': int(r.njev), 'nlu': int(r.nlu),
           'status': int(r.status), 'message': r.message, 'success': bool(r.success)}
    if case.get('sol_t') is not None:
        exp['solY'] = np.asarray(r.sol(case['sol_t'])).T.tolist()
    if r.t_events is not None:
        exp['tEvents'] = [np.asarray(te).tolist() for te in r.t_events]
        exp['yEvents'] = [np.asarray(ye).tolist() for ye in r.y_events]
    out['expected'] = exp
    return out


VDP_T = [0.0, 100.0, 400.0, 700.0, 1000.0, 1300.0, 1500.0, 1900.0, 2200.0, 2700.0, 3000.0]
ROB_T = [0.0, 1e-3, 0.1, 1.0, 10.0, 100.0, 1e3, 1e4, 1e5]
ROB_ATOL = [1e-8, 1e-14, 1e-6]
CASES = [
    dict(name='vdp1000 analytic jac rtol 1e-6', problem='vdp1000', jac='analytic', t_span=[0, 3000], y0=[2.0, 0.0],
         rtol=1e-6, atol=1e-6, t_eval=VDP_T),
    dict(name='vdp1000 analytic jac default tolerances', problem='vdp1000', jac='analytic', t_span=[0, 3000],
         y0=[2.0, 0.0], t_eval=VDP_T),
    dict(name='vdp1000 finite-difference jac rtol 1e-6', problem='vdp1000', jac=None, t_span=[0, 3000],
         y0=[2.0, 0.0], rtol=1e-6, atol=1e-6, t_eval=VDP_T),
    dict(name='vdp1000 finite-difference jac default tolerances', problem='vdp1000', jac=None, t_span=[0, 3000],
         y0=[2.0, 0.0], t_eval=VDP_T),
    dict(name='robertson analytic jac', problem='robertson', jac='analytic', t_span=[0, 1e5], y0=[1.0, 0.0, 0.0],
         rtol=1e-4, atol=ROB_ATOL, t_eval=ROB_T),
    dict(name='robertson analytic jac to 1e11', problem='robertson', jac='analytic', t_span=[0, 1e11],
         y0=[1.0, 0.0, 0.0], rtol=1e-6, atol=[1e-10, 1e-14, 1e-10], t_eval=[1e5, 1e7, 1e9, 1e11]),
    dict(name='robertson finite-difference jac', problem='robertson', jac=None, t_span=[0, 1e5], y0=[1.0, 0.0, 0.0],
         rtol=1e-4, atol=ROB_ATOL, t_eval=ROB_T),
    dict(name='heat sparse jac', problem='heat', jac='sparse', t_span=[0, 0.5], y0='heat', rtol=1e-5, atol=1e-8,
         t_eval=[0.0, 0.01, 0.1, 0.5]),
    dict(name='heat dense jac', problem='heat', jac='analytic', t_span=[0, 0.5], y0='heat', rtol=1e-5, atol=1e-8,
         t_eval=[0.0, 0.01, 0.1, 0.5]),
    dict(name='complex linear system', problem='linComplex', complex=True, t_span=[0, 2],
         y0=[[1.0, 1.0], [1.0, -0.5]], rtol=1e-6, atol=1e-9, t_eval=[0.0, 0.001, 0.01, 0.5, 2.0]),
    dict(name='vdp10 t_eval + dense output', problem='vdp10', jac='analytic', t_span=[0, 30], y0=[2.0, 0.0],
         rtol=1e-6, atol=1e-9, t_eval=np.linspace(0, 30, 16).tolist(), sol_t=[0.0, 0.7, 5.5, 12.25, 29.9, 30.0]),
    dict(name='vdp10 events (terminal on the second)', problem='vdp10', jac='analytic', t_span=[0, 30], y0=[2.0, 0.0],
         rtol=1e-6, atol=1e-9,
         events=[dict(component=1, offset=0.5), dict(component=0, direction=-1, terminal=True)]),
    dict(name='vdp10 max_step 0.25 first_step 1e-4, backwards', problem='vdp10', jac='analytic', t_span=[10, 0],
         y0=[2.0, 0.0], rtol=1e-5, atol=1e-8, max_step=0.25, first_step=1e-4),
    dict(name='blowup: step size collapses', problem='blowup', jac='analytic', t_span=[0, 2], y0=[1.0]),
]

if __name__ == '__main__':
    out = [run(c) for c in CASES]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'stiff_radau.json')
    with open(path, 'w') as fh:
        fh.write('[\n' + ',\n'.join(json.dumps(c) for c in out) + '\n]\n')
    for c in out:
        e = c['expected']
        print(f"{c['name']}: {len(e['ts']) - 1} steps, nfev {e['nfev']}, njev {e['njev']}, nlu {e['nlu']}, "
              f"status {e['status']}" + (f", realified {e['realified']}" if 'realified' in e else ''))
