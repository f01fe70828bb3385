#!/usr/bin/python3
"""Golden values for rlx's per-element scalar math (tests/scalar-math.test.ts).

Regenerate (deterministic, fixed seed; needs numpy and scipy -- written with
numpy 1.24 / scipy 1.10 on glibc 2.36):

    /usr/bin/python3 tests/golden/gen_scalar_math.py

which rewrites tests/golden/scalar_math.json.  Every float is stored as a string
in Python repr() style ('nan', 'inf', '-inf', '-0.0', '1e-300', ...) because JSON
cannot hold NaN, infinities or negative zero; the test decodes them.

Where the outputs come from:
  * complex elementary functions (exp, log, sqrt, trig, hyperbolic, inverse trig
    and hyperbolic), abs, angle, power: NumPy itself (which calls the C99
    Annex G functions of the platform libm).
  * cdiv: exact rational arithmetic (fractions.Fraction, correctly rounded) for
    finite operands with a nonzero divisor; NumPy's true_divide otherwise.
  * clog1p: NumPy 1.x's complex log1p loses all accuracy for small |z|, so the
    finite reference is computed in high precision (fractions + decimal) and the
    non-finite cases follow NumPy 2's log1p_complex: NaN in -> NaN+NaNj, else
    log(hypot(x+1, y)) + i*atan2(y, x+1).
  * cexpm1: NumPy's formula expm1(x)cos(y) - 2sin^2(y/2) + i exp(x)sin(y), but
    with the finite reference computed in high precision (decimal), and
    expm1(x + 0j) = expm1(x) + 0j (NumPy gives a NaN imaginary part when exp(x)
    overflows; rlx follows cexp's Annex G rule instead).
  * csign: NumPy 2's definition z/|z| (NumPy 1.24 here still has the old
    definition), re-implemented below, except that finite z whose |z|
    overflows is scaled first (NumPy 2 returns 0+1j there, which is a bug).
  * crsqrt = 1/sqrt(z) (NumPy's division of NumPy's sqrt), csigmoid in high
    precision for finite z (stable form; non-finite via NumPy).
  * erf: scipy.special.erf.  erfc: the C library's erfc (Python's math.erfc on
    glibc), because SciPy's Cephes erfc rounds x*x before exponentiating and so
    loses ~x^2 ulps for large x (5e-14 relative at x = 22) and flushes erfc(x)
    to 0 from x ~ 26.6 where the true value is still a subnormal; the script
    checks that the two agree to 1e-12 where the result is normal.
    gelu = 0.5 x (1 + erf(x/sqrt2)) (through erfc for x < 0; -0 at -inf, its
    limit, where the formula gives -inf * 0 = NaN), sigmoid in the
    stable form (scipy's expit underflows to 0 below x = -709 where the true
    value is subnormal), softplus (np.logaddexp), round (np.round, half to
    even), sign (np.sign): NumPy/SciPy.
  * float16: NumPy's float64 -> float16 cast, which rounds directly from the
    double (no double rounding through float32).
  * bfloat16: NumPy has no bfloat16, so the reference is an independent
    pure-Python round-to-nearest-even on the exact value of the float32 input
    (fractions.Fraction and Python's half-to-even round()).
"""

import json
import math
import os
import struct
from decimal import Decimal, getcontext, localcontext
from fractions import Fraction

import numpy as np
import scipy.special as sc

SEED = 20240611
rng = np.random.default_rng(SEED)
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'scalar_math.json')

INF = math.inf
NAN = math.nan


def enc(x):
    """Float -> repr-style string ('nan', 'inf', '-inf', '-0.0', '1e-300')."""
    x = float(x)
    if math.isnan(x):
        return 'nan'
    return repr(x)


def is_finite(*xs):
    return all(math.isfinite(v) for v in xs)


# ----------------------------------------------------------------------------
# High-precision helpers (decimal) for the references NumPy does not get right.
# ----------------------------------------------------------------------------

getcontext().prec = 80


def _compute_pi(digits):
    with localcontext() as ctx:
        ctx.prec = digits + 10

        def arctan_inv(n):
            # arctan(1/n) by its Taylor series
            x = Decimal(1) / n
            x2 = x * x
            term = x
            total = x
            k = 1
            eps = Decimal(10) ** (-(digits + 5))
            while abs(term) > eps:
                term *= -x2
                k += 2
                total += term / k
            return total

        pi = 4 * (4 * arctan_inv(5) - arctan_inv(239))
    return pi  # no unary plus: that would round to the caller's precision


PI_BIG = _compute_pi(1100)


def d_expm1(x):
    """exp(x) - 1 for a float x, ~60 significant digits even for tiny x."""
    with localcontext() as ctx:
        ctx.prec = 90
        xd = Decimal(x)
        if abs(xd) < Decimal('1e-5'):
            total = Decimal(0)
            term = Decimal(1)
            k = 0
            while True:
                k += 1
                term = term * xd / k
                if term == 0 or abs(term) < abs(total) * Decimal(10) ** -95:
                    break
                total += term
            return total
        return xd.exp() - 1


def d_sincos(y):
    """(sin y, cos y) in ~60 significant digits for a float or Decimal y (|y| < 1e1000)."""
    yd = Decimal(y)
    with localcontext() as ctx:
        ctx.prec = 90 + max(0, yd.adjusted())
        twopi = 2 * PI_BIG
        r = yd - twopi * (yd / twopi).to_integral_value()
    with localcontext() as ctx:
        ctx.prec = 90
        r = +r
        # Taylor series on the reduced argument |r| <= pi
        r2 = r * r
        s = r
        term = r
        k = 1
        while True:
            term = -term * r2 / ((k + 1) * (k + 2))
            k += 2
            if term == 0 or abs(term) < Decimal(10) ** -100 * (abs(s) + Decimal(10) ** -200):
                break
            s += term
        c = Decimal(1)
        term = Decimal(1)
        k = 0
        while True:
            term = -term * r2 / ((k + 1) * (k + 2))
            k += 2
            if term == 0 or abs(term) < Decimal(10) ** -100:
                break
            c += term
    return s, c


def d_log1p(t):
    """log(1 + t) for a Fraction t > -1, ~60 digits."""
    with localcontext() as ctx:
        ctx.prec = 90
        td = Decimal(t.numerator) / Decimal(t.denominator)
        if abs(td) < Decimal(10) ** -25:
            return td - td * td / 2 + td * td * td / 3
        u = 1 + t  # exact, so 1+t near 0 keeps its relative precision
        return (Decimal(u.numerator) / Decimal(u.denominator)).ln()


def d_float(d):
    """Decimal -> nearest double (correctly rounded via Fraction)."""
    if d == 0:
        return -0.0 if d.is_signed() else 0.0
    f = Fraction(d)
    try:
        return float(f)
    except OverflowError:
        return INF if f > 0 else -INF


# ----------------------------------------------------------------------------
# Input sets
# ----------------------------------------------------------------------------

SPECIAL = [0.0, -0.0, 5e-324, 1e-300, -1e-300, 1e-20, -1e-20, 0.5, -0.5, 1.0, -1.0,
           2.0, -2.0, 1e20, -1e20, 1e300, -1e300, INF, -INF, NAN]


def complex_unary_inputs():
    pts = []
    for x in SPECIAL:
        for y in SPECIAL:
            pts.append((x, y))
    # On and next to the branch cuts (real axis beyond +-1, imaginary axis beyond
    # +-i, negative real axis) and the branch points themselves.
    big = [0.5, 1.0 - 2.0 ** -53, 1.0, 1.0 + 2.0 ** -52, 1.000001, 1.5, 3.0, 1e10, 1e200]
    small = [0.0, -0.0, 1e-300, -1e-300, 1e-17, -1e-17, 1e-8, -1e-8]
    for r in big:
        for s in (r, -r):
            for t in small:
                pts.append((s, t))
                pts.append((t, s))
    # Near the unit circle (clog) and the circle |1+z| = 1 (clog1p)
    for k in range(16):
        th = float(rng.uniform(-math.pi, math.pi))
        d = [2.0 ** -52, -2.0 ** -52, 1e-10, -1e-10][k % 4]
        r = 1.0 + d
        pts.append((r * math.cos(th), r * math.sin(th)))
        pts.append((-1.0 + r * math.cos(th), r * math.sin(th)))
    # Small |z|
    for _ in range(24):
        m = 10.0 ** rng.uniform(-12, -3)
        th = rng.uniform(-math.pi, math.pi)
        pts.append((float(m * math.cos(th)), float(m * math.sin(th))))
    # Random: moderate box, log-uniform magnitudes, exp overflow threshold
    for _ in range(90):
        pts.append((float(rng.uniform(-4, 4)), float(rng.uniform(-4, 4))))
    for _ in range(70):
        x = float(rng.choice([-1, 1]) * 10.0 ** rng.uniform(-8, 8))
        y = float(rng.choice([-1, 1]) * 10.0 ** rng.uniform(-8, 8))
        pts.append((x, y))
    for _ in range(12):
        x = float(rng.choice([-1, 1]) * 10.0 ** rng.uniform(8, 300))
        y = float(rng.choice([-1, 1]) * 10.0 ** rng.uniform(-3, 300))
        pts.append((x, y) if rng.uniform() < 0.5 else (y, x))
    for _ in range(10):
        x = float(rng.choice([-1, 1]) * rng.uniform(700, 760))
        y = float(rng.uniform(-4, 4))
        pts.append((x, y) if rng.uniform() < 0.5 else (y, x))
    return pts


# ----------------------------------------------------------------------------
# Complex references
# ----------------------------------------------------------------------------

def np_unary(fn, pts):
    z = np.array([complex(x, y) for x, y in pts], dtype=np.complex128)
    with np.errstate(all='ignore'):
        w = fn(z)
    return [(float(v.real), float(v.imag)) for v in w]


def ref_log1p(x, y):
    if math.isnan(x) or math.isnan(y):
        return (NAN, NAN)
    if not is_finite(x, y):
        with np.errstate(all='ignore'):
            return (float(np.log(np.hypot(x + 1.0, y))), math.atan2(y, x + 1.0))
    fx, fy = Fraction(x), Fraction(y)
    t = 2 * fx + fx * fx + fy * fy  # |1+z|^2 - 1, exactly
    if t == -1:
        re = -INF
    else:
        re = d_float(d_log1p(t) / 2)
    # 1 + x is rounded once; as argued in complex-math.ts this costs at most an
    # ulp of the angle, so math.atan2 on it is a sound reference.
    return (re, math.atan2(y, x + 1.0))


def ref_expm1(x, y):
    if y == 0 and not math.isnan(y):
        with np.errstate(all='ignore'):
            return (float(np.expm1(x)), y)
    if not is_finite(x, y) or abs(x) > 700:
        with np.errstate(all='ignore'):
            a = np.sin(y / 2.0)
            re = np.expm1(x) * np.cos(y) - 2 * a * a
            im = np.exp(x) * np.sin(y)
            if abs(x) > 700 and is_finite(x, y):
                h = np.exp(x / 2.0)
                im = (h * np.sin(y)) * h
                re = (h * np.cos(y)) * h - 1.0
        return (float(re), float(im))
    s, c = d_sincos(y)
    with localcontext() as ctx:
        ctx.prec = 1100
        half_y = Decimal(y) / 2  # exact
    sh, _ = d_sincos(half_y)
    with localcontext() as ctx:
        ctx.prec = 80
        em1 = d_expm1(x)
        # exp(x)cos(y) - 1 = expm1(x)cos(y) - 2 sin^2(y/2), free of cancellation in decimal too
        re = d_float(em1 * c - 2 * sh * sh)
        im = d_float(Decimal(x).exp() * s)
    if re == 0:
        # underflowed to zero: the zero's sign is the formula's (rlx and NumPy)
        with np.errstate(all='ignore'):
            fv = float(np.expm1(x) * np.cos(y) - 2 * np.sin(y / 2.0) ** 2)
        if fv == 0:
            re = fv
    return (re, im)


def ref_sigmoid(x, y):
    """1/(1+exp(-z)), written stably as in complex-math.ts for the non-finite cases."""
    if is_finite(x, y) and abs(x) <= 700:
        s, c = d_sincos(y)
        with localcontext() as ctx:
            ctx.prec = 80
            e = Decimal(-x).exp()
            # 1 + e^{-z} = (1 + e cos y) - i e sin y
            dr = 1 + e * c
            di = -e * s
            den = dr * dr + di * di
            if den == 0:
                return (NAN, NAN)
            return (d_float(dr / den), d_float(-di / den))
    z = complex(x, y)
    with np.errstate(all='ignore'):
        zz = np.complex128(z)
        if x >= 0 or math.isnan(x):
            w = 1.0 / (1.0 + np.exp(-zz))
        else:
            e = np.exp(zz)
            w = e / (1.0 + e)
    return (float(w.real), float(w.imag))


def ref_sign(x, y):
    """NumPy 2's complex sign, with finite-but-overflowing |z| handled by scaling."""
    if math.isnan(x) or math.isnan(y):
        if math.isinf(x) or math.isinf(y):  # hypot(nan, inf) = inf in NumPy 2
            if math.isinf(x):
                return (1.0 if x > 0 else -1.0, 0.0)
            return (0.0, 1.0 if y > 0 else -1.0)
        return (NAN, NAN)
    if math.isinf(x) and math.isinf(y):
        return (NAN, NAN)
    if math.isinf(x):
        return (1.0 if x > 0 else -1.0, 0.0)
    if math.isinf(y):
        return (0.0, 1.0 if y > 0 else -1.0)
    if x == 0 and y == 0:
        return (0.0, 0.0)
    # exact reference: x/|z|, y/|z| correctly rounded-ish via decimal
    with localcontext() as ctx:
        ctx.prec = 60
        dx, dy = Decimal(x), Decimal(y)
        h = (dx * dx + dy * dy).sqrt()
        return (d_float(dx / h), d_float(dy / h))


def ref_div(ar, ai, br, bi):
    if is_finite(ar, ai, br, bi) and (br != 0 or bi != 0):
        a, b, c, d = (Fraction(v) for v in (ar, ai, br, bi))
        den = c * c + d * d
        re = (a * c + b * d) / den
        im = (b * c - a * d) / den
        out = []
        for v in (re, im):
            try:
                out.append(float(v))  # correctly rounded; exact zeros come out as +0
            except OverflowError:
                out.append(INF if v > 0 else -INF)
        return tuple(out), True  # True: exact reference, its zero signs mean nothing
    with np.errstate(all='ignore'):
        w = np.complex128(complex(ar, ai)) / np.complex128(complex(br, bi))
    return (float(w.real), float(w.imag)), False


def np_pow(a, b):
    with np.errstate(all='ignore'):
        w = np.power(np.array([a], dtype=np.complex128), np.array([b], dtype=np.complex128))[0]
    return (float(w.real), float(w.imag))


# ----------------------------------------------------------------------------
# float16 / bfloat16 references
# ----------------------------------------------------------------------------

def f32_bits(v):
    return struct.unpack('<I', struct.pack('<f', v))[0]


def f32_from_bits(b):
    return struct.unpack('<f', struct.pack('<I', b))[0]


def bf16_rne_reference(v):
    """Round the float32 value v to bfloat16 (8 significant bits, float32's
    exponent range) with round-half-to-even, using exact rational arithmetic.
    NaN -> a quiet NaN (the input's sign and top payload bits, quiet bit set)."""
    if math.isnan(v):
        return None
    if math.isinf(v) or v == 0:
        return f32_bits(v) >> 16
    m, e = math.frexp(v)          # v = m * 2**e, 0.5 <= |m| < 1
    q_exp = max(e, -125) - 8      # ulp of bf16 at this magnitude (subnormals: 2**-133)
    q = Fraction(2) ** q_exp
    r = round(Fraction(v) / q) * q   # Fraction.__round__ is half-to-even
    if abs(r) >= Fraction(2) ** 128:
        return 0x7F80 if v > 0 else 0xFF80
    if r == 0:
        return 0x8000 if v < 0 else 0x0000
    return f32_bits(float(r)) >> 16


def f16_inputs():
    xs = [0.0, -0.0, INF, -INF, NAN, 1.0, -1.0, 65504.0, 65519.99999999999, 65520.0, -65520.0,
          65536.0, 1e10, -1e300, 2.0 ** -24, 2.0 ** -25, 2.0 ** -25 * (1 + 2.0 ** -52),
          2.0 ** -26, 3 * 2.0 ** -25, 5 * 2.0 ** -25, 2.0 ** -14, 2.0 ** -14 - 2.0 ** -25,
          2.0 ** -14 - 2.0 ** -26, 1e-300, 5e-324, 1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11,
          1 + 2.0 ** -11 + 2.0 ** -40, 1 + 2.0 ** -11 - 2.0 ** -40, 0.1, 1 / 3, math.pi, -math.e]
    # Exact midpoints between neighbouring halfs (ties), and one double ulp either side:
    # the +-ulp ones catch double rounding through float32.
    for _ in range(220):
        h = int(rng.integers(0, 0x7BFF))
        lo = float(np.uint16(h).view(np.float16))
        hi = float(np.uint16(h + 1).view(np.float16))
        mid = (lo + hi) / 2
        sgn = -1.0 if rng.uniform() < 0.3 else 1.0
        xs += [sgn * mid, sgn * math.nextafter(mid, INF), sgn * math.nextafter(mid, -INF)]
    # Random doubles over the half range and beyond
    for _ in range(150):
        xs.append(float(rng.choice([-1, 1]) * 2.0 ** rng.uniform(-27, 17)))
    xs += [float(v) for v in rng.uniform(-70000, 70000, 30)]
    return xs


def bf16_inputs():
    bits = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x3F800000, 0x3F808000, 0x3F818000,
            0x3F80C000, 0x3F807FFF, 0x3F808001, 0x7F7FFFFF, 0x7F7F8000, 0x7F7F7FFF, 0xFF7FFFFF,
            0x00000001, 0x00008000, 0x00018000, 0x00007FFF, 0x00400000, 0x007FFFFF, 0x807FFFFF,
            0x7FC00000, 0x7F800001, 0xFFC00001]
    for _ in range(300):
        bits.append(int(rng.integers(0, 2 ** 32)))
    for _ in range(150):  # exact ties, on even and odd upper halves
        bits.append((int(rng.integers(0, 2 ** 16)) << 16) | 0x8000)
    out = []
    for b in bits:
        v = f32_from_bits(b)
        if math.isnan(v):
            out.append(('nan', None))  # payloads cannot travel as 'nan'; expect a quiet NaN
            continue
        out.append((enc(v), bf16_rne_reference(v)))
    return out


# ----------------------------------------------------------------------------
# Real functions
# ----------------------------------------------------------------------------

def real_inputs():
    xs = [0.0, -0.0, 5e-324, -5e-324, 1e-300, -1e-300, 1e-20, 2.0 ** -28, 1e-8, 0.25, 0.5, -0.5,
          0.84375, -0.84375, 1.0, 1.25, -1.25, 1.5, 2.5, -2.5, 3.5, -0.49999999999999994,
          0.49999999999999994, 4.5, 2.0 ** 52 + 1, 2.0 ** 53, 6.0, -6.0, 10.0, 26.0, 26.5, 27.0,
          27.3, 28.0, -28.0, 30.0, 36.0, 37.0, 38.0, 39.0, 40.0, -36.0, -37.0, -38.0, -40.0,
          710.0, -710.0, 745.2, -746.0, 1e300, -1e300, INF, -INF, NAN]
    xs += [float(v) for v in rng.uniform(-6, 6, 120)]
    xs += [float(v) for v in rng.uniform(-40, 40, 60)]
    xs += [float(rng.choice([-1, 1]) * 10.0 ** rng.uniform(-12, 2)) for _ in range(60)]
    xs += [float(round(v * 2) / 2) for v in rng.uniform(-20, 20, 30)]  # halves for round()
    return xs


def main():
    out = {
        'meta': {
            'generator': 'tests/golden/gen_scalar_math.py',
            'seed': SEED,
            'numpy': np.__version__,
            'scipy': __import__('scipy').__version__,
            'encoding': "floats are repr() strings: 'nan', 'inf', '-inf', '-0.0', '1e-300'",
        },
    }

    # ---- complex unary ------------------------------------------------------
    pts = complex_unary_inputs()
    unary = {
        'cexp': np_unary(np.exp, pts),
        'clog': np_unary(np.log, pts),
        'csqrt': np_unary(np.sqrt, pts),
        'csin': np_unary(np.sin, pts),
        'ccos': np_unary(np.cos, pts),
        'ctan': np_unary(np.tan, pts),
        'csinh': np_unary(np.sinh, pts),
        'ccosh': np_unary(np.cosh, pts),
        'ctanh': np_unary(np.tanh, pts),
        'casin': np_unary(np.arcsin, pts),
        'cacos': np_unary(np.arccos, pts),
        'catan': np_unary(np.arctan, pts),
        'casinh': np_unary(np.arcsinh, pts),
        'cacosh': np_unary(np.arccosh, pts),
        'catanh': np_unary(np.arctanh, pts),
        'crsqrt': np_unary(lambda z: 1.0 / np.sqrt(z), pts),
        'clog1p': [ref_log1p(x, y) for x, y in pts],
        'cexpm1': [ref_expm1(x, y) for x, y in pts],
        'csigmoid': [ref_sigmoid(x, y) for x, y in pts],
        'csign': [ref_sign(x, y) for x, y in pts],
    }
    out['complex_inputs'] = [[enc(x), enc(y)] for x, y in pts]
    out['complex_unary'] = {k: [[enc(a), enc(b)] for a, b in v] for k, v in unary.items()}
    with np.errstate(all='ignore'):
        z = np.array([complex(x, y) for x, y in pts])
        out['complex_real'] = {
            'cabs': [enc(v) for v in np.abs(z)],
            'cangle': [enc(v) for v in np.angle(z)],
        }

    # ---- cpow -----------------------------------------------------------------
    bases = [0j, complex(-0.0, 0.0), complex(0.0, -0.0), 1 + 0j, -1 + 0j, 1j, 0.5 + 0.5j,
             2 - 3j, -2.5 + 0j, complex(-2.5, -0.0), 1e-300 + 0j, 1e300 + 1e300j,
             complex(INF, 0), complex(INF, 1), complex(NAN, 0), complex(NAN, NAN), complex(1, NAN)]
    exps = [0j, complex(-0.0, 0), complex(0, -0.0), 1 + 0j, 2 + 0j, 3 + 0j, 4 + 0j, -1 + 0j,
            -2 + 0j, -3 + 0j, 7 + 0j, -13 + 0j, 99 + 0j, -99 + 0j, 100 + 0j, 0.5 + 0j, 2.5 + 0j,
            -0.5 + 0j, 1j, 1 + 1j, -0.5 + 2j, 2 + 1j, complex(INF, 0), complex(NAN, 0)]
    pairs = [(a, b) for a in bases for b in exps]
    for _ in range(120):
        m = 10.0 ** rng.uniform(-1, 1)
        th = rng.uniform(-math.pi, math.pi)
        a = complex(m * math.cos(th), m * math.sin(th))
        if rng.uniform() < 0.5:
            b = complex(float(rng.integers(-30, 31)), 0.0)
        else:
            b = complex(rng.uniform(-5, 5), rng.uniform(-5, 5) if rng.uniform() < 0.7 else 0.0)
        pairs.append((a, b))
    out['cpow'] = [[enc(a.real), enc(a.imag), enc(b.real), enc(b.imag), *map(enc, np_pow(a, b))]
                   for a, b in pairs]

    # ---- cdiv -----------------------------------------------------------------
    nums = [0j, complex(-0.0, 0), 1 + 2j, complex(-3, -0.0), complex(INF, 0), complex(INF, INF),
            complex(NAN, 0), complex(1e300, -1e300), complex(1e-300, 5e-324)]
    dens = [0j, complex(-0.0, -0.0), 1 + 0j, complex(0, -1), 2 - 3j, complex(INF, 0),
            complex(INF, INF), complex(NAN, 1), complex(1e300, 1e300), complex(1e-300, -1e-300),
            complex(1e308, 1e-308), complex(5e-324, 1e-310)]
    dpairs = [(a, b) for a in nums for b in dens]
    for _ in range(120):
        vals = [float(rng.choice([-1, 1]) * 10.0 ** rng.uniform(-8, 8)) for _ in range(4)]
        dpairs.append((complex(vals[0], vals[1]), complex(vals[2], vals[3])))
    for _ in range(100):
        vals = [float(rng.choice([-1, 1]) * 10.0 ** rng.uniform(-307, 307)) for _ in range(4)]
        dpairs.append((complex(vals[0], vals[1]), complex(vals[2], vals[3])))
    rows = []
    for a, b in dpairs:
        (wr, wi), exact = ref_div(a.real, a.imag, b.real, b.imag)
        rows.append([enc(a.real), enc(a.imag), enc(b.real), enc(b.imag), enc(wr), enc(wi),
                     1 if exact else 0])
    out['cdiv'] = rows

    # ---- real -------------------------------------------------------------------
    xs = real_inputs()
    arr = np.array(xs, dtype=np.float64)
    s12 = math.sqrt(0.5)
    erfc = np.array([math.erfc(v) for v in xs])
    with np.errstate(all='ignore'):
        cephes = sc.erfc(arr)
        normal = np.isfinite(arr) & (np.abs(erfc) > 1e-300)
        assert np.all(np.abs(cephes[normal] - erfc[normal]) <= 1e-12 * np.abs(erfc[normal])), \
            'scipy and libm erfc disagree'
        erfc_neg = np.array([math.erfc(-(v * s12)) for v in xs])
        gelu = np.where(arr < 0, 0.5 * arr * erfc_neg, 0.5 * arr * (1.0 + sc.erf(arr * s12)))
        # gelu(-inf) is its limit -0 (x * Phi(x) -> 0 from below); the formula gives -inf * 0 = NaN.
        gelu = np.where(arr == -np.inf, -0.0, gelu)
        ex = np.exp(np.minimum(arr, 0.0))
        sigmoid = np.where(arr < 0, ex / (1.0 + ex), 1.0 / (1.0 + np.exp(-np.maximum(arr, 0.0))))
        sigmoid = np.where(np.isnan(arr), np.nan, sigmoid)
        real = {
            'erf': sc.erf(arr),
            'erfc': erfc,
            'gelu': gelu,
            'sigmoid': sigmoid,
            'softplus': np.logaddexp(0.0, arr),
            'roundHalfEven': np.round(arr),
            'sign': np.sign(arr),
            'log1p': np.log1p(arr),
            'expm1': np.expm1(arr),
        }
    out['real_inputs'] = [enc(v) for v in xs]
    out['real'] = {k: [enc(v) for v in vals] for k, vals in real.items()}

    # ---- float16 / bfloat16 ----------------------------------------------------
    hx = f16_inputs()
    with np.errstate(all='ignore'):  # overflow to inf is one of the cases
        hbits = np.array(hx, dtype=np.float64).astype(np.float16).view(np.uint16)
    out['f16_from_f64'] = [[enc(v), int(b)] for v, b in zip(hx, hbits)]
    sample = sorted(set(list(range(0, 65536, 61)) + [0, 1, 0x3ff, 0x400, 0x3c00, 0x7bff, 0x7c00,
                                                      0x7c01, 0x7e00, 0x8000, 0x8001, 0xfbff,
                                                      0xfc00, 0xffff]))
    f16vals = np.array(sample, dtype=np.uint16).view(np.float16).astype(np.float64)
    out['f16_to_f64'] = [[b, enc(v)] for b, v in zip(sample, f16vals)]
    out['bf16_from_f32'] = [[v, b] for v, b in bf16_inputs()]

    with open(OUT, 'w') as fh:
        json.dump(out, fh, separators=(',', ':'))
        fh.write('\n')
    print('wrote', OUT, os.path.getsize(OUT), 'bytes;', len(pts), 'complex inputs')


if __name__ == '__main__':
    main()
