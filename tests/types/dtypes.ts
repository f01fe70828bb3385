// Compile-only: dtype-narrowed results (issue 14 §5). A tensor whose dtype is
// known statically (an explicit dtype option, cast/astype to a literal dtype)
// is a Tensor<D>, and toArray(), data() and item() follow D; ops return plain
// Tensor (their dtype follows promotion at run time), whose results are the
// union of every dtype's, as before. Never executed.

import type { DType } from '../../src/index.js';
import { DTYPES, tensor, zeros, ones, full, arange, linspace, eye, grad, Tensor } from '../../src/index.js';
import { expectTrue, type Equal } from './assert.js';

type AnyArray = Float64Array | Float32Array | Int32Array | Int8Array | Uint8Array;
type AnyItem = number | boolean | [number, number];

// DType is spelled out (so messages say Tensor<DType>): DTYPES lists exactly its names.
expectTrue<Equal<(typeof DTYPES)[number], DType>>();

// An explicit dtype narrows toArray() and item(); aliases resolve.
const f32 = tensor([1, 2], { dtype: 'float32' });
expectTrue<Equal<typeof f32, Tensor<'float32'>>>();
expectTrue<Equal<ReturnType<typeof f32.toArray>, Float32Array>>();
expectTrue<Equal<ReturnType<typeof f32.item>, number>>();
expectTrue<Equal<ReturnType<typeof f32.data>, Promise<Float32Array>>>();
expectTrue<Equal<ReturnType<Tensor<'float64'>['toArray']>, Float64Array>>();
expectTrue<Equal<ReturnType<typeof tensor<'f64'>>, Tensor<'float64'>>>();
const i32 = tensor([1, 2], { dtype: 'int32', shape: [2] });
expectTrue<Equal<ReturnType<typeof i32.toArray>, Int32Array>>();
const flag = tensor(true, { dtype: 'bool' }).item();
expectTrue<Equal<typeof flag, boolean>>();
const z = tensor([{ re: 1, im: 2 }], { dtype: 'c64' });
expectTrue<Equal<ReturnType<typeof z.toArray>, Float32Array>>(); // interleaved (re, im)
expectTrue<Equal<ReturnType<typeof z.item>, [number, number]>>();
expectTrue<Equal<ReturnType<Tensor<'complex128'>['toArray']>, Float64Array>>();
// int8 is an Int8Array; uint8 a Uint8Array like bool, but its item() is a number.
const i8 = tensor([1, -2], { dtype: 'int8' });
expectTrue<Equal<typeof i8, Tensor<'int8'>>>();
expectTrue<Equal<ReturnType<typeof i8.toArray>, Int8Array>>();
expectTrue<Equal<ReturnType<typeof i8.item>, number>>();
const u8 = tensor([1, 2], { dtype: 'u8' });
expectTrue<Equal<typeof u8, Tensor<'uint8'>>>();
expectTrue<Equal<ReturnType<typeof u8.toArray>, Uint8Array>>();
expectTrue<Equal<ReturnType<typeof u8.item>, number>>();
expectTrue<Equal<ReturnType<ReturnType<typeof tensor<'i8'>>['toArray']>, Int8Array>>();
// @ts-expect-error a uint8 tensor's item() is a number, not a boolean
const wrongU8: boolean = u8.item();
void wrongU8;
// float16 and bfloat16 decode to Float32Array.
expectTrue<Equal<ReturnType<Tensor<'float16' | 'bfloat16'>['toArray']>, Float32Array>>();

// The NumPy constructors and cast/astype narrow on a literal dtype; on() keeps it.
const small = [zeros([2], { dtype: 'int8' }), full([2], 3, { dtype: 'i8' }), arange(3, { dtype: 'int8' }), tensor([1.5]).cast('int8'), ones([1], { dtype: 'i8' })] as const;
expectTrue<Equal<(typeof small)[number], Tensor<'int8'>>>();
const built = [zeros([2], { dtype: 'float32' }), ones([2], { dtype: 'f32' }), full([2], 3, { dtype: 'float32' }), arange(3, undefined, 1, { dtype: 'float32' }), linspace(0, 1, 5, { dtype: 'float32' }), eye(2, 2, { dtype: 'float32' })] as const;
expectTrue<Equal<(typeof built)[number], Tensor<'float32'>>>();
const cast = tensor([1.5]).cast('int32');
expectTrue<Equal<ReturnType<typeof cast.toArray>, Int32Array>>();
expectTrue<Equal<ReturnType<ReturnType<Tensor['astype']>['item']>, AnyItem>>();
expectTrue<Equal<typeof f32.on, (device: string) => Tensor<'float32'>>>();
expectTrue<Equal<ReturnType<typeof f32.realize>, Tensor<'float32'>>>();

// An unknown dtype gives exactly the old union types.
const plain = tensor([1, 2]);
expectTrue<Equal<typeof plain, Tensor>>();
expectTrue<Equal<typeof plain.dtype, DType>>();
expectTrue<Equal<typeof f32.dtype, 'float32'>>();
expectTrue<Equal<ReturnType<typeof plain.toArray>, AnyArray>>();
expectTrue<Equal<ReturnType<typeof plain.item>, AnyItem>>();
expectTrue<Equal<ReturnType<typeof f32.add>, Tensor>>(); // promotion is a run-time matter
expectTrue<Equal<ReturnType<typeof zeros>, Tensor>>();
// A dtype known only as one of several gives the union of their results.
declare const either: 'float32' | 'int32';
const u = zeros([2], { dtype: either });
expectTrue<Equal<ReturnType<typeof u.toArray>, Float32Array | Int32Array>>();

// @ts-expect-error a float32 tensor's data is a Float32Array
const wrongArray: Float64Array = f32.toArray();
// @ts-expect-error a bool tensor's item() is a boolean
const wrongItem: number = tensor([true], { dtype: 'bool' }).item();
// @ts-expect-error a complex item is [re, im]
const wrongComplex: number = z.item();
void [wrongArray, wrongItem, wrongComplex];

// A Tensor<D> is a Tensor: it goes wherever a Tensor does.
const asTensor: Tensor = f32;
const mixed: Tensor[] = [f32, i32, plain];
const gf = grad((t: Tensor<'float32'>) => t.square().sum())(f32);
expectTrue<Equal<typeof gf, Tensor>>();
void [asTensor, mixed];

// A variable keeps its initializer's type: to reassign it with op results
// (plain Tensors), declare it a Tensor.
let h: Tensor = zeros([3], { dtype: 'float32' });
h = h.add(1);
let narrow = zeros([3], { dtype: 'float32' });
// @ts-expect-error an op's result is a Tensor of unknown dtype, not a Tensor<'float32'>
narrow = narrow.add(1);
