// Floating-point contract of the interpreter's translation units: include this
// FIRST in every .cc of this folder.
//
// Results must match the js backend's, which evaluates each operation in IEEE
// double with one rounding: no fused multiply-add contraction (a*b + c would
// round once), no fast-math reassociation, and NaN/inf/signed-zero semantics
// kept. -ffast-math must never be used for these files.
#pragma once

#if defined(__clang__)
#pragma clang fp contract(off)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#if defined(__FAST_MATH__)
#error "native/src/interp must not be compiled with -ffast-math (results must match the js backend bit for bit)"
#endif
