// antimatter15's .splat file (the WebGL viewer's format, also written by
// gsplat's exporters): no header, 32 bytes per Gaussian, little endian:
//   position f32×3 | scale f32×3 (activated) | R G B A u8 | quaternion u8×4
// with RGB = round(clamp(colour, 0, 1)·255), colour = colors or the SH DC
// term 0.5 + C0·sh[:, 0, :]; A = round(clamp(opacity, 0, 1)·255); quaternion
// = round(q/|q|·128 + 128) clamped to [0, 255], w first (a zero or non-finite
// quaternion is written as the identity). NaN colours and opacities are
// written as 0. antimatter15's convert.py truncates where this rounds, so
// bytes can differ from it by one; rounding halves the quantization error.
// The file is sorted by −(s0·s1·s2)·opacity, large and opaque first, as
// convert.py sorts (ties keep their order).
//
// Reading gives colors [N, 3] = RGB/255, opacities = A/255 (0 and 1 are
// possible: outside the open interval the PLY layout assumes) and quats
// = (byte − 128)/128, not normalized (render normalizes). Round trip of
// writeSplat → readSplat: means and scales exact in float32, colours and
// opacities within 0.5/255 when in [0, 1], each quaternion component of
// q/|q| within 0.5/128.

import type { Gaussians } from '../types.js';
import { withSource } from './byte-source.js';
import { openSink } from './byte-sink.js';
import { SplatFileError } from './errors.js';
import { allocFloat, baseColor, checkDType, gaussianArrays, toGaussians } from './gaussian-arrays.js';

/** Bytes per Gaussian. */
export const SPLAT_RECORD = 32;
/** Records per window read or chunk written. */
const CHUNK = 65536;

/** Options of readSplat. */
export interface ReadSplatOptions {
  /** dtype of the returned tensors (default 'float32'). */
  dtype?: 'float32' | 'float64';
}

/**
 * Reads an antimatter15 .splat file (a path, or its bytes) into Gaussians with `colors`.
 *
 * colors = RGB/255, opacities = A/255, quats = (byte − 128)/128 (w first, not
 * normalized), means and scales as stored. A length that is not a multiple of
 * 32 bytes is a SplatFileError at the start of the incomplete record.
 * @example
 * ```ts
 * const bytes = new Uint8Array(32);
 * const f = new DataView(bytes.buffer);
 * [1, 2, 3, 0.5, 0.25, 2].forEach((v, i) => f.setFloat32(4 * i, v, true));
 * bytes.set([255, 0, 51, 255, 255, 128, 128, 128], 24);
 * const g = splat.readSplat(bytes);
 * g.means.tolist();       // [[1, 2, 3]]
 * g.scales.tolist();      // [[0.5, 0.25, 2]]
 * g.colors!.tolist();     // [[1, 0, 0.2]]
 * g.opacities.tolist();   // [1]
 * g.quats.tolist();       // [[0.9921875, 0, 0, 0]]
 * ```
 */
export function readSplat(pathOrBytes: string | Uint8Array, opts: ReadSplatOptions = {}): Gaussians {
  const dtype = checkDType('readSplat', opts.dtype);
  return withSource('splat', pathOrBytes, (src) => {
    if (src.size % SPLAT_RECORD !== 0) {
      const at = src.size - (src.size % SPLAT_RECORD);
      throw new SplatFileError('splat', at, `the file has ${src.size} bytes, not a multiple of ${SPLAT_RECORD} (one record per Gaussian): record ${at / SPLAT_RECORD} is incomplete`);
    }
    const n = src.size / SPLAT_RECORD;
    const means = allocFloat(dtype, 3 * n), scales = allocFloat(dtype, 3 * n), colors = allocFloat(dtype, 3 * n);
    const opacities = allocFloat(dtype, n), quats = allocFloat(dtype, 4 * n);
    for (let i0 = 0; i0 < n; i0 += CHUNK) {
      const rows = Math.min(CHUNK, n - i0);
      const view = src.read(i0 * SPLAT_RECORD, rows * SPLAT_RECORD);
      if (view.length < rows * SPLAT_RECORD) throw new SplatFileError('splat', i0 * SPLAT_RECORD + view.length, 'truncated: the file ended while reading (it shrank after it was opened)');
      const dv = new DataView(view.buffer, view.byteOffset, view.length);
      for (let r = 0; r < rows; r++) {
        const i = i0 + r, at = r * SPLAT_RECORD;
        for (let c = 0; c < 3; c++) {
          means[3 * i + c] = dv.getFloat32(at + 4 * c, true);
          scales[3 * i + c] = dv.getFloat32(at + 12 + 4 * c, true);
          colors[3 * i + c] = view[at + 24 + c]! / 255;
        }
        opacities[i] = view[at + 27]! / 255;
        for (let c = 0; c < 4; c++) quats[4 * i + c] = (view[at + 28 + c]! - 128) / 128;
      }
    }
    return toGaussians(n, dtype, { means, quats, scales, opacities, color: colors });
  });
}

/** round(clamp(x, 0, 1)·255), NaN → 0. */
const unitByte = (x: number): number => (x > 0 ? (x < 1 ? Math.round(x * 255) : 255) : 0);

/**
 * Writes Gaussians as an antimatter15 .splat file to `path`, or returns its bytes when no path is given.
 *
 * 32 bytes per Gaussian, sorted by −(s0·s1·s2)·opacity as antimatter15's
 * convert.py does; RGB = round(clamp(colour, 0, 1)·255) with colour = colors or
 * 0.5 + C0·sh[:, 0, :] (higher SH bands are dropped), A = round(opacity·255),
 * quaternion bytes round(q/|q|·128 + 128) clamped to [0, 255].
 * @example
 * ```ts
 * const g = {
 *   means: tensor([[0, 0, 0], [1, 1, 1]], { dtype: 'float32' }),
 *   quats: tensor([[2, 0, 0, 0], [0, 1, 0, 0]], { dtype: 'float32' }),
 *   scales: tensor([[0.1, 0.1, 0.1], [1, 1, 1]], { dtype: 'float32' }),
 *   opacities: tensor([1, 0.5], { dtype: 'float32' }),
 *   colors: tensor([[1, 0, 0], [0, 0.2, 1]], { dtype: 'float32' }),
 * };
 * const bytes = splat.writeSplat(g);
 * bytes.length;                                    // 64
 * Array.from(bytes.subarray(24, 32));              // [0, 51, 255, 128, 128, 255, 128, 128]
 * splat.readSplat(bytes).means.tolist();           // [[1, 1, 1], [0, 0, 0]]
 * ```
 */
export function writeSplat(g: Gaussians, path?: undefined): Uint8Array;
export function writeSplat(g: Gaussians, path: string): void;
export function writeSplat(g: Gaussians, path?: string): Uint8Array | void {
  const a = gaussianArrays('writeSplat', g);
  const order = importanceOrder(a.scales, a.opacities, a.n);
  const sink = openSink('splat', path);
  try {
    for (let i0 = 0; i0 < a.n; i0 += CHUNK) {
      const rows = Math.min(CHUNK, a.n - i0);
      const bytes = new Uint8Array(rows * SPLAT_RECORD);
      const dv = new DataView(bytes.buffer);
      for (let r = 0; r < rows; r++) {
        const i = order[i0 + r]!, at = r * SPLAT_RECORD;
        for (let c = 0; c < 3; c++) {
          dv.setFloat32(at + 4 * c, a.means[3 * i + c]!, true);
          dv.setFloat32(at + 12 + 4 * c, a.scales[3 * i + c]!, true);
          bytes[at + 24 + c] = unitByte(baseColor(a, i, c));
        }
        bytes[at + 27] = unitByte(a.opacities[i]!);
        const q = a.quats.subarray(4 * i, 4 * i + 4);
        const norm = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
        for (let c = 0; c < 4; c++) {
          const u = norm > 0 && Number.isFinite(norm) ? q[c]! / norm : c === 0 ? 1 : 0;
          bytes[at + 28 + c] = Math.min(255, Math.max(0, Math.round(u * 128 + 128)));
        }
      }
      sink.write(bytes);
    }
  } catch (e) {
    sink.abort();
    throw e;
  }
  return sink.finish();
}

/** Indices sorted by −(s0·s1·s2)·opacity ascending (ties and NaN keys: original order, NaN last). */
function importanceOrder(scales: ArrayLike<number>, opacities: ArrayLike<number>, n: number): Uint32Array {
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const k = -(scales[3 * i]! * scales[3 * i + 1]! * scales[3 * i + 2]!) * opacities[i]!;
    key[i] = Number.isNaN(k) ? Infinity : k;
  }
  const order = Uint32Array.from({ length: n }, (_, i) => i);
  return order.sort((p, q) => key[p]! - key[q]! || p - q);
}
