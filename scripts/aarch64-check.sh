#!/usr/bin/env bash
# The host backend on 64-bit Arm, from an x86-64 Debian machine, in one
# command: installs a cross compiler, QEMU's user-mode emulator and the arm64
# Boost.Context and GoogleTest (Debian multiarch), cross-builds the host
# runtime and its tests (cmake/aarch64-linux-gnu.cmake) and runs them under
# qemu-aarch64, twice: with the hand-written AArch64 fiber switch
# (src/host_runtime/fibers/context_switch_aarch64.S) and with Boost.Context's fcontext
# (COHORT_FIBER_SWITCH=boost), so that the two can be compared on one target.
# Not part of CI (an emulated run takes tens of minutes).
#
#   scripts/aarch64-check.sh [ctest arguments...]   e.g. -R Barrier
#
# Environment:
#   COHORT_AARCH64_SWITCHES  which switches to test (default: "auto boost")
#   COHORT_AARCH64_TIMEOUT   ctest's per-test timeout in seconds (default: 1500)
#
# Left out under the emulator, where a program cannot exec another arm64
# program (that needs the kernel's binfmt_misc, which containers lack):
#   - death tests that re-execute the test binary (GoogleTest's "threadsafe"
#     style): KernelSideCallsFromHostCodeDeathTest.*,
#     FiberStacksDeathTest.NoStackToMapIsAnErrorOfTheLaunch;
#   - cohort_cxx.driver, which builds a program with cohort-cxx and runs it;
#   - package.find_package, which builds a consumer project at test time.
# And AbandonedFibers.ResidentMemoryStaysFlatOverTenThousandFailedLaunches:
# under the emulator /proc/self/statm is QEMU's own memory, which grows by
# ~0.5 KiB at every mmap and munmap of a file (each failed launch maps the
# test binary to name its kernel); the program's heap stays flat.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh cmake ninja-build python3 g++-aarch64-linux-gnu qemu-user libboost-context-dev:arm64 \
  libgtest-dev:arm64

excluded='^(KernelSideCallsFromHostCodeDeathTest\.|FiberStacksDeathTest\.NoStackToMapIsAnErrorOfTheLaunch$|AbandonedFibers\.ResidentMemoryStaysFlatOverTenThousandFailedLaunches$|cohort_cxx\.driver$|package\.)'
launcher=()
# ccache shares objects between the two build trees.
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(pwd)}
fi
status=0
summary=()
for switch in ${COHORT_AARCH64_SWITCHES:-auto boost}; do
  build=build-aarch64-$switch
  cmake --preset aarch64 -B "$build" "${launcher[@]}" -DCOHORT_FIBER_SWITCH="$switch"
  cmake --build "$build"
  log=$build/ctest.log
  if ctest --test-dir "$build" -LE gpu -E "$excluded" -j "$(nproc)" --output-on-failure \
       --timeout "${COHORT_AARCH64_TIMEOUT:-1500}" "$@" 2>&1 | tee "$log"; then
    :
  else
    status=1
  fi
  summary+=("switch=$switch: $(grep -E 'tests passed|tests failed' "$log" | tail -1)")
done
printf 'aarch64 (qemu-aarch64 %s)\n' "$(qemu-aarch64 --version | head -1 | awk '{print $3}')"
printf '  %s\n' "${summary[@]}"
exit $status
