// Arithmetic on canonical compressed arrays: linear combinations, elementwise
// products, scaling, SpGEMM and Kronecker products.
//
// Inputs are CSR-oriented Compressed (major = rows) with sorted, duplicate-free
// indices and one common storage (the matrix classes promote and canonicalize
// before calling). Outputs are canonical too. Like SciPy's csr_binop_csr and
// csr_matmat, add/sub/multiply/SpGEMM drop entries that come out exactly zero;
// scale and kron keep the pattern of their inputs.
//
// Arithmetic is done in double and stored into the output storage (Float32Array
// for float32/complex64, so float32 results are rounded once per entry).

import { type Compressed, allocLike } from './kernels.js';
import { SparseFormatError } from './errors.js';

const shrink = (c: Compressed, nnz: number): Compressed =>
  nnz === c.indices.length ? c : { ...c, indices: c.indices.slice(0, nnz), data: c.data.slice(0, nnz * c.lanes) };

/** C = α·A + β·B for real α, β (sub is β = -1). Union of patterns, exact zeros dropped. */
export function addCompressed(a: Compressed, b: Compressed, alpha = 1, beta = 1): Compressed {
  const { major, lanes } = a;
  const ip = new Int32Array(major + 1);
  const cap = a.indices.length + b.indices.length;
  const ci = new Int32Array(cap);
  const cd = allocLike(a.data, cap * lanes);
  const ai = a.indices, bi = b.indices, ad = a.data, bd = b.data;
  let q = 0;
  const push = (j: number, re: number, im: number): void => {
    if (re === 0 && im === 0) return;
    ci[q] = j;
    if (lanes === 1) cd[q] = re;
    else {
      cd[2 * q] = re;
      cd[2 * q + 1] = im;
    }
    q++;
  };
  for (let i = 0; i < major; i++) {
    let p = a.indptr[i]!, r = b.indptr[i]!;
    const pe = a.indptr[i + 1]!, re = b.indptr[i + 1]!;
    while (p < pe || r < re) {
      const ja = p < pe ? ai[p]! : 2147483647;
      const jb = r < re ? bi[r]! : 2147483647;
      if (ja === jb) {
        if (lanes === 1) push(ja, alpha * ad[p]! + beta * bd[r]!, 0);
        else push(ja, alpha * ad[2 * p]! + beta * bd[2 * r]!, alpha * ad[2 * p + 1]! + beta * bd[2 * r + 1]!);
        p++;
        r++;
      } else if (ja < jb) {
        push(ja, alpha * ad[lanes * p]!, lanes === 2 ? alpha * ad[2 * p + 1]! : 0);
        p++;
      } else {
        push(jb, beta * bd[lanes * r]!, lanes === 2 ? beta * bd[2 * r + 1]! : 0);
        r++;
      }
    }
    ip[i + 1] = q;
  }
  return shrink({ major, minor: a.minor, indptr: ip, indices: ci, data: cd, lanes }, q);
}

/** Elementwise (Hadamard) product A∘B: intersection of patterns, exact zeros dropped. */
export function multiplyCompressed(a: Compressed, b: Compressed): Compressed {
  const { major, lanes } = a;
  const ip = new Int32Array(major + 1);
  const cap = Math.min(a.indices.length, b.indices.length);
  const ci = new Int32Array(cap);
  const cd = allocLike(a.data, cap * lanes);
  const ai = a.indices, bi = b.indices, ad = a.data, bd = b.data;
  let q = 0;
  for (let i = 0; i < major; i++) {
    let p = a.indptr[i]!, r = b.indptr[i]!;
    const pe = a.indptr[i + 1]!, re = b.indptr[i + 1]!;
    while (p < pe && r < re) {
      const ja = ai[p]!, jb = bi[r]!;
      if (ja < jb) p++;
      else if (jb < ja) r++;
      else {
        let vr: number, vi = 0;
        if (lanes === 1) vr = ad[p]! * bd[r]!;
        else {
          const xr = ad[2 * p]!, xi = ad[2 * p + 1]!, yr = bd[2 * r]!, yi = bd[2 * r + 1]!;
          vr = xr * yr - xi * yi;
          vi = xr * yi + xi * yr;
        }
        if (vr !== 0 || vi !== 0) {
          ci[q] = ja;
          if (lanes === 1) cd[q] = vr;
          else {
            cd[2 * q] = vr;
            cd[2 * q + 1] = vi;
          }
          q++;
        }
        p++;
        r++;
      }
    }
    ip[i + 1] = q;
  }
  return shrink({ major, minor: a.minor, indptr: ip, indices: ci, data: cd, lanes }, q);
}

/**
 * A∘D for a dense D given by its storage (lanes as A) and strides: D(i, j) =
 * D[i·rs + j·cs] (rs = 0 or cs = 0 broadcast a row or a column). Keeps A's pattern.
 */
export function multiplyDenseCompressed(a: Compressed, d: Float64Array, rs: number, cs: number): Compressed {
  const { major, lanes, indptr, indices, data } = a;
  const out = allocLike(data, data.length);
  for (let i = 0; i < major; i++) {
    for (let p = indptr[i]!; p < indptr[i + 1]!; p++) {
      const o = i * rs + indices[p]! * cs;
      if (lanes === 1) out[p] = data[p]! * d[o]!;
      else {
        const xr = data[2 * p]!, xi = data[2 * p + 1]!, yr = d[2 * o]!, yi = d[2 * o + 1]!;
        out[2 * p] = xr * yr - xi * yi;
        out[2 * p + 1] = xr * yi + xi * yr;
      }
    }
  }
  return { ...a, indptr: indptr.slice(), indices: indices.slice(), data: out };
}

/** α·A for α = re + i·im (im must be 0 for real storage). Keeps the pattern. */
export function scaleCompressed(a: Compressed, re: number, im: number): Compressed {
  const { data, lanes } = a;
  const out = allocLike(data, data.length);
  if (lanes === 1) for (let p = 0; p < data.length; p++) out[p] = re * data[p]!;
  else
    for (let p = 0; p < data.length; p += 2) {
      const xr = data[p]!, xi = data[p + 1]!;
      out[p] = re * xr - im * xi;
      out[p + 1] = re * xi + im * xr;
    }
  return { ...a, indptr: a.indptr.slice(), indices: a.indices.slice(), data: out };
}

/**
 * C = A·B (SpGEMM, Gustavson's row-by-row algorithm). A pass counts each row's
 * distinct columns with a marker array (so C is allocated once, exactly), a second
 * pass accumulates into a dense row accumulator, then each row's touched columns
 * are sorted (typed-array sort on a subarray: no per-row allocation beyond the
 * view) and exact zeros dropped.
 */
export function spgemm(a: Compressed, b: Compressed): Compressed {
  const m = a.major, n = b.minor, lanes = a.lanes;
  if (a.minor !== b.major) throw new SparseFormatError(`matmulSparse: inner dimensions differ (${a.minor} vs ${b.major})`);
  const aip = a.indptr, aix = a.indices, ad = a.data, bip = b.indptr, bix = b.indices, bd = b.data;
  const mark = new Int32Array(n).fill(-1);
  let total = 0;
  for (let i = 0; i < m; i++) {
    for (let p = aip[i]!; p < aip[i + 1]!; p++) {
      const k = aix[p]!;
      for (let r = bip[k]!; r < bip[k + 1]!; r++) {
        const j = bix[r]!;
        if (mark[j] !== i) {
          mark[j] = i;
          total++;
        }
      }
    }
    if (total > 2147483647) throw new SparseFormatError(`matmulSparse: the product has more than 2^31-1 nonzeros`);
  }
  const ip = new Int32Array(m + 1);
  const ci = new Int32Array(total);
  const cd = allocLike(ad, total * lanes);
  const acc = new Float64Array(n * lanes);
  mark.fill(-1);
  let q = 0;
  for (let i = 0; i < m; i++) {
    const start = q;
    let cnt = 0;
    for (let p = aip[i]!; p < aip[i + 1]!; p++) {
      const k = aix[p]!;
      const xr = ad[lanes * p]!, xi = lanes === 2 ? ad[2 * p + 1]! : 0;
      for (let r = bip[k]!; r < bip[k + 1]!; r++) {
        const j = bix[r]!;
        if (mark[j] !== i) {
          mark[j] = i;
          ci[start + cnt++] = j;
          if (lanes === 1) acc[j] = 0;
          else acc[2 * j] = acc[2 * j + 1] = 0;
        }
        if (lanes === 1) acc[j]! += xr * bd[r]!;
        else {
          const yr = bd[2 * r]!, yi = bd[2 * r + 1]!;
          acc[2 * j]! += xr * yr - xi * yi;
          acc[2 * j + 1]! += xr * yi + xi * yr;
        }
      }
    }
    if (cnt > 1) ci.subarray(start, start + cnt).sort();
    for (let t = start; t < start + cnt; t++) {
      const j = ci[t]!;
      const vr = acc[lanes * j]!, vi = lanes === 2 ? acc[2 * j + 1]! : 0;
      if (vr === 0 && vi === 0) continue;
      ci[q] = j;
      if (lanes === 1) cd[q] = vr;
      else {
        cd[2 * q] = vr;
        cd[2 * q + 1] = vi;
      }
      q++;
    }
    ip[i + 1] = q;
  }
  return shrink({ major: m, minor: n, indptr: ip, indices: ci, data: cd, lanes }, q);
}

/** Kronecker product kron(A, B) of canonical CSR arrays; the result is canonical. */
export function kronCompressed(a: Compressed, b: Compressed): Compressed {
  const ma = a.major, mb = b.major, nb = b.minor, lanes = a.lanes;
  const m = ma * mb, n = a.minor * nb;
  const nnz = a.indices.length * b.indices.length;
  if (m > 2147483647 || n > 2147483647 || nnz > 2147483647) throw new SparseFormatError(`kron: result [${m}, ${n}] with ${nnz} nonzeros exceeds int32 indexing`);
  const ip = new Int32Array(m + 1);
  const ci = new Int32Array(nnz);
  const cd = allocLike(a.data, nnz * lanes);
  const ad = a.data, bd = b.data;
  let q = 0;
  for (let ia = 0; ia < ma; ia++) {
    for (let ib = 0; ib < mb; ib++) {
      for (let p = a.indptr[ia]!; p < a.indptr[ia + 1]!; p++) {
        const base = a.indices[p]! * nb;
        const xr = ad[lanes * p]!, xi = lanes === 2 ? ad[2 * p + 1]! : 0;
        for (let r = b.indptr[ib]!; r < b.indptr[ib + 1]!; r++) {
          ci[q] = base + b.indices[r]!;
          if (lanes === 1) cd[q] = xr * bd[r]!;
          else {
            const yr = bd[2 * r]!, yi = bd[2 * r + 1]!;
            cd[2 * q] = xr * yr - xi * yi;
            cd[2 * q + 1] = xr * yi + xi * yr;
          }
          q++;
        }
      }
      ip[ia * mb + ib + 1] = q;
    }
  }
  return { major: m, minor: n, indptr: ip, indices: ci, data: cd, lanes };
}
