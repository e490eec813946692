// A fault in kernel code names the line of the faulting access where the
// program has line tables (this file is built with -g1: tests/host/
// CMakeLists.txt); without them the report gives the address for addr2line
// (shared_memory_guards.cpp).
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>
#include <string>

#include "host_support.hpp"

namespace cg = cohort;
using cohort_test::launch_error;
using ::testing::AllOf;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;

namespace {

// A planted fault: UBSan is told not to stop it first.
[[gnu::no_sanitize("null")]] __global__ void writes_through(int* data) {
  if (threadIdx.x == 5) data[blockIdx.x] = 1;
}
constexpr int faulting_line = __LINE__ - 2;

TEST(FaultLines, AFaultInKernelCodeNamesTheLineOfTheAccess) {
  const cg::error e = launch_error([] { cg::launch(writes_through, {dim3(2), dim3(8)}, static_cast<int*>(nullptr)); });
  EXPECT_EQ(e.kind(), cg::errc::memory_fault);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("thread (5,0,0)"), HasSubstr("null pointer"),
                              HasSubstr("(the access is in `(anonymous namespace)::writes_through(int*)`, at "),
                              ContainsRegex("fault_lines\\.cpp:" + std::to_string(faulting_line) + "\\)")));
  EXPECT_THAT(e.what(), Not(HasSubstr("addr2line")));
}

}  // namespace
