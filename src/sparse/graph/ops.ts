// Sparse products and solves as IR ops (registered ops of the sparse
// kernel family), so that A·x and A⁻¹b take part in lazy graphs, jit, vmap and
// grad — with respect to x, b and A's stored values alike. The sparsity
// pattern (indptr, indices) is an int32 input and never gets a derivative.
//
//   csrMatmul(p, v, x; t)   y = op(A) x,   op = A, Aᵀ, Aᴴ for t = 0, 1, 2
//   csrSddmm(p, g, x)       s_e = Σ_j g[row e, j] x[col e, j]   (values-shaped)
//   sparseSolve(p, v, b; t) x = op(A)⁻¹ b  (direct or iterative, attrs.method)
//
// Derivatives (bilinear pairing, see compiler/transforms/rules/vjp.ts):
//   csrMatmul  JVP: op(dA) x + op(A) dx.  VJP: x̄ = op(A)ᵀ ȳ; v̄ = sddmm(ȳ, x) for
//              t = 0, sddmm(x, ȳ) for t = 1, conj(sddmm(x, ȳ)) for t = 2.
//   csrSddmm   bilinear: JVP sddmm(dg, x) + sddmm(g, dx); VJP ḡ = A(s̄) x,
//              x̄ = A(s̄)ᵀ g with A(s̄) the matrix of the pattern holding s̄.
//   sparseSolve JVP: op(A)⁻¹ (db − op(dA) x). VJP: b̄ = op(A)⁻ᵀ x̄ (a transpose
//              solve), v̄ = −(gradient of op(A) x w.r.t. the values at b̄), i.e.
//              dA_ij = −λ_i x_j on the pattern for t = 0.

import { Tensor } from '../../tensor/tensor.js';
import { kernelSteps, registerOp, type OpRunArgs, type PartAval } from '../../compiler/op-registry.js';
import { SPARSE_KERNELS } from './family.js';
import type { Attrs } from '../../compiler/ir.js';
import { DTypeError, ShapeError } from '../../tensor/errors.js';
import { DTYPE_INFO, isComplex } from '../../tensor/dtype.js';
import { fmtShape } from '../../tensor/shape.js';
import { bindOp } from '../../tensor/ops/registered-op.js';
import type { SparseDType, ValueArray } from '../contract.js';
import type { CsrView, SparseGraphKernels, SparseSolveOptions } from './contract.js';
import { factorById } from './factors.js';

const SPARSE_DTYPES = ['float32', 'float64', 'complex64', 'complex128'];
type Trans = 0 | 1 | 2;

const conj = (x: Tensor) => (isComplex(x.dtype) ? x.conj() : x);

/** The pattern inputs of a CSR matrix as tensors. */
export interface CsrPattern {
  indptr: Tensor;
  indices: Tensor;
  rows: number;
  cols: number;
}

export function csrMatmulT(p: CsrPattern, values: Tensor, x: Tensor, trans: Trans): Tensor {
  return bindOp('csrMatmul', [p.indptr, p.indices, values, x], { rows: p.rows, cols: p.cols, trans })[0]!;
}

export function csrSddmmT(p: CsrPattern, g: Tensor, x: Tensor): Tensor {
  return bindOp('csrSddmm', [p.indptr, p.indices, g, x], { rows: p.rows, cols: p.cols })[0]!;
}

export function sparseSolveT(p: CsrPattern, values: Tensor, b: Tensor, opts: SparseSolveOptions | Attrs): Tensor {
  return bindOp('sparseSolve', [p.indptr, p.indices, values, b], Object.isFrozen(opts) ? (opts as Attrs) : { rows: p.rows, cols: p.cols, ...opts })[0]!;
}

/** The attrs of a sparseSolve, frozen: a caller that solves often with the same options binds them without rebuilding (and the layout memo keys on them). */
export function sparseSolveAttrs(p: CsrPattern, opts: SparseSolveOptions): Attrs {
  return Object.freeze({ rows: p.rows, cols: p.cols, ...opts });
}

function checkPattern(op: string, indptr: PartAval, indices: PartAval, rows: number): number {
  if (indptr.dtype !== 'int32' || indices.dtype !== 'int32') throw new DTypeError(`sparse.${op}: indptr and indices must be int32, got ${indptr.dtype} and ${indices.dtype}`);
  if (indptr.shape[0] !== rows + 1) throw new ShapeError(`sparse.${op}: indptr has ${indptr.shape[0]} entries for ${rows} rows (expected ${rows + 1})`);
  return indices.shape[0]!;
}

function valueDType(op: string, ...xs: PartAval[]): SparseDType {
  const d = xs[0]!.dtype;
  if (!SPARSE_DTYPES.includes(d) || xs.some((x) => x.dtype !== d)) throw new DTypeError(`sparse.${op}: values and dense operands must share one of ${SPARSE_DTYPES.join(', ')}, got ${xs.map((x) => x.dtype).join(', ')}`);
  return d as SparseDType;
}

const patternOf = (inputs: Tensor[], attrs: Readonly<Record<string, unknown>>): CsrPattern => ({ indptr: inputs[0]!, indices: inputs[1]!, rows: attrs['rows'] as number, cols: attrs['cols'] as number });

/** Slices of batch entry b: each input's core, by its core size. */
function entry(a: OpRunArgs, b: number) {
  const lanes = (i: number) => DTYPE_INFO[a.inDTypes[i]!].lanes;
  const size = (i: number) => a.inShapes[i]!.reduce((p, q) => p * q, 1) * lanes(i);
  return a.ins.map((x, i) => x.subarray(b * size(i), (b + 1) * size(i)));
}
const outEntry = (out: ValueArray, b: number, n: number) => out.subarray(b * n, (b + 1) * n);

registerOp('csrMatmul', {
  family: SPARSE_KERNELS,
  label: 'sparse.csrMatmul',
  uncachedLayout: true,
  coreRanks: [1, 1, 1, 2],
  outputs([ip, ix, v, x], attrs) {
    const rows = attrs['rows'] as number,
      cols = attrs['cols'] as number,
      t = attrs['trans'] as Trans;
    const nnz = checkPattern('csrMatmul', ip!, ix!, rows);
    valueDType('csrMatmul', v!, x!);
    if (v!.shape[0] !== nnz) throw new ShapeError(`sparse.csrMatmul: ${v!.shape[0]} values for ${nnz} stored entries`);
    const inner = t === 0 ? cols : rows;
    if (x!.shape[0] !== inner) throw new ShapeError(`sparse.matmul: a ${rows}x${cols} matrix${t ? ' (transposed)' : ''} times x ${fmtShape(x!.shape)}: x needs ${inner} rows`);
    return [{ shape: [t === 0 ? rows : cols, x!.shape[1]!], dtype: x!.dtype }];
  },
  // Steps: one product per batch entry (awaited off-thread on native: kernelSteps).
  ...kernelSteps<SparseGraphKernels>(function* (a) {
    const rows = a.attrs['rows'] as number,
      cols = a.attrs['cols'] as number,
      t = a.attrs['trans'] as Trans;
    const k = a.inShapes[3]![1]!;
    const d = a.inDTypes[2] as SparseDType;
    const outSize = (t === 0 ? rows : cols) * k * DTYPE_INFO[d].lanes;
    for (let b = 0; b < a.batch; b++) {
      const [ip, ix, v, x] = entry(a, b);
      yield ['csrMatmul', d, { rows, cols, indptr: ip as Int32Array, indices: ix as Int32Array, data: v as ValueArray }, x as ValueArray, k, outEntry(a.outs[0] as ValueArray, b, outSize), t];
    }
  }),
  jvp({ inputs, attrs }, [, , dv, dx]) {
    const p = patternOf(inputs, attrs);
    const t = attrs['trans'] as Trans;
    const y1 = dv ? csrMatmulT(p, dv, inputs[3]!, t) : null;
    const y2 = dx ? csrMatmulT(p, inputs[2]!, dx, t) : null;
    return [y1 && y2 ? y1.add(y2) : (y1 ?? y2)];
  },
  vjp({ inputs, attrs }, [g]) {
    if (!g) return [null, null, null, null];
    const p = patternOf(inputs, attrs);
    const t = attrs['trans'] as Trans;
    const [, , v, x] = inputs;
    const xbar = t === 0 ? csrMatmulT(p, v!, g, 1) : t === 1 ? csrMatmulT(p, v!, g, 0) : conj(csrMatmulT(p, v!, conj(g), 0));
    const vbar = t === 0 ? csrSddmmT(p, g, x!) : t === 1 ? csrSddmmT(p, x!, g) : conj(csrSddmmT(p, x!, g));
    return [null, null, vbar, xbar];
  },
});

registerOp('csrSddmm', {
  family: SPARSE_KERNELS,
  label: 'sparse.csrSddmm',
  uncachedLayout: true,
  coreRanks: [1, 1, 2, 2],
  outputs([ip, ix, g, x], attrs) {
    const rows = attrs['rows'] as number,
      cols = attrs['cols'] as number;
    const nnz = checkPattern('csrSddmm', ip!, ix!, rows);
    valueDType('csrSddmm', g!, x!);
    if (g!.shape[0] !== rows || x!.shape[0] !== cols || g!.shape[1] !== x!.shape[1]) throw new ShapeError(`sparse.csrSddmm: g ${fmtShape(g!.shape)} and x ${fmtShape(x!.shape)} for a ${rows}x${cols} pattern`);
    return [{ shape: [nnz], dtype: g!.dtype }];
  },
  run(kernels, a) {
    const rows = a.attrs['rows'] as number,
      cols = a.attrs['cols'] as number;
    const k = a.inShapes[2]![1]!;
    const d = a.inDTypes[2] as SparseDType;
    const nnz = a.inShapes[1]![0]! * DTYPE_INFO[d].lanes;
    for (let b = 0; b < a.batch; b++) {
      const [ip, ix, g, x] = entry(a, b);
      kernels.csrSddmm(d, { rows, cols, indptr: ip as Int32Array, indices: ix as Int32Array }, g as ValueArray, x as ValueArray, k, outEntry(a.outs[0] as ValueArray, b, nnz));
    }
  },
  jvp({ inputs, attrs }, [, , dg, dx]) {
    const p = patternOf(inputs, attrs);
    const y1 = dg ? csrSddmmT(p, dg, inputs[3]!) : null;
    const y2 = dx ? csrSddmmT(p, inputs[2]!, dx) : null;
    return [y1 && y2 ? y1.add(y2) : (y1 ?? y2)];
  },
  vjp({ inputs, attrs }, [s]) {
    if (!s) return [null, null, null, null];
    const p = patternOf(inputs, attrs);
    return [null, null, csrMatmulT(p, s, inputs[3]!, 0), csrMatmulT(p, s, inputs[2]!, 1)];
  },
});

const TRANS = ['N', 'T', 'H'] as const;

// The derivative rules solve again with the same options: the same method and
// tolerances, or the same factorization (attrs.factor).
const solveOpts = (attrs: Readonly<Record<string, unknown>>): SparseSolveOptions => ({
  method: attrs['method'] as SparseSolveOptions['method'],
  trans: attrs['trans'] as Trans,
  rtol: attrs['rtol'] as number,
  atol: attrs['atol'] as number,
  maxiter: attrs['maxiter'] as number,
  ...(attrs['factor'] !== undefined ? { factor: attrs['factor'] as number } : {}),
  ...(attrs['hints'] !== undefined ? { hints: attrs['hints'] as number } : {}),
});
// The derivative solves (op(A)ᵀ, another right-hand side) use neither the forward's x0 nor its M (built for op(A)).
const withoutHints = (o: SparseSolveOptions): SparseSolveOptions => {
  if (o.hints === undefined) return o;
  const { hints: _, ...rest } = o;
  return rest;
};

registerOp('sparseSolve', {
  family: SPARSE_KERNELS,
  label: 'sparse.sparseSolve',
  uncachedLayout: true,
  coreRanks: [1, 1, 1, 2],
  outputs([ip, ix, v, b], attrs) {
    const rows = attrs['rows'] as number,
      cols = attrs['cols'] as number;
    const nnz = checkPattern('sparseSolve', ip!, ix!, rows);
    valueDType('spsolve', v!, b!);
    if (rows !== cols) throw new ShapeError(`sparse.spsolve: the matrix must be square, got ${rows}x${cols}`);
    if (v!.shape[0] !== nnz) throw new ShapeError(`sparse.spsolve: ${v!.shape[0]} values for ${nnz} stored entries`);
    if (b!.shape[0] !== rows) throw new ShapeError(`sparse.spsolve: a ${rows}x${cols} matrix and b ${fmtShape(b!.shape)}: b needs ${rows} rows`);
    return [{ shape: [...b!.shape], dtype: b!.dtype }];
  },
  // Steps: one solve per batch entry (awaited off-thread on native: kernelSteps).
  ...kernelSteps<SparseGraphKernels>(function* (a) {
    const n = a.attrs['rows'] as number;
    const k = a.inShapes[3]![1]!;
    const d = a.inDTypes[2] as SparseDType;
    const size = n * k * DTYPE_INFO[d].lanes;
    // b [n, 0] has the empty solution; the direct solvers refuse k = 0.
    if (size === 0) return;
    const factor = a.attrs['factor'] as number | undefined;
    for (let b = 0; b < a.batch; b++) {
      const [ip, ix, v, rhs] = entry(a, b);
      const out = outEntry(a.outs[0] as ValueArray, b, size);
      if (factor !== undefined) {
        // A factor object's solve: the factorization exists already (the values are inputs only for the derivative rules).
        const F = factorById(factor);
        const b64 = rhs instanceof Float64Array ? rhs : Float64Array.from(rhs);
        if (out instanceof Float64Array) F.solveRaw(b64, TRANS[a.attrs['trans'] as Trans], out);
        else out.set(F.solveRaw(b64, TRANS[a.attrs['trans'] as Trans]));
        continue;
      }
      const A: CsrView = { rows: n, cols: n, indptr: ip as Int32Array, indices: ix as Int32Array, data: v as ValueArray };
      yield ['solve', d, A, rhs as ValueArray, k, out, solveOpts(a.attrs)];
    }
  }),
  jvp({ inputs, outs: [x], attrs }, [, , dv, db]) {
    const p = patternOf(inputs, attrs);
    const o = withoutHints(solveOpts(attrs));
    let rhs: Tensor | null = db;
    if (dv) {
      const t = csrMatmulT(p, dv, x!, o.trans);
      rhs = rhs ? rhs.sub(t) : t.neg();
    }
    return [rhs ? sparseSolveT(p, inputs[2]!, rhs, o) : null];
  },
  vjp({ inputs, outs: [x], attrs }, [g]) {
    if (!g) return [null, null, null, null];
    const p = patternOf(inputs, attrs);
    const o = withoutHints(solveOpts(attrs));
    const v = inputs[2]!;
    const bbar = o.trans === 2 ? conj(sparseSolveT(p, v, conj(g), { ...o, trans: 0 })) : sparseSolveT(p, v, g, { ...o, trans: o.trans === 0 ? 1 : 0 });
    const vbar = o.trans === 0 ? csrSddmmT(p, bbar, x!) : o.trans === 1 ? csrSddmmT(p, x!, bbar) : conj(csrSddmmT(p, x!, bbar));
    return [null, null, vbar.neg(), bbar];
  },
});
