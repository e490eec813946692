#!/usr/bin/env bash
# The main job: builds cohort and runs `cohort bench reduce` on the best
# backend present (CUDA where a GPU answers and nvcc built cohort-cuda, the
# host otherwise): the reduction variants and the cooperative
# reduction over a range of sizes, every result verified, printed as a table.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 && cmake --build build --target cohort_cli_cuda; then
  exec build/apps/cohort/cohort-cuda bench reduce "$@"
fi
cmake --build build --target cohort_cli
exec build/apps/cohort/cohort bench reduce "$@"
