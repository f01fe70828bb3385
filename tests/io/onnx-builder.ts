// A tiny ONNX writer for tests: encodes a ModelProto from a plain description
// with the protobuf wire format, independently of rlx's reader (field numbers
// from onnx/onnx.proto), so tests can make models with any op, attribute or
// malformation without torch.

export type AttrValue = number | { f: number } | number[] | { floats: number[] } | string | { t: TensorDesc };
export interface TensorDesc {
  name?: string;
  elem: number;
  dims: number[];
  /** Stored in the typed field (float_data, int64_data, int32_data, double_data) unless raw is set. */
  data: number[];
  raw?: boolean;
}
export interface NodeDesc {
  op: string;
  inputs: string[];
  outputs: string[];
  name?: string;
  domain?: string;
  attrs?: Record<string, AttrValue>;
}
export interface ValueDesc {
  name: string;
  elem: number;
  shape: (number | string)[];
}
export interface ModelDesc {
  opset?: number;
  /** The opset's domain (default '': the ONNX operators). */
  opsetDomain?: string;
  nodes: NodeDesc[];
  inputs: ValueDesc[];
  outputs: ValueDesc[];
  initializers?: TensorDesc[];
}

const cat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) (out.set(p, at), (at += p.length));
  return out;
};

function varint(v: number | bigint): Uint8Array {
  let x = BigInt.asUintN(64, BigInt(v));
  const out: number[] = [];
  do {
    const b = Number(x & 0x7fn);
    x >>= 7n;
    out.push(x > 0n ? b | 0x80 : b);
  } while (x > 0n);
  return Uint8Array.from(out);
}

const tag = (field: number, wire: number) => varint(field * 8 + wire);
const vint = (field: number, v: number) => cat([tag(field, 0), varint(v)]);
const bytes = (field: number, b: Uint8Array) => cat([tag(field, 2), varint(b.length), b]);
const str = (field: number, s: string) => bytes(field, new TextEncoder().encode(s));
const f32 = (field: number, x: number) => {
  const b = new Uint8Array(5 + 4);
  const t = tag(field, 5);
  b.set(t);
  new DataView(b.buffer).setFloat32(t.length, x, true);
  return b.subarray(0, t.length + 4);
};

export function encodeTensor(t: TensorDesc): Uint8Array {
  const parts = [...t.dims.map((d) => vint(1, d)), vint(2, t.elem)];
  if (t.name !== undefined) parts.push(str(8, t.name));
  if (t.raw) {
    const size = t.elem === 1 ? 4 : t.elem === 11 || t.elem === 7 ? 8 : t.elem === 6 ? 4 : 1;
    const b = new Uint8Array(t.data.length * size);
    const dv = new DataView(b.buffer);
    t.data.forEach((x, i) => {
      if (t.elem === 1) dv.setFloat32(4 * i, x, true);
      else if (t.elem === 11) dv.setFloat64(8 * i, x, true);
      else if (t.elem === 7) dv.setBigInt64(8 * i, BigInt(x), true);
      else if (t.elem === 6) dv.setInt32(4 * i, x, true);
      else dv.setUint8(i, x);
    });
    parts.push(bytes(9, b));
  } else if (t.elem === 1) parts.push(...t.data.map((x) => f32(4, x)));
  else if (t.elem === 7) parts.push(...t.data.map((x) => vint(7, x)));
  else if (t.elem === 11) {
    const b = new Uint8Array(8 * t.data.length);
    t.data.forEach((x, i) => new DataView(b.buffer).setFloat64(8 * i, x, true));
    parts.push(bytes(10, b)); // packed double_data
  } else parts.push(...t.data.map((x) => vint(5, x)));
  return cat(parts);
}

function encodeAttr(name: string, v: AttrValue): Uint8Array {
  const head = str(1, name);
  if (typeof v === 'number') return cat([head, vint(20, 2), vint(3, v)]);
  if (typeof v === 'string') return cat([head, vint(20, 3), str(4, v)]);
  if (Array.isArray(v)) return cat([head, vint(20, 7), ...v.map((x) => vint(8, x))]);
  if ('f' in v) return cat([head, vint(20, 1), f32(2, v.f)]);
  if ('floats' in v) return cat([head, vint(20, 6), ...v.floats.map((x) => f32(7, x))]);
  return cat([head, vint(20, 4), bytes(5, encodeTensor(v.t))]);
}

function encodeValueInfo(v: ValueDesc): Uint8Array {
  const dims = v.shape.map((d) => bytes(1, typeof d === 'number' ? vint(1, d) : str(2, d)));
  const tensorType = cat([vint(1, v.elem), bytes(2, cat(dims))]);
  return cat([str(1, v.name), bytes(2, bytes(1, tensorType))]);
}

/** The bytes of an ONNX model. */
export function encodeModel(m: ModelDesc): Uint8Array {
  const nodes = m.nodes.map((n, i) =>
    bytes(
      1,
      cat([
        ...n.inputs.map((s) => str(1, s)),
        ...n.outputs.map((s) => str(2, s)),
        str(3, n.name ?? `${n.op}_${i}`),
        str(4, n.op),
        ...(n.domain ? [str(7, n.domain)] : []),
        ...Object.entries(n.attrs ?? {}).map(([k, v]) => bytes(5, encodeAttr(k, v))),
      ]),
    ),
  );
  const graph = cat([...nodes, str(2, 'test'), ...(m.initializers ?? []).map((t) => bytes(5, encodeTensor(t))), ...m.inputs.map((v) => bytes(11, encodeValueInfo(v))), ...m.outputs.map((v) => bytes(12, encodeValueInfo(v)))]);
  return cat([vint(1, 8), str(2, 'rlx-tests'), bytes(7, graph), bytes(8, cat([...(m.opsetDomain ? [str(1, m.opsetDomain)] : []), vint(2, m.opset ?? 14)]))]);
}
