// The interpreter's calling convention version (native/src/interp/napi.cc,
// kApi), checked when the addon is loaded. The TS and the C++ of the
// interpreter change together, but the .node file is built separately: an
// addon built before a change (a stale build, e.g. TS pulled without
// `npm run build:native`) misreads the new calls. With the per-run constants,
// a version-1 addon took interpRun(prepared, loop, buffers, consts) for
// interpRun(program, consts, loop, buffers) and failed with "the program must
// be an Int32Array" on every kernel with a literal. Refusing such an addon at
// load makes the native device unavailable with the reason instead.

/** The interpApi this TS calls the addon with. */
export const INTERP_API = 2;

/** Why `addon` cannot serve as the interpreter (a message), or undefined when it can. */
export function interpApiProblem(addon: object): string | undefined {
  const api = (addon as { interpApi?: unknown }).interpApi;
  if (typeof (addon as { interpRun?: unknown }).interpRun !== 'function') return 'it does not export interpRun() (stale build? run npm run build:native)';
  if (api !== INTERP_API) return `its interpreter calling convention is ${api === undefined ? '1 (no interpApi)' : String(api)}, this rlx needs ${INTERP_API} (stale build? run npm run build:native)`;
  // The program format (dtype codes, opcodes) changes too: version 2 added int8/uint8.
  const version = (addon as { interpVersion?: unknown }).interpVersion;
  if (version !== INTERP_PROGRAM_VERSION) return `its interpreter reads program version ${String(version)}, this rlx writes ${INTERP_PROGRAM_VERSION} (stale build? run npm run build:native)`;
  return undefined;
}

/** The program format version this TS writes (program.ts PROGRAM_VERSION; native/src/interp/program.h kVersion). */
export const INTERP_PROGRAM_VERSION = 2;
