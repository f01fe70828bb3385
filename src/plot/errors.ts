// The plot module's own error: plotly.js, which figures inline into their HTML,
// could not be found or read (a broken install). Input errors use the core's
// ShapeError / DTypeError / ValueError / IndexError like every other module.

import { RlxError } from '../tensor/errors.js';

/** plotly.js (the npm package plotly.js-dist-min, a dependency of rlx) is missing or unreadable. */
export class PlotError extends RlxError {}
