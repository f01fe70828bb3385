// What flows along an imported ONNX graph's edges. Exporters compute shapes
// inside the graph (Shape → Gather → Unsqueeze → Concat → Reshape), and rlx
// needs shapes as JS numbers, so a value is either a rlx Tensor (the model's
// data path: differentiable, traced by jit and graph) or a host constant: a
// small array of JS numbers with its ONNX element type (integer initializers,
// Constant nodes, anything computed from shapes). Ops fold host constants on
// the host and turn them into tensors only where they meet the data path.
// This file also holds the ONNX ↔ rlx dtype table and TensorProto decoding.

import { Tensor } from '../../tensor/tensor.js';
import { fromStorage } from '../../tensor/create.js';
import { DTYPE_INFO, type DType, type StorageArray } from '../../tensor/dtype.js';
import { bf16BitsToF32, f16BitsToF32, f32ToBf16Bits, f32ToF16Bits } from '../../tensor/half.js';
import { OnnxError } from './errors.js';
import type { TensorProto } from './schema.js';

/** TensorProto.DataType values. */
export const ELEM = { FLOAT: 1, UINT8: 2, INT8: 3, UINT16: 4, INT16: 5, INT32: 6, INT64: 7, STRING: 8, BOOL: 9, FLOAT16: 10, DOUBLE: 11, UINT32: 12, UINT64: 13, COMPLEX64: 14, COMPLEX128: 15, BFLOAT16: 16 } as const;

const ELEM_NAME: Record<number, string> = Object.fromEntries(Object.entries(ELEM).map(([k, v]) => [v, k]));

/** The ONNX element type's name, for messages. */
export const elemName = (e: number): string => ELEM_NAME[e] ?? `data type ${e}`;

const FLOAT_ELEMS: ReadonlySet<number> = new Set([ELEM.FLOAT, ELEM.FLOAT16, ELEM.DOUBLE, ELEM.BFLOAT16]);
const INT_ELEMS: ReadonlySet<number> = new Set([ELEM.UINT8, ELEM.INT8, ELEM.UINT16, ELEM.INT16, ELEM.INT32, ELEM.INT64, ELEM.UINT32, ELEM.UINT64]);

export const isFloatElem = (e: number): boolean => FLOAT_ELEMS.has(e);
export const isIntElem = (e: number): boolean => INT_ELEMS.has(e);

/** The rlx dtype an ONNX element type becomes: rlx computes every integer type as int32 (values must fit), floats as themselves. */
export function rlxDType(e: number): DType | undefined {
  if (e === ELEM.FLOAT) return 'float32';
  if (e === ELEM.DOUBLE) return 'float64';
  if (e === ELEM.FLOAT16) return 'float16';
  if (e === ELEM.BFLOAT16) return 'bfloat16';
  if (e === ELEM.BOOL) return 'bool';
  if (e === ELEM.COMPLEX64) return 'complex64';
  if (e === ELEM.COMPLEX128) return 'complex128';
  if (isIntElem(e)) return 'int32';
  return undefined;
}

/** The ONNX element type of a rlx dtype (int32 for every integer tensor). */
export function elemOf(d: DType): number {
  const table: Partial<Record<DType, number>> = { float32: ELEM.FLOAT, float64: ELEM.DOUBLE, float16: ELEM.FLOAT16, bfloat16: ELEM.BFLOAT16, bool: ELEM.BOOL, complex64: ELEM.COMPLEX64, complex128: ELEM.COMPLEX128 };
  return table[d] ?? ELEM.INT32;
}

/** A value computed on the host: row-major JS numbers (booleans as 0/1) and their ONNX element type. */
export interface Host {
  kind: 'host';
  elem: number;
  shape: number[];
  data: number[];
}

/** An edge's value: a rlx tensor or a host constant. */
export type Val = Tensor | Host;

export const isHost = (v: Val): v is Host => !(v instanceof Tensor);

export const host = (elem: number, shape: number[], data: number[]): Host => ({ kind: 'host', elem, shape, data });

/** The most elements a host constant may hold: host values are shape arithmetic and small constants, so a bigger one is a malformed model. */
export const HOST_LIMIT = 2 ** 22;

/** The most elements an op may create by broadcasting (Expand): far beyond real models, short of exhausting memory. */
export const EXPAND_LIMIT = 2 ** 28;

export const sizeOf = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** The shape of a value as numbers (inside a graph() with symbolic dims, a symbol cannot be folded: a typed error). */
export function shapeOf(v: Val, node: string): number[] {
  if (isHost(v)) return v.shape;
  return v.shape.map((d) => {
    if (typeof d !== 'number') throw new OnnxError('run', undefined, node, `the graph computes with the symbolic dim '${d}'; imported ONNX graphs run at concrete shapes (call run(), or graph() with numeric dims)`);
    return d;
  });
}

/** The ONNX element type of a value. */
export const elemOfVal = (v: Val): number => (isHost(v) ? v.elem : elemOf(v.dtype));

/** Rounds host numbers to what the element type holds (integers truncate, as ONNX casts do; float32 rounds). */
export function roundTo(elem: number, x: number): number {
  if (elem === ELEM.BOOL) return x !== 0 && !Number.isNaN(x) ? 1 : 0;
  if (isIntElem(elem)) return Number.isFinite(x) ? Math.trunc(x) : 0;
  if (elem === ELEM.FLOAT) return Math.fround(x);
  if (elem === ELEM.FLOAT16) return f16BitsToF32(f32ToF16Bits(x));
  if (elem === ELEM.BFLOAT16) return bf16BitsToF32(f32ToBf16Bits(x));
  return x;
}

/** A host constant as a tensor (dtype: `like` when given — ONNX requires operands of one type — else its own). */
export function toTensor(v: Val, node: string, like?: DType): Tensor {
  if (!isHost(v)) return like !== undefined && v.dtype !== like ? v.cast(like) : v;
  const dtype = like ?? rlxDType(v.elem);
  if (dtype === undefined) throw new OnnxError('run', undefined, node, `a ${elemName(v.elem)} value cannot become a rlx tensor`);
  return storageTensor(v.data, v.shape, dtype, node);
}

function storageTensor(data: number[], shape: number[], dtype: DType, node: string): Tensor {
  const info = DTYPE_INFO[dtype];
  const out = new info.storage(data.length * info.lanes);
  if (dtype === 'float16') for (let i = 0; i < data.length; i++) out[i] = f32ToF16Bits(data[i]!);
  else if (dtype === 'bfloat16') for (let i = 0; i < data.length; i++) out[i] = f32ToBf16Bits(data[i]!);
  else if (dtype === 'int32') {
    for (let i = 0; i < data.length; i++) {
      const x = data[i]!;
      if (x < -2147483648 || x > 2147483647) throw new OnnxError('run', undefined, node, `integer ${x} does not fit int32, rlx's integer type`);
      out[i] = x;
    }
  } else if (info.lanes === 2) for (let i = 0; i < data.length; i++) out[2 * i] = data[i]!;
  else for (let i = 0; i < data.length; i++) out[i] = data[i]!;
  return fromStorage(out, shape, dtype);
}

const ITEMSIZE: Record<number, number> = { 1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8, 12: 4, 13: 8, 16: 2 };

/** The numbers of a TensorProto, from raw_data (little-endian) or its typed field. */
function protoNumbers(p: TensorProto, n: number, where: string): number[] {
  const e = p.dataType;
  if (p.raw !== undefined) {
    const size = ITEMSIZE[e];
    if (size === undefined) throw new OnnxError('loadOnnx', p.at, undefined, `${where}: raw data of type ${elemName(e)} is not supported`);
    if (p.raw.length !== n * size) throw new OnnxError('loadOnnx', p.at, undefined, `${where}: raw_data has ${p.raw.length} bytes, dims [${p.dims}] of ${elemName(e)} need ${n * size}`);
    const dv = new DataView(p.raw.buffer, p.raw.byteOffset, p.raw.byteLength);
    const out = new Array<number>(n);
    const read: (i: number) => number =
      e === ELEM.FLOAT ? (i) => dv.getFloat32(4 * i, true)
      : e === ELEM.DOUBLE ? (i) => dv.getFloat64(8 * i, true)
      : e === ELEM.FLOAT16 ? (i) => f16BitsToF32(dv.getUint16(2 * i, true))
      : e === ELEM.BFLOAT16 ? (i) => bf16BitsToF32(dv.getUint16(2 * i, true))
      : e === ELEM.INT64 ? (i) => Number(dv.getBigInt64(8 * i, true))
      : e === ELEM.UINT64 ? (i) => Number(dv.getBigUint64(8 * i, true))
      : e === ELEM.INT32 ? (i) => dv.getInt32(4 * i, true)
      : e === ELEM.UINT32 ? (i) => dv.getUint32(4 * i, true)
      : e === ELEM.INT16 ? (i) => dv.getInt16(2 * i, true)
      : e === ELEM.UINT16 ? (i) => dv.getUint16(2 * i, true)
      : e === ELEM.INT8 ? (i) => dv.getInt8(i)
      : e === ELEM.BOOL ? (i) => (dv.getUint8(i) !== 0 ? 1 : 0)
      : (i) => dv.getUint8(i);
    for (let i = 0; i < n; i++) out[i] = read(i);
    return out;
  }
  const field =
    e === ELEM.FLOAT ? p.floatData
    : e === ELEM.DOUBLE ? p.doubleData
    : e === ELEM.INT64 ? p.int64Data
    : e === ELEM.UINT32 || e === ELEM.UINT64 ? p.uint64Data
    : e === ELEM.FLOAT16 ? p.int32Data.map(f16BitsToF32)
    : e === ELEM.BFLOAT16 ? p.int32Data.map(bf16BitsToF32)
    : isIntElem(e) || e === ELEM.BOOL ? p.int32Data
    : undefined;
  if (field === undefined) throw new OnnxError('loadOnnx', p.at, undefined, `${where}: tensors of type ${elemName(e)} are not supported`);
  // An empty typed field with n > 0 elements is a tensor without data.
  if (field.length !== n) throw new OnnxError('loadOnnx', p.at, undefined, `${where}: holds ${field.length} values, dims [${p.dims}] need ${n}`);
  return e === ELEM.BOOL ? field.map((x) => (x !== 0 ? 1 : 0)) : field;
}

function checkProto(p: TensorProto, where: string): number {
  if (p.external) throw new OnnxError('loadOnnx', p.at, undefined, `${where}: its data is stored in an external file, which loadOnnx does not read (save the model with its data inside)`);
  for (const d of p.dims) if (!Number.isSafeInteger(d) || d < 0) throw new OnnxError('loadOnnx', p.at, undefined, `${where}: invalid dim ${d} in [${p.dims}]`);
  const n = sizeOf(p.dims);
  if (!Number.isSafeInteger(n) || n > 2 ** 31) throw new OnnxError('loadOnnx', p.at, undefined, `${where}: dims [${p.dims}] hold ${n} elements, more than rlx allocates`);
  if (rlxDType(p.dataType) === undefined || p.dataType === ELEM.COMPLEX64 || p.dataType === ELEM.COMPLEX128) throw new OnnxError('loadOnnx', p.at, undefined, `${where}: tensors of type ${elemName(p.dataType)} are not supported`);
  return n;
}

/** A TensorProto as a value: float data becomes a tensor (the weights), everything else a host constant. */
export function protoValue(p: TensorProto, where: string): Val {
  const n = checkProto(p, where);
  if (!isFloatElem(p.dataType)) return host(p.dataType, p.dims, protoNumbers(p, n, where));
  const dtype = rlxDType(p.dataType)!;
  const info = DTYPE_INFO[dtype];
  if (p.raw !== undefined && p.raw.length === n * info.itemsize) {
    // raw_data holds the little-endian bytes rlx stores: one copy (aligned, and not aliasing the file).
    const bytes = new Uint8Array(p.raw.length);
    bytes.set(p.raw);
    const Ctor = info.storage as unknown as new (b: ArrayBuffer, off: number, len: number) => StorageArray;
    return fromStorage(new Ctor(bytes.buffer, 0, n), p.dims, dtype);
  }
  return storageTensor(protoNumbers(p, n, where), p.dims, dtype, where);
}

/** A TensorProto's values on the host (Constant nodes and attribute tensors: small). */
export function protoHost(p: TensorProto, where: string): Host {
  return host(p.dataType, p.dims, protoNumbers(p, checkProto(p, where), where));
}
