// The plotly vocabulary the plot module speaks: a trace, a layout and a frame
// are plain objects whose keys are plotly.js attributes (https://plotly.com/javascript/reference/),
// so plotly's documentation applies to everything a Figure holds. They are typed
// loosely on purpose: plotly has hundreds of attributes and checking them here
// would duplicate plotly's schema. Data arrays may be plain number arrays or
// typed arrays (plotly accepts both); Figure.toJSON() turns the latter into plain arrays.

/** One plotly trace: `{type: 'scatter', x, y, ...}`. */
export type Trace = { type?: string } & Record<string, unknown>;

/** A plotly layout: `{title, xaxis, yaxis, ...}`. */
export type Layout = Record<string, unknown>;

/** One animation frame: `{name, data: [traces], layout?}`. */
export interface Frame {
  name: string;
  data: Trace[];
  layout?: Layout;
  [key: string]: unknown;
}

/** What a Figure serializes to: plotly's figure object. */
export interface FigureSpec {
  data: Trace[];
  layout: Layout;
  frames?: Frame[];
}

/**
 * Which real number a complex value is shown as: its magnitude (`'abs'`, the
 * default everywhere), real or imaginary part, or phase angle in radians (`'angle'`, in (-π, π]).
 */
export type ComplexPart = 'abs' | 'real' | 'imag' | 'angle';

/**
 * Options every builder takes. Axis and layout options are plotly's own
 * (`xaxis: {type: 'log', title: {text: 'n'}, range: [0, 1]}`), merged over what
 * the builder sets; the shortcuts below are applied first, so an explicit
 * `xaxis`/`yaxis`/`layout` wins over them.
 */
export interface CommonOptions {
  /** Figure title (layout.title.text). */
  title?: string;
  /** x axis title (shortcut for `xaxis: {title: {text}}`). */
  xlabel?: string;
  /** y axis title (shortcut for `yaxis: {title: {text}}`). */
  ylabel?: string;
  /** Logarithmic x axis (shortcut for `xaxis: {type: 'log'}`). */
  logX?: boolean;
  /** Logarithmic y axis (shortcut for `yaxis: {type: 'log'}`). */
  logY?: boolean;
  /** plotly layout.xaxis attributes, merged over the builder's. */
  xaxis?: Record<string, unknown>;
  /** plotly layout.yaxis attributes, merged over the builder's. */
  yaxis?: Record<string, unknown>;
  /** Figure size in CSS pixels (layout.width / layout.height; default: fill the page, responsive). */
  width?: number;
  height?: number;
  /** Any other plotly layout attributes, merged last (deeply for nested objects). */
  layout?: Layout;
  /** Trace name (legend entry and hover label). */
  name?: string;
  /** Any other plotly attributes of the trace, merged last (deeply), e.g. `{line: {color: 'red'}}`. */
  trace?: Record<string, unknown>;
  /** Complex inputs: the part shown (default `'abs'`, the magnitude). Ignored for real inputs. */
  part?: ComplexPart;
}

/** Options of the builders that draw a scalar field with a color scale. */
export interface ColorOptions {
  /** A plotly colorscale name ('Viridis', 'RdBu', 'Greys', ...) or `[[0, '#000'], [1, '#fff']]` stops. Default: plotly's. */
  colorscale?: string | [number, string][];
  /** Reverse the colorscale. */
  reversescale?: boolean;
  /** Color range (default: the data's min and max). */
  zmin?: number;
  zmax?: number;
}
