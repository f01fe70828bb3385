// The PLY header: the text up to `end_header` naming the encoding and each
// element with its count and properties. Parsed strictly (every line known,
// every count a non-negative integer, every type one of PLY's eight), with
// the byte offset of the offending line in each error, so that readPly can
// trust it before it touches the data. Generic PLY: the 3DGS layout is
// ply.ts's business.

import type { ByteSource } from './byte-source.js';
import { SplatFileError } from './errors.js';

/** PLY's scalar types, by their fixed-width names. */
export type PlyScalarType = 'int8' | 'uint8' | 'int16' | 'uint16' | 'int32' | 'uint32' | 'float32' | 'float64';
export type PlyFormat = 'ascii' | 'binary_little_endian' | 'binary_big_endian';

/** Both spellings PLY files use (char/int8, uchar/uint8, ...). */
const TYPE_NAMES: Record<string, PlyScalarType> = {
  char: 'int8', int8: 'int8', uchar: 'uint8', uint8: 'uint8',
  short: 'int16', int16: 'int16', ushort: 'uint16', uint16: 'uint16',
  int: 'int32', int32: 'int32', uint: 'uint32', uint32: 'uint32',
  float: 'float32', float32: 'float32', double: 'float64', float64: 'float64',
};

/** Bytes of each scalar type in a binary file. */
export const TYPE_SIZE: Record<PlyScalarType, number> = { int8: 1, uint8: 1, int16: 2, uint16: 2, int32: 4, uint32: 4, float32: 4, float64: 8 };

export interface PlyProperty {
  readonly name: string;
  readonly type: PlyScalarType;
  /** For `property list COUNT ITEM name`: the count's type (`type` is the item type). */
  readonly listCount?: PlyScalarType;
}

export interface PlyElement {
  readonly name: string;
  readonly count: number;
  readonly properties: PlyProperty[];
  /** Byte offset of the `element` line (for errors about the element). */
  readonly line: number;
}

export interface PlyHeader {
  readonly format: PlyFormat;
  readonly elements: PlyElement[];
  /** Byte offset of the first data byte (just after `end_header` and its newline). */
  readonly dataOffset: number;
}

/** A header longer than this is not a PLY header (it bounds the work on a file without `end_header`). */
export const MAX_HEADER = 1 << 20;
/** Counts above this are refused before any allocation (2³²−1, what a uint32 PLY count can say). */
const MAX_COUNT = 4294967295;

const fail = (offset: number, detail: string) => new SplatFileError('ply', offset, detail);
const show = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** Reads and parses the header at the start of `src`. */
export function readPlyHeader(src: ByteSource): PlyHeader {
  const head = src.read(0, Math.min(src.size, MAX_HEADER));
  // Header text is ASCII; latin1 keeps one character per byte, so string indices are byte offsets.
  const text = Buffer.from(head.buffer, head.byteOffset, head.length).toString('latin1');
  const end = /(^|\n)end_header[ \t]*\r?\n/.exec(text);
  if (!text.startsWith('ply')) throw fail(0, `not a PLY file: expected the magic line 'ply', found ${show(text.slice(0, 16))}`);
  if (end === null) {
    if (src.size > MAX_HEADER) throw fail(MAX_HEADER, `no 'end_header' line in the first ${MAX_HEADER} bytes`);
    throw fail(src.size, `truncated header: no 'end_header' line before the end of the file`);
  }
  const dataOffset = end.index + end[0].length;
  let format: PlyFormat | undefined;
  const elements: PlyElement[] = [];
  let at = 0;
  for (const raw of text.slice(0, end.index + end[1]!.length).split('\n')) {
    const lineAt = at;
    at += raw.length + 1;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const tok = line.trim().split(/[ \t]+/);
    const word = tok[0]!;
    if (lineAt === 0) {
      if (line.trim() !== 'ply') throw fail(0, `expected the magic line 'ply', found ${show(line)}`);
      continue;
    }
    if (word === '' || word === 'comment' || word === 'obj_info') continue;
    if (word === 'format') {
      if (format !== undefined) throw fail(lineAt, 'a second format line');
      if (tok.length !== 3 || !['ascii', 'binary_little_endian', 'binary_big_endian'].includes(tok[1]!)) throw fail(lineAt, `expected 'format ascii|binary_little_endian|binary_big_endian 1.0', found ${show(line)}`);
      if (tok[2] !== '1.0') throw fail(lineAt, `unsupported PLY version ${show(tok[2]!)}, expected 1.0`);
      format = tok[1] as PlyFormat;
    } else if (word === 'element') {
      if (tok.length !== 3 || !/^[0-9]+$/.test(tok[2]!) || Number(tok[2]) > MAX_COUNT) throw fail(lineAt, `expected 'element NAME COUNT' with a count in [0, ${MAX_COUNT}], found ${show(line)}`);
      if (elements.some((e) => e.name === tok[1])) throw fail(lineAt, `element ${show(tok[1]!)} declared twice`);
      elements.push({ name: tok[1]!, count: Number(tok[2]), properties: [], line: lineAt });
    } else if (word === 'property') {
      const el = elements[elements.length - 1];
      if (el === undefined) throw fail(lineAt, `a property line before any element line`);
      let prop: PlyProperty;
      if (tok[1] === 'list') {
        const count = TYPE_NAMES[tok[2] ?? ''], item = TYPE_NAMES[tok[3] ?? ''];
        if (tok.length !== 5 || count === undefined || item === undefined) throw fail(lineAt, `expected 'property list COUNT_TYPE ITEM_TYPE NAME', found ${show(line)}`);
        if (count.startsWith('float')) throw fail(lineAt, `a list count must have an integer type, found ${tok[2]}`);
        prop = { name: tok[4]!, type: item, listCount: count };
      } else {
        const type = TYPE_NAMES[tok[1] ?? ''];
        if (tok.length !== 3 || type === undefined) throw fail(lineAt, `expected 'property TYPE NAME' with TYPE one of ${Object.keys(TYPE_NAMES).join(', ')}, found ${show(line)}`);
        prop = { name: tok[2]!, type };
      }
      if (el.properties.some((p) => p.name === prop.name)) throw fail(lineAt, `property ${show(prop.name)} declared twice in element ${show(el.name)}`);
      el.properties.push(prop);
    } else if (word === 'end_header') {
      break;
    } else {
      throw fail(lineAt, `unknown header line ${show(line)}`);
    }
  }
  if (format === undefined) throw fail(0, `no 'format' line in the header`);
  return { format, elements, dataOffset };
}

/** Bytes of one row of `el` in a binary file; undefined when a list property makes rows vary. */
export function fixedRowSize(el: PlyElement): number | undefined {
  let size = 0;
  for (const p of el.properties) {
    if (p.listCount !== undefined) return undefined;
    size += TYPE_SIZE[p.type];
  }
  return size;
}
