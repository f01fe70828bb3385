// The small computation the loading tests run through each build of rlx (see
// consumers.test.ts). Written once, in CommonJS, so that the ESM and the
// CommonJS consumer run the same code: each passes in the rlx it loaded.
// Dense ops are pinned to `device`; the sparse solve follows the default device
// (the test runs js with RLX_NATIVE=0, which makes js the default).
module.exports = function compute(rlx, device) {
  const f64 = { dtype: 'float64' };
  const a = rlx.tensor([[4, 1], [1, 3]], f64).on(device);
  const b = rlx.tensor([1, 2], f64).on(device);
  const A = rlx.sparse.fromDense(rlx.tensor([[4, 1], [1, 3]], f64));
  return {
    nativeAvailable: rlx.nativeStatus().available,
    add: a.add(1).tolist(),
    matmul: rlx.matmul(a, a).tolist(),
    solve: rlx.linalg.solve(a, b).tolist(),
    spsolve: rlx.sparse.spsolve(A, rlx.tensor([1, 2], f64), { method: 'lu' }).tolist(),
  };
};
