// Shared memory between guard zones: a kernel that writes past its dynamic
// shared memory, or far past its last __shared__ variable, faults at once and
// the launch fails naming the thread and the offset, where the write reached
// the malloc heap or the runtime's thread-locals before; under
// COHORT_CHECK=memory a write just past the last __shared__ variable is found
// when the block ends. Each launch after a caught overrun runs whole.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>
#include <string>
#include <vector>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;
using cohort_test::launch_error;
using cohort_test::scoped_env;

namespace {

// Thread 0 of every block writes the int `past` ints beyond `ints` ints of
// dynamic shared memory; every thread then writes its rank to `out`.
__global__ void writes_past_dynamic(int* out, int ints, int past) {
  int* shared = cg::dynamic_shared<int>();
  if (threadIdx.x == 0) static_cast<volatile int*>(shared)[ints + past] = 7;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<int>(threadIdx.x);
}

void expect_runs_whole() {
  cg::device_buffer<int> out(2 * 32);
  out.fill(-1);
  cg::launch(writes_past_dynamic, {dim3(2), dim3(32), 256}, out.data(), 0, 0);
  const std::vector<int> got = out.to_host();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(got[i], i % 32);
}

TEST(SharedMemoryGuards, AWriteJustPastDynamicSharedMemoryIsAnErrorNamingTheOffset) {
  cg::device_buffer<int> out(2 * 32);
  const cg::error e =
      launch_error([&] { cg::launch(writes_past_dynamic, {dim3(2), dim3(32), 256}, out.data(), 64, 1); });
  EXPECT_EQ(e.kind(), cg::errc::memory_fault);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("in kernel `"), HasSubstr("writes_past_dynamic"),
                              HasSubstr("block (0,0,0), thread (0,0,0): a write at offset 260 of dynamic shared "
                                        "memory, past the 256 bytes of dynamic shared memory the launch gave"),
                              HasSubstr("(the access is in `(anonymous namespace)::writes_past_dynamic(int*, int, "
                                        "int)`)")));
  expect_runs_whole();
}

// Given half of what it uses: passed, and the heap was damaged ("double free
// or corruption" at exit).
TEST(SharedMemoryGuards, AKernelGivenHalfTheDynamicSharedMemoryItUsesFails) {
  cg::device_buffer<int> out(2 * 32);
  const cg::error e =
      launch_error([&] { cg::launch(writes_past_dynamic, {dim3(2), dim3(32), 2048}, out.data(), 512, 511); });
  EXPECT_EQ(e.kind(), cg::errc::memory_fault);
  EXPECT_THAT(e.what(), HasSubstr("a write at offset 4092 of dynamic shared memory, past the 2048 bytes"));
  expect_runs_whole();
}

TEST(SharedMemoryGuards, WritesUpTo64KiBPastDynamicSharedMemoryAreCaught) {
  cg::device_buffer<int> out(2 * 32);
  for (const int past : {1024, 2048, 8192, 16383}) {
    const cg::error e =
        launch_error([&] { cg::launch(writes_past_dynamic, {dim3(2), dim3(32), 256}, out.data(), 64, past); });
    EXPECT_EQ(e.kind(), cg::errc::memory_fault) << past;
    EXPECT_THAT(e.what(), HasSubstr("a write at offset " + std::to_string(4 * (64 + past)) +
                                    " of dynamic shared memory, past the 256 bytes"));
  }
  expect_runs_whole();
}

// Thread 0 writes `past` ints beyond the block's __shared__ array of 32.
__global__ void writes_past_static(int* out, int past) {
  __shared__ int tile[32];
  tile[threadIdx.x % 32] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 0) static_cast<volatile int*>(tile)[32 + past] = 7;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x % 32];
}

// Far enough past to cross the rest of the guard spacer's first page, not
// past its 64 KiB of guard: each faults, in every mode. The message names
// the last __shared__ variable before the guard (in this binary of many
// kernels, another kernel's), and the offset from its start.
TEST(SharedMemoryGuards, AWriteFarPastTheLastSharedVariableIsAnErrorNamingIt) {
  cg::device_buffer<int> out(2 * 32);
  for (const int past : {1100, 4096, 16000}) {
    const cg::error e = launch_error([&] { cg::launch(writes_past_static, {dim3(2), dim3(32)}, out.data(), past); });
    EXPECT_EQ(e.kind(), cg::errc::memory_fault) << past;
    EXPECT_THAT(e.what(), AllOf(HasSubstr("writes_past_static"), HasSubstr(", thread (0,0,0): a write at offset "),
                                HasSubstr(" of __shared__ `"),
                                HasSubstr(" bytes; the last __shared__ variable, followed by a guard zone), "),
                                HasSubstr(" bytes past its end"),
                                HasSubstr("(the access is in `(anonymous namespace)::writes_past_static(int*, int)`)")));
  }
  cg::launch(writes_past_static, {dim3(2), dim3(32)}, out.data(), -1);  // within the array: runs whole
  const std::vector<int> got = out.to_host();
  for (int i = 0; i < 64; ++i) ASSERT_EQ(got[i], i % 32 == 31 ? 7 : i % 32);
}

}  // namespace

// The runtime's spacer after the __shared__ variables (src/host/runtime_tls.hpp):
// its first bytes, before the guard's first page, are what a write just past
// the last __shared__ variable reaches.
namespace cohort::detail::host {
extern thread_local constinit std::byte tls_guard_spacer[64 * 1024 + 4096];
}

namespace {

__global__ void writes_just_past_the_shared_variables(int* out) {
  if (threadIdx.x == 0) reinterpret_cast<volatile unsigned char*>(cg::detail::host::tls_guard_spacer)[4] = 7;
  out[threadIdx.x] = 1;
}

TEST(SharedMemoryGuards, UnderMemoryCheckingAWriteJustPastTheLastSharedVariableIsFound) {
  cg::device_buffer<int> out(32);
  {
    const scoped_env check("COHORT_CHECK", "memory");
    const cg::error e =
        launch_error([&] { cg::launch(writes_just_past_the_shared_variables, {dim3(1), dim3(32)}, out.data()); });
    EXPECT_EQ(e.kind(), cg::errc::memory_fault);
    EXPECT_THAT(e.what(), AllOf(HasSubstr("writes_just_past_the_shared_variables"),
                                HasSubstr("block (0,0,0): a write at offset "), HasSubstr(" of __shared__ `"),
                                HasSubstr(" bytes past its end (found when the block ended, COHORT_CHECK=memory)")));
    // Cleared once found: the next launch that writes nothing there passes.
    cg::launch(writes_past_static, {dim3(1), dim3(32)}, out.data(), -1);
  }
  // Without the check the byte lands in the spacer, which holds nothing: no error.
  cg::launch(writes_just_past_the_shared_variables, {dim3(1), dim3(32)}, out.data());
}

}  // namespace
