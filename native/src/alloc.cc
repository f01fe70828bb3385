// Memory policy for kernel buffers (the why is at the top of
// src/backends/native/malloc-policy.ts):
//
//   tuneMalloc(trimThreshold: number, mapLarge: boolean): boolean
//       glibc mallopt: M_TRIM_THRESHOLD, and M_MMAP_MAX = 0 unless mapLarge
//       (every request then comes from the heap, so memory freed by V8's GC
//       is reused by the next outputs); true when glibc accepted it (false
//       without glibc).
//   warmHeap(bytes: number): number
//       allocates `bytes` of heap in 8 MiB pieces, writes every page and
//       frees them: the memory stays mapped at the top of the heap (below the
//       trim threshold) for the next outputs. Returns the bytes warmed (0 when
//       malloc refused).
//   trimHeap(keepBytes: number, minFreeBytes: number): boolean
//       when the heap holds more than minFreeBytes of free memory (mallinfo2),
//       malloc_trim(keepBytes): every whole free page back to the OS, keeping
//       keepBytes at its top; true when memory was released. Below the bound
//       nothing is done (C++ kernels' workspaces reuse that memory too).
//   adviseHuge(buffer: ArrayBuffer): number
//       the byte offset of the first 2 MiB-aligned address in `buffer`; every
//       whole 2 MiB block from there is marked MADV_HUGEPAGE (Linux; elsewhere
//       it only returns the offset).
//
// The memory stays V8's (allocated and freed by its allocator, zeroed when it
// asks): only policy and advice are given, so nothing here can leak or free a
// live buffer. An ArrayBuffer owned by the addon (an external buffer) was
// tried and dropped: Node frees external buffers from the event loop, so a
// synchronous loop of realize() calls would keep every one alive until it
// yields.
#include <napi.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "args.h"
#include "errors.h"
#include "register.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace {
constexpr size_t kHugeBytes = size_t(2) << 20;
}  // namespace

RLX_REGISTER(alloc) {
  using namespace rlx;
  // tuneMalloc(trimThreshold: number, mapLarge: boolean): boolean -- see the top of this file.
  export_fn(env, exports, "tuneMalloc", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 2 || !info[0].IsNumber() || !info[1].IsBoolean())
      throw TypeErr("expected (trimThreshold: number, mapLarge: boolean), got " + std::to_string(info.Length()) + " arguments");
    const double trimT = info[0].As<Napi::Number>().DoubleValue();
    const bool mapLarge = info[1].As<Napi::Boolean>().Value();
    if (!(trimT >= 0 && trimT <= 2147483647.0)) throw RangeErr("expected 0 <= trimThreshold < 2 GiB, got " + std::to_string(trimT));
#if defined(__GLIBC__)
    bool ok = mallopt(M_TRIM_THRESHOLD, static_cast<int>(trimT)) == 1;
    if (!mapLarge) ok = mallopt(M_MMAP_MAX, 0) == 1 && ok;
    return Napi::Boolean::New(info.Env(), ok);
#else
    (void)mapLarge;
    return Napi::Boolean::New(info.Env(), false);
#endif
  });
  // trimHeap(keepBytes: number, minFreeBytes: number): boolean -- see the top of this file.
  export_fn(env, exports, "trimHeap", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 2 || !info[0].IsNumber() || !info[1].IsNumber())
      throw TypeErr("expected (keepBytes: number, minFreeBytes: number), got " + std::to_string(info.Length()) + " arguments");
    const double keep = info[0].As<Napi::Number>().DoubleValue(), minFree = info[1].As<Napi::Number>().DoubleValue();
    if (!(keep >= 0 && keep <= 1024.0 * (1 << 20)) || !(minFree >= 0))
      throw RangeErr("expected 0 <= keepBytes <= 1 GiB and minFreeBytes >= 0, got " + std::to_string(keep) + ", " + std::to_string(minFree));
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    if (static_cast<double>(mallinfo2().fordblks) <= minFree) return Napi::Boolean::New(info.Env(), false);
    return Napi::Boolean::New(info.Env(), malloc_trim(static_cast<size_t>(keep)) == 1);
#elif defined(__GLIBC__)
    return Napi::Boolean::New(info.Env(), malloc_trim(static_cast<size_t>(keep)) == 1);
#else
    return Napi::Boolean::New(info.Env(), false);
#endif
  });
  // warmHeap(bytes: number): number -- see the top of this file.
  export_fn(env, exports, "warmHeap", [](const Napi::CallbackInfo& info) -> Napi::Value {
    if (info.Length() != 1 || !info[0].IsNumber()) throw TypeErr("expected (bytes: number), got " + (info.Length() ? describe(info[0]) : std::string("nothing")));
    const double bytes = info[0].As<Napi::Number>().DoubleValue();
    if (!(bytes >= 0 && bytes <= 1024.0 * (1 << 20))) throw RangeErr("expected 0 <= bytes <= 1 GiB, got " + std::to_string(bytes));
    constexpr size_t kPiece = size_t(8) << 20;  // from the heap under the policy (M_MMAP_MAX = 0)
    std::vector<void*> pieces;
    size_t warmed = 0;
    while (warmed < static_cast<size_t>(bytes)) {
      void* p = std::malloc(kPiece);
      if (!p) break;
      // Fault the pages in now, not in a kernel's first write. A plain
      // memset(0) after malloc may be turned into calloc, which skips fresh
      // pages: write one non-zero byte per page through a volatile pointer
      // (calloc zeroes reused heap memory anyway).
      volatile unsigned char* bytes = static_cast<unsigned char*>(p);
      for (size_t off = 0; off < kPiece; off += 4096) bytes[off] = 1;
      pieces.push_back(p);
      warmed += kPiece;
    }
    for (void* p : pieces) std::free(p);  // adjacent free chunks merge into the heap's top, kept below the trim threshold
    return Napi::Number::New(info.Env(), static_cast<double>(warmed));
  });
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
