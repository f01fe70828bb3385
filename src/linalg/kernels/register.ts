// Registers the js reference kernels for the 'linalg' primitive (the native
// backend registers its LAPACKE kernels itself when it is created).

import { provideLinalgKernels } from '../../compiler/linalg-registry.js';
import { jsLinalgKernels } from './js/index.js';

provideLinalgKernels('js', jsLinalgKernels);
