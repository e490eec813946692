#!/usr/bin/env bash
# Builds cohort and runs every test that needs no GPU. The CUDA backend is
# compiled too where nvcc is found (its GPU tests run with scripts/gpu-check.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build
ctest --test-dir build --output-on-failure -LE gpu -j "$(nproc)"
