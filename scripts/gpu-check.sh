#!/usr/bin/env bash
# The CUDA backend on a machine with an NVIDIA GPU, in one command: configure
# (CUDA only, sm_90 unless CMAKE_CUDA_ARCHITECTURES says otherwise), build, run
# every test labelled gpu, optionally compute-sanitizer, then the benchmarks,
# and print a summary. The GPU machine has nvcc, cmake, ninja and python but no
# package manager and no network, so GoogleTest's sources travel with the tree:
#   cp -r /usr/src/googletest .deps/googletest     (.deps is git-ignored)
# They are built and installed into the build directory first and found as an
# installed package (GTest_ROOT), the way CI finds the system's.
#
# Environment:
#   COHORT_GPU_BUILD   build directory (default: build-gpu)
#   COHORT_SANITIZE=1  also run compute-sanitizer memcheck, racecheck and synccheck
#   COHORT_GPU_BENCH=0 build and test only, no benchmarks
#   OUT                if set, the logs are written there (default: <build>/logs)
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
build=$(realpath -m "${COHORT_GPU_BUILD:-build-gpu}")
arch=${CMAKE_CUDA_ARCHITECTURES:-90}
gtest=${COHORT_GTEST_SOURCE_DIR:-$root/.deps/googletest}
logs=${OUT:-$build/logs}
mkdir -p "$logs"
command -v nvcc >/dev/null || export PATH=$PATH:/usr/local/cuda/bin

status_build=FAILED status_tests=FAILED status_sanitize=skipped status_bench=skipped
tests_line="(tests not run)"

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
nvcc --version | tail -1

gtest_prefix=$build/googletest/prefix
if [ ! -f "$gtest_prefix/lib/cmake/GTest/GTestConfig.cmake" ]; then
  { cmake -S "$gtest" -B "$build/googletest/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_GMOCK=OFF \
      -DCMAKE_INSTALL_PREFIX="$gtest_prefix" && cmake --build "$build/googletest/build" &&
      cmake --install "$build/googletest/build"; } >"$logs/configure.log" 2>&1
fi

if cmake --preset gpu -B "$build" -DCMAKE_CUDA_ARCHITECTURES="$arch" -DGTest_ROOT="$gtest_prefix" \
     >>"$logs/configure.log" 2>&1 &&
   cmake --build "$build" -- -k 0 >"$logs/build.log" 2>&1; then
  status_build=ok
else
  echo "build failed; the end of the log:"
  tail -40 "$logs/configure.log" "$logs/build.log"
fi

if [ -d "$build/tests/cuda" ]; then
  # A barrier that never opens would hang its test: each gets two minutes.
  ctest --test-dir "$build" -L gpu --timeout 120 --output-on-failure 2>&1 | tee "$logs/ctest.log"
  [ "${PIPESTATUS[0]}" -eq 0 ] && status_tests=ok
  tests_line=$(grep -E "tests passed|tests failed" "$logs/ctest.log" | tail -1)
  # gtest's own counts, per binary.
  gtest_counts=$(grep -E "^\[  PASSED  \]|^\[  FAILED  \] [0-9]+ test" "$logs/ctest.log" || true)
fi

if [ "${COHORT_SANITIZE:-0}" = 1 ] && [ -x "$build/tests/cuda/cohort_cuda_tests" ]; then
  status_sanitize=ok
  # The launch, memory and query tests and every grid barrier shape, so that each of the
  # barrier's three regimes (NVIDIA's protocol, polled counters, published flags) runs under each
  # tool, and the whole-array algorithms on ints (the grid scans' look-back hand-overs between
  # warps, the device scans, grid_reduce): about two minutes on an H200 for the three. racecheck
  # still reports two of the scans' hand-overs there, not explained (results right; the variants
  # ruled out: docs/measurements/2026-11-30-gpu-scan-racecheck.md, sections 2 and 6).
  runs=("cohort_cuda_tests Launch.*:Devices.*:Memory.*:Shapes/OracleQueries.*:Shapes/OracleGridSync.*:Sizes/GridBarrierShapes.*"
        "conformance_cuda.algorithms_grid GridAlgorithms.PlusOverInt:GridAlgorithms.ResidentGrid")
  for tool in memcheck racecheck synccheck; do
    for run in "${runs[@]}"; do
      read -r binary filter <<<"$run"
      log="$logs/sanitize-$tool-$binary.log"
      if timeout 300 compute-sanitizer --tool "$tool" --report-api-errors no --error-exitcode 99 \
           "$build/tests/cuda/$binary" --gtest_filter="$filter" >"$log" 2>&1; then
        echo "compute-sanitizer $tool, $binary: clean ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | tail -1))"
      else
        status_sanitize=FAILED
        echo "compute-sanitizer $tool, $binary: FAILED"
        grep -E "=========" "$log" | head -30
        tail -5 "$log"
      fi
    done
  done
fi

# Every GPU benchmark: grid sync, warp operations, clusters, whole-array
# algorithms against CUB, and the two whole cooperative programs.
benches=(cohort_bench_cuda cohort_bench_cuda_warp cohort_bench_cuda_cluster cohort_bench_cuda_array
         cohort_bench_cuda_programs)
if [ "${COHORT_GPU_BENCH:-1}" = 0 ]; then benches=(); else status_bench=ok; fi
for bench in "${benches[@]}"; do
  if [ -x "$build/bench/cuda/$bench" ]; then
    timeout 300 "$build/bench/cuda/$bench" 2>&1 | tee "$logs/$bench.log"
    [ "${PIPESTATUS[0]}" -eq 0 ] || status_bench=FAILED
  else
    status_bench=FAILED
  fi
done

echo
echo "== gpu-check summary =="
echo "build:      $status_build"
echo "gpu tests:  $status_tests  $tests_line"
[ -n "${gtest_counts:-}" ] && echo "$gtest_counts" | sed 's/^/            /'
echo "sanitizers: $status_sanitize"
echo "benchmarks: $status_bench"
for bench in "${benches[@]}"; do
  [ -f "$logs/$bench.log" ] && sed -n '/^== cohort vs /,$p' "$logs/$bench.log"
done
[ "$status_build" = ok ] && [ "$status_tests" = ok ] && [ "$status_bench" != FAILED ] && [ "$status_sanitize" != FAILED ]
