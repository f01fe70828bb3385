// What the plot tests need from rlx, in one import: the package root, as users import it.
export { plot, tensor, cast, complex, zeros, ShapeError, DTypeError, ValueError, IndexError, sparse } from '../../src/index.js';
