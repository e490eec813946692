#!/usr/bin/env bash
# Builds cohort and runs every test that needs no GPU. The CUDA backend is
# compiled too where nvcc is found (its GPU tests run with scripts/gpu-check.sh).
# The host suite then runs again under AddressSanitizer and UBSan, in a build
# of its own (host only: no CUDA, benchmarks or examples), unless
# COHORT_SKIP_SANITIZERS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release
cmake --build build
ctest --test-dir build --output-on-failure -LE "gpu|slow" -j "$(nproc)"

if [[ "${COHORT_SKIP_SANITIZERS:-0}" != 1 ]]; then
  cmake --preset asan
  cmake --build build-asan
  ctest --test-dir build-asan --output-on-failure -LE "gpu|slow" -j "$(nproc)"
fi
