// Registration of the block interpreter's functions on the addon's exports.
// The addon's Init calls RegisterInterp(env, exports) once.
#pragma once

#include <napi.h>

// Adds interpPrepare, interpRun, interpSetThreads, interpGetThreads,
// interpSetThreshold, interpGetThreshold, interpOpcodes and interpVersion
// (see napi.cc).
void RegisterInterp(Napi::Env env, Napi::Object exports);
