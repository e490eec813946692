# The loops engine's compiler path (docs/loops-engine.md): an LLVM of version
# 15 or later with the clang++ of the same version, newest first. Sets
# COHORT_LOOPS_FOUND, COHORT_LOOPS_CLANG (that clang++) and builds the pass
# plugin (target cohort_loops_pass). Without them, or in a sanitizer build (a
# plugin built with sanitizers cannot load into clang), nothing changes: every
# kernel runs on fibers, and the loops tests say they were skipped.
set(COHORT_LOOPS_FOUND OFF)
set(COHORT_LOOPS_MISSING "")
option(COHORT_LOOPS_ENGINE "Build the loops engine's pass plugin where clang >= 15 and its llvm-dev are found" ON)
if(NOT COHORT_LOOPS_ENGINE)
  set(COHORT_LOOPS_MISSING "COHORT_LOOPS_ENGINE is OFF")
elseif(COHORT_SANITIZE)
  set(COHORT_LOOPS_MISSING "a sanitizer build (COHORT_SANITIZE=${COHORT_SANITIZE})")
else()
  # LLVM's version file accepts only its own major.minor, so the newest found is taken and checked.
  set(cohort_llvm_paths "")
  foreach(version 19 18 17 16 15)
    list(APPEND cohort_llvm_paths /usr/lib/llvm-${version}/lib/cmake/llvm)
  endforeach()
  find_package(LLVM CONFIG QUIET NO_DEFAULT_PATH PATHS ${cohort_llvm_paths})
  if(LLVM_FOUND AND LLVM_VERSION_MAJOR GREATER_EQUAL 15)
    find_program(COHORT_LOOPS_CLANG NAMES clang++ HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
    if(COHORT_LOOPS_CLANG)
      set(COHORT_LOOPS_FOUND ON)
    endif()
  endif()
  if(NOT COHORT_LOOPS_FOUND)
    set(COHORT_LOOPS_MISSING "no LLVM >= 15 with its clang++ (on Debian: apt-get install clang-19 llvm-19-dev)")
  endif()
endif()
if(COHORT_LOOPS_FOUND)
  message(STATUS "cohort loops engine: LLVM ${LLVM_PACKAGE_VERSION}, ${COHORT_LOOPS_CLANG}")
  add_subdirectory(${CMAKE_CURRENT_LIST_DIR}/../tools/loops-pass ${CMAKE_BINARY_DIR}/tools/loops-pass)
  set(COHORT_LOOPS_INCLUDE_DIR ${CMAKE_CURRENT_LIST_DIR}/../include)
  # For cohort-cxx and cohort_use_loops_engine() (CohortCudaHost.cmake), in this tree and in a
  # project that embeds it; installed beside the library for the installed ones.
  set(COHORT_LOOPS_PLUGIN $<TARGET_FILE:cohort_loops_pass> CACHE INTERNAL "the loops engine's pass plugin")
  set(COHORT_LOOPS_INSTALLED_PLUGIN ${CMAKE_INSTALL_LIBDIR}/cohort/cohort-loops-pass${CMAKE_SHARED_MODULE_SUFFIX})
  install(TARGETS cohort_loops_pass LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}/cohort)
else()
  message(STATUS "cohort loops engine: not built: ${COHORT_LOOPS_MISSING}")
  set(COHORT_LOOPS_PLUGIN "" CACHE INTERNAL "the loops engine's pass plugin")
  set(COHORT_LOOPS_INSTALLED_PLUGIN "")
endif()

# Compiles `source` with clang and the loops pass into `object` (at -O2, or
# with the flags given after them: an optimization flag, include directories);
# the pass's remarks (-Rpass / -Rpass-missed) appear in the build log.
function(cohort_loops_object source object)
  set(optimization -O2)
  if(ARGC GREATER 2)
    set(optimization ${ARGN})
  endif()
  set(flags -std=c++20 ${optimization} -fPIE -g0 -Rpass=cohort-loops -Rpass-missed=cohort-loops)
  if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
    list(APPEND flags -mtls-dialect=gnu2)  # as the runtime's translation units (src/host_runtime/CMakeLists.txt)
  endif()
  add_custom_command(
    OUTPUT ${object}
    COMMAND ${COHORT_LOOPS_CLANG} ${flags} -fpass-plugin=$<TARGET_FILE:cohort_loops_pass>
            -I${COHORT_LOOPS_INCLUDE_DIR} -MD -MF ${object}.d -c ${source} -o ${object}
    DEPENDS ${source} cohort_loops_pass
    DEPFILE ${object}.d
    COMMENT "clang + loops pass: ${source}"
    VERBATIM)
endfunction()
