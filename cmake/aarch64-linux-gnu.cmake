# Cross-building for 64-bit Arm Linux with Debian's cross compiler
# (g++-aarch64-linux-gnu) against the arm64 libraries that multiarch installs
# beside the native ones (libboost-context-dev:arm64, libgtest-dev:arm64), and
# running what it builds (tests, test discovery) under QEMU's user-mode
# emulator. scripts/aarch64-check.sh installs all of it and uses this file.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
# Packages are found in /usr/lib/aarch64-linux-gnu, never in the native
# /usr/lib/x86_64-linux-gnu; headers in /usr/include are shared by both.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
# Programs run on the arm64 loader and libraries of multiarch (libc6:arm64,
# libstdc++6:arm64, which the Boost package brings), not on the cross
# compiler's copies under /usr/aarch64-linux-gnu (qemu-aarch64 -L): those are
# an older build of glibc, and the system's ld.so.cache then hands that loader
# the newer libc.so.6, whose threads never start (pthread_create loops over a
# stack cache laid out differently).
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64)
