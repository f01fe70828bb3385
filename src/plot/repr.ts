// Compact notebook displays of rlx objects: a tensor (dtype, shape, device and
// a summarized preview of its values), a sparse matrix (format, shape, nnz,
// density, dtype) and a sparse factorization (method, n, dtype). reprText and
// reprHTML give the two forms; display(x) shows one in a tslab notebook (HTML
// with the text as fallback) or prints the text elsewhere, and shows a Figure
// as fig.show() does.
//
// Why an explicit display(x): tslab 1.0 shows a cell's last expression with
// console.log, i.e. util.inspect (a Tensor prints its repr() through
// util.inspect.custom), and has no per-object rich-display protocol such as
// IPython's _repr_html_; the kernel only renders HTML sent through its display
// API. So the HTML form is reached by calling plot.display(x).

import { Tensor } from '../tensor/tensor.js';
import { ValueError } from '../tensor/errors.js';
import { formatTensor } from '../tensor/format.js';
import { defaultDevice } from '../backends/registry.js';
import { isSparse, type SparseMatrix } from '../sparse/base.js';
import { SparseFactorization } from '../sparse/factor.js';
import { displayBundle, show, type MimeBundle, type Showable } from './show.js';

/** What reprText/reprHTML describe. */
export type Describable = Tensor | SparseMatrix | SparseFactorization;

/** Preview size: NumPy's summarization with fewer elements than a terminal print (notebooks stack many outputs). */
const PREVIEW = { threshold: 64, edgeitems: 3, linewidth: 100 };

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

interface Summary {
  /** The kind: Tensor, CsrMatrix, SparseFactorization... */
  kind: string;
  /** Label → value pairs, in display order. */
  fields: [string, string][];
  /** Multi-line preview of the values, if any. */
  preview?: string;
}

function tensorSummary(t: Tensor): Summary {
  const device = t.device ?? `${defaultDevice()} (default)`;
  let shape: string;
  let preview: string;
  try {
    shape = `[${t.shape.join(', ')}]`;
    try {
      preview = formatTensor(t.toArray(), t.shape, t.dtype, PREVIEW);
    } catch (e) {
      preview = `(values not available: ${(e as Error).message})`;
    }
  } catch {
    // a symbolic tensor inside jit/vmap tracing: its values exist only when the graph runs
    shape = `[${t.symbolicShape.join(', ')}]`;
    preview = '(symbolic: values exist only when the traced function runs)';
  }
  return { kind: 'Tensor', fields: [['dtype', t.dtype], ['shape', shape], ['device', device]], preview };
}

function sparseSummary(A: SparseMatrix): Summary {
  const [m, n] = A.shape;
  const density = m * n === 0 ? 0 : A.nnz / (m * n);
  return {
    kind: `${A.format.charAt(0).toUpperCase()}${A.format.slice(1)}Matrix`,
    fields: [['format', A.format], ['shape', `${m}×${n}`], ['nnz', String(A.nnz)], ['density', `${(100 * density).toPrecision(3)}%`], ['dtype', A.dtype]],
  };
}

function factorSummary(f: SparseFactorization): Summary {
  const fields: [string, string][] = [['method', f.method], ['n', String(f.n)], ['dtype', f.dtype]];
  if (f.disposed) fields.push(['state', 'disposed']);
  return { kind: 'SparseFactorization', fields };
}

function summary(op: string, x: unknown): Summary {
  if (x instanceof Tensor) return tensorSummary(x);
  if (x instanceof SparseFactorization) return factorSummary(x);
  if (isSparse(x)) return sparseSummary(x);
  const got = x === null ? 'null' : typeof x === 'object' ? (x.constructor?.name ?? 'object') : typeof x;
  throw new ValueError(`plot.${op}: expected a Tensor, a sparse matrix or a SparseFactorization, got ${got}`);
}

/**
 * A compact plain-text description: `Tensor float32 [2, 3] on native (default)` and a preview of the values.
 * @example
 * ```ts
 * plot.reprText(sparse.poisson2d(4));   // 'CsrMatrix(format=csr, shape=16×16, nnz=64, density=25.0%, dtype=float64)'
 * plot.reprText(tensor([1, 2, 3])).split('\n')[1];   // '[1. 2. 3.]'  (after the header line: dtype, shape, device)
 * ```
 */
export function reprText(x: Describable): string {
  const s = summary('reprText', x);
  const head = `${s.kind}(${s.fields.map(([k, v]) => `${k}=${v}`).join(', ')})`;
  return s.preview === undefined ? head : `${head}\n${s.preview}`;
}

/**
 * The same as a small HTML block for notebooks (a header line of fields and a <pre> preview).
 * @example
 * ```ts
 * const html = plot.reprHTML(tensor([1, 2, 3]));
 * html.startsWith('<div class="rlx-repr"><b>Tensor</b>');   // true
 * html.includes('<pre style="margin: 0.3em 0 0 0;">[1. 2. 3.]</pre>');   // true
 * ```
 */
export function reprHTML(x: Describable): string {
  const s = summary('reprHTML', x);
  const fields = s.fields.map(([k, v]) => `<span style="margin-left: 1em; color: #666;">${escapeHtml(k)}</span> <code>${escapeHtml(v)}</code>`).join('');
  const preview = s.preview === undefined ? '' : `<pre style="margin: 0.3em 0 0 0;">${escapeHtml(s.preview)}</pre>`;
  return `<div class="rlx-repr"><b>${escapeHtml(s.kind)}</b>${fields}${preview}</div>`;
}

/** The MIME bundle display() sends for a tensor, sparse matrix or factorization. */
export function reprBundle(x: Describable): MimeBundle {
  return { 'text/html': reprHTML(x), 'text/plain': reprText(x) };
}

function isFigure(x: unknown): x is Showable {
  return x !== null && typeof x === 'object' && typeof (x as Showable).toJSON === 'function' && typeof (x as Showable).toHTML === 'function';
}

/**
 * Shows x in a tslab notebook: a Figure as fig.show() does, a tensor, sparse
 * matrix or factorization as its HTML repr. Outside a notebook it prints
 * reprText(x) (a Figure: writes its HTML file and prints the path).
 * @example
 * ```ts
 * plot.display(tensor([1, 2, 3]));
 * // outside a notebook, prints plot.reprText's two lines:
 * //   Tensor(dtype=float64, shape=[3], device=native (default))   (or js, the default device)
 * //   [1. 2. 3.]
 * ```
 */
export function display(x: Describable | Showable): void {
  const described = x instanceof Tensor || x instanceof SparseFactorization || isSparse(x);
  if (!described && isFigure(x)) {
    show(x);
    return;
  }
  const bundle = reprBundle(x as Describable);
  if (!displayBundle(bundle)) process.stdout.write(`${bundle['text/plain'] as string}\n`);
}
