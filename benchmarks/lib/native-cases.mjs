// rlx sides of benchmarks/suites/native.mjs, shared with the `rlx-js` JS peer
// (benchmarks/js-peers/peer.mjs) so that the native and js rows run the same code,
// differing only in the device every input is pinned to with `.on(device)`.
// Each returns { fn, plan? }: fn() is the timed call and returns the realized
// storage (internal node.data, no copy) for the checksum.

import { ramp } from './inputs.mjs';

export function rlxCase(rlx, device, kind, args) {
  const t = (x, shape) => {
    let v = rlx.tensor(x);
    if (shape) v = v.reshape(shape);
    return v.on(device).realize();
  };
  switch (kind) {
    case 'matmul': {
      const { n, dtype } = args;
      let a, b;
      if (dtype === 'complex128' || dtype === 'complex64') {
        a = rlx.complex(t(ramp(n * n, 1), [n, n]), t(ramp(n * n, 5), [n, n]));
        b = rlx.complex(t(ramp(n * n, 3), [n, n]), t(ramp(n * n, 7), [n, n]));
        if (dtype === 'complex64') (a = a.astype('complex64')), (b = b.astype('complex64'));
      } else {
        a = t(ramp(n * n, 1), [n, n]).astype(dtype);
        b = t(ramp(n * n, 3), [n, n]).astype(dtype);
      }
      a = a.on(device).realize();
      b = b.on(device).realize();
      return { fn: () => a.matmul(b).realize().node.data, expr: () => a.matmul(b) };
    }
    case 'chain': {
      const a = t(ramp(args.n, 1)), b = t(ramp(args.n, 3)), c = t(ramp(args.n, 7));
      const expr = () => a.mul(a).add(b.mul(b)).sqrt().mul(c).add(1);
      return { fn: () => expr().realize().node.data, expr };
    }
    case 'triad': {
      const a = t(ramp(args.n, 1)), b = t(ramp(args.n, 3));
      const expr = () => b.mul(args.s).add(a);
      return { fn: () => expr().realize().node.data, expr };
    }
    case 'sum':
    case 'max': {
      const a = t(ramp(args.n, 1));
      const expr = () => a[kind]();
      return { fn: () => expr().realize().node.data, expr };
    }
    case 'bcast': {
      const m = t(ramp(args.rows * args.cols, 1), [args.rows, args.cols]), v = t(ramp(args.cols, 3));
      const expr = () => m.sub(v).mul(m).add(1).abs().sqrt();
      return { fn: () => expr().realize().node.data, expr };
    }
    case 'five_op': {
      const x = t(ramp(args.n, 1)), y = t(ramp(args.n, 3));
      const expr = () => x.mul(2).add(1).exp().sub(y).abs();
      return { fn: () => expr().realize().node.data, expr };
    }
    default:
      throw new Error(`no rlx case ${kind}`);
  }
}
