// Shared by the packaging scripts (prebuild.mjs, pack.mjs, check-packages.mjs):
// the platform package's name and which libraries are never bundled.
// (scripts/build-native.mjs, which ships in the rlx tarball, and
// src/backends/native/addon.ts name the package themselves.)

/** The prebuilt platform package for linux-x64 glibc. */
export const PLATFORM_PACKAGE = '@rlx/native-linux-x64';

/** Loaded by every Node process already (or part of glibc): never bundled, allowed outside the package. */
export const BASE_LIBS = /^(linux-vdso|ld-linux-x86-64|libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s)\.so/;
