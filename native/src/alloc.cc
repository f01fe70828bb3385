// Transparent huge pages for large kernel buffers:
//
//   adviseHuge(buffer: ArrayBuffer): number
//
// returns the byte offset of the first 2 MiB-aligned address in `buffer` and
// marks every whole 2 MiB block from there MADV_HUGEPAGE (Linux; elsewhere it
// only returns the offset). src/backends/native/alloc.ts allocates a large
// buffer with 2 MiB of slack and views it from that offset.
//
// Why: a fresh kernel output is first touched by the kernel that writes it,
// and with 4 KiB pages every page is a fault. Measured on the development VM:
// writing a fresh 2 MiB buffer costs ~0.7 ms of faults (a 512x512 float64 GEMM
// takes ~2-4 ms), ~45 us when its memory is one huge page. NumPy mostly
// avoids the cost because CPython frees an array as soon as it is dropped and
// malloc hands the same (already mapped) memory to the next one, while a V8
// ArrayBuffer lives until a GC.
//
// The memory stays V8's (allocated and freed by its allocator, zeroed as
// usual): only advice is given, so nothing here can leak or free anything.
// An ArrayBuffer owned by the addon (an external buffer) was tried and
// dropped: Node frees external buffers from the event loop, so a synchronous
// loop of realize() calls would keep every one alive until it yields.
#include <napi.h>

#include <cstdint>
#include <string>

#include "args.h"
#include "errors.h"
#include "register.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace {
constexpr size_t kHugeBytes = size_t(2) << 20;
}  // namespace

RLX_REGISTER(alloc) {
  using namespace rlx;
  // adviseHuge(buffer: ArrayBuffer): number -- see the top of this file.
  export_fn(env, exports, "adviseHuge", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 1 || !info[0].IsArrayBuffer()) throw TypeErr("expected (buffer: ArrayBuffer), got " + (info.Length() ? describe(info[0]) : std::string("nothing")));
    Napi::ArrayBuffer ab = info[0].As<Napi::ArrayBuffer>();
    const uintptr_t base = reinterpret_cast<uintptr_t>(ab.Data());
    const size_t length = ab.ByteLength();
    if (!base || length == 0) return Napi::Number::New(info.Env(), 0);
    const size_t off = static_cast<size_t>(((base + kHugeBytes - 1) & ~(uintptr_t(kHugeBytes) - 1)) - base);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (off < length && length - off >= kHugeBytes)
      madvise(reinterpret_cast<void*>(base + off), (length - off) / kHugeBytes * kHugeBytes, MADV_HUGEPAGE);  // advice: failure is harmless
#endif
    return Napi::Number::New(info.Env(), static_cast<double>(off));
  });
}
