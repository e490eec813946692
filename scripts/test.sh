#!/usr/bin/env bash
# Builds cohort and runs every test that needs no GPU. The CUDA backend is
# compiled too where nvcc is found (its GPU tests run with scripts/gpu-check.sh).
# Where the loops engine's clang is installed (scripts/loops-clang.sh), the
# host build is repeated with it (the clang preset, build-clang/: cohort's
# library, tests, tools and CUDA programs compiled by clang, the programs'
# kernels with the pass plugin, so they run on the loops engine), unless
# COHORT_SKIP_CLANG=1. Its suite leaves out, to keep CI within an hour on 2
# cores, the three labels that cost the most: `package` (installs cohort and
# builds it again through FetchContent; the release run tests the installed
# driver with the plugin), `corpus` (NVIDIA's samples, each compiled at
# test time: 11 minutes here; `ctest --test-dir build-clang -L corpus` runs
# them) and `races` (the CUDA programs compiled again for race checking; the
# release run checks them, with cohort-cxx's default compiler).
# The host suite then runs again under
# AddressSanitizer and UBSan, in a build of its own (host only: no CUDA,
# benchmarks or examples), unless COHORT_SKIP_SANITIZERS=1.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release
cmake --build build
ctest --test-dir build --output-on-failure -LE "gpu|slow" -j "$(nproc)"

if [[ "${COHORT_SKIP_CLANG:-0}" != 1 ]] && clang=$(scripts/loops-clang.sh); then
  cmake --preset clang -DCMAKE_CXX_COMPILER="$clang"
  cmake --build build-clang
  ctest --test-dir build-clang --output-on-failure -LE "gpu|slow|package|corpus|races" -j "$(nproc)"
fi

if [[ "${COHORT_SKIP_SANITIZERS:-0}" != 1 ]]; then
  cmake --preset asan
  cmake --build build-asan
  ctest --test-dir build-asan --output-on-failure -LE "gpu|slow" -j "$(nproc)"
fi
