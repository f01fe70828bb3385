// The native det and inv kernels against their contract (det-inv-cases.ts)
// and against the js reference kernels.

import { describe } from 'vitest';
import { jsLinalgKernels } from '../../../src/linalg/kernels/js/index.js';
import { DTYPES, K, describeNative } from './helpers.js';
import { detInvAgree, detInvCases } from './det-inv-cases.js';

describeNative('native det and inv kernels', () => {
  describe.each(DTYPES)('%s', (d) => {
    detInvCases(K, d);
    detInvAgree(K, () => jsLinalgKernels, d);
  });
});
