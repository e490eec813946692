#!/usr/bin/env bash
# The main job: builds cohort and runs `cohort bench reduce` on the best
# backend present (CUDA where a GPU answers and nvcc built cohort-cuda, the
# host otherwise): the reduction variants and the cooperative
# reduction over a range of sizes, every result verified, printed as a table.
# On the host, `cohort` is built by the loops engine's clang with its pass
# plugin where they are installed (the clang preset, build-clang/), so that the
# kernels the pass lowers run on the loops engine and the others on fibers;
# by g++ (the release preset, build/), every kernel on fibers, otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
if scripts/gpu-present.sh; then
  cmake --preset release -DCOHORT_CUDA_COMPILE_CHECK_ONLY=OFF
  if cmake --build build --target cohort_cli_cuda; then
    exec build/apps/cohort/cohort-cuda bench reduce "$@"
  fi
fi
if clang=$(scripts/loops-clang.sh); then
  cmake --preset clang -DCMAKE_CXX_COMPILER="$clang"
  cmake --build build-clang --target cohort_cli
  exec build-clang/apps/cohort/cohort bench reduce "$@"
fi
cmake --preset release
cmake --build build --target cohort_cli
exec build/apps/cohort/cohort bench reduce "$@"
