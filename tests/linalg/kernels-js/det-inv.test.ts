// The js det and inv kernels against their contract (the cases are shared
// with the native kernels: tests/linalg/kernels-native/det-inv-cases.ts).

import { describe } from 'vitest';
import { jsLinalgKernels } from '../../../src/linalg/kernels/js/index.js';
import { DTYPES } from './helpers.js';
import { detInvCases } from '../kernels-native/det-inv-cases.js';

describe.each(DTYPES)('js det and inv kernels, %s', (d) => {
  detInvCases(() => jsLinalgKernels, d);
});
