#!/usr/bin/env bash
# Installs the system packages the native backend builds against (Debian/Ubuntu):
# a C++ compiler, CMake, OpenBLAS (cblas), LAPACKE, SuiteSparse; FFTW3 is optional
# (pass --with-fftw). --with-jupyter adds Jupyter's notebook runner, which the
# tslab notebook test (tests/loading/tslab.test.ts) executes; CI passes it.
# Run as root or with sudo, then: npm run build:native
set -euo pipefail

pkgs=(g++ make cmake libopenblas-dev liblapacke-dev libsuitesparse-dev)
for arg in "$@"; do
  case "$arg" in
    --with-fftw) pkgs+=(libfftw3-dev) ;;
    --with-jupyter) pkgs+=(jupyter-nbconvert python3-nbclient python3-ipykernel) ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "unknown option: $arg" >&2; exit 2 ;;
  esac
done

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-system-deps: apt-get not found; install the equivalents of: ${pkgs[*]}" >&2
  exit 1
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${pkgs[@]}"
