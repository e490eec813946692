# GoogleTest: the installed package where there is one (CI, this machine), otherwise its
# sources from COHORT_GTEST_SOURCE_DIR (the GPU machine has no package manager: the source
# tree travels with the build, see scripts/gpu-check.sh and docs/cuda-backend.md).
find_package(GTest QUIET)
if(NOT GTest_FOUND)
  set(COHORT_GTEST_SOURCE_DIR "${PROJECT_SOURCE_DIR}/.deps/googletest" CACHE PATH "GoogleTest sources")
  if(NOT EXISTS "${COHORT_GTEST_SOURCE_DIR}/CMakeLists.txt" AND EXISTS /usr/src/googletest/CMakeLists.txt)
    set(COHORT_GTEST_SOURCE_DIR /usr/src/googletest CACHE PATH "GoogleTest sources" FORCE)
  endif()
  if(NOT EXISTS "${COHORT_GTEST_SOURCE_DIR}/CMakeLists.txt")
    message(FATAL_ERROR "GoogleTest not found: install libgtest-dev, or set COHORT_GTEST_SOURCE_DIR to its sources")
  endif()
  set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
  set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
  add_subdirectory(${COHORT_GTEST_SOURCE_DIR} ${CMAKE_BINARY_DIR}/_deps/googletest EXCLUDE_FROM_ALL)
  if(NOT TARGET GTest::gtest)  # googletest 1.11+ defines these aliases itself
    add_library(GTest::gtest ALIAS gtest)
    add_library(GTest::gtest_main ALIAS gtest_main)
  endif()
endif()
include(GoogleTest)
