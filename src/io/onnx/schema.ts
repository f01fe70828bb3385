// The part of onnx.proto that rlx reads, as field numbers and plain objects:
// ModelProto → GraphProto → NodeProto / TensorProto / AttributeProto /
// ValueInfoProto (TypeProto.Tensor, TensorShapeProto). Field numbers are
// onnx/onnx.proto's; fields rlx has no use for (doc strings, metadata, training
// info, sparse initializers) are skipped by number as protobuf allows.

import { ProtoReader, WIRE, readFields, expectWire } from './protobuf.js';

/** TensorProto as read: data stays in whichever field the writer used (raw_data or a typed repeated field). */
export interface TensorProto {
  name: string;
  dims: number[];
  dataType: number;
  raw: Uint8Array | undefined;
  floatData: number[];
  int32Data: number[];
  int64Data: number[];
  doubleData: number[];
  uint64Data: number[];
  /** data_location = EXTERNAL or external_data entries: the bytes live in another file. */
  external: boolean;
  /** Byte offset of the message in the file (for errors). */
  at: number;
}

/** AttributeProto: the value fields, of which the type says which one is meant. */
export interface AttributeProto {
  name: string;
  type: number;
  f: number;
  i: number;
  s: Uint8Array;
  t: TensorProto | undefined;
  hasGraph: boolean;
  floats: number[];
  ints: number[];
  strings: Uint8Array[];
}

export interface NodeProto {
  inputs: string[];
  outputs: string[];
  name: string;
  opType: string;
  domain: string;
  attributes: AttributeProto[];
}

/** ValueInfoProto of a tensor type: element type and dims (a number, a symbolic name, or null when unknown). */
export interface ValueInfoProto {
  name: string;
  elemType: number | undefined;
  shape: (number | string | null)[] | undefined;
}

export interface GraphProto {
  name: string;
  nodes: NodeProto[];
  initializers: TensorProto[];
  inputs: ValueInfoProto[];
  outputs: ValueInfoProto[];
}

export interface ModelProto {
  irVersion: number;
  producerName: string;
  producerVersion: string;
  opsetImport: { domain: string; version: number }[];
  graph: GraphProto | undefined;
}

/** AttributeProto.AttributeType values. */
export const ATTR = { FLOAT: 1, INT: 2, STRING: 3, TENSOR: 4, GRAPH: 5, FLOATS: 6, INTS: 7, STRINGS: 8, TENSORS: 9, GRAPHS: 10 } as const;

const str = (r: ProtoReader, wire: number, what: string, at: number): string => (expectWire(r, wire, WIRE.bytes, what, at), r.string());
const int = (r: ProtoReader, wire: number, what: string, at: number): number => (expectWire(r, wire, WIRE.varint, what, at), r.int64());
const msg = (r: ProtoReader, wire: number, what: string, at: number): ProtoReader => (expectWire(r, wire, WIRE.bytes, what, at), r.message());

export function readTensor(r: ProtoReader): TensorProto {
  const t: TensorProto = { name: '', dims: [], dataType: 0, raw: undefined, floatData: [], int32Data: [], int64Data: [], doubleData: [], uint64Data: [], external: false, at: r.pos };
  readFields(r, {
    1: (w) => r.repeated(w, WIRE.varint, (x) => x.int64(), t.dims),
    2: (w, at) => (t.dataType = int(r, w, 'TensorProto.data_type', at)),
    4: (w) => r.repeated(w, WIRE.fixed32, (x) => x.float(), t.floatData),
    5: (w) => r.repeated(w, WIRE.varint, (x) => x.int32(), t.int32Data),
    7: (w) => r.repeated(w, WIRE.varint, (x) => x.int64(), t.int64Data),
    8: (w, at) => (t.name = str(r, w, 'TensorProto.name', at)),
    9: (w, at) => (expectWire(r, w, WIRE.bytes, 'TensorProto.raw_data', at), (t.raw = r.bytes())),
    10: (w) => r.repeated(w, WIRE.fixed64, (x) => x.double(), t.doubleData),
    11: (w) => r.repeated(w, WIRE.varint, (x) => Number(x.varintBig()), t.uint64Data),
    13: (w, at) => (msg(r, w, 'TensorProto.external_data', at), (t.external = true)),
    14: (w, at) => (t.external ||= int(r, w, 'TensorProto.data_location', at) === 1),
  });
  return t;
}

function readAttribute(r: ProtoReader): AttributeProto {
  const a: AttributeProto = { name: '', type: 0, f: 0, i: 0, s: new Uint8Array(0), t: undefined, hasGraph: false, floats: [], ints: [], strings: [] };
  readFields(r, {
    1: (w, at) => (a.name = str(r, w, 'AttributeProto.name', at)),
    20: (w, at) => (a.type = int(r, w, 'AttributeProto.type', at)),
    2: (w, at) => (expectWire(r, w, WIRE.fixed32, 'AttributeProto.f', at), (a.f = r.float())),
    3: (w, at) => (a.i = int(r, w, 'AttributeProto.i', at)),
    4: (w, at) => (expectWire(r, w, WIRE.bytes, 'AttributeProto.s', at), (a.s = r.bytes())),
    5: (w, at) => (a.t = readTensor(msg(r, w, 'AttributeProto.t', at))),
    6: (w, at) => (msg(r, w, 'AttributeProto.g', at), (a.hasGraph = true)),
    7: (w) => r.repeated(w, WIRE.fixed32, (x) => x.float(), a.floats),
    8: (w) => r.repeated(w, WIRE.varint, (x) => x.int64(), a.ints),
    9: (w, at) => (expectWire(r, w, WIRE.bytes, 'AttributeProto.strings', at), a.strings.push(r.bytes())),
    11: (w, at) => (msg(r, w, 'AttributeProto.graphs', at), (a.hasGraph = true)),
  });
  return a;
}

function readNode(r: ProtoReader): NodeProto {
  const n: NodeProto = { inputs: [], outputs: [], name: '', opType: '', domain: '', attributes: [] };
  readFields(r, {
    1: (w, at) => n.inputs.push(str(r, w, 'NodeProto.input', at)),
    2: (w, at) => n.outputs.push(str(r, w, 'NodeProto.output', at)),
    3: (w, at) => (n.name = str(r, w, 'NodeProto.name', at)),
    4: (w, at) => (n.opType = str(r, w, 'NodeProto.op_type', at)),
    7: (w, at) => (n.domain = str(r, w, 'NodeProto.domain', at)),
    5: (w, at) => n.attributes.push(readAttribute(msg(r, w, 'NodeProto.attribute', at))),
  });
  return n;
}

function readShape(r: ProtoReader): (number | string | null)[] {
  const dims: (number | string | null)[] = [];
  readFields(r, {
    1: (w, at) => {
      const d = msg(r, w, 'TensorShapeProto.dim', at);
      let v: number | string | null = null;
      readFields(d, {
        1: (w2, at2) => (v = int(d, w2, 'Dimension.dim_value', at2)),
        2: (w2, at2) => (v = str(d, w2, 'Dimension.dim_param', at2)),
      });
      dims.push(v);
    },
  });
  return dims;
}

function readValueInfo(r: ProtoReader): ValueInfoProto {
  const v: ValueInfoProto = { name: '', elemType: undefined, shape: undefined };
  readFields(r, {
    1: (w, at) => (v.name = str(r, w, 'ValueInfoProto.name', at)),
    2: (w, at) => {
      const ty = msg(r, w, 'ValueInfoProto.type', at);
      readFields(ty, {
        1: (w2, at2) => {
          const tt = msg(ty, w2, 'TypeProto.tensor_type', at2);
          readFields(tt, {
            1: (w3, at3) => (v.elemType = int(tt, w3, 'TypeProto.Tensor.elem_type', at3)),
            2: (w3, at3) => (v.shape = readShape(msg(tt, w3, 'TypeProto.Tensor.shape', at3))),
          });
        },
      });
    },
  });
  return v;
}

function readGraph(r: ProtoReader): GraphProto {
  const g: GraphProto = { name: '', nodes: [], initializers: [], inputs: [], outputs: [] };
  readFields(r, {
    1: (w, at) => g.nodes.push(readNode(msg(r, w, 'GraphProto.node', at))),
    2: (w, at) => (g.name = str(r, w, 'GraphProto.name', at)),
    5: (w, at) => g.initializers.push(readTensor(msg(r, w, 'GraphProto.initializer', at))),
    11: (w, at) => g.inputs.push(readValueInfo(msg(r, w, 'GraphProto.input', at))),
    12: (w, at) => g.outputs.push(readValueInfo(msg(r, w, 'GraphProto.output', at))),
  });
  return g;
}

/** Decodes a ModelProto from a file's bytes. */
export function readModel(bytes: Uint8Array): ModelProto {
  const r = new ProtoReader(bytes);
  const m: ModelProto = { irVersion: 0, producerName: '', producerVersion: '', opsetImport: [], graph: undefined };
  readFields(r, {
    1: (w, at) => (m.irVersion = int(r, w, 'ModelProto.ir_version', at)),
    2: (w, at) => (m.producerName = str(r, w, 'ModelProto.producer_name', at)),
    3: (w, at) => (m.producerVersion = str(r, w, 'ModelProto.producer_version', at)),
    7: (w, at) => (m.graph = readGraph(msg(r, w, 'ModelProto.graph', at))),
    8: (w, at) => {
      const o = msg(r, w, 'ModelProto.opset_import', at);
      const entry = { domain: '', version: 0 };
      readFields(o, {
        1: (w2, at2) => (entry.domain = str(o, w2, 'OperatorSetIdProto.domain', at2)),
        2: (w2, at2) => (entry.version = int(o, w2, 'OperatorSetIdProto.version', at2)),
      });
      m.opsetImport.push(entry);
    },
  });
  return m;
}
