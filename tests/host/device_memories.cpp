// Each virtual device has its own memory: an allocation belongs to the device
// current when it was made and counts against that device's capacity alone;
// copies between devices check that each pointer is the named device's; and
// every misuse is an error that says which device and allocation.
#include <gmock/gmock.h>

#include <cohort/cohort.hpp>

#include <cstdint>
#include <sstream>
#include <vector>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

using cohort_test::launch_error;

std::string text(const void* p) {
  std::ostringstream s;
  s << p;
  return s.str();
}

// Three virtual devices of 4 KiB each, device 0 current.
class DeviceMemories : public ::testing::Test {
 protected:
  void SetUp() override {
    cg::device_properties p = cohort::host::virtual_device();
    p.total_global_memory = capacity;
    cohort::host::configure(p);
  }
  void TearDown() override { cg::set_device(0); }

  static constexpr std::size_t capacity = 4096;
  cohort_test::scoped_env devices_{"COHORT_DEVICE_COUNT", "3"};
  cohort_test::virtual_device_guard guard_;
};

TEST_F(DeviceMemories, EachDeviceHasItsOwnCapacity) {
  cg::set_device(0);
  char* a = cg::malloc_device<char>(3000);
  EXPECT_EQ(cg::memory_usage(0).free_bytes, capacity - 3000);
  EXPECT_EQ(cg::memory_usage(0).total_bytes, capacity);
  EXPECT_EQ(cg::memory_usage(1).free_bytes, capacity);
  EXPECT_EQ(cg::memory_usage().free_bytes, capacity - 3000);  // the current device's
  const cg::error e = launch_error([] { cg::malloc_device<char>(2000); });
  EXPECT_EQ(e.kind(), cg::errc::out_of_memory);
  EXPECT_THAT(e.what(), HasSubstr("malloc_device: cannot allocate 2000 bytes on device 0: 3000 of its 4096 bytes are "
                                  "in use (each virtual device has its own memory; COHORT_DEVICE_MEMORY sets how "
                                  "much, or allocate on another device with set_device)"));
  cg::set_device(1);
  char* b = cg::malloc_device<char>(2000);  // device 1 has room, whatever device 0 holds
  EXPECT_EQ(cg::memory_usage(1).free_bytes, capacity - 2000);
  EXPECT_EQ(cg::device_of(a), 0);
  EXPECT_EQ(cg::device_of(a + 2999), 0);
  EXPECT_EQ(cg::device_of(b + 10), 1);
  cg::free_device(a);  // from another current device, as CUDA's unified addressing allows
  EXPECT_EQ(cg::memory_usage(0).free_bytes, capacity);
  cg::free_device(b);
  EXPECT_EQ(cg::memory_usage(1).free_bytes, capacity);
}

TEST_F(DeviceMemories, PeerCopiesMoveDataAndCheckTheOwners) {
  const auto values = cohort_test::random_vector<int>(64, cohort_test::test_seed(), -1000, 1000);
  cg::set_device(0);
  cg::device_buffer<int> on0(values);
  cg::set_device(2);
  auto on2 = cohort_test::poisoned<int>(64, -1);
  cg::copy_peer(on2.data(), 2, on0.data(), 0, 64);
  EXPECT_EQ(on2.to_host(), values);
  auto again = cohort_test::poisoned<int>(64, -1);
  cg::copy_on_device(again.data(), on0.data(), 64);  // a plain device copy reaches every device's memory
  EXPECT_EQ(again.to_host(), values);

  cg::error e = launch_error([&] { cg::copy_peer(on2.data(), 1, on0.data(), 0, 64); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), HasSubstr("copy_peer: the destination " + text(on2.data()) +
                                  " belongs to device 2, not device 1; pass the device each allocation was made on "
                                  "(cohort::device_of tells)"));
  e = launch_error([&] { cg::copy_peer(on2.data(), 2, on0.data(), 2, 64); });
  EXPECT_THAT(e.what(), HasSubstr("copy_peer: the source " + text(on0.data()) + " belongs to device 0, not device 2"));
  std::vector<int> host(64);
  e = launch_error([&] { cg::copy_peer(host.data(), 0, on0.data(), 0, 64); });
  EXPECT_THAT(e.what(), HasSubstr("copy_peer: the destination " + text(host.data()) +
                                  " is not inside any live device allocation"));
  e = launch_error([&] { cg::copy_peer(on2.data(), 2, on0.data() + 1, 0, 64); });
  EXPECT_THAT(e.what(), HasSubstr("copy_peer source: 256 bytes at offset 4 overrun the allocation of 256 bytes at " +
                                  text(on0.data()) + " on device 0"));
  e = launch_error([&] { cg::copy_peer(on2.data(), 5, on0.data(), 0, 64); });
  EXPECT_THAT(e.what(), HasSubstr("copy_peer: device 5 does not exist (the host backend has 3 devices)"));
}

TEST_F(DeviceMemories, QueriesAndFreesAreChecked) {
  int local = 0;
  cg::error e = launch_error([&] { cg::device_of(&local); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), HasSubstr("device_of: " + text(&local) +
                                  " is not inside any live device allocation (cohort::malloc_device, cudaMalloc)"));
  e = launch_error([] { cg::memory_usage(7); });
  EXPECT_THAT(e.what(), HasSubstr("memory_usage: device 7 does not exist (the host backend has 3 devices)"));
  cg::set_device(1);
  int* p = cg::malloc_device<int>(10);
  e = launch_error([&] { cg::free_device(p + 1); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), HasSubstr("free_device(" + text(p + 1) +
                                  "): an address 4 bytes inside device 1's allocation "
                                  "of 40 bytes at " +
                                  text(p) + "; free the pointer malloc_device returned"));
  cg::free_device(p);
  e = launch_error([&] { cg::free_device(p); });
  EXPECT_THAT(e.what(), HasSubstr("not the start of a live allocation from cohort::malloc_device (freed twice"));
}

// A kernel on one device may read another device's memory (the host cannot
// tell its accesses apart: docs/outer-levels.md); what it reads is the data.
__global__ void read_other(const int* theirs, int* mine) { mine[threadIdx.x] = theirs[threadIdx.x] * 2; }

TEST_F(DeviceMemories, AKernelReachesAnotherDevicesMemoryUnchecked) {
  cg::set_device(0);
  cg::device_buffer<int> theirs(std::vector<int>{1, 2, 3, 4});
  cg::set_device(1);
  auto mine = cohort_test::poisoned<int>(4, -1);
  cg::launch(read_other, {dim3(1), dim3(4)}, static_cast<const int*>(theirs.data()), mine.data());
  EXPECT_EQ(mine.to_host(), (std::vector<int>{2, 4, 6, 8}));
}

}  // namespace
