// Registers the sparse IR ops and their js kernels (the native backend adds its own).

import './ops.js';
import { provideLinalgKernels } from '../../compiler/linalg-registry.js';
import { jsSparseGraphKernels } from './js-kernels.js';

provideLinalgKernels('js', jsSparseGraphKernels, 'sparse');
