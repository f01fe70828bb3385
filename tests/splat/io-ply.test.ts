// readPly / writePly: NumPy-written 3DGS files (every SH degree, binary
// little and big endian, ASCII, shuffled/double/extra properties, an element
// before vertex) decode to the activated values NumPy computed; rlx writes
// the same data bytes back; round trips for every degree and dtype; the
// typed errors with byte offsets; files larger than one read window.

import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tensor } from '../../src/tensor/create.js';
import { DTypeError, ShapeError, ValueError } from '../../src/tensor/errors.js';
import { SH_C0 } from '../../src/splat/constants.js';
import { SplatFileError } from '../../src/splat/io/errors.js';
import { readPly, writePly } from '../../src/splat/io/ply.js';
import type { Gaussians } from '../../src/splat/types.js';
import { flat, golden, GOLDEN, goldenBytes, randomGaussians, worst } from './io-helpers.js';

const tmp = mkdtempSync(path.join(tmpdir(), 'rlx-ply-'));
const FIELDS = ['means', 'quats', 'scales', 'opacities', 'sh'] as const;
const dataStart = (bytes: Uint8Array) => Buffer.from(bytes).indexOf('end_header\n') + 'end_header\n'.length;

/** A PLY header with the given vertex properties (all float) and body. */
const ply = (format: string, n: number, props: string[], body: string | Uint8Array) => {
  const head = Buffer.from(['ply', `format ${format} 1.0`, `element vertex ${n}`, ...props.map((p) => `property float ${p}`), 'end_header', ''].join('\n'));
  return new Uint8Array(Buffer.concat([head, typeof body === 'string' ? Buffer.from(body) : body]));
};
const BASIC = ['x', 'y', 'z', 'f_dc_0', 'f_dc_1', 'f_dc_2', 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'];

function thrown(f: () => unknown): SplatFileError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(SplatFileError);
    return e as SplatFileError;
  }
  throw new Error('expected a SplatFileError, nothing was thrown');
}

describe('readPly: NumPy golden files', () => {
  for (const name of ['deg3_le.ply', 'deg1_ascii.ply', 'deg2_be_mixed.ply', 'deg0_le.ply']) {
    const want = golden[name];
    it(`${name} decodes to NumPy's activated values (float64, 2 ulp)`, () => {
      const g = readPly(goldenBytes(name), { dtype: 'float64' });
      for (const f of FIELDS) {
        expect(g[f]!.dtype).toBe('float64');
        expect(g[f]!.tolist()).toHaveLength(want.means.length);
        expect(worst(g[f]!.toArray() as Float64Array, flat(want[f]), 4.5e-16, 1e-300)).toBeLessThanOrEqual(1);
      }
      expect(g[('sh')]!.shape).toEqual([want.means.length, want.sh[0].length, 3]);
      expect(g.colors).toBeUndefined();
    });
    it(`${name} as float32 (the default) is the float32 rounding of those values, read from a path too`, () => {
      const g = readPly(path.join(GOLDEN, name));
      for (const f of FIELDS) {
        expect(g[f]!.dtype).toBe('float32');
        const e = Float32Array.from(flat(want[f]));
        expect(worst(g[f]!.toArray() as Float32Array, e, 1.2e-7, 1e-40)).toBeLessThanOrEqual(1);
      }
    });
  }

  it('writePly of a NumPy file read in float64 reproduces its data bytes exactly (the inverse activations)', () => {
    for (const name of ['deg3_le.ply', 'deg0_le.ply']) {
      const file = goldenBytes(name);
      const out = writePly(readPly(file, { dtype: 'float64' }));
      expect(Buffer.from(out.subarray(dataStart(out))).equals(Buffer.from(file.subarray(dataStart(file))))).toBe(true);
    }
  });
});

describe('writePly layout', () => {
  it('writes the 3DGS property order, float, SH degree 1 has f_rest_0..8', () => {
    const text = Buffer.from(writePly(randomGaussians(2, { k: 4 }), undefined, { format: 'ascii' })).toString();
    const props = text.split('\n').filter((l) => l.startsWith('property')).map((l) => l.split(' ').slice(1).join(' '));
    const want = ['x', 'y', 'z', 'nx', 'ny', 'nz', 'f_dc_0', 'f_dc_1', 'f_dc_2', ...Array.from({ length: 9 }, (_, i) => `f_rest_${i}`), 'opacity', 'scale_0', 'scale_1', 'scale_2', 'rot_0', 'rot_1', 'rot_2', 'rot_3'];
    expect(props).toEqual(want.map((p) => `float ${p}`));
    expect(text).toContain('format ascii 1.0\n');
    expect(text).toContain('element vertex 2\n');
  });

  it('stores pre-activation values: log scale, logit opacity, channel-major f_rest (index c·(K−1) + k−1)', () => {
    const n = 3, k = 9;
    const g = randomGaussians(n, { k, dtype: 'float64', seed: 5 });
    const bytes = writePly(g, undefined, { propertyType: 'double' });
    const dv = new DataView(bytes.buffer, bytes.byteOffset + dataStart(bytes));
    const P = 6 + 3 + 3 * (k - 1) + 8;
    expect(bytes.length - dataStart(bytes)).toBe(n * P * 8);
    const at = (i: number, j: number) => dv.getFloat64((i * P + j) * 8, true);
    const sh = g.sh!.toArray(), sc = g.scales.toArray(), op = g.opacities.toArray(), q = g.quats.toArray(), m = g.means.toArray();
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < 3; c++) {
        expect(at(i, c)).toBe(m[3 * i + c]);
        expect(at(i, 3 + c)).toBe(0);
        expect(at(i, 6 + c)).toBe(sh[i * k * 3 + c]);
        for (let j = 1; j < k; j++) expect(at(i, 9 + c * (k - 1) + j - 1)).toBe(sh[(i * k + j) * 3 + c]);
        expect(at(i, P - 7 + c)).toBeCloseTo(Math.log(sc[3 * i + c]!), 14);
      }
      expect(at(i, P - 8)).toBeCloseTo(Math.log(op[i]!) - Math.log(1 - op[i]!), 13);
      for (let c = 0; c < 4; c++) expect(at(i, P - 4 + c)).toBe(q[4 * i + c]);
    }
  });

  it('colors are written as SH degree 0 with f_dc = (colour − 0.5)/C0, and read back as sh [N, 1, 3]', () => {
    const g = randomGaussians(4, { dtype: 'float64', seed: 3 });
    const back = readPly(writePly(g, undefined, { propertyType: 'double' }), { dtype: 'float64' });
    expect(back.sh!.shape).toEqual([4, 1, 3]);
    const want = Array.from(g.colors!.toArray(), (c) => (c - 0.5) / SH_C0);
    expect(worst(back.sh!.toArray() as Float64Array, want, 1e-15, 1e-15)).toBeLessThanOrEqual(1);
  });
});

/**
 * float32 scales go through log → float32 (absolute error ≤ 2⁻²⁴|ln s|) and exp → float32 (relative 2⁻²⁴):
 * |s' − s|/s ≤ 2⁻²⁴(|ln s| + 1.5) (the 0.5 covers second-order terms and the float64 steps).
 */
function expectScaleBound(got: ArrayLike<number>, want: ArrayLike<number>): void {
  let w = 0;
  for (let i = 0; i < want.length; i++) w = Math.max(w, Math.abs(got[i]! - want[i]!) / want[i]! / (2 ** -24 * (Math.abs(Math.log(want[i]!)) + 1.5)));
  expect(w).toBeLessThanOrEqual(1);
}

describe('round trips', () => {
  for (const k of [1, 4, 9, 16]) {
    it(`float64 with double properties, K = ${k}: binary and ASCII within 1e-13 relative`, () => {
      const g = randomGaussians(50, { k, dtype: 'float64', seed: k });
      for (const format of ['binary_little_endian', 'ascii'] as const) {
        const back = readPly(writePly(g, undefined, { format, propertyType: 'double' }), { dtype: 'float64' });
        for (const f of FIELDS) expect(worst(back[f]!.toArray() as Float64Array, g[f]!.toArray() as Float64Array, 1e-13, 1e-300)).toBeLessThanOrEqual(1);
      }
    });
    it(`float32, K = ${k}: means, quats, sh exact; scales within 2⁻²⁴(|ln s| + 1.5) relative; opacities within 2e-7 absolute; ASCII = binary`, () => {
      const g = randomGaussians(200, { k, seed: 10 + k });
      const bin = readPly(writePly(g));
      const asc = readPly(writePly(g, undefined, { format: 'ascii' }));
      for (const f of ['means', 'quats', 'sh'] as const) expect(Array.from(bin[f]!.toArray())).toEqual(Array.from(g[f]!.toArray()));
      expectScaleBound(bin.scales.toArray(), g.scales.toArray());
      expect(worst(bin.opacities.toArray(), g.opacities.toArray(), 0, 2e-7)).toBeLessThanOrEqual(1);
      for (const f of FIELDS) expect(Array.from(asc[f]!.toArray())).toEqual(Array.from(bin[f]!.toArray()));
    });
  }

  it('N = 0 round-trips', () => {
    const g = randomGaussians(0, { k: 4 });
    const back = readPly(writePly(g));
    expect(back.means.shape).toEqual([0, 3]);
    expect(back.sh!.shape).toEqual([0, 4, 3]);
  });

  it('files larger than the 4 MiB read window: 40k Gaussians of degree 3 through a path (binary, chunked writes)', () => {
    const g = randomGaussians(40000, { k: 16, seed: 99 });
    const file = path.join(tmp, 'big.ply');
    expect(writePly(g, file)).toBeUndefined();
    const back = readPly(file);
    for (const f of ['means', 'quats', 'sh'] as const) expect(Buffer.from((back[f]!.toArray() as Float32Array).buffer).equals(Buffer.from((g[f]!.toArray() as Float32Array).buffer))).toBe(true);
    expectScaleBound(back.scales.toArray(), g.scales.toArray());
  });

  it('ASCII files larger than the 4 MiB read window through a path (rows crossing window ends)', () => {
    const n = 80000;
    // Row i: x = i, y = i mod 7, z = −i, f_dc = 0.25, opacity 0 (→ 0.5), scales 0 (→ 1), rot = (1, 0, 0, i mod 3); padded with an extra property.
    const rows = Array.from({ length: n }, (_, i) => `${i} ${i % 7} ${-i} 0.25 0.25 0.25 0 0 0 0 1 0 0 ${i % 3} 123456789.125`);
    const text = ['ply', 'format ascii 1.0', `element vertex ${n}`, ...BASIC.map((p) => `property float ${p}`), 'property double pad', 'end_header', ...rows, ''].join('\n');
    expect(text.length).toBeGreaterThan(4 << 20);
    const file = path.join(tmp, 'big-ascii.ply');
    writeFileSync(file, text);
    const g = readPly(file);
    const m = g.means.toArray(), q = g.quats.toArray();
    for (let i = 0; i < n; i++) {
      if (m[3 * i] !== i || m[3 * i + 1] !== i % 7 || m[3 * i + 2] !== -i || q[4 * i + 3] !== i % 3) throw new Error(`row ${i} misread`);
    }
    expect(new Set(g.opacities.toArray())).toEqual(new Set([0.5]));
    expect(new Set(g.sh!.toArray())).toEqual(new Set([0.25]));
  });

  it('ASCII writing round-trips float32 exactly with the shortest decimals (0.1 is written "0.1")', () => {
    const g = randomGaussians(300, { k: 16, seed: 8 });
    const g2 = { ...g, means: tensor(new Float32Array([0.1, -2.5, 1e-7, ...new Float32Array(897)]), { dtype: 'float32', shape: [300, 3] }) };
    const bytes = writePly(g2, undefined, { format: 'ascii' });
    const body = Buffer.from(bytes.subarray(dataStart(bytes))).toString();
    expect(body.startsWith('0.1 -2.5 1e-7 0 0 0 ')).toBe(true);
    const back = readPly(bytes);
    for (const f of ['means', 'quats', 'sh'] as const) expect(Array.from(back[f]!.toArray())).toEqual(Array.from(g2[f]!.toArray()));
  });
});

describe('tolerated inputs', () => {
  it('CRLF line ends, comments, obj_info, blank lines, nan/inf tokens, integer and double types, other elements after vertex', () => {
    const text = ['ply', 'format ascii 1.0', 'comment hi', 'obj_info x', 'element vertex 2', ...BASIC.map((p, i) => `property ${i === 0 ? 'int' : i === 1 ? 'double' : 'float'} ${p}`), 'property uchar red', 'element face 1', 'property list uchar int vertex_indices', 'end_header',
      '1 2.5 3 0 0 0 0 0 0 0 1 0 0 0 255', '', '-4 nan inf 0 0 0 -inf 0 0 0 1 0 0 0 7', '3 0 1 2', ''].join('\r\n');
    const g = readPly(new Uint8Array(Buffer.from(text)), { dtype: 'float64' });
    expect(g.means.tolist()).toEqual([[1, 2.5, 3], [-4, NaN, Infinity]]);
    expect(g.opacities.tolist()).toEqual([0.5, 0]);
  });
});

describe('typed errors with the byte offset', () => {
  const good = ply('binary_little_endian', 2, BASIC, new Uint8Array(2 * 14 * 4));
  it.each([
    ['not a PLY', new Uint8Array(Buffer.from('hello')), 0, /magic/],
    ['no end_header', new Uint8Array(Buffer.from('ply\nformat ascii 1.0\nelement vertex 1\n')), 38, /truncated header/],
    ['unknown format', ply('binary_middle_endian', 1, BASIC, ''), 4, /format/],
    ['a bad property type', new Uint8Array(Buffer.from('ply\nformat ascii 1.0\nelement vertex 1\nproperty flot x\nend_header\n')), 38, /property TYPE NAME/],
    ['a negative count', new Uint8Array(Buffer.from('ply\nformat ascii 1.0\nelement vertex -1\nend_header\n')), 21, /element NAME COUNT/],
    ['a missing property', ply('ascii', 1, BASIC.filter((p) => p !== 'opacity'), '0 0 0 0 0 0 0 0 0 0 0 0 0\n'), 21, /no property opacity/],
    ['10 f_rest properties', ply('ascii', 1, [...BASIC, ...Array.from({ length: 10 }, (_, i) => `f_rest_${i}`)], ''), 21, /10 f_rest properties/],
    ['f_rest not numbered from 0', ply('ascii', 1, [...BASIC, ...Array.from({ length: 9 }, (_, i) => `f_rest_${i + 1}`)], ''), 21, /f_rest_0/],
    ['no vertex element', new Uint8Array(Buffer.from('ply\nformat ascii 1.0\nelement face 0\nend_header\n')), 0, /no 'element vertex'/],
  ])('%s', (_, bytes, offset, pattern) => {
    const e = thrown(() => readPly(bytes));
    expect(e.offset).toBe(offset);
    expect(e.message).toMatch(pattern);
    expect(e.message).toContain(`byte ${offset}`);
    expect(e).toBeInstanceOf(ValueError);
  });

  it('a truncated binary body: offset = the end of the file, found before allocating', () => {
    const cut = good.subarray(0, good.length - 5);
    const e = thrown(() => readPly(cut));
    expect(e.offset).toBe(cut.length);
    expect(e.message).toMatch(/truncated/);
    // A header promising 4·10⁹ rows fails at once, without allocating.
    const huge = new Uint8Array(Buffer.from(Buffer.from(good).toString('latin1').replace('element vertex 2', 'element vertex 4000000000'), 'latin1'));
    const t0 = performance.now();
    expect(thrown(() => readPly(huge)).message).toMatch(/truncated/);
    expect(performance.now() - t0).toBeLessThan(100);
  });

  it('ASCII: a short row, a non-number, missing rows, each at the offset of its line', () => {
    const head = ply('ascii', 2, BASIC, '');
    const row = '0 0 0 0 0 0 0 0 0 0 1 0 0 0\n';
    let e = thrown(() => readPly(ply('ascii', 2, BASIC, row + '0 0 0' + ' '.repeat(40) + '\n')));
    expect(e.offset).toBe(head.length + row.length);
    expect(e.message).toMatch(/row 1 has 3 values, expected 14/);
    e = thrown(() => readPly(ply('ascii', 2, BASIC, row + row.replace('1', 'x1'))));
    expect(e.offset).toBe(head.length + row.length);
    expect(e.message).toMatch(/"x1", not a number/);
    e = thrown(() => readPly(ply('ascii', 2, BASIC, row + '\n'.repeat(40))));
    expect(e.message).toMatch(/truncated: element vertex declares 2 rows, the file ends after 1/);
  });

  it('a list property in vertex, a path that does not exist, a directory', () => {
    const list = new Uint8Array(Buffer.from(['ply', 'format ascii 1.0', 'element vertex 0', ...BASIC.map((p) => `property float ${p}`), 'property list uchar int idx', 'end_header', ''].join('\n')));
    expect(thrown(() => readPly(list)).message).toMatch(/list property "idx"/);
    expect(thrown(() => readPly(path.join(tmp, 'missing.ply'))).message).toMatch(/cannot open/);
    expect(thrown(() => readPly(tmp)).message).toMatch(/not a regular file/);
  });

  it('bad Gaussians and options: ShapeError, ValueError, DTypeError naming writePly / readPly', () => {
    const g = randomGaussians(3, { k: 4 });
    expect(() => writePly({ ...g, scales: tensor(new Float32Array(6), { shape: [2, 3] }) })).toThrow(ShapeError);
    expect(() => writePly({ ...g, colors: g.means })).toThrow(/exactly one of colors/);
    expect(() => writePly({ ...g, sh: tensor(new Float32Array(45), { shape: [3, 5, 3] }) })).toThrow(/K = \(d \+ 1\)²/);
    expect(() => writePly({ ...g, opacities: tensor(new Float64Array(3)) })).toThrow(DTypeError);
    expect(() => writePly(g, undefined, { format: 'binary_big_endian' as 'ascii' })).toThrow(ValueError);
    expect(() => readPly(goldenBytes('deg0_le.ply'), { dtype: 'int32' as 'float32' })).toThrow(DTypeError);
    expect(() => writePly(g, path.join(tmp, 'no', 'such', 'dir.ply'))).toThrow(SplatFileError);
  });
});

describe('path writing', () => {
  const goldenBytesAt = (file: string) => readFileSync(file);
  it('writePly(g, path) writes the same bytes writePly(g) returns', () => {
    const g: Gaussians = randomGaussians(20000, { seed: 4 });
    const file = path.join(tmp, 'same.ply');
    writePly(g, file);
    writeFileSync(path.join(tmp, 'same2.ply'), writePly(g));
    expect(goldenBytesAt(file).equals(goldenBytesAt(path.join(tmp, 'same2.ply')))).toBe(true);
  });
});
