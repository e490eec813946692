#!/usr/bin/env bash
# Installs the Debian packages cohort's host build, tests and tools need, or
# the packages named as arguments; a name with an architecture (pkg:arm64)
# adds that architecture to dpkg first. Skips apt entirely when everything is
# there already.
set -euo pipefail
# g++ brings libgcc-N-dev, whose libbacktrace.a names the source lines of race
# reports (COHORT_CHECK=races; the build finds it through g++ -print-file-name).
# libthrust-dev: Thrust's headers, for CUDA programs that use Thrust (docs/cuda-compat.md).
packages=(cmake ninja-build g++ python3 libboost-context-dev libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev
          nlohmann-json3-dev libtbb-dev gdb libthrust-dev)
(($#)) && packages=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing: ${missing[*]}"
  for p in "${missing[@]}"; do
    [[ $p == *:* ]] || continue
    dpkg --print-foreign-architectures | grep -qx "${p#*:}" || $sudo dpkg --add-architecture "${p#*:}"
  done
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

# The loops engine's compiler (docs/loops-engine.md): clang and llvm-dev of one
# version, when none is installed. Optional: where apt has no such packages, or
# installing them fails, the build goes on with the fiber engine alone
# (COHORT_SKIP_LOOPS_DEPS=1 skips the attempt).
if (($# == 0)) && [ "${COHORT_SKIP_LOOPS_DEPS:-0}" != 1 ] && ! ls /usr/lib/llvm-1[5-9]/lib/cmake/llvm/LLVMConfig.cmake >/dev/null 2>&1; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  ((${#missing[@]})) || $sudo apt-get update -qq || true  # the lists, where nothing above read them
  found=""
  for v in 19 18 17 16 15; do
    if apt-cache show "clang-$v" "llvm-$v-dev" >/dev/null 2>&1; then
      found=$v
      echo "installing the loops engine's compiler: clang-$v llvm-$v-dev"
      DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "clang-$v" "llvm-$v-dev" ||
        echo "clang-$v / llvm-$v-dev not installed: kernels will run on fibers only"
      break
    fi
  done
  [ -n "$found" ] || echo "no clang/llvm-dev 15-19 in apt: kernels will run on fibers only"
fi

# OpenMP for the loops engine's clang (CUDA programs built with -Xcompiler -fopenmp):
# libomp of the newest clang/llvm-dev pair installed, as g++ has libgomp.
if (($# == 0)); then
  for v in 19 18 17 16 15; do
    [ -e "/usr/lib/llvm-$v/lib/cmake/llvm/LLVMConfig.cmake" ] || continue
    if ! dpkg-query -W -f='${Status}' "libomp-$v-dev" 2>/dev/null | grep -q "install ok installed"; then
      sudo=""
      [ "$(id -u)" -eq 0 ] || sudo="sudo"
      echo "installing OpenMP for clang-$v: libomp-$v-dev"
      { $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "libomp-$v-dev"; } ||
        echo "libomp-$v-dev not installed: OpenMP programs build with g++ only (cohort-cxx --compiler=g++)"
    fi
    break
  done
fi

# The code's format (scripts/format.py, the docs.format test): clang-format 19,
# whose output the tree follows. Optional: without it the test is skipped.
if (($# == 0)) && ! command -v clang-format-19 >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang-format-19 ||
    echo "clang-format-19 not installed: the docs.format test will be skipped"
fi
