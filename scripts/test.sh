#!/usr/bin/env bash
# Builds cohort and runs every test that needs no GPU. Where nvcc is found the
# CUDA backend is compiled too: on a machine with a GPU, its tests, examples,
# benchmarks and cohort-cuda (scripts/gpu-check.sh runs the GPU tests); on one
# with none, only the public API (COHORT_CUDA_COMPILE_CHECK_ONLY: nvcc on GPU
# programs that cannot run here took half of CI's build).
# The build is clang's where the loops engine's clang is installed
# (scripts/loops-clang.sh; the clang preset, build-clang/: the CUDA programs'
# kernels compiled with the pass plugin, so they run on the loops engine, and
# the fiber engine's tests beside them), g++'s otherwise or with
# COHORT_SKIP_CLANG=1 (the release preset, build/). The host suite then runs
# again under AddressSanitizer and UBSan, in a g++ build of its own (host only:
# no CUDA, benchmarks or examples; kernels on fibers, as g++ compiles them),
# unless COHORT_SKIP_SANITIZERS=1. One clang build and one g++ build: CI
# stays within an hour on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
gpu_absent=ON
if scripts/gpu-present.sh; then
  gpu_absent=OFF
fi
preset=release build=build compiler=()
if [[ "${COHORT_SKIP_CLANG:-0}" != 1 ]] && clang=$(scripts/loops-clang.sh); then
  preset=clang build=build-clang compiler=(-DCMAKE_CXX_COMPILER="$clang")
fi
cmake --preset "$preset" "${compiler[@]}" -DCOHORT_CUDA_COMPILE_CHECK_ONLY="$gpu_absent"
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure -LE "gpu|slow" -j "$(nproc)"

if [[ "${COHORT_SKIP_SANITIZERS:-0}" != 1 ]]; then
  cmake --preset asan
  cmake --build build-asan
  ctest --test-dir build-asan --output-on-failure -LE "gpu|slow" -j "$(nproc)"
fi
