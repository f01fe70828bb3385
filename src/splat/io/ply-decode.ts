// Reading the rows of the PLY vertex element in windows of a few MiB, for
// both encodings: binary (little or big endian; rows of fixed size, read with
// a DataView) and ASCII (one row per line). Each row's slot values (the
// properties a GaussianLayout picks, as float64) go to a callback. Every
// error is a SplatFileError with the byte offset of the row (or of the end of
// the file for a truncation); sizes are checked against the file before the
// caller allocates, so a header promising 10¹² rows fails at once.

import type { ByteSource } from './byte-source.js';
import { SplatFileError } from './errors.js';
import { fixedRowSize, TYPE_SIZE, type PlyElement, type PlyHeader, type PlyScalarType } from './ply-header.js';

/** Bytes read per window (whole rows; also the longest ASCII line accepted). */
const WINDOW = 4 << 20;

export type RowCallback = (row: number, values: Float64Array) => void;

const fail = (offset: number, detail: string) => new SplatFileError('ply', offset, detail);

/** The index of the vertex element; none, or a list property in it, is a SplatFileError. */
export function vertexElement(header: PlyHeader): number {
  const v = header.elements.findIndex((e) => e.name === 'vertex');
  if (v < 0) throw fail(0, `no 'element vertex' in the header (elements: ${header.elements.map((e) => e.name).join(', ') || 'none'})`);
  const list = header.elements[v]!.properties.find((p) => p.listCount !== undefined);
  if (list) throw fail(header.elements[v]!.line, `element vertex has the list property ${JSON.stringify(list.name)}; only scalar properties are supported there`);
  return v;
}

/** Checks that `rows` rows of at least `minBytes` each fit between `start` and the end of the file. */
function checkFits(src: ByteSource, start: number, rows: number, minBytes: number, el: PlyElement): void {
  if (start + rows * minBytes > src.size) {
    const what = minBytes > 0 ? ` (at least ${minBytes} bytes each from byte ${start})` : '';
    throw fail(src.size, `truncated: element ${el.name} declares ${rows} rows${what} but the file ends at byte ${src.size}`);
  }
}

const TYPE_CODE: Record<PlyScalarType, number> = { int8: 0, uint8: 1, int16: 2, uint16: 3, int32: 4, uint32: 5, float32: 6, float64: 7 };

function getValue(dv: DataView, at: number, code: number, le: boolean): number {
  switch (code) {
    case 6: return dv.getFloat32(at, le);
    case 7: return dv.getFloat64(at, le);
    case 0: return dv.getInt8(at);
    case 1: return dv.getUint8(at);
    case 2: return dv.getInt16(at, le);
    case 3: return dv.getUint16(at, le);
    case 4: return dv.getInt32(at, le);
    default: return dv.getUint32(at, le);
  }
}

/** Decodes the vertex rows of a binary file (little or big endian), calling `onRow` for each with the values of `slots`. */
export function decodeBinary(src: ByteSource, header: PlyHeader, v: number, slots: Int32Array, onRow: RowCallback): void {
  let start = header.dataOffset;
  for (const el of header.elements.slice(0, v)) {
    const size = fixedRowSize(el);
    if (size === undefined) throw fail(el.line, `element ${JSON.stringify(el.name)} before vertex has list properties; a binary file with such an element before vertex is not supported`);
    checkFits(src, start, el.count, size, el);
    start += size * el.count;
  }
  const vertex = header.elements[v]!;
  const rowSize = fixedRowSize(vertex)!;
  checkFits(src, start, vertex.count, rowSize, vertex);
  const propOffset: number[] = [];
  let at = 0;
  for (const p of vertex.properties) {
    propOffset.push(at);
    at += TYPE_SIZE[p.type];
  }
  const nSlots = slots.length;
  const offs = Int32Array.from(slots, (i) => propOffset[i]!);
  const codes = Int32Array.from(slots, (i) => TYPE_CODE[vertex.properties[i]!.type]);
  const le = header.format === 'binary_little_endian';
  const values = new Float64Array(nSlots);
  const rowsPerWindow = Math.max(1, Math.floor(WINDOW / Math.max(1, rowSize)));
  for (let r0 = 0; r0 < vertex.count; r0 += rowsPerWindow) {
    const rows = Math.min(rowsPerWindow, vertex.count - r0);
    const pos = start + r0 * rowSize;
    const view = src.read(pos, rows * rowSize);
    if (view.length < rows * rowSize) throw fail(pos + view.length, `truncated: element vertex row ${r0 + Math.floor(view.length / rowSize)} is incomplete (the file ended while reading)`);
    const dv = new DataView(view.buffer, view.byteOffset, view.length);
    for (let r = 0; r < rows; r++) {
      const base = r * rowSize;
      for (let j = 0; j < nSlots; j++) values[j] = getValue(dv, base + offs[j]!, codes[j]!, le);
      onRow(r0 + r, values);
    }
  }
}

/** Lines of an ASCII body, read in windows; blank lines are skipped. */
class AsciiLines {
  private text = '';
  private textStart: number;
  private i = 0;
  constructor(
    private readonly src: ByteSource,
    start: number,
  ) {
    this.textStart = start;
  }
  /** The next non-blank line and the byte offset of its start, or null at the end of the file. */
  next(): { line: string; offset: number } | null {
    for (;;) {
      let j = this.text.indexOf('\n', this.i);
      if (j < 0) {
        const from = this.textStart + this.i;
        if (from >= this.src.size) return null;
        const view = this.src.read(from, WINDOW);
        this.text = Buffer.from(view.buffer, view.byteOffset, view.length).toString('latin1');
        this.textStart = from;
        this.i = 0;
        j = this.text.indexOf('\n');
        if (j < 0) {
          if (from + this.text.length < this.src.size) throw fail(from, `a line longer than ${WINDOW} bytes`);
          j = this.text.length; // the last line, without a newline
        }
      }
      const offset = this.textStart + this.i;
      const line = this.text.slice(this.i, j);
      this.i = j + 1;
      if (line.trim() !== '') return { line, offset };
    }
  }
}

/** NaN and infinities as C's printf writes them ('nan', '-inf', ...), which Number() does not read. */
const SPECIAL: Record<string, number> = { nan: NaN, '-nan': NaN, '+nan': NaN, inf: Infinity, '+inf': Infinity, '-inf': -Infinity, infinity: Infinity, '+infinity': Infinity, '-infinity': -Infinity };

/** Decodes the vertex rows of an ASCII file, calling `onRow` for each with the values of `slots`. */
export function decodeAscii(src: ByteSource, header: PlyHeader, v: number, slots: Int32Array, onRow: RowCallback): void {
  const lines = new AsciiLines(src, header.dataOffset);
  for (const el of header.elements.slice(0, v)) {
    checkFits(src, header.dataOffset, el.count, 1, el);
    for (let r = 0; r < el.count; r++) {
      if (lines.next() === null) throw fail(src.size, `truncated: element ${JSON.stringify(el.name)} declares ${el.count} rows, the file ends after ${r}`);
    }
  }
  const vertex = header.elements[v]!;
  const nProps = vertex.properties.length;
  // Each row has nProps numbers of at least one character, separated by single characters.
  checkFits(src, header.dataOffset, vertex.count, 2 * nProps - 1, vertex);
  const values = new Float64Array(slots.length);
  for (let r = 0; r < vertex.count; r++) {
    const next = lines.next();
    if (next === null) throw fail(src.size, `truncated: element vertex declares ${vertex.count} rows, the file ends after ${r}`);
    const tok = next.line.trim().split(/[ \t\r]+/);
    if (tok.length !== nProps) throw fail(next.offset, `element vertex row ${r} has ${tok.length} values, expected ${nProps} (one per property)`);
    for (let j = 0; j < slots.length; j++) {
      const t = tok[slots[j]!]!;
      let x = Number(t);
      if (Number.isNaN(x)) {
        const lower = t.toLowerCase();
        if (!Object.hasOwn(SPECIAL, lower)) throw fail(next.offset, `element vertex row ${r}: property ${JSON.stringify(vertex.properties[slots[j]!]!.name)} has the value ${JSON.stringify(t.slice(0, 40))}, not a number`);
        x = SPECIAL[lower]!;
      }
      values[j] = x;
    }
    onRow(r, values);
  }
}
