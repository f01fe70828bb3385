#!/usr/bin/env bash
# The issue-19 checks on a lent GPU machine, in one go (from the repo root, with
# node_modules and a built dist/ already there; no network needed):
#   1. the adapter rlx's 'webgpu' device starts on (rlx info, and the probe the
#      webgpu suite uses); stops here if it is a software rasterizer (llvmpipe,
#      lavapipe, SwiftShader...) or absent, unless RLX_GPU_ALLOW_SOFTWARE=1;
#   2. RLX_REQUIRE_WEBGPU=1 vitest run tests/webgpu (the backend-parity suite);
#   3. the webgpu benchmark suite (benchmarks/suites/webgpu.mjs, with its native
#      and jax-js peers), whose results go to $OUT instead of benchmarks/results/.
# Everything lands in ${OUT:-benchmarks/results/gpu}: adapter.json, info.txt,
# gpu.txt (nvidia-smi), vitest.log, bench.log, webgpu.json, webgpu.md.
# Exit status: 0 when the adapter is a GPU, the tests pass and the suite ran.
#
# Environment: RLX_GPU_ALLOW_SOFTWARE=1 (go on with a software adapter),
# RLX_GPU_SKIP_TESTS=1, RLX_GPU_TEST_TIMEOUT / RLX_GPU_BENCH_TIMEOUT (seconds,
# default 240 / 420), RLX_WEBGPU_BACKEND (e.g. vulkan, opengles: passed to rlx
# and to the jax-js peer), RLX_BENCH_WEBGPU_SIZES (matmul sizes, default
# 1024,2048,4096 on a GPU), RLX_BENCH_WEBGPU_SPLAT (splat rows' N@WIDTHxHEIGHT,
# default 1000000@1920x1080 on a GPU).
set -euo pipefail

cd "$(dirname "$0")/.."
OUT="${OUT:-benchmarks/results/gpu}"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
TEST_TIMEOUT="${RLX_GPU_TEST_TIMEOUT:-240}"
BENCH_TIMEOUT="${RLX_GPU_BENCH_TIMEOUT:-420}"
# No registry here: a missing JS peer package fails at once instead of waiting on npm.
export npm_config_offline=true
# Plain logs (vitest colours its output otherwise).
export NO_COLOR=1
status=0

say() { printf '\n== %s\n' "$*"; }
die() { printf '\ngpu.sh: %s\n' "$*" >&2; exit 1; }

command -v node >/dev/null || die "node is not installed"
[ -f dist/index.js ] || die "dist/ is missing: run npm run build first (or carry dist/)"
[ -f node_modules/webgpu/package.json ] || die "node_modules/webgpu (Dawn for Node) is missing"

say "machine"
{ uname -a; node --version; nproc; } | tee "$OUT/machine.txt"
if command -v nvidia-smi >/dev/null; then
  timeout 30 nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv | tee "$OUT/gpu.txt" || true
fi
# Where Dawn can find a driver: Vulkan ICDs (Dawn's default backend) and EGL vendors (its GL path).
ls /usr/share/vulkan/icd.d /etc/vulkan/icd.d /usr/share/glvnd/egl_vendor.d 2>/dev/null | tee -a "$OUT/machine.txt" || true

say "adapter"
timeout 120 node dist/cli.js info 2>&1 | tee "$OUT/info.txt" || true
timeout 120 node benchmarks/lib/webgpu-adapter.mjs 2>/dev/null | tail -n 1 >"$OUT/adapter.json" || true
cat "$OUT/adapter.json"
adapter_ok=$(node -e 'const a = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8") || "{}"); console.log(a.available ? (a.software ? "software" : "gpu") : "none")' "$OUT/adapter.json" 2>/dev/null || echo none)
case "$adapter_ok" in
  gpu) echo "GPU adapter found" ;;
  software)
    [ "${RLX_GPU_ALLOW_SOFTWARE:-0}" = 1 ] || die "the WebGPU adapter is a software rasterizer, not a GPU (see $OUT/adapter.json); RLX_GPU_ALLOW_SOFTWARE=1 to go on anyway"
    echo "software adapter (RLX_GPU_ALLOW_SOFTWARE=1): going on" ;;
  *)
    [ "${RLX_GPU_ALLOW_SOFTWARE:-0}" = 1 ] || die "no WebGPU adapter (see $OUT/adapter.json and $OUT/info.txt)"
    echo "no adapter (RLX_GPU_ALLOW_SOFTWARE=1): going on; the rows will report the reason" ;;
esac

if [ "${RLX_GPU_SKIP_TESTS:-0}" = 1 ]; then
  say "tests/webgpu skipped (RLX_GPU_SKIP_TESTS=1)"
else
  say "RLX_REQUIRE_WEBGPU=1 vitest run tests/webgpu (timeout ${TEST_TIMEOUT}s)"
  if RLX_REQUIRE_WEBGPU=1 timeout "$TEST_TIMEOUT" npx --no-install vitest run tests/webgpu 2>&1 | tee "$OUT/vitest.log"; then
    echo "tests/webgpu: passed"
  else
    status=1
    echo "tests/webgpu: FAILED (exit ${PIPESTATUS[0]}; see $OUT/vitest.log); running the benchmarks anyway" >&2
  fi
fi

# run.mjs writes benchmarks/results/webgpu.{json,md}: keep the committed ones and put this run's in $OUT.
say "webgpu suite (timeout ${BENCH_TIMEOUT}s)"
saved="$(mktemp -d)"
for f in webgpu.json webgpu.md; do [ -f "benchmarks/results/$f" ] && cp "benchmarks/results/$f" "$saved/"; done
restore() {
  for f in webgpu.json webgpu.md; do
    if [ -f "$saved/$f" ]; then cp "$saved/$f" "benchmarks/results/$f"; else rm -f "benchmarks/results/$f"; fi
  done
  rm -rf "$saved"
}
trap restore EXIT
rm -f benchmarks/results/webgpu.json benchmarks/results/webgpu.md
if timeout "$BENCH_TIMEOUT" node benchmarks/run.mjs webgpu 2>&1 | tee "$OUT/bench.log"; then :; else
  status=1
  echo "webgpu suite: FAILED (exit ${PIPESTATUS[0]}; see $OUT/bench.log)" >&2
fi
for f in webgpu.json webgpu.md; do
  if [ -f "benchmarks/results/$f" ]; then cp "benchmarks/results/$f" "$OUT/$f"; else status=1; echo "no benchmarks/results/$f written" >&2; fi
done

say "done: results in $OUT (exit $status)"
exit "$status"
