// io.loadOnnx operator semantics and errors on small hand-built models (onnx-builder.ts encodes them without
// rlx). Expected values are worked by hand from the ONNX operator definitions (NumPy slicing for Slice, truncation
// for integer Div and float→int Cast, opset-11 Softmax over the input flattened to 2-D). Data-path ops run with
// their data as a graph input (rlx tensors) and, where shapes are computed, as constants (folded on the host).

import { describe, expect, it } from 'vitest';
import * as io from '../../src/io/index.js';
import { tensor, type Tensor } from '../../src/index.js';
import { encodeModel, type ModelDesc, type NodeDesc, type TensorDesc } from './onnx-builder.js';

const F = 1,
  I64 = 7,
  D = 11;

const i64 = (name: string, dims: number[], data: number[]): TensorDesc => ({ name, elem: I64, dims, data });
const f32 = (name: string, dims: number[], data: number[]): TensorDesc => ({ name, elem: F, dims, data });

/** A model of `nodes` with one float input x of `shape` and outputs `outs`. */
function model(nodes: NodeDesc[], shape: number[], outs: string[], initializers: TensorDesc[] = [], opset = 14): io.OnnxModel {
  const desc: ModelDesc = { opset, nodes, inputs: [{ name: 'x', elem: F, shape }], outputs: outs.map((name) => ({ name, elem: F, shape: [] })), initializers };
  return io.loadOnnx(encodeModel(desc));
}

const run1 = (m: io.OnnxModel, x: Tensor | number[] | number[][] | number[][][], out: string) => m.run({ x: x as number[] })[out]!;
const close = (t: Tensor, expected: unknown) => {
  const got = t.tolist() as number[];
  const flat = (v: unknown): number[] => (Array.isArray(v) ? v.flatMap(flat) : [v as number]);
  expect(flat(got).length).toBe(flat(expected).length);
  flat(got).forEach((g, i) => expect(g).toBeCloseTo(flat(expected)[i]!, 6));
};

describe('io.loadOnnx operators', () => {
  it('Slice: negative steps run to the front, int64 extremes mean "to the end", axes pick dims', () => {
    const m = model([{ op: 'Slice', inputs: ['x', 's', 'e', 'a', 'st'], outputs: ['y'] }], [10], ['y'], [i64('s', [1], [8]), i64('e', [1], [-1000]), i64('a', [1], [0]), i64('st', [1], [-3])]);
    expect(run1(m, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 'y').tolist()).toEqual([8, 5, 2]);
    const m2 = model([{ op: 'Slice', inputs: ['x', 's', 'e', 'a'], outputs: ['y'] }], [2, 3], ['y'], [i64('s', [1], [1]), i64('e', [1], [Number.MAX_SAFE_INTEGER]), i64('a', [1], [1])]);
    expect(run1(m2, [[0, 1, 2], [3, 4, 5]], 'y').tolist()).toEqual([[1, 2], [4, 5]]);
  });

  it('Gather: negative and scalar indices, on tensors and on token ids given as an input', () => {
    const m = model([{ op: 'Gather', inputs: ['x', 'i'], outputs: ['y'], attrs: { axis: 0 } }, { op: 'Gather', inputs: ['x', 'j'], outputs: ['z'], attrs: { axis: 1 } }], [3, 2], ['y', 'z'], [i64('i', [2], [-1, 0]), i64('j', [], [1])]);
    const out = m.run({ x: [[1, 2], [3, 4], [5, 6]] });
    expect(out['y']!.tolist()).toEqual([[5, 6], [1, 2]]);
    expect(out['z']!.tolist()).toEqual([2, 4, 6]);
    const emb = io.loadOnnx(
      encodeModel({ nodes: [{ op: 'Gather', inputs: ['w', 'ids'], outputs: ['y'] }], inputs: [{ name: 'ids', elem: I64, shape: [2] }], outputs: [{ name: 'y', elem: F, shape: [2, 2] }], initializers: [f32('w', [3, 2], [1, 2, 3, 4, 5, 6])] }),
    );
    expect(emb.inputs).toEqual([{ name: 'ids', dtype: 'int32', shape: [2] }]);
    expect(emb.run({ ids: tensor([2, -3], { dtype: 'int32' }) })['y']!.tolist()).toEqual([[5, 6], [1, 2]]);
  });

  it('Split (sizes from an input, and equal parts), Concat', () => {
    const m = model([{ op: 'Split', inputs: ['x', 'sp'], outputs: ['a', 'b'], attrs: { axis: 1 } }, { op: 'Concat', inputs: ['b', 'a'], outputs: ['c'], attrs: { axis: 1 } }], [2, 3], ['a', 'b', 'c'], [i64('sp', [2], [1, 2])]);
    const out = m.run({ x: [[0, 1, 2], [3, 4, 5]] });
    expect(out['a']!.tolist()).toEqual([[0], [3]]);
    expect(out['b']!.tolist()).toEqual([[1, 2], [4, 5]]);
    expect(out['c']!.tolist()).toEqual([[1, 2, 0], [4, 5, 3]]);
    const eq = model([{ op: 'Split', inputs: ['x'], outputs: ['a', 'b'] }], [4], ['a', 'b']);
    expect(run1(eq, [1, 2, 3, 4], 'b').tolist()).toEqual([3, 4]);
  });

  it('Equal, Where, Expand, Unsqueeze, Squeeze', () => {
    const m = model(
      [
        { op: 'Equal', inputs: ['x', 'two'], outputs: ['c'] },
        { op: 'Where', inputs: ['c', 'x', 'm1'], outputs: ['w'] },
        { op: 'Expand', inputs: ['w', 'shape'], outputs: ['e'] },
        { op: 'Unsqueeze', inputs: ['x', 'ax'], outputs: ['u'] },
        { op: 'Squeeze', inputs: ['u'], outputs: ['s'] },
      ],
      [3],
      ['w', 'e', 'u', 's'],
      [f32('two', [], [2]), f32('m1', [], [-1]), i64('shape', [2], [2, 1]), i64('ax', [2], [0, -1])],
    );
    const out = m.run({ x: [1, 2, 3] });
    expect(out['w']!.tolist()).toEqual([-1, 2, -1]);
    expect(out['e']!.tolist()).toEqual([[-1, 2, -1], [-1, 2, -1]]);
    expect(out['u']!.shape).toEqual([1, 3, 1]);
    expect(out['s']!.tolist()).toEqual([1, 2, 3]);
  });

  it('ReduceSum (axes input, opset 13) and ReduceMean (axes attribute, keepdims)', () => {
    const m = model([{ op: 'ReduceSum', inputs: ['x', 'ax'], outputs: ['s'], attrs: { keepdims: 0 } }, { op: 'ReduceMean', inputs: ['x'], outputs: ['m'], attrs: { axes: [-1] } }], [2, 2], ['s', 'm'], [i64('ax', [1], [1])]);
    const out = m.run({ x: [[1, 2], [3, 4]] });
    expect(out['s']!.tolist()).toEqual([3, 7]);
    expect(out['m']!.tolist()).toEqual([[1.5], [3.5]]);
  });

  it('Softmax: opset 13 along one axis, opset 11 over the input flattened to 2-D at axis', () => {
    const x = [[[0, Math.log(3)], [0, 0]]];
    close(run1(model([{ op: 'Softmax', inputs: ['x'], outputs: ['y'] }], [1, 2, 2], ['y'], [], 13), x, 'y'), [[[0.25, 0.75], [0.5, 0.5]]]);
    close(run1(model([{ op: 'Softmax', inputs: ['x'], outputs: ['y'] }], [1, 2, 2], ['y'], [], 11), x, 'y'), [[[1 / 6, 1 / 2], [1 / 6, 1 / 6]]]);
  });

  it('Gemm (transA, alpha, beta), LayerNormalization (epsilon 0)', () => {
    const g = model([{ op: 'Gemm', inputs: ['x', 'b', 'c'], outputs: ['y'], attrs: { transA: 1, alpha: { f: 2 }, beta: { f: 0.5 } } }], [2, 2], ['y'], [f32('b', [2, 2], [1, 0, 0, 1]), f32('c', [2], [1, 1])]);
    expect(run1(g, [[1, 2], [3, 4]], 'y').tolist()).toEqual([[2.5, 6.5], [4.5, 8.5]]);
    const ln = model([{ op: 'LayerNormalization', inputs: ['x', 'sc', 'bi'], outputs: ['y'], attrs: { epsilon: { f: 0 } } }], [1, 2], ['y'], [f32('sc', [2], [2, 2]), f32('bi', [2], [1, 1])], 17);
    expect(run1(ln, [[1, 3]], 'y').tolist()).toEqual([[-1, 3]]);
  });

  it('integer arithmetic truncates (Div, Cast) on the host and on tensors; Range and ConstantOfShape fold', () => {
    const m = model(
      [
        { op: 'Div', inputs: ['seven', 'mtwo'], outputs: ['q'] },
        { op: 'Cast', inputs: ['x'], outputs: ['ix'], attrs: { to: 6 } },
        { op: 'Cast', inputs: ['cf'], outputs: ['icf'], attrs: { to: 7 } },
        { op: 'Div', inputs: ['ix', 'q'], outputs: ['d'] },
        { op: 'Range', inputs: ['zero', 'five', 'two'], outputs: ['r'] },
        { op: 'ConstantOfShape', inputs: ['two1'], outputs: ['k'], attrs: { value: { t: { elem: I64, dims: [1], data: [7] } } } },
      ],
      [2],
      ['q', 'ix', 'icf', 'd', 'r', 'k'],
      [i64('seven', [], [7]), i64('mtwo', [], [-2]), f32('cf', [2], [-1.5, 2.7]), i64('zero', [], [0]), i64('five', [], [5]), i64('two', [], [2]), i64('two1', [1], [2])],
    );
    const out = m.run({ x: [-7.9, 7.9] });
    expect(out['q']!.tolist()).toEqual(-3);
    expect(out['ix']!.tolist()).toEqual([-7, 7]);
    expect(out['icf']!.tolist()).toEqual([-1, 2]);
    expect(out['d']!.tolist()).toEqual([2, -2]);
    expect(out['r']!.tolist()).toEqual([0, 2, 4]);
    expect(out['k']!.tolist()).toEqual([7, 7]);
  });

  it('shape arithmetic folds to a Reshape target (Shape → Gather → Unsqueeze → Concat)', () => {
    const m = model(
      [
        { op: 'Shape', inputs: ['x'], outputs: ['sh'] },
        { op: 'Gather', inputs: ['sh', 'one'], outputs: ['n'] },
        { op: 'Unsqueeze', inputs: ['n', 'ax0'], outputs: ['n1'] },
        { op: 'Concat', inputs: ['n1', 'm1'], outputs: ['target'], attrs: { axis: 0 } },
        { op: 'Reshape', inputs: ['x', 'target'], outputs: ['y'] },
      ],
      [2, 3],
      ['y'],
      [i64('one', [], [1]), i64('ax0', [1], [0]), i64('m1', [1], [-1])],
    );
    expect(run1(m, [[0, 1, 2], [3, 4, 5]], 'y').tolist()).toEqual([[0, 1], [2, 3], [4, 5]]);
  });

  it('float64 models stay float64; unary ops', () => {
    const m = io.loadOnnx(
      encodeModel({ nodes: [{ op: 'Sqrt', inputs: ['x'], outputs: ['s'] }, { op: 'Sigmoid', inputs: ['s'], outputs: ['y'] }], inputs: [{ name: 'x', elem: D, shape: [2] }], outputs: [{ name: 'y', elem: D, shape: [2] }] }),
    );
    const y = m.run({ x: [0, 4] })['y']!;
    expect(y.dtype).toBe('float64');
    close(y, [0.5, 1 / (1 + Math.exp(-2))]);
  });
});

describe('io.loadOnnx operators (float64, closed forms)', () => {
  const unary = (node: NodeDesc, extra: TensorDesc[] = [], opset = 14) =>
    io.loadOnnx(encodeModel({ opset, nodes: [node], inputs: [{ name: 'x', elem: D, shape: [3] }], outputs: [{ name: 'y', elem: D, shape: [3] }], initializers: extra }));
  const xs = [-2, 0.5, 1];

  it('Gelu (opset 20: exact and tanh), LeakyRelu, Softplus, Reciprocal, Clip (bounds as inputs and, before opset 11, attributes)', () => {
    // gelu(x) = x Φ(x): Φ(-2) = 0.022750131948179195, Φ(0.5) = 0.6914624612740131, Φ(1) = 0.8413447460685429.
    close(unary({ op: 'Gelu', inputs: ['x'], outputs: ['y'] }, [], 20).run({ x: xs })['y']!, [-2 * 0.022750131948179195, 0.5 * 0.6914624612740131, 0.8413447460685429]);
    const tanhGelu = (x: number) => 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x ** 3)));
    close(unary({ op: 'Gelu', inputs: ['x'], outputs: ['y'], attrs: { approximate: 'tanh' } }, [], 20).run({ x: xs })['y']!, xs.map(tanhGelu));
    close(unary({ op: 'LeakyRelu', inputs: ['x'], outputs: ['y'], attrs: { alpha: { f: 0.25 } } }).run({ x: xs })['y']!, [-0.5, 0.5, 1]);
    close(unary({ op: 'Softplus', inputs: ['x'], outputs: ['y'] }).run({ x: xs })['y']!, xs.map((x) => Math.log1p(Math.exp(x))));
    close(unary({ op: 'Reciprocal', inputs: ['x'], outputs: ['y'] }).run({ x: xs })['y']!, [-0.5, 2, 1]);
    close(unary({ op: 'Clip', inputs: ['x', 'lo', 'hi'], outputs: ['y'] }, [{ name: 'lo', elem: D, dims: [], data: [-1] }, { name: 'hi', elem: D, dims: [], data: [0.75] }]).run({ x: xs })['y']!, [-1, 0.5, 0.75]);
    close(unary({ op: 'Clip', inputs: ['x'], outputs: ['y'], attrs: { min: { f: 0 } } }, [], 6).run({ x: xs })['y']!, [0, 0.5, 1]);
  });

  it('unary math against Math.*; variadic Max, Min, Sum, Mean; logical And, Or, Not', () => {
    const table: [string, (x: number) => number][] = [
      ['Neg', (x) => -x], ['Abs', Math.abs], ['Sign', Math.sign], ['Sqrt', Math.sqrt], ['Exp', Math.exp], ['Log', Math.log], ['Floor', Math.floor],
      ['Ceil', Math.ceil], ['Sin', Math.sin], ['Cos', Math.cos], ['Tanh', Math.tanh], ['Sigmoid', (x) => 1 / (1 + Math.exp(-x))], ['Relu', (x) => Math.max(x, 0)],
    ];
    const pos = [0.5, 1, 2.5];
    for (const [op, f] of table) close(unary({ op, inputs: ['x'], outputs: ['y'] }).run({ x: pos })['y']!, pos.map(f));
    const three = (op: string) =>
      io.loadOnnx(encodeModel({ nodes: [{ op, inputs: ['x', 'a', 'b'], outputs: ['y'] }], inputs: [{ name: 'x', elem: D, shape: [3] }], outputs: [{ name: 'y', elem: D, shape: [3] }], initializers: [{ name: 'a', elem: D, dims: [3], data: [3, 0, 1] }, { name: 'b', elem: D, dims: [], data: [0.75] }] })).run({ x: xs })['y']!;
    close(three('Max'), [3, 0.75, 1]);
    close(three('Min'), [-2, 0, 0.75]);
    close(three('Sum'), [1.75, 1.25, 2.75]);
    close(three('Mean'), [1.75 / 3, 1.25 / 3, 2.75 / 3]);
    const logic = io.loadOnnx(
      encodeModel({
        nodes: [
          { op: 'Greater', inputs: ['x', 'zero'], outputs: ['p'] },
          { op: 'Less', inputs: ['x', 'one'], outputs: ['q'] },
          { op: 'And', inputs: ['p', 'q'], outputs: ['and'] },
          { op: 'Or', inputs: ['p', 'q'], outputs: ['or'] },
          { op: 'Not', inputs: ['p'], outputs: ['not'] },
        ],
        inputs: [{ name: 'x', elem: D, shape: [3] }],
        outputs: ['and', 'or', 'not'].map((name) => ({ name, elem: 9, shape: [3] })),
        initializers: [{ name: 'zero', elem: D, dims: [], data: [0] }, { name: 'one', elem: D, dims: [], data: [1] }],
      }),
    ).run({ x: xs });
    expect(logic['and']!.tolist()).toEqual([false, true, false]);
    expect(logic['or']!.tolist()).toEqual([true, true, true]);
    expect(logic['not']!.tolist()).toEqual([true, false, false]);
  });

  it('Unsqueeze with axes as an attribute (opset 11), Flatten, Transpose without perm', () => {
    const m = io.loadOnnx(
      encodeModel({
        opset: 11,
        nodes: [
          { op: 'Unsqueeze', inputs: ['x'], outputs: ['u'], attrs: { axes: [1] } },
          { op: 'Flatten', inputs: ['u'], outputs: ['f'], attrs: { axis: 2 } },
          { op: 'Transpose', inputs: ['f'], outputs: ['y'] },
        ],
        inputs: [{ name: 'x', elem: D, shape: [3] }],
        outputs: [{ name: 'u', elem: D, shape: [] }, { name: 'y', elem: D, shape: [] }],
      }),
    );
    const out = m.run({ x: xs });
    expect(out['u']!.shape).toEqual([3, 1]);
    expect(out['y']!.tolist()).toEqual([[-2, 0.5, 1]]);
  });
});

describe('io.loadOnnx errors', () => {
  it('lists every unsupported op of the model at once, by type and node', () => {
    const bytes = encodeModel({
      nodes: [
        { op: 'Conv', inputs: ['x'], outputs: ['a'], name: 'c1' },
        { op: 'Relu', inputs: ['a'], outputs: ['b'], name: 'r' },
        { op: 'Conv', inputs: ['b'], outputs: ['c'], name: 'c2' },
        { op: 'LSTM', inputs: ['c'], outputs: ['d'], name: 'l' },
        { op: 'FusedGemm', inputs: ['d'], outputs: ['y'], name: 'f', domain: 'com.microsoft' },
      ],
      inputs: [{ name: 'x', elem: F, shape: [1] }],
      outputs: [{ name: 'y', elem: F, shape: [1] }],
    });
    let err: unknown;
    try {
      io.loadOnnx(bytes);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(io.OnnxError);
    const e = err as io.OnnxError;
    expect(e.message).toMatch(/unsupported operators: Conv \(nodes 'c1', 'c2'\); LSTM \(node 'l'\); com\.microsoft\.FusedGemm \(node 'f'\)\. rlx imports: Abs, Add, /);
    expect(e.unsupported).toEqual([
      { opType: 'Conv', domain: '', node: 'c1' },
      { opType: 'Conv', domain: '', node: 'c2' },
      { opType: 'LSTM', domain: '', node: 'l' },
      { opType: 'FusedGemm', domain: 'com.microsoft', node: 'f' },
    ]);
  });

  it('refuses graphs that cannot run: undefined inputs, missing outputs, no graph, no ONNX opset', () => {
    const base = { inputs: [{ name: 'x', elem: F, shape: [1] }], outputs: [{ name: 'y', elem: F, shape: [1] }] };
    expect(() => io.loadOnnx(encodeModel({ ...base, nodes: [{ op: 'Relu', inputs: ['nope'], outputs: ['y'], name: 'r' }] }))).toThrow(/node Relu 'r': input 'nope' is not a graph input, an initializer or the output of an earlier node/);
    expect(() => io.loadOnnx(encodeModel({ ...base, nodes: [{ op: 'Relu', inputs: ['x'], outputs: ['z'] }] }))).toThrow(/graph output 'y' is not computed by any node/);
    expect(() => io.loadOnnx(new Uint8Array([8, 7]))).toThrow(/holds no graph/);
    expect(() => io.loadOnnx(encodeModel({ ...base, opsetDomain: 'ai.onnx.ml', nodes: [{ op: 'Relu', inputs: ['x'], outputs: ['y'] }] }))).toThrow(/imports no version of the default ONNX opset \(imports: ai\.onnx\.ml 14\)/);
    expect(() => io.loadOnnx(42 as unknown as Uint8Array)).toThrow(/expects a path or a Uint8Array, got number/);
    expect(() => io.loadOnnx(encodeModel({ inputs: [{ name: 'x', elem: F, shape: [2, -3] }], outputs: base.outputs, nodes: [{ op: 'Relu', inputs: ['x'], outputs: ['y'] }] }))).toThrow(/input 'x' has an invalid dim in \[2, -3\]/);
    expect(() => io.loadOnnx(encodeModel({ inputs: [{ name: 'x', elem: 8, shape: [1] }], outputs: base.outputs, nodes: [{ op: 'Relu', inputs: ['x'], outputs: ['y'] }] }))).toThrow(/input 'x' has element type STRING, which rlx does not read/);
  });

  it('errors while running name the node', () => {
    const m = model([{ op: 'Reshape', inputs: ['x', 's'], outputs: ['y'], name: 'rs' }], [2, 3], ['y'], [i64('s', [2], [4, -1])]);
    expect(() => m.run({ x: [[0, 1, 2], [3, 4, 5]] })).toThrow(/node Reshape 'rs': cannot reshape \[2,3\] to \[4,-1\]/);
    const mm = model([{ op: 'MatMul', inputs: ['x', 'w'], outputs: ['y'], name: 'mm' }], [2, 3], ['y'], [f32('w', [2, 2], [1, 2, 3, 4])]);
    expect(() => mm.run({ x: [[0, 1, 2], [3, 4, 5]] })).toThrow(io.OnnxError);
    expect(() => mm.run({ x: [[0, 1, 2], [3, 4, 5]] })).toThrow(/node MatMul 'mm': ShapeError: matmul/);
  });

  it('malformed protobuf: typed errors at the byte where decoding fails', () => {
    expect(() => io.loadOnnx(new Uint8Array([0x3a, 0x10, 1, 2]))).toThrow(/byte 1: malformed protobuf: a message of 16 bytes runs past the end of its parent \(2 bytes left\)/);
    expect(() => io.loadOnnx(new Uint8Array([0x08, 0xff, 0xff]))).toThrow(/byte 1: malformed protobuf: a varint runs past the end/);
    expect(() => io.loadOnnx(new Uint8Array([0x0b]))).toThrow(/byte 0: malformed protobuf: wire type 3 \(field 1\) is not one ONNX uses/);
    expect(() => io.loadOnnx(new Uint8Array([0x3a, 0x02, 0x10, 0x01]))).toThrow(/malformed protobuf: GraphProto.name has wire type 0, expected 2/);
  });
});
