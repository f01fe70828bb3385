// Images in and out of PNG (pngjs), for render results and fit targets.
// Float ↔ 8-bit: a value x in [0, 1] is stored as round(clamp(x, 0, 1)·255)
// (NaN as 0), a byte v is read as v/255 (float32), so every image whose
// values are k/255 round-trips exactly. [H, W] is written as grayscale,
// [H, W, 3] as RGB, [H, W, 4] as RGBA (alpha not premultiplied); 16-bit
// files are read scaled to 8 bits (pngjs).

import { readFileSync, writeFileSync } from 'node:fs';
import { PNG } from 'pngjs';
import { fromStorage } from '../../tensor/create.js';
import { DTypeError, ShapeError } from '../../tensor/errors.js';
import { Tensor } from '../../tensor/tensor.js';
import { SplatFileError } from './errors.js';

/** Options of readPng. */
export interface ReadPngOptions {
  /** Return [H, W, 4] with the alpha channel (default false: [H, W, 3]). */
  alpha?: boolean;
}

/** PNG colour types (the PNG specification's numbers). */
const GRAY = 0, RGB = 2, RGBA = 6;

/**
 * Encodes an image tensor ([H, W] gray, [H, W, 3] RGB or [H, W, 4] RGBA, values in [0, 1]) as an 8-bit PNG at `path`, or returns its bytes when no path is given.
 *
 * Each value becomes round(clamp(x, 0, 1)·255); NaN becomes 0.
 * @example
 * ```ts
 * const img = tensor([[[0, 0.5, 1], [1, 0, 0]]], { dtype: 'float32' });   // [1, 2, 3]
 * const png = splat.savePng(img);
 * Array.from(png.subarray(1, 4));                          // [80, 78, 71]
 * splat.readPng(png).tolist();                             // [[[0, 0.50196, 1], [1, 0, 0]]]
 * ```
 */
export function savePng(image: Tensor, path?: undefined): Uint8Array;
export function savePng(image: Tensor, path: string): void;
export function savePng(image: Tensor, path?: string): Uint8Array | void {
  if (!(image instanceof Tensor)) throw new ShapeError(`savePng: expected an image Tensor [H, W], [H, W, 3] or [H, W, 4], got ${image === null ? 'null' : typeof image}`);
  const s = image.shape;
  const channels = s.length === 2 ? 1 : s[2]!;
  if ((s.length !== 2 && s.length !== 3) || ![1, 3, 4].includes(channels) || s[0] === 0 || s[1] === 0) {
    throw new ShapeError(`savePng: image has shape [${s.join(', ')}], expected [H, W], [H, W, 3] or [H, W, 4] with H, W ≥ 1`);
  }
  if (image.dtype === 'complex64' || image.dtype === 'complex128') throw new DTypeError(`savePng: image has dtype ${image.dtype}, expected a real dtype`);
  const values = image.toArray() as ArrayLike<number>;
  const data = Buffer.alloc(values.length);
  for (let i = 0; i < values.length; i++) {
    const x = Number(values[i]);
    data[i] = x > 0 ? (x < 1 ? Math.round(x * 255) : 255) : 0;
  }
  const colorType = channels === 1 ? GRAY : channels === 3 ? RGB : RGBA;
  // Input and output colour types equal: pngjs packs the bytes as they are.
  const png = { width: s[1]!, height: s[0]!, data } as unknown as PNG;
  const bytes = PNG.sync.write(png, { colorType, inputColorType: colorType, inputHasAlpha: channels === 4, bitDepth: 8 });
  if (path === undefined) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  try {
    writeFileSync(path, bytes);
  } catch (e) {
    throw new SplatFileError('png', undefined, `cannot write ${JSON.stringify(String(path).slice(0, 200))}: ${(e as Error).message}`);
  }
}

/**
 * Decodes a PNG (a path, or its bytes) into a float32 image [H, W, 3] (or [H, W, 4] with `{alpha: true}`) of values v/255.
 *
 * Grayscale and palette images are expanded to RGB; 16-bit channels are
 * scaled to 8 bits first. An undecodable file is a SplatFileError.
 * @example
 * ```ts
 * const png = splat.savePng(tensor([[0.2, 1]], { dtype: 'float32' }));   // gray [1, 2]
 * splat.readPng(png).tolist();                        // [[[0.2, 0.2, 0.2], [1, 1, 1]]]
 * splat.readPng(png, { alpha: true }).shape;          // [1, 2, 4]
 * ```
 */
export function readPng(pathOrBytes: string | Uint8Array, opts: ReadPngOptions = {}): Tensor<'float32'> {
  let bytes: Buffer;
  if (pathOrBytes instanceof Uint8Array) bytes = Buffer.from(pathOrBytes.buffer, pathOrBytes.byteOffset, pathOrBytes.length);
  else if (typeof pathOrBytes === 'string') {
    try {
      bytes = readFileSync(pathOrBytes);
    } catch (e) {
      throw new SplatFileError('png', undefined, `cannot read ${JSON.stringify(pathOrBytes.slice(0, 200))}: ${(e as Error).message}`);
    }
  } else throw new SplatFileError('png', undefined, `expected a path (string) or the file's bytes (Uint8Array), got ${pathOrBytes === null ? 'null' : typeof pathOrBytes}`);
  let png: PNG;
  try {
    png = PNG.sync.read(bytes);
  } catch (e) {
    throw new SplatFileError('png', undefined, `cannot decode the PNG: ${(e as Error).message}`);
  }
  const { width, height, data } = png;
  const channels = opts.alpha ? 4 : 3;
  const out = new Float32Array(width * height * channels);
  for (let p = 0, q = 0; p < width * height; p++) {
    for (let c = 0; c < channels; c++) out[q++] = data[4 * p + c]! / 255;
  }
  return fromStorage(out, [height, width, channels], 'float32') as Tensor<'float32'>;
}
