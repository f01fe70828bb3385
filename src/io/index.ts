// io: model and data files and in-memory data sets — safetensors (load, save,
// header), and mini-batching. This file only re-exports.

export { loadSafetensors, saveSafetensors, readSafetensorsHeader } from './safetensors.js';
export type { LoadSafetensorsOptions, SaveSafetensorsOptions, SafetensorsHeader, TensorEntry } from './safetensors.js';
export { SafetensorsError, TensorFileError } from './errors.js';
export { batches } from './batches.js';
export type { BatchOptions, Batches } from './batches.js';
export { readGguf } from './gguf/read.js';
export type { ReadGgufOptions, GgufFile, GgufHeader, GgufTensorInfo, GgufValue } from './gguf/read.js';
export { writeGguf } from './gguf/write.js';
export type { WriteGgufOptions } from './gguf/write.js';
export { GgufError } from './gguf/errors.js';
export { loadOnnx, OnnxModel } from './onnx/load.js';
export type { OnnxValueInfo } from './onnx/load.js';
export { OnnxError } from './onnx/errors.js';
export type { UnsupportedOp } from './onnx/errors.js';
export { readIdx, IdxError } from './idx.js';
