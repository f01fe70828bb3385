// How the builders' common options (types.ts CommonOptions) become plotly
// layout and trace attributes. One place, so every builder reads `title`,
// `xlabel`, `logX`, `xaxis`, `layout`, `trace`... the same way: the builder's
// own settings first, then the shortcuts, then the user's plotly objects merged
// deeply on top (the user always has the last word, in plotly's vocabulary).

import { ValueError } from '../tensor/errors.js';
import type { CommonOptions, Layout, Trace } from './types.js';

const isPlainObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);

/** Deep merge of plain objects (arrays and typed arrays are replaced, not merged). Returns a new object. */
export function merge<T extends Record<string, unknown>>(base: T, over: Record<string, unknown> | undefined): T {
  if (!over) return base;
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) out[k] = isPlainObject(v) && isPlainObject(out[k]) ? merge(out[k] as Record<string, unknown>, v) : v;
  return out as T;
}

function checkOptions(op: string, opts: CommonOptions): void {
  if (opts === null || typeof opts !== 'object') throw new ValueError(`${op}: expected an options object, got ${opts === null ? 'null' : typeof opts}`);
  for (const k of ['width', 'height'] as const) {
    const v = opts[k];
    if (v !== undefined && !(typeof v === 'number' && v > 0 && Number.isFinite(v))) throw new ValueError(`${op}: expected ${k} a positive number of pixels, got ${String(v)}`);
  }
}

/**
 * The figure layout: `builder` (what the builder needs, e.g. a reversed y axis)
 * + the shortcuts + opts.xaxis / opts.yaxis / opts.layout. `axes` names the
 * layout keys the x/y shortcuts go to (3-D builders use scene.xaxis...).
 */
export function layoutOf(op: string, opts: CommonOptions, builder: Layout = {}, axes: { x: string; y: string } = { x: 'xaxis', y: 'yaxis' }): Layout {
  checkOptions(op, opts);
  let layout: Layout = merge({}, builder);
  const axis = (key: string, set: Record<string, unknown>): void => {
    const path = key.split('.');
    const over: Record<string, unknown> = {};
    let at = over;
    for (const p of path.slice(0, -1)) at = at[p] = {} as Record<string, unknown>;
    at[path[path.length - 1]!] = set;
    layout = merge(layout, over);
  };
  if (opts.title !== undefined) layout = merge(layout, { title: { text: opts.title } });
  if (opts.xlabel !== undefined) axis(axes.x, { title: { text: opts.xlabel } });
  if (opts.ylabel !== undefined) axis(axes.y, { title: { text: opts.ylabel } });
  if (opts.logX) axis(axes.x, { type: 'log' });
  if (opts.logY) axis(axes.y, { type: 'log' });
  if (opts.xaxis) axis(axes.x, opts.xaxis);
  if (opts.yaxis) axis(axes.y, opts.yaxis);
  if (opts.width !== undefined) layout.width = opts.width;
  if (opts.height !== undefined) layout.height = opts.height;
  return merge(layout, opts.layout);
}

/** The builder's trace with opts.name and opts.trace applied. */
export function traceOf(trace: Trace, opts: CommonOptions): Trace {
  const t: Trace = opts.name !== undefined ? { ...trace, name: opts.name } : trace;
  return merge(t, opts.trace);
}
