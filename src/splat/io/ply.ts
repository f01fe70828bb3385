// The 3DGS PLY file (the layout of the Inria reference code, which gsplat,
// nerfstudio and every viewer read): one `vertex` element whose properties
// are the pre-activation parameters. readPly turns a file into activated
// Gaussians, writePly the other way. Both stream: a path is read and written
// in windows of a few MiB, so a file of millions of Gaussians never exists
// twice in memory.
//
// Conventions (what is stored → what a Gaussians value holds):
//   x y z                      → means
//   rot_0..3 (w, x, y, z)      → quats AS STORED (not normalized: render
//                                normalizes, and keeping them makes
//                                read → write reproduce the file's values)
//   scale_0..2 (log)           → scales = exp(scale)
//   opacity (logit)            → opacities = sigmoid(opacity) = 1/(1 + e^−x)
//   f_dc_c, f_rest_{c(K−1)+k−1} → sh[n, 0, c] and sh[n, k, c] (channel-major)
//   nx ny nz                   → ignored on read, written as 0
// The activations are computed in float64 and rounded once to the dtype.
// Gaussians with `colors` are written as SH degree 0: f_dc = (colour − 0.5)/C0.

import { DTypeError, ValueError } from '../../tensor/errors.js';
import type { Gaussians } from '../types.js';
import { withSource } from './byte-source.js';
import { openSink } from './byte-sink.js';
import { SplatFileError } from './errors.js';
import { allocFloat, checkDType, dcCoefficient, gaussianArrays, toGaussians, type GaussianArrays } from './gaussian-arrays.js';
import { decodeAscii, decodeBinary, vertexElement } from './ply-decode.js';
import { readPlyHeader } from './ply-header.js';
import { gaussianLayout, plyPropertyNames } from './ply-layout.js';

/** Options of readPly. */
export interface ReadPlyOptions {
  /** dtype of the returned tensors (default 'float32'). */
  dtype?: 'float32' | 'float64';
}

/** Options of writePly. */
export interface WritePlyOptions {
  /** Encoding (default 'binary_little_endian', what 3DGS tools write). */
  format?: 'binary_little_endian' | 'ascii';
  /** Type of every property (default 'float', the 3DGS layout; 'double' keeps float64 Gaussians exact). */
  propertyType?: 'float' | 'double';
}

/**
 * Reads a 3DGS PLY file (a path, or its bytes) into activated Gaussians with `sh` [N, K, 3].
 *
 * Binary (either endianness) and ASCII; properties found by name in any
 * order, of any PLY scalar type, extra ones ignored; SH degree 0–3 from the
 * number of f_rest properties. Scales are exp(scale), opacities
 * sigmoid(opacity), quaternions as stored (unnormalized, w first). A
 * malformed, truncated or unsupported file throws a SplatFileError whose
 * message and `offset` give the byte where reading failed.
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode([
 *   'ply', 'format ascii 1.0', 'element vertex 1',
 *   ...['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'].map((p) => `property float ${p}`),
 *   'end_header', '1 2 3 0 0 0 0 0 0 0 2 0 0 0', '',
 * ].join('\n'));
 * const g = splat.readPly(bytes);
 * g.means.tolist();       // [[1, 2, 3]]
 * g.opacities.tolist();   // [0.5]
 * g.scales.tolist();      // [[1, 1, 1]]
 * g.quats.tolist();       // [[2, 0, 0, 0]]
 * g.sh!.shape;            // [1, 1, 3]
 * ```
 */
export function readPly(pathOrBytes: string | Uint8Array, opts: ReadPlyOptions = {}): Gaussians {
  const dtype = checkDType('readPly', opts.dtype);
  return withSource('ply', pathOrBytes, (src) => {
    const header = readPlyHeader(src);
    const v = vertexElement(header);
    const vertex = header.elements[v]!;
    const { k, slots } = gaussianLayout(vertex);
    const n = vertex.count;
    const decode = header.format === 'ascii' ? decodeAscii : decodeBinary;
    // decode checks the sizes before any row is read; the arrays are allocated on the first row, once the file is known to hold them.
    let out: ReturnType<typeof allocate> | undefined;
    const m = k - 1;
    decode(src, header, v, slots, (r, x) => {
      out ??= allocate(dtype, n, k, vertex.line);
      const { means, quats, scales, opacities, sh } = out;
      for (let c = 0; c < 3; c++) means[3 * r + c] = x[c]!;
      for (let c = 0; c < 4; c++) quats[4 * r + c] = x[3 + c]!;
      for (let c = 0; c < 3; c++) scales[3 * r + c] = Math.exp(x[7 + c]!);
      opacities[r] = 1 / (1 + Math.exp(-x[10]!));
      const base = r * k * 3;
      for (let c = 0; c < 3; c++) {
        sh[base + c] = x[11 + c]!;
        for (let j = 1; j <= m; j++) sh[base + 3 * j + c] = x[14 + c * m + j - 1]!;
      }
    });
    out ??= allocate(dtype, n, k, vertex.line);
    return toGaussians(n, dtype, { ...out, color: out.sh }, k);
  });
}

function allocate(dtype: 'float32' | 'float64', n: number, k: number, line: number) {
  try {
    return { means: allocFloat(dtype, 3 * n), quats: allocFloat(dtype, 4 * n), scales: allocFloat(dtype, 3 * n), opacities: allocFloat(dtype, n), sh: allocFloat(dtype, 3 * k * n) };
  } catch (e) {
    if (e instanceof RangeError) throw new SplatFileError('ply', line, `${n} Gaussians do not fit in memory as ${dtype} arrays (${e.message})`);
    throw e;
  }
}

/** Rows encoded per chunk written. */
const CHUNK_ROWS = 16384;

/**
 * Writes Gaussians as a 3DGS PLY file to `path`, or returns its bytes when no path is given.
 *
 * Properties x y z nx ny nz f_dc_0..2 f_rest_* opacity scale_0..2 rot_0..3
 * (`float` unless `propertyType: 'double'`), pre-activation: log(scale),
 * logit(opacity) = log(o/(1 − o)) (±Infinity at 0 and 1, NaN outside [0, 1]),
 * quaternions as given. `sh` [N, K, 3] is written channel-major
 * (f_rest index c·(K−1) + k−1); `colors` as SH degree 0 with
 * f_dc = (colour − 0.5)/C0. Written in chunks of 16384 rows.
 * @example
 * ```ts
 * const g = {
 *   means: tensor([[1, 2, 3]], { dtype: 'float32' }),
 *   quats: tensor([[1, 0, 0, 0]], { dtype: 'float32' }),
 *   scales: tensor([[0.5, 0.5, 0.5]], { dtype: 'float32' }),
 *   opacities: tensor([0.5], { dtype: 'float32' }),
 *   colors: tensor([[0.5, 0.5, 0.5]], { dtype: 'float32' }),
 * };
 * const bytes = splat.writePly(g);
 * bytes.length;                                   // 543
 * const back = splat.readPly(bytes);
 * back.sh!.tolist();                              // [[[0, 0, 0]]]
 * back.scales.tolist();                           // [[0.5, 0.5, 0.5]]
 * const text = new TextDecoder().decode(splat.writePly(g, undefined, { format: 'ascii' }));
 * text.split('\n')[22];                           // '1 2 3 0 0 0 0 0 0 0 -0.6931472 -0.6931472 -0.6931472 1 0 0 0'
 * ```
 */
export function writePly(g: Gaussians, path?: undefined, opts?: WritePlyOptions): Uint8Array;
export function writePly(g: Gaussians, path: string, opts?: WritePlyOptions): void;
export function writePly(g: Gaussians, path?: string, opts: WritePlyOptions = {}): Uint8Array | void {
  const format = opts.format ?? 'binary_little_endian';
  if (format !== 'binary_little_endian' && format !== 'ascii') throw new ValueError(`writePly: format ${JSON.stringify(format)} is not supported, expected 'binary_little_endian' or 'ascii'`);
  const type = opts.propertyType ?? 'float';
  if (type !== 'float' && type !== 'double') throw new DTypeError(`writePly: propertyType ${JSON.stringify(type)} is not supported, expected 'float' or 'double'`);
  const a = gaussianArrays('writePly', g);
  const names = plyPropertyNames(Math.round(Math.sqrt(a.k)) - 1);
  const header = ['ply', `format ${format} 1.0`, 'comment written by rlx (3DGS layout: pre-activation parameters)', `element vertex ${a.n}`, ...names.map((p) => `property ${type} ${p}`), 'end_header', ''].join('\n');
  const sink = openSink('ply', path);
  try {
    sink.write(Buffer.from(header, 'latin1'));
    const row = new Float64Array(names.length);
    for (let r0 = 0; r0 < a.n; r0 += CHUNK_ROWS) {
      const rows = Math.min(CHUNK_ROWS, a.n - r0);
      sink.write(format === 'ascii' ? asciiChunk(a, r0, rows, row, type) : binaryChunk(a, r0, rows, row, type));
    }
  } catch (e) {
    sink.abort();
    throw e;
  }
  return sink.finish();
}

/** The values of row i in the order of plyPropertyNames (pre-activation). */
function rowValues(a: GaussianArrays, i: number, out: Float64Array): void {
  const k = a.k, m = k - 1;
  for (let c = 0; c < 3; c++) out[c] = a.means[3 * i + c]!;
  out[3] = out[4] = out[5] = 0;
  for (let c = 0; c < 3; c++) {
    out[6 + c] = dcCoefficient(a, i, c);
    for (let j = 1; j <= m; j++) out[9 + c * m + j - 1] = a.sh![(i * k + j) * 3 + c]!;
  }
  const at = 9 + 3 * m;
  const o = a.opacities[i]!;
  out[at] = Math.log(o / (1 - o));
  for (let c = 0; c < 3; c++) out[at + 1 + c] = Math.log(a.scales[3 * i + c]!);
  for (let c = 0; c < 4; c++) out[at + 4 + c] = a.quats[4 * i + c]!;
}

function binaryChunk(a: GaussianArrays, r0: number, rows: number, row: Float64Array, type: 'float' | 'double'): Uint8Array {
  const width = type === 'float' ? 4 : 8;
  const bytes = new Uint8Array(rows * row.length * width);
  const dv = new DataView(bytes.buffer);
  let at = 0;
  for (let r = 0; r < rows; r++) {
    rowValues(a, r0 + r, row);
    for (let j = 0; j < row.length; j++, at += width) {
      if (width === 4) dv.setFloat32(at, row[j]!, true);
      else dv.setFloat64(at, row[j]!, true);
    }
  }
  return bytes;
}

function asciiChunk(a: GaussianArrays, r0: number, rows: number, row: Float64Array, type: 'float' | 'double'): Uint8Array {
  const lines: string[] = [];
  const num = type === 'float' ? float32Text : float64Text;
  for (let r = 0; r < rows; r++) {
    rowValues(a, r0 + r, row);
    lines.push(Array.from(row, num).join(' '));
  }
  return Buffer.from(lines.join('\n') + '\n', 'latin1');
}

/** NaN and infinities as C's printf and NumPy write them. */
const special = (x: number) => (Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf');

/** The shortest decimal that reads back as the same float32. */
function float32Text(x: number): string {
  const f = Math.fround(x);
  if (!Number.isFinite(f)) return special(f);
  for (let p = 1; p < 9; p++) {
    const s = Number(f.toPrecision(p));
    if (Math.fround(s) === f) return String(s);
  }
  return String(Number(f.toPrecision(9)));
}

/** The shortest decimal that reads back as the same float64 (JavaScript's own). */
const float64Text = (x: number): string => (Number.isFinite(x) ? String(x) : special(x));
