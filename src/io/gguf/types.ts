// ggml's tensor types as GGUF files number them: name, elements per block and
// bytes per block (from ggml.h's enum ggml_type and the block structs of
// ggml-common.h, QK_K = 256). Every known type is listed so that a file's
// tensor index (shapes, byte sizes, overlaps) can be checked and reported
// even for types rlx does not decode; the decoders live in dequantize.ts.

export interface GgmlType {
  /** ggml's name: 'F32', 'Q4_K', ... */
  readonly name: string;
  /** Elements per block (1 for plain types, 32 or 256 for quantized ones). */
  readonly blockSize: number;
  /** Bytes per block. */
  readonly typeSize: number;
}

const t = (name: string, blockSize: number, typeSize: number): GgmlType => ({ name, blockSize, typeSize });

/** ggml type id → its layout; ids 4, 5, 31–33 and 36–38 were removed from the format. */
export const GGML_TYPES: ReadonlyMap<number, GgmlType> = new Map([
  [0, t('F32', 1, 4)],
  [1, t('F16', 1, 2)],
  [2, t('Q4_0', 32, 18)], // f16 d, 16 bytes of nibbles
  [3, t('Q4_1', 32, 20)],
  [6, t('Q5_0', 32, 22)],
  [7, t('Q5_1', 32, 24)],
  [8, t('Q8_0', 32, 34)], // f16 d, 32 int8
  [9, t('Q8_1', 32, 36)],
  [10, t('Q2_K', 256, 84)],
  [11, t('Q3_K', 256, 110)],
  [12, t('Q4_K', 256, 144)], // f16 d, f16 dmin, 12 bytes of 6-bit scales/mins, 128 bytes of nibbles
  [13, t('Q5_K', 256, 176)],
  [14, t('Q6_K', 256, 210)],
  [15, t('Q8_K', 256, 292)],
  [16, t('IQ2_XXS', 256, 66)],
  [17, t('IQ2_XS', 256, 74)],
  [18, t('IQ3_XXS', 256, 98)],
  [19, t('IQ1_S', 256, 50)],
  [20, t('IQ4_NL', 32, 18)],
  [21, t('IQ3_S', 256, 110)],
  [22, t('IQ2_S', 256, 82)],
  [23, t('IQ4_XS', 256, 136)],
  [24, t('I8', 1, 1)],
  [25, t('I16', 1, 2)],
  [26, t('I32', 1, 4)],
  [27, t('I64', 1, 8)],
  [28, t('F64', 1, 8)],
  [29, t('IQ1_M', 256, 56)],
  [30, t('BF16', 1, 2)],
  [34, t('TQ1_0', 256, 54)],
  [35, t('TQ2_0', 256, 66)],
]);

/** ggml type name → id (the writer's lookup). */
export const GGML_TYPE_ID: ReadonlyMap<string, number> = new Map([...GGML_TYPES].map(([id, ty]) => [ty.name, id]));
