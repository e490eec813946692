#!/usr/bin/env bash
# The main job: builds cohort and runs seed 000's single-kernel cooperative
# reduction (grid.sync() over an occupancy-sized grid) on the host backend,
# checking the sum.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --target sum_cooperative
build/examples/sum_cooperative "$@"
