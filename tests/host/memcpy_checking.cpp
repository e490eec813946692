// memcpy_async's diagnostics: alignment promises (always), and the checking
// mode (COHORT_CHECK=memcpy, or memcpy-poison without the page guard): a
// destination read or written before the wait that covers the copy, by the
// issuing block or another; a source written while the copy is in flight;
// copies whose destinations overlap or that read another's destination; and
// the variable's own validation.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using cohort_test::launch_error;
using cohort_test::scoped_env;

// The guard lets an access to another byte of a guarded page through by
// single-stepping it (the trap flag, then SIGTRAP); under ThreadSanitizer,
// which intercepts signals, the trap ends the process, so tests that reach
// that path are skipped there (docs/host-backend.md).
#if defined(__SANITIZE_THREAD__)
#define SKIP_WHERE_SINGLE_STEPPING_IS_UNAVAILABLE() \
  GTEST_SKIP() << "the guard's single-stepping does not run under TSan"
#else
#define SKIP_WHERE_SINGLE_STEPPING_IS_UNAVAILABLE() (void)0
#endif
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

std::string at_line(int line) { return cohort_test::at_line("memcpy_checking.cpp", line); }

// The page guard needs x86-64 Linux (docs/collectives.md); elsewhere only the poison checks run.
#if defined(__x86_64__) && defined(__linux__)
#define REQUIRE_GUARD()
#else
#define REQUIRE_GUARD() GTEST_SKIP() << "memcpy_async's guard is x86-64 Linux only"
#endif

constexpr int aligned_line = __LINE__ + 4;
__global__ void misaligned(const char* src, int which) {
  __align__(16) __shared__ char smem[256];
  const cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem + (which == 0), src + (which == 1), cg::aligned_size_t<16>(which == 2 ? 40 : 64));
  cg::wait(block);
}

TEST(MemcpyDiagnostics, AlignedSizesHoldTheirPromise) {
  cg::device_buffer<char> src(256);
  const char* expected[] = {"the destination 0x", "the source 0x", "the size, 40 bytes, is not a multiple of 16"};
  for (int which = 0; which < 3; ++which) {
    const cg::error e = launch_error([&] { cg::launch(misaligned, {dim3(1), dim3(32)}, src.data(), which); });
    EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
    EXPECT_THAT(e.what(), AllOf(HasSubstr("memcpy_async with an alignment of 16 bytes (aligned_size_t<16>): "),
                                HasSubstr(expected[which]), HasSubstr(at_line(aligned_line)),
                                HasSubstr("in kernel `(anonymous namespace)::misaligned(char const*, int)`")));
  }
}

// A page and a half of shared memory, so that whole pages of the destination
// are the destination's alone.
constexpr unsigned big = 6144;

constexpr int early_read_line = __LINE__ + 5;
__global__ void reads_before_the_wait(const int* src, int* out, int write) {
  __shared__ int smem[big];
  const cg::thread_block block = cg::this_thread_block();
  const unsigned at = big / 2 + threadIdx.x * 4;
  cg::memcpy_async(block, smem, src, sizeof smem);
  if (write)
    smem[at] = 1;
  else
    out[threadIdx.x] = smem[at];
  cg::wait(block);
}

TEST(MemcpyChecking, ADestinationReadBeforeTheWait) {
  REQUIRE_GUARD();
  scoped_env check("COHORT_CHECK", "memcpy");
  cg::device_buffer<int> src(big), out(64);
  const cg::error e =
      launch_error([&] { cg::launch(reads_before_the_wait, {dim3(1), dim3(64)}, src.data(), out.data(), 0); });
  EXPECT_EQ(e.kind(), cg::errc::copy_in_flight);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr("the destination of memcpy_async at "), HasSubstr(at_line(early_read_line)),
                    HasSubstr("(24576 bytes to 0x"),
                    HasSubstr(") was read (byte 12288) before the wait that covers the "
                              "copy, in kernel `(anonymous namespace)::reads_before_the_wait"),
                    HasSubstr("block (0,0,0), thread (0,0,0); a copy's destination is the copy's alone until a "
                              "wait(group) or wait_prior<N>(group)")));
}

TEST(MemcpyChecking, ADestinationWrittenBeforeTheWait) {
  REQUIRE_GUARD();
  scoped_env check("COHORT_CHECK", "memcpy");
  cg::device_buffer<int> src(big), out(64);
  const cg::error e =
      launch_error([&] { cg::launch(reads_before_the_wait, {dim3(1), dim3(64)}, src.data(), out.data(), 1); });
  EXPECT_EQ(e.kind(), cg::errc::copy_in_flight);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr(at_line(early_read_line)), HasSubstr("was written (byte 12288) before the wait")));
}

// Without the guard, the write shows at the wait: the poison is gone.
constexpr int wait_line = __LINE__ + 7;
__global__ void writes_before_the_wait(const int* src) {
  __shared__ int smem[64];
  const cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem, src, sizeof smem);
  if (threadIdx.x == 3) smem[10] = 1;
  block.sync();
  cg::wait(block);
}

TEST(MemcpyChecking, AWriteCaughtAtTheWaitWithoutTheGuard) {
  scoped_env check("COHORT_CHECK", "memcpy-poison");
  cg::device_buffer<int> src(64);
  const cg::error e = launch_error([&] { cg::launch(writes_before_the_wait, {dim3(1), dim3(32)}, src.data()); });
  EXPECT_EQ(e.kind(), cg::errc::copy_in_flight);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("the destination of memcpy_async at "), HasSubstr("(256 bytes to 0x"),
                              HasSubstr(") was written (byte 40) before the wait that covers the copy (at "),
                              HasSubstr(at_line(wait_line))));
}

// Reads see the poison, never the data, until the wait.
__global__ void reads_poison(const int* src, int* out) {
  __shared__ int smem[32];
  const cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem, src, sizeof smem);
  out[threadIdx.x] = smem[threadIdx.x];
  cg::wait(block);
  out[32 + threadIdx.x] = smem[threadIdx.x];
}

TEST(MemcpyChecking, AnEarlyReadSeesThePoisonWithoutTheGuard) {
  scoped_env check("COHORT_CHECK", "memcpy-poison");
  std::vector<int> values(32, 7);
  cg::device_buffer<int> src(values), out(64);
  cg::launch(reads_poison, {dim3(1), dim3(32)}, src.data(), out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(static_cast<unsigned>(got[t]), 0xCBCBCBCBu);
    EXPECT_EQ(got[32 + t], 7);
  }
}

constexpr int source_copy_line = __LINE__ + 5;
constexpr int source_wait_line = __LINE__ + 6;
__global__ void writes_the_source(int* src) {
  __shared__ int smem[64];
  const cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem, src, sizeof smem);
  if (threadIdx.x == 0) src[5] = -1;
  cg::wait(block);
}

TEST(MemcpyChecking, ASourceWrittenWhileTheCopyIsInFlight) {
  SKIP_WHERE_SINGLE_STEPPING_IS_UNAVAILABLE();
  scoped_env check("COHORT_CHECK", "memcpy");
  cg::device_buffer<int> src(64);
  src.fill(3);
  const cg::error e = launch_error([&] { cg::launch(writes_the_source, {dim3(1), dim3(32)}, src.data()); });
  EXPECT_EQ(e.kind(), cg::errc::copy_in_flight);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("the source of memcpy_async at "), HasSubstr(at_line(source_copy_line)),
                              HasSubstr("was written (byte 20) while the copy was in flight, before the wait that "
                                        "covers it (at "),
                              HasSubstr(at_line(source_wait_line))));
}

constexpr int first_copy_line = __LINE__ + 5;
constexpr int second_copy_line = __LINE__ + 5;
__global__ void overlapping_copies(const int* src, int source_of_second) {
  __shared__ int smem[128];
  const cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem, src, 64 * sizeof(int));
  cg::memcpy_async(block, source_of_second ? smem + 64 : smem + 32, source_of_second ? smem : src, 64 * sizeof(int));
  cg::wait(block);
}

TEST(MemcpyChecking, CopiesWhoseDestinationsOverlap) {
  SKIP_WHERE_SINGLE_STEPPING_IS_UNAVAILABLE();
  scoped_env check("COHORT_CHECK", "memcpy");
  cg::device_buffer<int> src(64);
  const cg::error e = launch_error([&] { cg::launch(overlapping_copies, {dim3(1), dim3(32)}, src.data(), 0); });
  EXPECT_EQ(e.kind(), cg::errc::copy_in_flight);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("memcpy_async at "), HasSubstr(at_line(second_copy_line)),
                              HasSubstr("writes to bytes that memcpy_async at "), HasSubstr(at_line(first_copy_line)),
                              HasSubstr("(256 bytes to 0x"), HasSubstr("is still copying to")));
}

TEST(MemcpyChecking, ACopyFromTheDestinationOfAnother) {
  SKIP_WHERE_SINGLE_STEPPING_IS_UNAVAILABLE();
  scoped_env check("COHORT_CHECK", "memcpy");
  cg::device_buffer<int> src(64);
  const cg::error e = launch_error([&] { cg::launch(overlapping_copies, {dim3(1), dim3(32)}, src.data(), 1); });
  EXPECT_EQ(e.kind(), cg::errc::copy_in_flight);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr(at_line(second_copy_line)), HasSubstr("reads from the destination of memcpy_async at "),
                    HasSubstr(at_line(first_copy_line)), HasSubstr("which is still in flight")));
}

// Block 1 copies into global memory and waits at the grid barrier with the
// copy in flight; block 0 reads the destination after the barrier.
constexpr int global_copy_line = __LINE__ + 5;
__global__ void another_blocks_destination(const int* src, int* dst, int* out) {
  const cg::grid_group grid = cg::this_grid();
  const cg::thread_block block = cg::this_thread_block();
  constexpr unsigned n = 4096;
  if (grid.block_rank() == 1) cg::memcpy_async(block, dst, src, n * sizeof(int));
  grid.sync();
  if (grid.block_rank() == 0) out[threadIdx.x] = dst[n / 2 + threadIdx.x];
  grid.sync();
  if (grid.block_rank() == 1) cg::wait(block);
}

TEST(MemcpyChecking, ADestinationAnotherBlockIsCopyingTo) {
  SKIP_WHERE_SINGLE_STEPPING_IS_UNAVAILABLE();
  REQUIRE_GUARD();
  scoped_env check("COHORT_CHECK", "memcpy");
  cg::device_buffer<int> src(4096), dst(4096), out(32);
  const cg::error e = launch_error([&] {
    cg::launch_cooperative(another_blocks_destination, {dim3(2), dim3(32)}, src.data(), dst.data(), out.data());
  });
  EXPECT_EQ(e.kind(), cg::errc::copy_in_flight);
  EXPECT_THAT(e.what(),
              AllOf(HasSubstr(at_line(global_copy_line)), HasSubstr("was read (byte 8192)"),
                    HasSubstr("which block (1,0,0) issued, in kernel"), HasSubstr("block (0,0,0), thread (0,0,0)")));
}

__global__ void copies_and_waits(const int* src, int* out) {
  __shared__ int smem[64];
  const cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, smem, src, sizeof smem);
  cg::wait(block);
  out[threadIdx.x] = smem[threadIdx.x];
}

TEST(MemcpyChecking, TheVariableTakesNamedModesOnly) {
  cg::device_buffer<int> src(64), out(64);  // an allocation refuses a bad COHORT_CHECK too (it reads `memory`)
  scoped_env check("COHORT_CHECK", "memcpy-everything");
  const cg::error e = launch_error([&] { cg::launch(copies_and_waits, {dim3(1), dim3(64)}, src.data(), out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), HasSubstr("COHORT_CHECK=memcpy-everything is not valid: expected a comma-separated list of "
                                  "`memory`, `races`, `memcpy`, `memcpy-poison` or `none`"));
}

// This binary is not built for race checking: the mode refuses rather than
// report nothing (tests/races has the mode itself).
TEST(RaceChecking, RefusesAProgramNotBuiltForIt) {
  scoped_env check("COHORT_CHECK", "races");
  cg::device_buffer<int> src(64), out(64);
  const cg::error e = launch_error([&] { cg::launch(copies_and_waits, {dim3(1), dim3(64)}, src.data(), out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), HasSubstr("COHORT_CHECK=races, but no code of this program is built for race checking, so "
                                  "kernel `(anonymous namespace)::copies_and_waits(int const*, int*)` would be "
                                  "checked for nothing: build the kernels' target with cohort::race_instrumentation "
                                  "(CMake), or the program with cohort-cxx --races"));
}

}  // namespace
