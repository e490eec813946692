// The virtual device: defaults, overrides by API and environment, occupancy
// as CUDA's calculator computes it, both warp sizes, and the memory API's
// checks.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>
#include <cohort/host/statistics.hpp>
#include <cstdlib>
#include <limits>
#include <string>
#include <thread>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::HasSubstr;

namespace {

__global__ void noop() {}

TEST(VirtualDevice, DefaultsFitTheMachine) {
  const cg::device_properties p = cohort::host::default_virtual_device();
  if (!std::getenv("COHORT_SM_COUNT"))
    EXPECT_EQ(p.multiprocessor_count, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  EXPECT_EQ(p.kind, cg::backend::host);
  EXPECT_EQ(cg::device_count(), 1);
  EXPECT_EQ(cg::get_device_attribute(cg::device_attribute::cooperative_launch), 1);
  EXPECT_EQ(cg::get_device_attribute(cg::device_attribute::max_threads_per_block), 1024);
  EXPECT_EQ(cg::get_device_attribute(cg::device_attribute::max_block_dim_z), 64);
  EXPECT_THROW(cg::get_device_properties(1), cg::error);
  EXPECT_THROW(cg::set_device(3), cg::error);
}

// The device checks are the shared ones (launch/device_queries.hpp), worded with the backend's device count.
TEST(VirtualDevice, DeviceNumbersAreChecked) {
  EXPECT_EQ(cg::get_device(), 0);
  cg::set_device(0);
  const cg::error missing =
      cohort_test::launch_error([] { cg::get_device_attribute(cg::device_attribute::warp_size, 2); });
  EXPECT_EQ(missing.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(missing.what(),
              HasSubstr("get_device_attribute: device 2 does not exist (the host backend has 1 device)"));
  const cg::error negative = cohort_test::launch_error([] { cg::set_device(-1); });
  EXPECT_EQ(negative.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(negative.what(), HasSubstr("set_device: device -1 is negative"));
  EXPECT_THAT(cohort_test::launch_error([] { cg::set_device(1); }).what(),
              HasSubstr("set_device: device 1 does not exist"));
  EXPECT_EQ(cg::get_device_properties(-1).multiprocessor_count, cg::get_device_properties(0).multiprocessor_count);
}

TEST(VirtualDevice, OccupancyArgumentsAreChecked) {
  const cg::error e = cohort_test::launch_error([] { cg::max_active_blocks_per_sm(noop, 0); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), HasSubstr("max_active_blocks_per_sm: block_threads is 0; it must be positive"));
  const std::size_t optin = cg::get_device_properties().shared_memory_per_block_optin;
  const cg::error raise = cohort_test::launch_error([&] { cg::set_max_dynamic_shared_memory(noop, optin + 1); });
  EXPECT_EQ(raise.kind(), cg::errc::shared_memory_limit);
  EXPECT_THAT(raise.what(), HasSubstr("set_max_dynamic_shared_memory: " + std::to_string(optin + 1) +
                                      " bytes of dynamic shared memory plus the kernel's 0 bytes of static shared "
                                      "memory exceed the device's limit of " +
                                      std::to_string(optin) + " bytes per block"));
}

TEST(VirtualDevice, ConfigurationIsValidated) {
  cohort_test::virtual_device_guard guard;
  cg::device_properties p = cohort::host::virtual_device();
  p.warp_size = 48;
  try {
    cohort::host::configure(p);
    FAIL() << "warp size 48 accepted";
  } catch (const cg::error& e) {
    EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
    EXPECT_THAT(e.what(), HasSubstr("warp size 48 must be 32 or 64"));
  }
  p = cohort::host::virtual_device();
  p.multiprocessor_count = 0;
  EXPECT_THROW(cohort::host::configure(p), cg::error);
  p = cohort::host::virtual_device();
  p.total_global_memory = 0;
  EXPECT_THAT(cohort_test::launch_error([&] { cohort::host::configure(p); }).what(),
              HasSubstr("virtual device: the global memory (each virtual device's capacity) must be positive"));
}

// The checks of fields that must fit together are the environment's
// (HostileEnvironmentValuesAreRefused), worded with the description's field names.
TEST(VirtualDevice, FieldsThatMustFitTogetherAreNamedAsFields) {
  cohort_test::virtual_device_guard guard;
  const auto refusal = [](int block_threads, int sm_threads) {
    cg::device_properties p = cohort::host::virtual_device();
    p.warp_size = 32;
    p.max_threads_per_block = block_threads;
    p.max_threads_per_multiprocessor = sm_threads;
    return std::string(cohort_test::launch_error([&] { cohort::host::configure(p); }).what());
  };
  EXPECT_THAT(refusal(0, 2048), HasSubstr("virtual device: max threads per block 0 must be positive"));
  EXPECT_THAT(refusal(100, 2048),
              HasSubstr("virtual device: max threads per block 100 must be a multiple of the warp size (32)"));
  EXPECT_THAT(refusal(1024, 512), HasSubstr("virtual device: max threads per SM 512 must be at least the threads a "
                                            "block may have (1024, max threads per block)"));
}

TEST(VirtualDevice, EnvironmentOverridesAreChecked) {
  {
    const cohort_test::scoped_env warp("COHORT_WARP_SIZE", "64");
    const cohort_test::scoped_env sms("COHORT_SM_COUNT", "7");
    const cg::device_properties p = cohort::host::default_virtual_device();
    EXPECT_EQ(p.warp_size, 64);
    EXPECT_EQ(p.multiprocessor_count, 7);
  }
  {
    const cohort_test::scoped_env warp("COHORT_WARP_SIZE", "48");
    EXPECT_THAT(cohort_test::launch_error([] { cohort::host::default_virtual_device(); }).what(),
                HasSubstr("COHORT_WARP_SIZE=48 is not valid: expected 32 or 64"));
    // The first variable the device reads that is bad is the one named.
    const cohort_test::scoped_env sms("COHORT_SM_COUNT", "many");
    EXPECT_THAT(cohort_test::launch_error([] { cohort::host::default_virtual_device(); }).what(),
                HasSubstr("COHORT_SM_COUNT=many is not valid: expected an integer from 1 to 65536"));
  }
  {
    const cohort_test::scoped_env memory("COHORT_DEVICE_MEMORY", "64K");
    EXPECT_EQ(cohort::host::default_virtual_device().total_global_memory, 65536u);
  }
  const cohort_test::scoped_env memory("COHORT_DEVICE_MEMORY", "lots");
  EXPECT_THAT(cohort_test::launch_error([] { cohort::host::default_virtual_device(); }).what(),
              HasSubstr("COHORT_DEVICE_MEMORY=lots is not valid: expected a byte count such as 65536, 64K or 1M"));
}

// Numbers are decimal digits and nothing else: no sign (strtoull would take
// "-1" for 2^64 - 1), no spaces, nothing that overflows 64 bits or, for byte
// counts, 1 PiB once scaled (a wrapped count was a tiny stack, then a crash).
TEST(VirtualDevice, HostileEnvironmentValuesAreRefused) {
  for (const char* bytes : {"-1", "+64K", " 64K", "64K ", "18446744073709551615", "99999999999999999999",
                            "17179869184G", "1125899906842625", "2048T", "0x100", "64KB"}) {
    SCOPED_TRACE(bytes);
    const cohort_test::scoped_env memory("COHORT_DEVICE_MEMORY", bytes);
    EXPECT_THAT(cohort_test::launch_error([] { cohort::host::default_virtual_device(); }).what(),
                HasSubstr(std::string("COHORT_DEVICE_MEMORY=") + bytes + " is not valid: expected a byte count"));
  }
  {
    const cohort_test::scoped_env memory("COHORT_DEVICE_MEMORY", "1T");
    EXPECT_EQ(cohort::host::default_virtual_device().total_global_memory, std::size_t{1} << 40);
  }
  for (const char* count : {"-1", "+2", " 2", "2 ", "99999999999999999999", "2.0", "0"}) {
    SCOPED_TRACE(count);
    const cohort_test::scoped_env sms("COHORT_SM_COUNT", count);
    EXPECT_THAT(
        cohort_test::launch_error([] { cohort::host::default_virtual_device(); }).what(),
        HasSubstr(std::string("COHORT_SM_COUNT=") + count + " is not valid: expected an integer from 1 to 65536"));
  }
  {
    const cohort_test::scoped_env threads("COHORT_MAX_THREADS_PER_BLOCK", "100");
    EXPECT_THAT(cohort_test::launch_error([] { cohort::host::default_virtual_device(); }).what(),
                HasSubstr("COHORT_MAX_THREADS_PER_BLOCK=100 is not valid: expected a multiple of the warp size (32)"));
  }
  const cohort_test::scoped_env per_sm("COHORT_MAX_THREADS_PER_SM", "512");
  EXPECT_THAT(cohort_test::launch_error([] { cohort::host::default_virtual_device(); }).what(),
              HasSubstr("COHORT_MAX_THREADS_PER_SM=512 is not valid: expected at least the threads a block may have "
                        "(1024, COHORT_MAX_THREADS_PER_BLOCK)"));
}

struct occupancy_case {
  int warp_size, block_threads;
  std::size_t shared;
  int expected_per_sm;
};

class Occupancy : public ::testing::TestWithParam<occupancy_case> {};

// The defaults mirror an sm_90 multiprocessor: 2048 threads, 32 blocks,
// 228 KiB of shared memory with 1 KiB reserved per block.
TEST_P(Occupancy, MatchesCudasCalculator) {
  const occupancy_case c = GetParam();
  cohort_test::virtual_device_guard guard;
  cg::device_properties p = cohort::host::default_virtual_device();
  p.warp_size = c.warp_size;
  p.multiprocessor_count = 3;
  cohort::host::configure(p);
  if (c.shared > p.shared_memory_per_block) cg::set_max_dynamic_shared_memory(noop, c.shared);
  EXPECT_EQ(cg::max_active_blocks_per_sm(noop, c.block_threads, c.shared), c.expected_per_sm);
  EXPECT_EQ(cg::max_cooperative_grid(noop, c.block_threads, c.shared), 3 * c.expected_per_sm);
  cg::set_max_dynamic_shared_memory(noop, p.shared_memory_per_block);
}

INSTANTIATE_TEST_SUITE_P(
    Limits, Occupancy,
    ::testing::Values(occupancy_case{32, 1, 0, 32},  // the block limit
                      occupancy_case{32, 32, 0, 32}, occupancy_case{32, 64, 0, 32},
                      occupancy_case{32, 96, 0, 21},  // 2048 / 96
                      occupancy_case{32, 33, 0, 32},  // two warps each: 2048 / 64 = 32
                      occupancy_case{32, 256, 0, 8}, occupancy_case{32, 1024, 0, 2},
                      occupancy_case{32, 1025, 0, 0},  // not a valid block
                      occupancy_case{64, 33, 0, 32},   // one warp of 64
                      occupancy_case{64, 65, 0, 16},   // two warps of 64
                      occupancy_case{64, 1000, 0, 2},
                      occupancy_case{32, 128, 48 * 1024, 4},  // (48K + 1K) per block in 228K
                      occupancy_case{32, 128, 100 * 1024, 2}, occupancy_case{32, 128, 227 * 1024, 1},
                      occupancy_case{32, 64, 1, 32},           // 1 byte + 1K reserved rounds to 1152: 202 > 32
                      occupancy_case{32, 64, 8 * 1024, 25}));  // 9K per block: 228 / 9 = 25

__global__ void report_warp_size(int* out) { out[threadIdx.x] = warpSize; }

TEST(VirtualDevice, WarpSize64IsWhatKernelsSee) {
  cohort_test::virtual_device_guard guard;
  cg::device_properties p = cohort::host::virtual_device();
  p.warp_size = 64;
  cohort::host::configure(p);
  cg::device_buffer<int> out(128);
  cg::launch(report_warp_size, {dim3(1), dim3(128)}, out.data());
  for (int v : out.to_host()) EXPECT_EQ(v, 64);
  EXPECT_EQ(cg::get_device_attribute(cg::device_attribute::warp_size), 64);
}

__global__ void copy_index(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }
__global__ void sync_once(int* out) {
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

TEST(Scheduler, KernelsThatNeverWaitRunEachBlockOnOneFiber) {
  cg::device_buffer<int> out(64 * 256);
  cg::launch(copy_index, {dim3(64), dim3(256)}, out.data());
  EXPECT_EQ(cohort::host::last_launch_statistics().blocks, 64u);
  EXPECT_EQ(cohort::host::last_launch_statistics().fibers_started, 64u);
  cg::launch(sync_once, {dim3(64), dim3(256)}, out.data());
  EXPECT_EQ(cohort::host::last_launch_statistics().fibers_started, 64u * 256u);
}

// A worker's thread records keep their threadIdx and rank from block to block
// and are rewritten when it meets a new block shape: launches of equal thread
// counts in different shapes, and of other sizes, in turn in one process, each
// checked against a poisoned output.
__global__ void record_position(unsigned* out) {
  const cg::thread_block block = cg::this_thread_block();
  unsigned* mine = out + 4 * (blockIdx.x * block.num_threads() + block.thread_rank());
  mine[0] = threadIdx.x;
  mine[1] = threadIdx.y;
  mine[2] = threadIdx.z;
  mine[3] = block.thread_rank();
}

TEST(Scheduler, ThreadIndicesFollowEveryLaunchsShape) {
  constexpr unsigned blocks = 5, poison = 0xDEADBEEFu;
  for (const dim3 shape : {dim3(64), dim3(8, 8), dim3(4, 4, 4), dim3(2, 32), dim3(64), dim3(1, 1, 64), dim3(33, 3, 3),
                           dim3(7), dim3(2, 32)}) {
    const unsigned threads = shape.x * shape.y * shape.z;
    cg::device_buffer<unsigned> out(4 * threads * blocks);
    out.fill(poison);
    cg::launch(record_position, {dim3(blocks), shape}, out.data());
    const std::vector<unsigned> got = out.to_host();
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned rank = 0; rank < threads; ++rank) {
        const unsigned* t = &got[4 * (b * threads + rank)];
        ASSERT_EQ(t[0], rank % shape.x) << "block (" << shape.x << "," << shape.y << "," << shape.z << ") rank "
                                        << rank;
        ASSERT_EQ(t[1], rank / shape.x % shape.y) << "rank " << rank;
        ASSERT_EQ(t[2], rank / (shape.x * shape.y)) << "rank " << rank;
        ASSERT_EQ(t[3], rank);
      }
  }
}

// Under COHORT_SCHEDULE=shuffle:SEED the order in which threads leave a
// barrier varies with the seed; results of correct code don't.
__global__ void record_release_order(unsigned* order) {
  __shared__ unsigned next;
  if (threadIdx.x == 0) next = 0;
  __syncthreads();
  order[blockIdx.x * blockDim.x + threadIdx.x] = next++;
}

std::vector<unsigned> release_order(const char* schedule) {
  const cohort_test::scoped_env order("COHORT_SCHEDULE", schedule);
  cg::device_buffer<unsigned> order_seen(64);
  cg::launch(record_release_order, {dim3(1), dim3(64)}, order_seen.data());
  return order_seen.to_host();
}

TEST(Scheduler, DeterministicByDefaultShuffledOnRequest) {
  cg::device_buffer<unsigned> order(64);
  cg::launch(record_release_order, {dim3(1), dim3(64)}, order.data());
  const std::vector<unsigned> ordered = order.to_host();  // COHORT_SCHEDULE unset
  EXPECT_EQ(ordered, release_order("ordered"));
  std::vector<unsigned> sorted = ordered;
  std::sort(sorted.begin(), sorted.end());
  const auto shuffled = release_order("shuffle:7");
  EXPECT_EQ(shuffled, release_order("shuffle:7"));
  EXPECT_NE(shuffled, ordered);
  EXPECT_NE(shuffled, release_order("shuffle:8"));
  std::vector<unsigned> shuffled_sorted = shuffled;
  std::sort(shuffled_sorted.begin(), shuffled_sorted.end());
  EXPECT_EQ(shuffled_sorted, sorted);  // every thread ran exactly once
  const cohort_test::scoped_env random("COHORT_SCHEDULE", "random");
  EXPECT_THAT(
      cohort_test::launch_error([&] { cg::launch(record_release_order, {dim3(1), dim3(64)}, order.data()); }).what(),
      HasSubstr("expected `ordered`, `shuffle` or `shuffle:SEED`"));
}

// The seed follows the rules of every COHORT_* number: strtoull took "-1"
// for 2^64 - 1 and saturated what overflows.
TEST(Scheduler, ShuffleSeedsAreDecimalDigitsThatFit) {
  cg::device_buffer<unsigned> order(64);
  for (const char* schedule : {"shuffle:-1", "shuffle:+7", "shuffle: 7", "shuffle:7 ", "shuffle:0x10", "shuffle:",
                               "shuffle:seven", "shuffle:18446744073709551616", "shuffle:99999999999999999999"}) {
    SCOPED_TRACE(schedule);
    const cohort_test::scoped_env env("COHORT_SCHEDULE", schedule);
    const cg::error e =
        cohort_test::launch_error([&] { cg::launch(record_release_order, {dim3(1), dim3(64)}, order.data()); });
    EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
    EXPECT_THAT(e.what(), HasSubstr(std::string("COHORT_SCHEDULE=") + schedule +
                                    " is not valid: expected `ordered`, `shuffle` or `shuffle:SEED`, where SEED is "
                                    "decimal digits from 0 to 18446744073709551615 (2^64 - 1)"));
  }
  EXPECT_EQ(release_order("shuffle:18446744073709551615"), release_order("shuffle:18446744073709551615"));
  EXPECT_EQ(release_order("shuffle:0").size(), 64u);
}

__global__ void count_with_grid_sync(unsigned* counter, unsigned* out, int rounds) {
  const cg::grid_group grid = cg::this_grid();
  for (int r = 0; r < rounds; ++r) {
    if (grid.thread_rank() == 0) ++*counter;
    grid.sync();
    out[grid.thread_rank()] = *counter;
    grid.sync();
  }
}

TEST(Scheduler, CooperativeLaunchesFromTwoHostThreadsRunTogether) {
  auto run = [](unsigned* counter, unsigned* out) {
    cg::launch_cooperative(count_with_grid_sync, {dim3(4), dim3(32)}, counter, out, 300);
  };
  cg::device_buffer<unsigned> c1(1), c2(1), o1(128), o2(128);
  c1.fill(0);
  c2.fill(1000);
  std::thread other(run, c2.data(), o2.data());
  run(c1.data(), o1.data());
  other.join();
  for (unsigned v : o1.to_host()) EXPECT_EQ(v, 300u);
  for (unsigned v : o2.to_host()) EXPECT_EQ(v, 1300u);
}

TEST(Memory, MisuseIsReported) {
  int* p = cg::malloc_device<int>(10);
  std::vector<int> host(11, 1);
  try {
    cg::copy_to_device(p, host.data(), 11);
    ADD_FAILURE() << "overrun accepted";
  } catch (const cg::error& e) {
    EXPECT_THAT(e.what(), HasSubstr("copy_to_device destination: 44 bytes at offset 0 overrun the allocation of 40"));
  }
  try {
    cg::copy_to_host(host.data(), host.data() + 1, 1);
    ADD_FAILURE() << "host pointer accepted as device memory";
  } catch (const cg::error& e) {
    EXPECT_THAT(e.what(), HasSubstr("is not inside any live allocation from cohort::malloc_device"));
  }
  cg::copy_to_device(p + 2, host.data(), 8);
  cg::fill(p, 7, 2);
  std::vector<int> back(10);
  cg::copy_to_host(back.data(), p, 10);
  EXPECT_EQ(back, (std::vector<int>{7, 7, 1, 1, 1, 1, 1, 1, 1, 1}));
  cg::free_device(p);
  try {
    cg::free_device(p);
    ADD_FAILURE() << "double free accepted";
  } catch (const cg::error& e) {
    EXPECT_THAT(e.what(), HasSubstr("not the start of a live allocation"));
  }
}

TEST(Memory, AnAllocationThatOverflowsIsRefused) {
  const std::size_t count = std::numeric_limits<std::size_t>::max() / 8 + 1;
  const cg::error e = cohort_test::launch_error([&] { cg::malloc_device<double>(count); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(),
              HasSubstr("malloc_device: " + std::to_string(count) + " elements of 8 bytes overflow the address space"));
}

TEST(Memory, CopiesOnTheDeviceAreChecked) {
  cg::device_buffer<int> a(std::vector<int>{1, 2, 3, 4}), b(3);
  cg::copy_on_device(b.data(), a.data() + 1, 3);
  EXPECT_EQ(b.to_host(), (std::vector<int>{2, 3, 4}));
  EXPECT_THAT(cohort_test::launch_error([&] { cg::copy_on_device(b.data(), a.data(), 4); }).what(),
              HasSubstr("copy_on_device destination: 16 bytes at offset 0 overrun the allocation of 12"));
  EXPECT_THAT(cohort_test::launch_error([&] { cg::copy_on_device(a.data(), b.data(), 4); }).what(),
              HasSubstr("copy_on_device source: 16 bytes at offset 0 overrun the allocation of 12"));
  EXPECT_THAT(cohort_test::launch_error([&] { cg::fill(b.data() + 1, 0, 3); }).what(),
              HasSubstr("fill destination: 12 bytes at offset 4 overrun the allocation of 12"));
}

TEST(Memory, DeviceBufferRoundTrip) {
  const auto values = cohort_test::random_vector<double>(1000, cohort_test::test_seed(), -1.0, 1.0);
  cg::device_buffer<double> b(values);
  EXPECT_EQ(b.size(), 1000u);
  EXPECT_EQ(b.to_host(), values);
  cg::device_buffer<double> moved = std::move(b);
  EXPECT_EQ(moved.to_host(), values);
  EXPECT_EQ(b.data(), nullptr);
}

}  // namespace
