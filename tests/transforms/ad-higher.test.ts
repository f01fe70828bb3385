// Second-order derivatives through every rule family: Hessian-vector products
// (forward-over-reverse: jvp of grad) against central finite differences of the
// gradient, and the symmetry of the Hessian, Re<w, H v> = Re<v, H w>, which holds
// for the JAX-convention gradient of a real function of complex inputs too
// (H v is the conjugate of the real Hessian applied to v, see vjp.ts).
//
// Tolerances: the gradient's central difference with h = 1e-5 has rounding error
// ≈ eps·|g|/h ≈ 2e-11·|g| and truncation h²|g'''|/6 ≈ 1e-10·|g'''|; rtol 1e-6 and
// atol 1e-6·(1 + max|g|) leave a wide margin on these moderate-curvature functions.
// Symmetry: the two sides are sums of the same terms in different orders: 1e-9
// relative to Σ|w||Hv| + Σ|v||Hw|.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import type { Tensor } from '../../src/index.js';
import { DEVICES } from '../harness/devices.js';
import { AD_RUNS, directions, prng, reDot, sample, toT, vals, type InSpec } from './ad-harness.js';

interface HCase {
  name: string;
  spec: InSpec;
  f: (x: Tensor) => Tensor;
}

const X: InSpec = { shape: [2, 3], lo: -1, hi: 1 };
const Z: InSpec = { shape: [2, 3], lo: -1, hi: 1, dtype: 'complex128' };

const CASES: HCase[] = [
  { name: 'elementwise chain', spec: X, f: (x) => x.sin().mul(x.exp()).add(x.tanh().square()).add(x.mul(x).add(1).log()).sum() },
  { name: 'matmul, tanh, sum', spec: X, f: (x) => x.matmul(x.T).tanh().sum() },
  { name: 'logsumexp × prod', spec: X, f: (x) => x.logsumexp(1).sum().mul(x.prod(0).sum()) },
  { name: 'max, maximum, where', spec: X, f: (x) => x.max(1).square().sum().add(rlx.where(x.gt(0), x.pow(3), x.exp()).maximum(x.sigmoid()).sum()) },
  {
    name: 'cumsum, negative-step slice, pad, gather, scatterAdd, concat',
    spec: X,
    f: (x) => {
      const y = x.cumsum(1).slice(rlx.s(rlx.ax(), rlx.rg(null, null, -2))).pad([[1, 0], [0, 1]]);
      const g = y.gather([0, 2, 2], 0).scatterAdd([1], x.slice(rlx.s(rlx.rg(0, 1), rlx.rg(null, null, -1))).T.sin(), 1);
      return rlx.cat([g.flatten(), x.flatten().exp()], 0).softplus().square().sum();
    },
  },
  { name: 'erf, gelu, atan2, div, rsqrt', spec: X, f: (x) => x.erf().mul(x.gelu()).add(x.atan2(x.square().add(1))).add(x.div(x.square().add(2))).add(x.square().add(1).rsqrt()).sum() },
  { name: 'complex: |z|², exp, angle, real/imag', spec: Z, f: (z) => z.mul(z.conj()).real().mul(z.exp().abs()).add(z.add(2).angle()).add(z.real().mul(z.imag())).sum() },
  { name: 'complex: matmul, sum of a holomorphic map, then abs', spec: Z, f: (z) => z.matmul(z.T).sin().sum().abs().square() },
];

const hvp1 = (f: HCase['f'], x: Tensor, v: Tensor) => rlx.hvp(f, [x], [v]) as Tensor;

describe.each(DEVICES)('Hessian-vector products on %s: jvp of grad vs finite differences of grad, and symmetry', (device) => {
  for (const c of CASES) {
    it(c.name, () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 2 ** 31 - 1 }), (seed) => {
          const r = prng(seed);
          const s = sample([c.spec], r);
          const [v] = directions([c.spec], r, 'mixed');
          const [w] = directions([c.spec], r, 'mixed');
          const cx = c.spec.dtype === 'complex128';
          const X0 = () => toT(s.data[0]!, c.spec, device);
          const hv = vals(hvp1(c.f, X0(), toT(v!, c.spec, device)));
          const hw = vals(hvp1(c.f, X0(), toT(w!, c.spec, device)));
          const h = 1e-5;
          const gAt = (sgn: number) => vals(rlx.grad(c.f)(toT(s.data[0]!.map((q, k) => q + sgn * h * v![k]!), c.spec, device)) as Tensor);
          const gp = gAt(1),
            gm = gAt(-1);
          const fd = gp.map((p, k) => (p - gm[k]!) / (2 * h));
          const scale = Math.max(1, ...Array.from(gp, Math.abs));
          expect(hv).toBeAllclose(fd, { rtol: 1e-6, atol: 1e-6 * scale });
          const a = reDot(w!, cx, hv, cx),
            b = reDot(v!, cx, hw, cx);
          expect(Math.abs(a.v - b.v)).toBeLessThanOrEqual(1e-9 * (a.mag + b.mag) + 1e-12);
        }),
        { numRuns: Math.max(3, Math.round(AD_RUNS / 2)) },
      );
    });
  }
});
