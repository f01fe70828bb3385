// A minimal PNG reader for the savePng tests: the IHDR size and the pixels of
// an 8-bit, non-interlaced greyscale/RGB/RGBA image (what Chromium's
// --screenshot writes), decoded with node's zlib and the five PNG row filters
// (PNG spec §9). Written here, not taken from an npm package, so the check
// stays independent of the code under test and adds no dependency.

import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  width: number;
  height: number;
  /** Bytes per pixel (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA). */
  channels: number;
  /** Row-major pixels, `channels` bytes each, filters undone. */
  pixels: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function chunks(png: Uint8Array): { type: string; data: Uint8Array }[] {
  if (!SIGNATURE.every((b, i) => png[i] === b)) throw new Error('not a PNG (bad signature)');
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const out: { type: string; data: Uint8Array }[] = [];
  for (let at = 8; at + 8 <= png.length; ) {
    const len = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    out.push({ type, data: png.subarray(at + 8, at + 8 + len) });
    at += 12 + len; // length, type, data, CRC
    if (type === 'IEND') break;
  }
  return out;
}

/** Width and height from the IHDR chunk (the first chunk, PNG spec §5.6). */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const ihdr = chunks(png)[0]!;
  if (ihdr.type !== 'IHDR') throw new Error(`first chunk is ${ihdr.type}, not IHDR`);
  const v = new DataView(ihdr.data.buffer, ihdr.data.byteOffset, ihdr.data.byteLength);
  return { width: v.getUint32(0), height: v.getUint32(4) };
}

export function decodePng(png: Uint8Array): DecodedPng {
  const all = chunks(png);
  const { width, height } = pngSize(png);
  const ihdr = all[0]!.data;
  const [depth, colour, , , interlace] = [ihdr[8]!, ihdr[9]!, ihdr[10]!, ihdr[11]!, ihdr[12]!];
  const channels = ({ 0: 1, 4: 2, 2: 3, 6: 4 } as Record<number, number>)[colour];
  if (depth !== 8 || channels === undefined || interlace !== 0) throw new Error(`unsupported PNG: depth ${depth}, colour type ${colour}, interlace ${interlace}`);
  const raw = inflateSync(Buffer.concat(all.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = width * channels;
  if (raw.length !== height * (stride + 1)) throw new Error(`IDAT holds ${raw.length} bytes, expected ${height * (stride + 1)}`);
  const pixels = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const src = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const row = pixels.subarray(y * stride, (y + 1) * stride);
    const up = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : new Uint8Array(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? row[i - channels]! : 0;
      const b = up[i]!;
      const c = i >= channels ? up[i - channels]! : 0;
      let pred: number;
      switch (filter) {
        case 0: pred = 0; break;
        case 1: pred = a; break;
        case 2: pred = b; break;
        case 3: pred = (a + b) >> 1; break;
        case 4: {
          const p = a + b - c, pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
          pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          break;
        }
        default: throw new Error(`bad filter ${filter} on row ${y}`);
      }
      row[i] = (src[i]! + pred) & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** The number of distinct pixel values (colours) in the image. */
export function distinctColours(img: DecodedPng): number {
  const seen = new Set<string>();
  for (let i = 0; i < img.pixels.length; i += img.channels) seen.add(img.pixels.subarray(i, i + img.channels).join(','));
  return seen.size;
}

/** The fraction of pixels that differ from the top-left pixel (the page background). */
export function nonBackgroundFraction(img: DecodedPng): number {
  const bg = img.pixels.subarray(0, img.channels);
  let n = 0;
  for (let i = 0; i < img.pixels.length; i += img.channels) {
    for (let k = 0; k < img.channels; k++) {
      if (img.pixels[i + k] !== bg[k]) {
        n++;
        break;
      }
    }
  }
  return n / (img.width * img.height);
}
