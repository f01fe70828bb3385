// The plot module and what its tests need from rlx, in one import (the root
// index re-exports plot only once the export is wired in; until then, from source).
export * as plot from '../../src/plot/index.js';
export { tensor, cast, complex, zeros, ShapeError, DTypeError, ValueError, IndexError, sparse } from '../../src/index.js';
