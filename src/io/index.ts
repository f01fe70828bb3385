// io: model and data files and in-memory data sets — safetensors (load, save,
// header), and mini-batching. This file only re-exports.

export { loadSafetensors, saveSafetensors, readSafetensorsHeader } from './safetensors.js';
export type { LoadSafetensorsOptions, SaveSafetensorsOptions, SafetensorsHeader, TensorEntry } from './safetensors.js';
export { SafetensorsError } from './errors.js';
export { batches } from './batches.js';
export type { BatchOptions, Batches } from './batches.js';
