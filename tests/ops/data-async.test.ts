// `await t.data()` copies a large result in pieces with the event loop turning
// between them (tensor/storage.ts decodeStorageAsync). The pieces must add up
// to the same bits as toArray()'s one copy for every dtype, at sizes that end
// mid-piece, and the array handed out must be the caller's own (writing to it
// leaves the tensor as it was).

import { describe, expect, it } from 'vitest';
import * as rlx from '../../src/index.js';
import { DTYPES, DTYPE_INFO } from '../../src/tensor/dtype.js';

const PIECE = 4 << 20;

describe('await t.data() copies large results in pieces', () => {
  for (const dtype of DTYPES) {
    it(`${dtype}: the same bits as toArray(), a private copy`, async () => {
      const info = DTYPE_INFO[dtype];
      const bytesPerElement = info.lanes * new info.storage(0).BYTES_PER_ELEMENT;
      const n = Math.ceil((2.5 * PIECE) / bytesPerElement) + 7; // two full pieces and a ragged third
      const t = rlx.tensor(Float64Array.from({ length: n }, (_, i) => (i % 251) - 120.25)).cast(dtype).realize();
      const got = await t.data();
      const want = t.toArray();
      expect(got.constructor).toBe(want.constructor);
      expect(got.length).toBe(want.length);
      let firstDiff = -1;
      for (let i = 0; i < want.length && firstDiff < 0; i++) if (!Object.is(got[i], want[i])) firstDiff = i;
      expect(firstDiff, 'first element where data() and toArray() differ').toBe(-1);
      const before = want[want.length - 1];
      got[got.length - 1] = 99;
      expect(t.toArray()[want.length - 1]).toBe(before);
    });
  }
});
