// Contract entries of rlx.plot. The builders take tensors but return Figures
// (plotly specs: numbers for a browser, not Tensors), so there is nothing to
// differentiate or batch: they are readouts. tests/plot/*.test.ts checks them.

import type { Table } from './checks.js';

export const plotCases: Table = {
  'plot.Figure': { none: 'class' },
  'plot.PlotError': { none: 'error' },
  'plot.DEFAULT_MAX_POINTS': { none: 'config' },
  'plot.line': { none: 'readout' },
  'plot.scatter': { none: 'readout' },
  'plot.heatmap': { none: 'readout' },
  'plot.contour': { none: 'readout' },
  'plot.surface': { none: 'readout' },
  'plot.image': { none: 'readout' },
  'plot.histogram': { none: 'readout' },
  'plot.quiver': { none: 'readout' },
  'plot.spy': { none: 'readout' },
  'plot.animate': { none: 'readout' },
  'plot.subplots': { none: 'sizes' },
  // Headless Chromium and notebook display: files, processes and strings, no Tensors out.
  'plot.renderCheck': { none: 'io' },
  'plot.renderCheckFigures': { none: 'io' },
  'plot.findChromium': { none: 'io' },
  'plot.BrowserError': { none: 'error' },
  'plot.reprText': { none: 'readout' },
  'plot.reprHTML': { none: 'readout' },
  'plot.display': { none: 'io' },
};
