#!/usr/bin/env bash
# Installs the system packages the native backend builds against (Debian/Ubuntu):
# a C++ compiler, CMake, OpenBLAS (cblas), LAPACKE, SuiteSparse, FFTW3 (libfftw3-dev:
# double and single precision and their threads libraries; GPL, optional for the
# build: --no-fftw leaves it out, and RLX_NO_FFTW=1 npm run build:native builds
# without it even when installed). --with-jupyter adds Jupyter's notebook runner,
# which the tslab notebook test (tests/loading/tslab.test.ts) executes; CI passes it.
# --with-browser adds Debian's chromium, the headless browser behind fig.savePng
# and the plot render tests (tests/plot/render*.test.ts); CI passes it.
# --with-data adds Debian's dataset-fashion-mnist (the gzipped IDX files the nn
# training test and benchmark read); CI passes it. --with-references adds the
# Python references the committed golden-value scripts run (NumPy, SciPy,
# PyTorch 1.13): needed only to regenerate golden files, never by the tests.
# --with-packaging adds patchelf, which npm run prebuilt (scripts/prebuild.mjs)
# needs to point the bundled libraries' RUNPATH at $ORIGIN; CI passes it.
# --with-webgpu adds Mesa's EGL/GLES drivers (llvmpipe), the software adapter
# that Dawn (npm `webgpu`) finds on a machine without a GPU; CI passes it.
# Run as root or with sudo, then: npm run build:native
set -euo pipefail

pkgs=(g++ make cmake libopenblas-dev liblapacke-dev libsuitesparse-dev)
fftw=(libfftw3-dev)
for arg in "$@"; do
  case "$arg" in
    --with-fftw) ;;  # the default (kept for older instructions)
    --no-fftw) fftw=() ;;
    --with-jupyter) pkgs+=(jupyter-nbconvert python3-nbclient python3-ipykernel) ;;
    --with-browser) pkgs+=(chromium) ;;
    --with-data) pkgs+=(dataset-fashion-mnist) ;;
    --with-references) pkgs+=(python3-numpy python3-scipy python3-torch) ;;
    --with-packaging) pkgs+=(patchelf binutils) ;;
    --with-webgpu) pkgs+=(libegl1 libegl-mesa0 libgles2 libgl1-mesa-dri) ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done
pkgs+=("${fftw[@]}")

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-system-deps: apt-get not found; install the equivalents of: ${pkgs[*]}" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
