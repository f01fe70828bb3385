// rlx demo: a 1-D heat equation stepped 2,000 times with lazy, fused tensor
// ops, checked against the analytic solution; then a look at the compiled plan.
//   npm run demo

import * as rlx from '../dist/index.js';
const { s, rg } = rlx;

const n = 201, L = 1, alpha = 1;
const dx = L / (n - 1), dt = 0.4 * dx * dx / alpha, steps = 2000;
const x = rlx.linspace(0, L, n);
let u = x.mul(Math.PI).sin();                       // u(x, 0) = sin(pi x)

const t0 = performance.now();
for (let k = 0; k < steps; k++) {
  const inner = u.slice(s(rg(1, -1)));
  const lap = u.slice(s(rg(2))).add(u.slice(s(rg(0, -2)))).sub(inner.mul(2));
  u = inner.add(lap.mul(alpha * dt / (dx * dx))).pad([1, 1]);  // Dirichlet u = 0 at both ends
  if (k % 100 === 99) u.toArray();                 // realize: the graph stays bounded
}
const ms = performance.now() - t0;
const exact = x.mul(Math.PI).sin().mul(Math.exp(-Math.PI * Math.PI * alpha * steps * dt));
const err = u.sub(exact).abs().max().item();
console.log(`heat equation: ${steps} steps on ${n} points in ${ms.toFixed(0)} ms`);
console.log(`max |u - exact| = ${err.toExponential(3)} (u(0.5) = ${u.select(0, 100).item().toFixed(6)})`);

const z = rlx.complex(rlx.linspace(-1, 1, 5), rlx.full([5], 0.5));
console.log('\nexp(i z) for complex z:');
console.log(z.mul(rlx.complex(0, 1)).exp().toString());

console.log('\nthe plan of sqrt(a*a + b*b) * c + 1 summed (one fused kernel):');
const keys = rlx.random.split(rlx.random.key(0), 3); // [3, 2]: three keys stacked
// Samples are lazy (a registered op of the key); realize them so the plan below is the expression's alone.
const [a, b, c] = [0, 1, 2].map((i) => rlx.random.normal(keys.select(0, i), [1000]).realize());
rlx.explain(a.mul(a).add(b.mul(b)).sqrt().mul(c).add(1).sum());
console.log('\nbackends:', rlx.backends().map((b) => `${b.name}${b.available ? '' : ` (unavailable: ${b.reason})`}`).join(', '));
