import { it } from 'vitest';
import * as rlx from '../../src/index.js';
it('smoke', () => {
  console.log(rlx.tensor([true]).pad([1,1], 2).toArray(), rlx.tensor(new Int32Array([1])).pad([1,1], 0.5).toArray(), rlx.tensor([true]).pad([1,1], 0.5).toArray());
  console.log(rlx.tensor([1,2]).clip(0.5, 1.5).toArray(), rlx.tensor(new Int32Array([1,5])).clip(1.5, 3).dtype);
  console.log(rlx.zeros([3], {dtype:'float16'}).add(70000).toArray(), rlx.tensor(new Int32Array([70000])).cast('float16').toArray());
});
