// Decoding and validating a program (layout in program.h). Everything the
// interpreter later relies on for memory safety is checked here: opcode and
// dtype ranges, register bounds, that every register read holds a value of
// the expected dtype (so a complex read really has its second register), that
// results never overwrite their own arguments, and that hoisted registers
// (constants, invariant loads) are written exactly once.

#include "fp.h"
#include <string>
#include <vector>
#include "program.h"

namespace rlx::interp {
namespace {

std::string at(size_t i, const char* what) { return "instruction " + std::to_string(i) + " (" + what + "): "; }

bool validDType(int d) { return d >= 0 && d < kNumDTypes; }
bool isUnary(int op) { return op >= kNeg && op <= kStopGradient; }
bool isBinary(int op) { return op >= kAdd && op <= kLogicalOr; }

// Register types while walking the program: a dtype, kFree, or kImagHalf for
// the second register of a complex value.
constexpr int kFree = -1, kImagHalf = -2;

struct Types {
  std::vector<int> t;
  void clobber(int r) {
    if (t[r] == kImagHalf && r > 0) t[r - 1] = kFree;
    if (t[r] >= 0 && isComplex(t[r]) && r + 1 < static_cast<int>(t.size())) t[r + 1] = kFree;
    t[r] = kFree;
  }
  void write(int r, int d) {
    clobber(r);
    if (isComplex(d)) {
      clobber(r + 1);
      t[r + 1] = kImagHalf;
    }
    t[r] = d;
  }
};

// Rough cost of one element of an instruction, in simple-op units.
int64_t costOf(const Instr& in) {
  switch (in.op) {
    case kExp: case kLog: case kLog1p: case kExpm1: case kSin: case kCos: case kTan: case kTanh: case kSinh:
    case kCosh: case kAsin: case kAcos: case kAtan: case kErf: case kSigmoid: case kSoftplus: case kGelu:
    case kPow: case kAtan2: case kAngle:
      return isComplex(in.inT) ? 40 : 12;
    case kDiv: case kSign: case kSqrt: case kRsqrt: case kAbs:
      return isComplex(in.inT) ? 12 : 1;
    default:
      return isComplex(in.outT) || isComplex(in.inT) ? 2 : 1;
  }
}

// A real float64 instruction that is not rounded to float32.
bool plainF64(const Instr& in) { return in.inT == kFloat64 && in.outT == kFloat64 && !in.round32; }

// Whether argument field k of an instruction names a register it reads (unused fields are -1; a
// fused add/sub reads three).
bool readsArg(const Instr& in, int k) { return in.op != kLoad && in.op != kConst && in.op != kAcc && in.a[k] >= 0; }

/**
 * Folds each float64 product into the add or sub that is its only reader:
 * that instruction then computes x·y ± z in one pass over the block (each
 * operation rounded as before: the same bits) and the product is skipped,
 * one pass fewer over the registers (a Runge–Kutta stage y + h·Σ c_j k_j
 * runs 6 passes instead of 11). The product's arguments must still hold
 * their values at the reader (no instruction in between rewrites them).
 */
void fuseMulAdd(Program& P) {
  const int nI = static_cast<int>(P.instrs.size());
  std::vector<char> fused(nI, 0);  // an add/sub that already computes a product (it takes one)
  for (int i = 0; i < nI; i++) {
    const Instr& mul = P.instrs[i];
    if (mul.op != kMul || !plainF64(mul)) continue;
    const int end = i < P.nPro ? P.nPro : nI;  // the product's section
    const int r = mul.dst, x = mul.a[0], y = mul.a[1];
    int reader = -1, reads = 0;
    bool argsKept = true, dead = false;
    for (int j = i + 1; j < end && !dead; j++) {
      const Instr& in = P.instrs[j];
      for (int k = 0; k < 3; k++) {
        if (!readsArg(in, k)) continue;
        const int a = in.a[k];
        if (a == r || (in.argC[k] && a + 1 == r)) {
          reads++;
          reader = j;
        }
      }
      const int w0 = in.dst, w1 = in.dst + lanesOf(in.outT) - 1;
      if (reads == 0 && ((x >= w0 && x <= w1) || (y >= w0 && y <= w1))) argsKept = false;
      if (r >= w0 && r <= w1) dead = true;  // r rewritten: later reads are of another value
    }
    if (reads != 1 || !argsKept) continue;
    Instr& use = P.instrs[reader];
    if ((use.op != kAdd && use.op != kSub) || !plainF64(use) || fused[reader] || use.a[0] == use.a[1]) continue;
    const bool first = use.a[0] == r;
    const int z = first ? use.a[1] : use.a[0];
    use.fn = mulAddFor(use.op == kSub, first);
    use.a[0] = x;
    use.a[1] = y;
    use.a[2] = z;
    fused[reader] = 1;
    P.instrs[i].skip = true;
  }
}

}  // namespace

std::string prepare(const int32_t* prog, size_t n, const double* consts, size_t nConsts, Program& P) {
  if (n < static_cast<size_t>(kHeader)) return "program too short (" + std::to_string(n) + " int32, header is " + std::to_string(kHeader) + ")";
  if (prog[0] != kMagic) return "not an rlx interpreter program (bad magic)";
  if (prog[1] != kVersion) return "program version " + std::to_string(prog[1]) + " but this addon reads version " + std::to_string(kVersion);
  if (prog[11] != kNumOpcodes) return "program built for " + std::to_string(prog[11]) + " opcodes but this addon has " + std::to_string(kNumOpcodes) + " (rebuild the addon)";
  const int kind = prog[2], nInstrs = prog[3], nPro = prog[4], nRegs = prog[5], nLoads = prog[6];
  if (kind != 0 && kind != 1) return "bad kernel kind " + std::to_string(kind);
  if (nInstrs < 1 || nInstrs > (1 << 20)) return "bad instruction count " + std::to_string(nInstrs);
  if (nPro < 1 || nPro > nInstrs || (kind == 0 && nPro != nInstrs)) return "bad prologue length " + std::to_string(nPro);
  if (nRegs < 1 || nRegs > (1 << 20)) return "bad register count " + std::to_string(nRegs);
  if (nLoads < 0 || nLoads > (1 << 20)) return "bad load count " + std::to_string(nLoads);
  const size_t want = kHeader + static_cast<size_t>(nLoads) * kLoadWidth + static_cast<size_t>(nInstrs) * kInstrWidth;
  if (n != want) return "program length " + std::to_string(n) + " but its header describes " + std::to_string(want);
  P = Program();
  P.kind = kind;
  P.nPro = nPro;
  P.nRegs = nRegs;
  P.outSlot = prog[7];
  P.outT = prog[8];
  P.redOp = prog[9];
  P.redT = prog[10];
  if (P.outSlot < 0) return "bad output slot";
  if (!validDType(P.outT)) return "bad output dtype " + std::to_string(P.outT);
  if (kind == 0) {
    if (P.redOp != -1 || P.redT != -1) return "an elementwise program has no reduction";
  } else {
    if (P.redOp < 0 || P.redOp >= kNumReduceOps) return "bad reduce op " + std::to_string(P.redOp);
    if (!validDType(P.redT)) return "bad reduce dtype " + std::to_string(P.redT);
  }
  P.consts.assign(consts, consts + nConsts);

  const int32_t* L = prog + kHeader;
  bool inEpilogue = false;
  for (int i = 0; i < nLoads; i++) {
    const int32_t* l = L + i * kLoadWidth;
    LoadDesc d{l[0], l[1], l[2], (l[3] & kLoadInvariant) != 0};
    if (d.slot < 0) return "load " + std::to_string(i) + ": bad slot";
    if (!validDType(d.dtype)) return "load " + std::to_string(i) + ": bad dtype";
    if (d.section != 0 && d.section != 1) return "load " + std::to_string(i) + ": bad section";
    if (d.section == 1 && kind == 0) return "load " + std::to_string(i) + ": an elementwise program has no epilogue";
    if (d.section == 0 && inEpilogue) return "load " + std::to_string(i) + ": prologue loads must come first";
    if ((l[3] & ~kLoadInvariant) != 0) return "load " + std::to_string(i) + ": bad flags";
    if (d.section == 1) inEpilogue = true;
    else P.nLoads0 = i + 1;
    P.loads.push_back(d);
  }

  const int32_t* I = L + static_cast<size_t>(nLoads) * kLoadWidth;
  P.instrs.resize(nInstrs);
  std::vector<int> writers(nRegs, 0);
  std::vector<char> hoistReg(nRegs, 0);
  Types ty{std::vector<int>(nRegs, kFree)};
  const int accT = kind == 1 ? ((P.redOp == kArgmax || P.redOp == kArgmin) ? static_cast<int>(kInt32) : P.redT) : -1;
  for (int i = 0; i < nInstrs; i++) {
    const int32_t* w = I + static_cast<size_t>(i) * kInstrWidth;
    Instr& in = P.instrs[i];
    in.op = w[0];
    in.inT = w[1];
    in.outT = w[2];
    in.dst = w[3];
    in.a[0] = w[4];
    in.a[1] = w[5];
    in.a[2] = w[6];
    const int sec = i < nPro ? 0 : 1;
    if (i == nPro) {
      // The epilogue runs after many prologue blocks: only hoisted values survive.
      for (int r = 0; r < nRegs; r++) {
        if (ty.t[r] == kFree) continue;
        if (!hoistReg[r]) ty.t[r] = kFree;
      }
    }
    if (in.op < 0 || in.op >= kNumOpcodes) return "instruction " + std::to_string(i) + ": bad opcode " + std::to_string(in.op);
    const char* name = opName(in.op);
    if (!validDType(in.outT)) return at(i, name) + "bad dtype";
    const int lanes = lanesOf(in.outT);
    if (in.dst < 0 || in.dst + lanes > nRegs) return at(i, name) + "destination register out of range";
    if (w[7] != 0) return at(i, name) + "reserved field must be 0";

    // Expected argument dtypes.
    int nargs = 0;
    int argT[3] = {-1, -1, -1};
    switch (in.op) {
      case kLoad: {
        if (in.a[0] < 0 || in.a[0] >= nLoads) return at(i, name) + "load index out of range";
        const LoadDesc& ld = P.loads[in.a[0]];
        if (ld.section != sec) return at(i, name) + "reads a load of the other section";
        if (ld.dtype != in.outT || in.inT != in.outT) return at(i, name) + "dtype differs from the load's";
        in.hoisted = ld.invariant;
        break;
      }
      case kConst:
        if (in.a[0] < 0 || static_cast<size_t>(in.a[0]) + lanes > nConsts) return at(i, name) + "constant index out of range";
        in.hoisted = true;
        break;
      case kAcc:
        if (sec != 1) return at(i, name) + "only a reduction's epilogue reads the reduced value";
        if (in.outT != accT) return at(i, name) + std::string("the reduced value is ") + dtypeName(accT) + ", not " + dtypeName(in.outT);
        break;
      case kCast:
        if (!validDType(in.inT)) return at(i, name) + "bad source dtype";
        nargs = 1;
        argT[0] = in.inT;
        break;
      case kWhere:
        nargs = 3;
        argT[0] = kBool;
        argT[1] = argT[2] = in.outT;
        break;
      case kComplex:
        if (!validDType(in.inT) || isComplex(in.inT) || in.inT == kBool || in.inT == kInt32 || isSmallInt(in.inT) || !isComplex(in.outT)) return at(i, name) + "expects two real floating values and a complex result";
        nargs = 2;
        argT[0] = argT[1] = in.inT;
        break;
      default:
        if (!validDType(in.inT)) return at(i, name) + "bad input dtype";
        nargs = isUnary(in.op) ? 1 : 2;
        argT[0] = argT[1] = in.inT;
        break;
    }
    if (in.op != kLoad && in.op != kConst && in.op != kAcc) {
      in.fn = opFor(in.op, in.inT, in.outT);
      if (!in.fn) {
        const int e = (isUnary(in.op) || isBinary(in.op)) ? expectedOut(in.op, in.inT) : -1;
        if (e >= 0 && e != in.outT) return at(i, name) + "on " + dtypeName(in.inT) + " gives " + dtypeName(e) + ", not " + dtypeName(in.outT);
        return at(i, name) + "has no kernel for " + dtypeName(in.inT) + " (the js backend has no rule either)";
      }
    }
    for (int k = 0; k < 3; k++) {
      if (k >= nargs) {
        if (in.a[k] != -1 && !(k == 0 && (in.op == kLoad || in.op == kConst))) return at(i, name) + "unused argument fields must be -1";
        continue;
      }
      const int r = in.a[k];
      if (r < 0 || r >= nRegs) return at(i, name) + "argument register out of range";
      if (ty.t[r] != argT[k]) return at(i, name) + "argument " + std::to_string(k) + " (register " + std::to_string(r) + ") does not hold a " + dtypeName(argT[k]) + " value";
      in.argC[k] = isComplex(argT[k]);
      const int ra = r + (in.argC[k] ? 1 : 0);
      if (!(in.dst + lanes - 1 < r || ra < in.dst)) return at(i, name) + "result register overlaps an argument";
    }
    in.round32 = in.op >= kNeg && (in.outT == kFloat32 || in.outT == kComplex64);
    if (in.round32 && in.outT == kFloat32) {
      if (OpFn r = opForRounded(in.op, in.inT, in.outT)) {
        in.fn = r;
        in.round32 = false;
      }
    }
    (sec == 0 ? P.cost0 : P.cost1) += costOf(in);
    for (int l = 0; l < lanes; l++) {
      writers[in.dst + l]++;
      if (in.hoisted) hoistReg[in.dst + l] = 1;
    }
    ty.write(in.dst, in.outT);
  }
  for (int i = 0; i < nInstrs; i++) {
    const Instr& in = P.instrs[i];
    if (!in.hoisted) continue;
    for (int l = 0; l < lanesOf(in.outT); l++)
      if (writers[in.dst + l] != 1) return at(i, opName(in.op)) + "a constant or invariant load needs a register of its own";
  }
  // Float32 evaluation (Program::f32): every per-element instruction a float32
  // load, a bool -> float32 cast (0/1 either way) or an op with a float32
  // kernel; values computed from hoisted ones only are uniform (computed once).
  if (kind == 0 && P.outT == kFloat32) {
    std::vector<char> uni(nRegs, 0);
    bool ok = true;
    for (int i = 0; i < nInstrs && ok; i++) {
      Instr& in = P.instrs[i];
      if (isComplex(in.outT) || isComplex(in.inT)) {
        ok = false;
        break;
      }
      const int nargs = in.op == kLoad || in.op == kConst || in.op == kAcc ? 0 : in.op == kWhere ? 3 : (in.op == kCast || isUnary(in.op)) ? 1 : 2;
      bool u = in.hoisted;
      if (!u && in.op != kLoad && in.op != kAcc) {
        u = true;
        for (int k = 0; k < nargs; k++) u = u && uni[in.a[k]];
      }
      in.uniform = u;
      if (!u) {
        if (in.op == kLoad) ok = in.outT == kFloat32;
        else if (in.op == kCast) ok = in.inT == kBool && in.outT == kFloat32;
        else ok = (in.fn32 = opForF32(in.op, in.inT, in.outT)) != nullptr;
      }
      uni[in.dst] = u;
    }
    P.f32 = ok;
  }
  if (!P.f32) fuseMulAdd(P);
  const int proT = P.instrs[nPro - 1].outT;
  P.proT = proT;
  if (kind == 0) {
    if (proT != P.outT) return std::string("the result is ") + dtypeName(proT) + " but the output is " + dtypeName(P.outT);
  } else {
    const bool arg = P.redOp == kArgmax || P.redOp == kArgmin;
    if (arg && P.redT != kInt32) return "argmax/argmin give int32";
    if ((P.redOp == kMax || P.redOp == kMin || arg) && isComplex(proT)) return "complex values have no order";
    if (!arg && isComplex(P.redT) != isComplex(proT)) return std::string("cannot accumulate ") + dtypeName(proT) + " values into " + dtypeName(P.redT);
    const int resT = nInstrs > nPro ? P.instrs[nInstrs - 1].outT : accT;
    if (resT != P.outT) return std::string("the result is ") + dtypeName(resT) + " but the output is " + dtypeName(P.outT);
  }
  return "";
}

}  // namespace rlx::interp
