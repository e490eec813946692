#!/usr/bin/env bash
# The grid scan's lab on a GPU machine, in one call: builds the whole-array
# bench from this tree and from another one (the tree before the change, for
# ratios in one run), the GPU tests of the whole-array algorithms and grid
# collectives, runs the tests, the two benches alternating, and Nsight
# Compute on the grid scan and CUB's scan kernel at 16M ints in both builds.
#
# Usage: scripts/gpu-scan-check.sh [OLD_TREE] (googletest's sources in .deps/googletest)
# Environment: OUT (logs; default /tmp/gpu-scan-out), ROUNDS (bench pairs, 2), NCU=0 skips Nsight Compute,
#              NCU_BUILDS (default "old new"),
#              TESTS=0 skips the tests, EXTRA_TARGETS (more CMake targets to build).
set -uo pipefail
cd "$(dirname "$0")/.."
old=${1:-}
out=${OUT:-/tmp/gpu-scan-out}
mkdir -p "$out"
command -v nvcc >/dev/null || export PATH=$PATH:/usr/local/cuda/bin
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader
nvcc --version | tail -1
build=build-gpu
flags=(-std=c++20 -arch=sm_90 -O3 -Xptxas -v)

# The old tree's bench, beside the CMake build.
if [ -n "$old" ]; then
  (nvcc "${flags[@]}" -I"$old/include" -I"$old/bench/cuda" "$old/bench/cuda/array_bench.cu" -o /tmp/old_array \
     >"$out/old-build.log" 2>&1 || echo "old bench: build FAILED") &
fi
gtest_prefix=$PWD/$build/googletest/prefix
{ cmake -S .deps/googletest -B $build/googletest/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DBUILD_GMOCK=OFF \
    -DCMAKE_INSTALL_PREFIX="$gtest_prefix" && cmake --build $build/googletest/build && cmake --install $build/googletest/build &&
  cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=Release -DCOHORT_BUILD_HOST=OFF -DCOHORT_BUILD_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES=90 -DCMAKE_CUDA_FLAGS="-Xptxas -v" -DGTest_ROOT="$gtest_prefix"; } >"$out/configure.log" 2>&1 ||
  { echo "configure FAILED"; tail -20 "$out/configure.log"; }
targets="cohort_bench_cuda_array"
[ "${TESTS:-1}" = 1 ] && targets="$targets conformance_cuda.algorithms_grid cohort_cuda_tests"
time cmake --build $build --target $targets ${EXTRA_TARGETS:-} -- -k 0 >"$out/build.log" 2>&1 ||
  { echo "build FAILED"; grep -B2 -A6 "error" "$out/build.log" | head -60; }
wait
grep -A2 -E "Compiling entry function '.*(grid_scan_kernel|grid_reduce_kernel|repeated_sum|int_scan)" "$out/build.log" \
  "$out/old-build.log" 2>/dev/null | grep -E "Compiling|registers" | sed 's/ptxas info    : //'

if [ "${TESTS:-1}" = 1 ]; then
  timeout 200 $build/tests/cuda/conformance_cuda.algorithms_grid >"$out/test-algorithms.log" 2>&1
  echo "conformance_cuda.algorithms_grid: rc $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/test-algorithms.log" | tr '\n' ' ')"
  timeout 200 $build/tests/cuda/cohort_cuda_tests --gtest_filter='GridScan*:GridCollectives*:GridAlgorithms*' \
    >"$out/test-grid.log" 2>&1
  echo "cohort_cuda_tests (grid): rc $? $(grep -E '^\[  (PASSED|FAILED)  \]' "$out/test-grid.log" | tr '\n' ' ')"
  grep -E "FAILED|Failure|error" "$out"/test-*.log | head -20
fi

new=$build/bench/cuda/cohort_bench_cuda_array
for round in $(seq "${ROUNDS:-2}"); do
  [ -x /tmp/old_array ] && timeout 120 /tmp/old_array 15 >"$out/bench-old-$round.log" 2>&1
  timeout 120 $new 15 >"$out/bench-new-$round.log" 2>&1
done
if [ "${NCU:-1}" = 1 ] && command -v ncu >/dev/null; then
  sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy
            --section LaunchStats --section SchedulerStats)
  for which in ${NCU_BUILDS:-old new}; do
    bin=$new; [ $which = old ] && bin=/tmp/old_array
    [ -x "$bin" ] || continue
    # 1M then 16M, 3 warm-ups and 1 timed launch each: the 5th launch of each kernel is 16M's first.
    timeout 150 ncu --clock-control none -k regex:'grid_scan_kernel|DeviceScanKernel' --launch-skip 8 --launch-count 2 \
      "${sections[@]}" "$bin" 1 scan 24 >"$out/ncu-$which.log" 2>&1
    echo "ncu $which: rc $?"
    grep -E "grid_scan_kernel|DeviceScanKernel|Duration|DRAM Throughput|Memory Throughput|Registers Per|Achieved Occupancy|Stall|Warp Cycles Per Issued|Theoretical Occ" "$out/ncu-$which.log" | grep -v "^ *----" | cut -c1-150 | head -40
  done
fi
for f in "$out"/bench-*.log; do
  echo "== $(basename "$f")"
  grep -E "^(1048576|16777216|67108864|268435456) .*(cub|grid_|device_)" "$f" | awk '{ $NF=$NF; print }' | cut -c1-110
done
