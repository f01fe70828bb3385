import { it } from 'vitest';
import * as rlx from '../../src/index.js';
it('smoke', () => {
  console.log(rlx.backends());
  const a = rlx.tensor([[1, 2, 3], [4, 5, 6]]).on('js');
  const b = rlx.tensor([10, 20, 30]).on('js');
  console.log(a.add(b).toArray(), a.add(b).dtype, a.device);
  console.log(a.slice(rlx.s(rlx.rg(null, null, -1), rlx.rg(2, 0, -1))).toArray());
  console.log(a.sum(0).toArray(), a.cumsum(1).toArray(), a.matmul(a.T).toArray());
  console.log(rlx.tensor([2147483647], {dtype: 'int32'}).add(1).toArray());
  const t0 = performance.now();
  for (let i = 0; i < 200; i++) { rlx.tensor(new Float64Array(i+1)).on('js').add(1).mul(2).toArray(); }
  console.log('200 compiles ms', performance.now() - t0);
  const t1 = performance.now();
  for (let i = 0; i < 200; i++) { rlx.tensor(new Float64Array(5)).on('js').add(1).mul(2).toArray(); }
  console.log('200 cached ms', performance.now() - t1);
  const z = rlx.complex(rlx.tensor([1,2]), rlx.tensor([3,4]));
  console.log(z.dtype, z.exp().toArray(), z.abs().toArray(), z.abs().dtype);
  console.log(rlx.tensor([1.5], {dtype:'float32'}).add(2.5).dtype, rlx.tensor([1], {dtype:'int32'}).add(2.5).dtype);
  const e = rlx.zeros([0, 3]).on('js').sum(1); console.log(e.shape, e.toArray());
  console.log(rlx.tensor(5).on('js').add(rlx.tensor([1,2])).toArray());
});
