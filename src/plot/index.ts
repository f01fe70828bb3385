// rlx.plot: figures from tensors, as plotly.js figures ({data, layout}) that
// render offline (Figure.toHTML inlines plotly.js), in notebooks (Figure.show)
// and to PNG (Figure.savePng). This file only re-exports.
//
// plotly.js itself is read from disk only when a figure is turned into HTML.

export { Figure } from './figure.js';
export { PlotError } from './errors.js';
export { DEFAULT_MAX_POINTS } from './decimate.js';
export { line, scatter } from './builders/line.js';
export type { XY, LineOptions, ScatterOptions } from './builders/line.js';
export { heatmap, contour, surface } from './builders/field.js';
export type { FieldOptions, HeatmapOptions, SurfaceOptions } from './builders/field.js';
export { image } from './builders/image.js';
export type { ImageOptions } from './builders/image.js';
export { histogram } from './builders/histogram.js';
export type { HistogramOptions } from './builders/histogram.js';
export { quiver } from './builders/quiver.js';
export type { QuiverOptions } from './builders/quiver.js';
export { spy } from './builders/spy.js';
export type { SpyOptions } from './builders/spy.js';
export { animate } from './builders/animate.js';
export type { AnimateOptions } from './builders/animate.js';
export { subplots } from './builders/subplots.js';
export type { SubplotsOptions } from './builders/subplots.js';
export type { PlotInput } from './data.js';
export type { HtmlOptions } from './html.js';
export type { PngOptions, RenderResult, FigureJSON } from './browser.js';
export { renderCheck, renderCheckFigures, BrowserError, findChromium } from './browser.js';
export { reprText, reprHTML, display } from './repr.js';
export type { Describable } from './repr.js';
export type { Trace, Layout, Frame, FigureSpec, ComplexPart, CommonOptions, ColorOptions } from './types.js';
