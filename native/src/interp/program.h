// The block interpreter's program format and its entry points (no N-API here,
// so the core can be built and tested alone).
//
// A program is what src/backends/native/program.ts encodes from one fused
// ElementwiseKernel or ReduceKernel (src/compiler/kernel.ts). Three arrays:
//
//   program  Int32Array   header, load table, instructions (layout below)
//   consts   Float64Array literal values (a complex literal takes two)
//   loop     Float64Array sizes and per-load offset/strides of one binding
//
// Values live in registers of kBlock doubles; a complex value takes two
// consecutive registers (re, im). Every real dtype is held as a double:
// bool as 0/1, int8/uint8/int32 exactly, float32/float16/bfloat16 as their (decoded)
// values. Instructions run one after another over a whole block, each as a
// tight loop, so there is no per-element dispatch.
//
// program layout (all int32):
//   [0]  kMagic            [1] kVersion          [2] kind (0 elementwise, 1 reduce)
//   [3]  nInstrs           [4] nPrologue: instructions of section 0 (the
//        elementwise expression or the reduction's prologue); the rest are
//        section 1 (the reduction's epilogue)
//   [5]  nRegs             [6] nLoads            [7] output slot
//   [8]  output dtype      [9] reduce op (-1)    [10] reduce dtype (-1)
//   [11] kNumOpcodes       [12..15] 0
//   loads:  nLoads x 4  [slot, dtype, section, flags (kLoadInvariant)]
//   instrs: nInstrs x 8 [op, inDType, outDType, dst, a0, a1, a2, 0]
//     load:    a0 = load index        const: a0 = index into consts
//     acc:     (epilogue only) the reduced value, dtype = reduce dtype
//     cast:    a0 (inDType -> outDType)   where: a0 cond (bool), a1, a2
//     complex: a0 re, a1 im (inDType real, outDType complex)
//     others:  a0 [, a1], both of inDType
//   The result of a section is the value of its last instruction.
//
// loop layout (float64, integers):
//   elementwise: [R, dims[R], per load: offset, strides[R]]
//   reduce:      [K, Q, kept dims[K], reduced dims[Q],
//                 per prologue load: offset, strides[K+Q],
//                 per epilogue load: offset, strides[K]]
//   Offsets and strides count elements (a complex element is a pair).
//   The output is written contiguously from element 0, like the js kernels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rlx::interp {

constexpr int32_t kMagic = 0x49584c52;  // "RLXI"
// 2: int8 and uint8 joined the dtypes (codes 1 and 2; the later codes moved up).
constexpr int32_t kVersion = 2;
constexpr int kHeader = 16;
constexpr int kLoadWidth = 4;
constexpr int kInstrWidth = 8;
constexpr int kBlock = 256;
constexpr int kMaxDims = 32;
constexpr int32_t kLoadInvariant = 1;

// Same order as DTYPES in src/tensor/dtype.ts.
enum DType : int32_t { kBool = 0, kInt8, kUInt8, kInt32, kFloat16, kBFloat16, kFloat32, kFloat64, kComplex64, kComplex128, kNumDTypes };

// Storage of a slot buffer (the TypedArray class): bool and uint8 share Uint8Array.
enum Storage : int32_t { kU8 = 0, kI32, kU16, kF32, kF64, kI8, kNumStorage };

// Opcodes: must match OPCODES in src/backends/native/program.ts.
enum Op : int32_t {
  kLoad = 0, kConst, kAcc, kCast, kWhere, kComplex,
  kNeg, kAbs, kSign, kExp, kLog, kLog1p, kExpm1, kSqrt, kRsqrt, kSin, kCos, kTan, kTanh, kSinh, kCosh,
  kAsin, kAcos, kAtan, kFloor, kCeil, kRound, kErf, kSigmoid, kSoftplus, kGelu, kReal, kImag, kConj,
  kAngle, kLogicalNot, kStopGradient,
  kAdd, kSub, kMul, kDiv, kPow, kMaximum, kMinimum, kAtan2, kEq, kNe, kLt, kLe, kGt, kGe,
  kLogicalAnd, kLogicalOr,
  kNumOpcodes
};

enum ReduceOp : int32_t { kSum = 0, kProd, kMax, kMin, kArgmax, kArgmin, kNumReduceOps };

const char* opName(int op);
const char* dtypeName(int d);
inline bool isComplex(int d) { return d == kComplex64 || d == kComplex128; }
// int8/uint8: storage types whose arithmetic the compiler rewrites to int32
// (src/compiler/passes/legalize.ts); here they are loaded, stored, cast and selected.
inline bool isSmallInt(int d) { return d == kInt8 || d == kUInt8; }
Storage storageOf(int d);
inline int lanesOf(int d) { return isComplex(d) ? 2 : 1; }

// Argument pointers of one instruction: a0 re, a0 im, a1 re, a1 im, a2 re, a2 im.
struct Args {
  const double* p[6];
};
// Evaluates one instruction over n <= kBlock elements (dr/di: result re/im).
using OpFn = void (*)(double* dr, double* di, const Args& a, int n);

// The kernel for op on input dtype inT giving outT, or nullptr when the js
// backend has no rule for it (then neither do we).
OpFn opFor(int op, int inT, int outT);
// The same kernel with the float32 rounding of its result folded in (for a
// float32 result; nullptr when the op has no such variant and the caller
// rounds in a separate pass).
OpFn opForRounded(int op, int inT, int outT);
// The float64 kernel of x·y + z (add: the product the first operand, or z +
// x·y when productFirst is false) or x·y − z / z − x·y (sub), two roundings as
// the separate mul and add/sub give (no FMA). Arguments x, y, z in a.p[0], [2], [4].
OpFn mulAddFor(bool sub, bool productFirst);
// Float32 evaluation (exec.cc elementwiseF32): one instruction over n
// float32 (or bool as 0/1) values, a[k] its argument arrays.
using F32Fn = void (*)(float* d, const float* const* a, int n);
// The float32 kernel of op on inT giving outT where computing in float gives
// the bits of computing in double and rounding to float32 (add, sub, mul,
// div and sqrt of float32 values are correctly rounded either way: double
// has more than 2 * 24 + 2 bits; the others are exact), else nullptr.
F32Fn opForF32(int op, int inT, int outT);
// The output dtype primitives.ts infers for an elementwise op (not load,
// const, acc, cast, where, complex) on inT.
int expectedOut(int op, int inT);

struct Instr {
  int32_t op, inT, outT, dst, a[3];
  bool argC[3] = {false, false, false};  // argument k is complex (two registers)
  OpFn fn = nullptr;
  bool round32 = false;  // round the result to float32 (the js backend's Math.fround per op)
  bool hoisted = false;  // const or invariant load: filled once per run
  // Float32 evaluation (Program::f32): the value is the same for every
  // element (a hoisted value, or computed from such values only) and is
  // computed once per run in double; else fn32 computes it per block.
  bool uniform = false;
  F32Fn fn32 = nullptr;
  // A float64 product whose only reader is a later add or sub: that
  // instruction computes it in its own pass (prepare.cc's fuseMulAdd).
  bool skip = false;
};
struct LoadDesc {
  int32_t slot, dtype, section;
  bool invariant;
};

// A validated program (see prepare()).
struct Program {
  int kind = 0;
  int nPro = 0;
  int nRegs = 0;
  std::vector<Instr> instrs;
  std::vector<LoadDesc> loads;
  int nLoads0 = 0;  // loads of section 0 (they come first)
  std::vector<double> consts;
  int outSlot = 0, outT = 0, redOp = -1, redT = -1;
  int proT = 0;  // dtype of the prologue's result (reductions)
  // Estimated cost per element of each section (1 per simple instruction,
  // more for libm calls and complex functions), for the threading decision.
  int64_t cost0 = 0, cost1 = 0;
  // An elementwise program with a float32 result whose per-element
  // instructions are all float32 loads and ops with an F32Fn: evaluated in
  // float registers (8 lanes a vector instead of 4, contiguous float32 loads
  // read in place, no rounding pass per op), with the same bits.
  bool f32 = false;
};

// A slot's memory as handed over by the caller. length counts storage
// scalars (a complex element is 2).
struct Buffer {
  void* data = nullptr;
  int64_t length = 0;
  int32_t storage = -1;  // Storage, or -1 for "no buffer"
};

// Decodes and validates a program. Returns "" or a message saying what is wrong.
std::string prepare(const int32_t* prog, size_t n, const double* consts, size_t nConsts, Program& out);

// Validates the loop against the program and the buffers (every offset the
// run can touch), then runs. Returns "" or a message; on a message nothing
// was read or written.
std::string run(const Program& p, const double* loop, size_t nLoop, const Buffer* slots, size_t nSlots);

// Threads used by run() (the caller's thread included); n < 1 means the
// hardware concurrency.
void setThreads(int n);
int getThreads();
// Work (elements x instructions) below which a run stays on the caller's thread.
void setParallelThreshold(int64_t work);
int64_t getParallelThreshold();

}  // namespace rlx::interp
