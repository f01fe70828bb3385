// reprText / reprHTML / display (src/plot/repr.ts): what a notebook shows for a
// tensor, a sparse matrix and a sparse factorization. Expected texts are
// written out by hand (NumPy's str() of the same values for the previews).

import { describe, expect, it, vi } from 'vitest';
import { readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { arange, tensor } from '../../src/index.js';
import { poisson2d, splu } from '../../src/sparse/index.js';
import { defaultDevice } from '../../src/backends/registry.js';
import { display, reprBundle, reprHTML, reprText } from '../../src/plot/repr.js';
import { ValueError } from '../../src/tensor/errors.js';

function captureStdout(f: () => void): string {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    f();
    return write.mock.calls.map((c) => String(c[0])).join('');
  } finally {
    write.mockRestore();
  }
}

describe('reprText', () => {
  it('a tensor: dtype, shape, device and NumPy-style values', () => {
    const t = tensor([[1, 2, 3], [4, 5, 6]], { dtype: 'float32' });
    expect(reprText(t)).toBe(`Tensor(dtype=float32, shape=[2, 3], device=${defaultDevice()} (default))\n[[1. 2. 3.]\n [4. 5. 6.]]`);
    expect(reprText(t.on('js'))).toMatch(/^Tensor\(dtype=float32, shape=\[2, 3\], device=js\)\n/);
  });

  it('a large tensor is summarized (NumPy ... with 3 edge items), not printed whole', () => {
    const text = reprText(arange(10000, { dtype: 'int32' }));
    expect(text).toBe(`Tensor(dtype=int32, shape=[10000], device=${defaultDevice()} (default))\n[   0    1    2 ... 9997 9998 9999]`);
  });

  it('a sparse matrix: format, shape, nnz, density, dtype', () => {
    // 5-point Laplacian on a 4×4 grid: 16 diagonal entries + 2·2·4·3 = 48 neighbour links
    expect(reprText(poisson2d(4))).toBe('CsrMatrix(format=csr, shape=16×16, nnz=64, density=25.0%, dtype=float64)');
    expect(reprText(poisson2d(4).tocoo())).toMatch(/^CooMatrix\(format=coo, shape=16×16, nnz=64,/);
  });

  it('a factorization: method, n, dtype, and whether it was disposed', () => {
    const f = splu(poisson2d(3));
    expect(reprText(f)).toBe(`SparseFactorization(method=${f.method}, n=9, dtype=float64)`);
    f.dispose();
    expect(reprText(f)).toBe(`SparseFactorization(method=${f.method}, n=9, dtype=float64, state=disposed)`);
  });

  it('anything else is a ValueError naming what it got', () => {
    expect(() => reprText({} as never)).toThrow(ValueError);
    expect(() => reprText([1, 2] as never)).toThrow(/expected a Tensor, a sparse matrix or a SparseFactorization, got Array/);
  });
});

describe('reprHTML', () => {
  it('the same fields in markup, with the preview escaped in a <pre>', () => {
    const html = reprHTML(tensor([true, false]));
    expect(html.startsWith('<div class="rlx-repr"><b>Tensor</b>')).toBe(true);
    expect(html).toContain('<code>bool</code>');
    expect(html).toContain('<code>[2]</code>');
    expect(html).toContain('<pre style="margin: 0.3em 0 0 0;">[ True False]</pre>');
    expect(reprHTML(poisson2d(4))).toContain('<code>64</code>');
  });

  it('reprBundle carries the HTML and the text form', () => {
    const A = poisson2d(2);
    expect(reprBundle(A)).toEqual({ 'text/html': reprHTML(A), 'text/plain': reprText(A) });
  });
});

describe('display outside a notebook', () => {
  it('prints the text repr of a tensor', () => {
    const t = tensor([1.5, 2.5], { dtype: 'float64' });
    expect(captureStdout(() => display(t))).toBe(reprText(t) + '\n');
  });
  it('shows a figure as show() does: its HTML file path', () => {
    const fig = { toJSON: () => ({ data: [], layout: {} }), toHTML: () => '<html></html>' };
    const out = captureStdout(() => display(fig));
    expect(out).toMatch(/rlx-figure-[^/]+\/figure\.html\n$/);
    expect(readFileSync(out.trim(), 'utf8')).toBe('<html></html>');
    rmSync(dirname(out.trim()), { recursive: true, force: true });
  });
});
