// DTypes: names, aliases, storage, and NumPy's promotion rules.
//
// Storage is what a buffer holds; compute is what kernels compute in. float16 and
// bfloat16 are storage types (bits in a Uint16Array) computed in float32.
// Complex values are interleaved (re, im) in a float array of twice the length.

import { DTypeError } from './errors.js';

/**
 * Every dtype's name. Spelled out rather than `(typeof DTYPES)[number]` so that
 * TypeScript names it in messages and hovers (`Tensor<DType>`, not the eight
 * names); tests/types/dtypes.ts checks that DTYPES lists exactly these.
 */
export type DType = 'bool' | 'int8' | 'uint8' | 'int32' | 'float16' | 'bfloat16' | 'float32' | 'float64' | 'complex64' | 'complex128';
/**
 * Every dtype name rlx supports, in promotion order (bool, int8, uint8, int32, float16, bfloat16, float32, float64, complex64, complex128).
 * The native interpreter's dtype codes are indices into this list (native/src/interp/program.h).
 */
export const DTYPES = [
  'bool',
  'int8',
  'uint8',
  'int32',
  'float16',
  'bfloat16',
  'float32',
  'float64',
  'complex64',
  'complex128',
] as const satisfies readonly DType[];

/** Every name a user may pass for a dtype. */
export type DTypeLike = DType | keyof typeof ALIASES;

const ALIASES = {
  b: 'bool',
  i8: 'int8',
  u8: 'uint8',
  i32: 'int32',
  int: 'int32',
  f16: 'float16',
  half: 'float16',
  bf16: 'bfloat16',
  f32: 'float32',
  float: 'float32',
  f64: 'float64',
  double: 'float64',
  c64: 'complex64',
  c128: 'complex128',
  complex: 'complex128',
} as const satisfies Record<string, DType>;
/** The aliases' table as a type: what each alias means (dtype-types.ts resolves `{dtype: 'f32'}` with it). */
export type DTypeAliases = typeof ALIASES;

/**
 * Normalizes a dtype name or alias; throws DTypeError for unknown names.
 * @example
 * ```ts
 * toDType('f32');       // 'float32'
 * toDType('complex');   // 'complex128'
 * ```
 */
export function toDType(d: string): DType {
  if ((DTYPES as readonly string[]).includes(d)) return d as DType;
  const a = (ALIASES as Record<string, DType>)[d];
  if (a) return a;
  throw new DTypeError(`unknown dtype '${d}'; expected one of ${DTYPES.join(', ')} or an alias (${Object.keys(ALIASES).join(', ')})`);
}

export type StorageArray = Uint8Array | Int8Array | Int32Array | Uint16Array | Float32Array | Float64Array;
type StorageCtor = { new (n: number): StorageArray; BYTES_PER_ELEMENT: number };

interface DTypeInfo {
  /** Typed array that stores it (complex: 2 floats per element). */
  storage: StorageCtor;
  /** Scalars per element in storage (2 for complex). */
  lanes: 1 | 2;
  /** Bytes per element. */
  itemsize: number;
  kind: 'b' | 'i' | 'f' | 'c';
  /** The dtype kernels compute in. */
  compute: DType;
}

export const DTYPE_INFO: { readonly [D in DType]: DTypeInfo } = {
  bool: { storage: Uint8Array, lanes: 1, itemsize: 1, kind: 'b', compute: 'bool' },
  // int8/uint8 are storage types like float16: kernels compute in int32 and
  // wrap the result back to 8 bits per op (legalize's storage rewrite), which
  // is NumPy's modular arithmetic.
  int8: { storage: Int8Array, lanes: 1, itemsize: 1, kind: 'i', compute: 'int32' },
  uint8: { storage: Uint8Array, lanes: 1, itemsize: 1, kind: 'i', compute: 'int32' },
  int32: { storage: Int32Array, lanes: 1, itemsize: 4, kind: 'i', compute: 'int32' },
  float16: { storage: Uint16Array, lanes: 1, itemsize: 2, kind: 'f', compute: 'float32' },
  bfloat16: { storage: Uint16Array, lanes: 1, itemsize: 2, kind: 'f', compute: 'float32' },
  float32: { storage: Float32Array, lanes: 1, itemsize: 4, kind: 'f', compute: 'float32' },
  float64: { storage: Float64Array, lanes: 1, itemsize: 8, kind: 'f', compute: 'float64' },
  complex64: { storage: Float32Array, lanes: 2, itemsize: 8, kind: 'c', compute: 'complex64' },
  complex128: { storage: Float64Array, lanes: 2, itemsize: 16, kind: 'c', compute: 'complex128' },
};

/**
 * Whether `d` is complex64 or complex128 (numpy.iscomplexobj for dtypes).
 * @example
 * ```ts
 * isComplex('complex64');   // true
 * isComplex('float64');     // false
 * ```
 */
export const isComplex = (d: DType): boolean => DTYPE_INFO[d].kind === 'c';
/**
 * Whether `d` is a real floating dtype (float16, bfloat16, float32, float64).
 * @example
 * ```ts
 * isFloat('bfloat16');     // true
 * isFloat('int32');        // false
 * isFloat('complex128');   // false (complex is not a real float)
 * ```
 */
export const isFloat = (d: DType): boolean => DTYPE_INFO[d].kind === 'f';
export const isInexact = (d: DType): boolean => isFloat(d) || isComplex(d);

/** Allocates zeroed storage for n elements of dtype d. */
export function allocStorage(d: DType, n: number): StorageArray {
  // One constructor per branch: monomorphic sites (a call through
  // DTYPE_INFO[d].storage is megamorphic and several times slower for small n).
  switch (d) {
    case 'float64':
      return new Float64Array(n);
    case 'float32':
      return new Float32Array(n);
    case 'int32':
      return new Int32Array(n);
    case 'bool':
    case 'uint8':
      return new Uint8Array(n);
    case 'int8':
      return new Int8Array(n);
    case 'complex128':
      return new Float64Array(2 * n);
    case 'complex64':
      return new Float32Array(2 * n);
    default: {
      const info = DTYPE_INFO[d];
      return new info.storage(n * info.lanes);
    }
  }
}

/**
 * Whether `d` is an integer dtype (int8, uint8, int32; bool is not).
 * @example
 * ```ts
 * isInteger('uint8');   // true
 * isInteger('bool');    // false
 * ```
 */
export const isInteger = (d: DType): boolean => DTYPE_INFO[d].kind === 'i';

/** The values an integer dtype holds, [min, max] (NumPy's np.iinfo). */
export const INT_RANGE: { readonly [D in 'int8' | 'uint8' | 'int32']: readonly [number, number] } = {
  int8: [-128, 127],
  uint8: [0, 255],
  int32: [-2147483648, 2147483647],
};

/**
 * An integer (an exact JS number within ±2^53) wrapped into integer dtype d
 * the way C and NumPy's astype do: modulo 2^bits, two's complement for the
 * signed types (int8 128 → -128, uint8 -1 → 255).
 */
export function wrapInt(x: number, d: 'int8' | 'uint8' | 'int32'): number {
  const i = x | 0; // the low 32 bits (ToInt32): exact for |x| < 2^53
  return d === 'int8' ? (i << 24) >> 24 : d === 'uint8' ? i & 255 : i;
}

/**
 * float → int32 as NumPy on x86 (cvttsd2si): truncation toward zero; NaN,
 * ±inf and values out of the int32 range give -2^31. The kernels' cast
 * (js runtime.ts toInt32, native scalar.h npToInt32) is the same function.
 */
export function floatToInt32(v: number): number {
  const t = Math.trunc(v);
  return t >= -2147483648 && t <= 2147483647 ? t : -2147483648;
}

/**
 * float → int8/uint8: NumPy on x86 converts through int32 and keeps the low
 * byte, so this is wrapInt(floatToInt32(v)): truncation toward zero, then
 * modulo 256 (300.7 → 44; -1.5 → -1 as int8, 255 as uint8); NaN, ±inf and
 * values outside int32 give 0 (the low byte of -2^31). NumPy calls these
 * casts undefined; rlx does this on every platform and backend.
 */
export function floatToInt(v: number, d: 'int8' | 'uint8' | 'int32'): number {
  return wrapInt(floatToInt32(v), d);
}

/** Real dtype of the components of a complex dtype (identity for real dtypes). */
export function realDType(d: DType): DType {
  return d === 'complex64' ? 'float32' : d === 'complex128' ? 'float64' : d;
}

/** Complex dtype whose components are d (float64 and the integers → complex128, others → complex64). */
export function complexDType(d: DType): DType {
  if (isComplex(d)) return d;
  return d === 'float64' || isInteger(d) ? 'complex128' : 'complex64';
}

/** Smallest inexact dtype that holds d (integers/bool → float64, NumPy's true_divide rule). */
export function inexactDType(d: DType): DType {
  return isInexact(d) ? d : 'float64';
}

// NumPy's promotion lattice for arrays (np.promote_types), extended with bfloat16
// the way JAX and PyTorch do it (bfloat16 ⊔ float16 = float32). Integers with a
// float: the float when it holds every value of the integer type, else the
// smallest float that holds both (int8/uint8 fit float16, int32 needs float64,
// so int32 ⊔ float32 = float64 as in NumPy). tests/ops/promotion.test.ts checks
// every pair against np.result_type (tests/golden/promotion.json).
//
// One deviation: int8 ⊔ uint8 is int16 in NumPy; rlx has no int16 and gives
// int32, the smallest rlx type that holds both.
// bfloat16 (no NumPy dtype): bf16 ⊔ f16 = f32, int8/uint8 ⊔ bf16 = bf16 (bf16's
// 8 significant bits hold them, as in JAX), int32 ⊔ bf16 = f64; otherwise like float16.
const FLOATS: DType[] = ['float16', 'bfloat16', 'float32', 'float64', 'complex64', 'complex128'];
/** The smallest float holding every value of a bool or integer dtype (NumPy: bool, int8, uint8 → float16). */
const floatHolding = (d: DType): DType => (d === 'int32' ? 'float64' : 'float16');
const PROMOTE: Record<DType, Record<DType, DType>> = (() => {
  const t = {} as Record<DType, Record<DType, DType>>;
  const floatRule = (a: DType, b: DType): DType => {
    if (a === b) return a;
    if (isComplex(a) || isComplex(b)) {
      const wide = a === 'float64' || b === 'float64' || a === 'complex128' || b === 'complex128';
      return wide ? 'complex128' : 'complex64';
    }
    if ((a === 'float16' && b === 'bfloat16') || (a === 'bfloat16' && b === 'float16')) return 'float32';
    return FLOATS.indexOf(a) > FLOATS.indexOf(b) ? a : b;
  };
  const rule = (a: DType, b: DType): DType => {
    if (a === b) return a;
    if (a === 'bool') return b;
    if (b === 'bool') return a;
    const ia = isInteger(a),
      ib = isInteger(b);
    if (ia && ib) return 'int32'; // int8 ⊔ int32, uint8 ⊔ int32, and int8 ⊔ uint8 (NumPy: int16)
    if (ia || ib) {
      const [i, f] = ia ? [a, b] : [b, a];
      if (f === 'bfloat16' && i !== 'int32') return 'bfloat16';
      return floatRule(floatHolding(i), f);
    }
    return floatRule(a, b);
  };
  for (const a of DTYPES) {
    t[a] = {} as Record<DType, DType>;
    for (const b of DTYPES) t[a][b] = rule(a, b);
  }
  return t;
})();

/**
 * np.result_type for two array dtypes.
 * @example
 * ```ts
 * promoteTypes('int32', 'float32');       // 'float64'     (numpy.promote_types)
 * promoteTypes('float64', 'complex64');   // 'complex128'  (numpy.promote_types)
 * ```
 */
export function promoteTypes(a: DType, b: DType): DType {
  return PROMOTE[a][b];
}

/**
 * The full promotion table, for docs and tests.
 * @example
 * ```ts
 * const t = promotionTable();
 * t.bool.int32;          // 'int32'
 * t.float16.bfloat16;    // 'float32' (as in JAX and PyTorch)
 * ```
 */
export function promotionTable(): Record<DType, Record<DType, DType>> {
  return PROMOTE;
}

/** Kind of a plain JS scalar: booleans are 'b', integers 'i', other numbers 'f'. */
export type ScalarKind = 'b' | 'i' | 'f' | 'c';

const KIND_RANK = { b: 0, i: 1, f: 2, c: 3 } as const;

/**
 * NEP 50 ("weak scalars"): a plain JS number combined with a tensor takes the
 * tensor's dtype when the tensor's kind already covers the scalar's kind;
 * otherwise the default dtype of the scalar's kind (int32, float64, complex128),
 * with complex keeping the tensor's precision (float32 + 1j → complex64).
 */
export function promoteWithScalar(t: DType, k: ScalarKind): DType {
  const tk = DTYPE_INFO[t].kind;
  if (KIND_RANK[tk] >= KIND_RANK[k]) return t;
  if (k === 'i') return 'int32';
  if (k === 'f') return 'float64';
  return complexDType(t === 'float32' || t === 'float16' || t === 'bfloat16' ? 'float32' : 'float64');
}

/** Default dtype for data given as plain JS values. */
export function defaultDTypeFor(k: ScalarKind): DType {
  return k === 'b' ? 'bool' : k === 'c' ? 'complex128' : 'float64';
}

