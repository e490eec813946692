// The launch API and the device queries on the CUDA runtime: argument
// conversion, both launch forms, configuration errors and their messages, the
// cooperative capacity check, occupancy, properties against the runtime's own.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cohort/cohort.hpp>
#include <string>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

struct record {
  long long i;
  double d;
  unsigned short s;
  int tag;
};

// Parameters of several kinds, each reached through a conversion at the call site.
__global__ void take_converted(record* out, long long i, double d, unsigned short s, record by_value) {
  out[threadIdx.x] = {i, d, s, by_value.tag + static_cast<int>(threadIdx.x)};
}

TEST(Launch, ConvertsArgumentsToTheKernelsParameterTypes) {
  auto out = cohort_test::poisoned<record>(4, record{-1, -1.0, 0, -1});
  const int narrow = 1 << 30;
  const float single = 2.5f;
  const unsigned wraps = 65536u + 7u;  // converts to unsigned short 7
  cg::launch(take_converted, {dim3(1), dim3(4)}, out.data(), narrow, single, static_cast<unsigned short>(wraps),
             record{0, 0, 0, 40});
  const auto got = out.to_host();
  for (int t = 0; t < 4; ++t) {
    EXPECT_EQ(got[t].i, 1ll << 30);
    EXPECT_EQ(got[t].d, 2.5);
    EXPECT_EQ(got[t].s, 7);
    EXPECT_EQ(got[t].tag, 40 + t);
  }
}

__global__ void scale(int* data, int factor, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

TEST(Launch, TemplateFormLaunchesTheSameKernel) {
  const auto values = cohort_test::random_vector<int>(1000, cohort_test::test_seed(), -100, 100);
  cg::device_buffer<int> d(values);
  cg::launch<scale>({dim3(4), dim3(256)}, d.data(), 3, 1000u);
  cg::launch(scale, {dim3(4), dim3(256)}, d.data(), -2, 1000u);
  const auto got = d.to_host();
  for (std::size_t i = 0; i < values.size(); ++i) ASSERT_EQ(got[i], values[i] * -6) << i;
}

TEST(Launch, RunsOnAStreamAndAMovedStream) {
  cg::stream first;
  cg::stream second(std::move(first));
  EXPECT_EQ(first.get(), nullptr);
  EXPECT_NE(second.get(), nullptr);
  cg::device_buffer<int> d(std::vector<int>(256, 5));
  cg::launch(scale, {dim3(1), dim3(256), 0, second.get()}, d.data(), 7, 256u);
  second.synchronize();
  for (int v : d.to_host()) ASSERT_EQ(v, 35);
}

template <class F>
cg::error error_of(F&& f) {
  try {
    f();
  } catch (const cg::error& e) {
    return e;
  }
  ADD_FAILURE() << "no cohort::error was thrown";
  return cg::error(cg::errc::runtime, "");
}

TEST(Launch, RejectsAZeroDimension) {
  const cg::error e = error_of([] { cg::launch(scale, {dim3(0), dim3(32)}, nullptr, 1, 0u); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_NE(std::string(e.what()).find("(0,1,1)"), std::string::npos) << e.what();
}

TEST(Launch, RejectsTooManyThreadsAndNamesTheLimit) {
  const cg::error e = error_of([] { cg::launch(scale, {dim3(1), dim3(33, 33)}, nullptr, 1, 0u); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  const std::string limit = std::to_string(cg::get_device_properties().max_threads_per_block);
  EXPECT_NE(std::string(e.what()).find("1089 threads"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find(limit), std::string::npos) << e.what();
}

TEST(Launch, RejectsABlockDimensionOverItsLimit) {
  const cg::error e = error_of([] { cg::launch(scale, {dim3(1), dim3(1, 1, 65)}, nullptr, 1, 0u); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_NE(std::string(e.what()).find("z = 65"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("64"), std::string::npos) << e.what();
}

__global__ void __launch_bounds__(64) bounded(int* out) { out[threadIdx.x] = 1; }

TEST(Launch, RejectsMoreThreadsThanTheKernelsLaunchBounds) {
  cg::device_buffer<int> out(128);
  const cg::error e = error_of([&] { cg::launch(bounded, {dim3(1), dim3(128)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_NE(std::string(e.what()).find("at most 64 threads"), std::string::npos) << e.what();
  cg::launch(bounded, {dim3(1), dim3(64)}, out.data());  // the refusal left nothing behind
  cg::device_synchronize();
}

__global__ void sum_dynamic(unsigned* out, unsigned words) {
  unsigned* s = cg::dynamic_shared<unsigned>();
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) s[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (unsigned i = 0; i < words; ++i) sum += s[i];
    *out = sum;
  }
}

TEST(Launch, DynamicSharedMemoryOverTheDefaultNeedsOptIn) {
  const std::size_t bytes = 96 * 1024;
  const unsigned words = bytes / sizeof(unsigned);
  cg::device_buffer<unsigned> out(1);
  const cg::error e = error_of([&] { cg::launch(sum_dynamic, {dim3(1), dim3(256), bytes}, out.data(), words); });
  EXPECT_EQ(e.kind(), cg::errc::shared_memory_limit);
  EXPECT_NE(std::string(e.what()).find("set_max_dynamic_shared_memory"), std::string::npos) << e.what();

  cg::set_max_dynamic_shared_memory(sum_dynamic, bytes);
  cg::launch(sum_dynamic, {dim3(1), dim3(256), bytes}, out.data(), words);
  EXPECT_EQ(out.to_host()[0], words * (words - 1) / 2);

  const std::size_t too_much = cg::get_device_properties().shared_memory_per_block_optin + 1;
  const cg::error over = error_of([&] { cg::set_max_dynamic_shared_memory(sum_dynamic, too_much); });
  EXPECT_EQ(over.kind(), cg::errc::shared_memory_limit);
}

__global__ void cooperative_probe(int* out) {
  const cg::grid_group grid = cg::this_grid();
  grid.sync();
  if (grid.thread_rank() == 0) *out = grid.is_valid();
}

TEST(Launch, CooperativeCapacityIsBlocksPerSmTimesSms) {
  const int per_sm = cg::max_active_blocks_per_sm(cooperative_probe, 256);
  ASSERT_GT(per_sm, 0);
  EXPECT_EQ(cg::max_cooperative_grid(cooperative_probe, 256),
            per_sm * cg::get_device_properties().multiprocessor_count);
  int runtime = 0;
  ASSERT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&runtime, cooperative_probe, 256, 0), cudaSuccess);
  EXPECT_EQ(per_sm, runtime);
}

TEST(Launch, ACooperativeGridThatCannotBeResidentIsRefusedBeforeLaunching) {
  const int per_sm = cg::max_active_blocks_per_sm(cooperative_probe, 256);
  const int sms = cg::get_device_properties().multiprocessor_count;
  const unsigned blocks = static_cast<unsigned>(per_sm * sms + 1);
  cg::device_buffer<int> out(1);
  const cg::error e =
      error_of([&] { cg::launch_cooperative(cooperative_probe, {dim3(blocks), dim3(256)}, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::cooperative_too_large);
  EXPECT_EQ(std::string(e.what()),
            cg::detail::cooperative_too_large(blocks, per_sm, sms, 256, 0, cg::detail::cohort_remedy_api));

  // The largest grid that fits runs and synchronizes.
  out.fill(-1);
  cg::launch_cooperative(cooperative_probe, {dim3(blocks - 1), dim3(256)}, out.data());
  EXPECT_EQ(out.to_host()[0], 1);
}

TEST(Launch, MaxActiveBlocksRejectsANonPositiveBlock) {
  const cg::error e = error_of([] { cg::max_active_blocks_per_sm(cooperative_probe, 0); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
}

TEST(Devices, PropertiesMatchTheRuntime) {
  ASSERT_GE(cg::device_count(), 1);
  const int device = cg::get_device();
  cudaDeviceProp p{};
  ASSERT_EQ(cudaGetDeviceProperties(&p, device), cudaSuccess);
  const cg::device_properties d = cg::get_device_properties();
  EXPECT_EQ(d.name, std::string(p.name));
  EXPECT_EQ(d.kind, cg::backend::cuda);
  EXPECT_EQ(d.compute_capability_major, p.major);
  EXPECT_EQ(d.compute_capability_minor, p.minor);
  EXPECT_EQ(d.multiprocessor_count, p.multiProcessorCount);
  EXPECT_EQ(d.reserved_shared_memory_per_block, p.reservedSharedMemPerBlock);
  EXPECT_EQ(d.shared_memory_per_block_optin, p.sharedMemPerBlockOptin);
  EXPECT_EQ(d.total_global_memory, p.totalGlobalMem);
  EXPECT_TRUE(d.cooperative_launch);

  const std::pair<cg::device_attribute, cudaDeviceAttr> pairs[] = {
      {cg::device_attribute::cooperative_launch, cudaDevAttrCooperativeLaunch},
      {cg::device_attribute::multiprocessor_count, cudaDevAttrMultiProcessorCount},
      {cg::device_attribute::warp_size, cudaDevAttrWarpSize},
      {cg::device_attribute::max_threads_per_block, cudaDevAttrMaxThreadsPerBlock},
      {cg::device_attribute::max_block_dim_x, cudaDevAttrMaxBlockDimX},
      {cg::device_attribute::max_block_dim_y, cudaDevAttrMaxBlockDimY},
      {cg::device_attribute::max_block_dim_z, cudaDevAttrMaxBlockDimZ},
      {cg::device_attribute::max_grid_dim_x, cudaDevAttrMaxGridDimX},
      {cg::device_attribute::max_grid_dim_y, cudaDevAttrMaxGridDimY},
      {cg::device_attribute::max_grid_dim_z, cudaDevAttrMaxGridDimZ},
      {cg::device_attribute::max_threads_per_multiprocessor, cudaDevAttrMaxThreadsPerMultiProcessor},
      {cg::device_attribute::max_blocks_per_multiprocessor, cudaDevAttrMaxBlocksPerMultiprocessor},
      {cg::device_attribute::max_shared_memory_per_block, cudaDevAttrMaxSharedMemoryPerBlock},
      {cg::device_attribute::max_shared_memory_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin},
      {cg::device_attribute::max_shared_memory_per_multiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor},
      {cg::device_attribute::compute_capability_major, cudaDevAttrComputeCapabilityMajor},
      {cg::device_attribute::compute_capability_minor, cudaDevAttrComputeCapabilityMinor},
  };
  for (const auto& [ours, theirs] : pairs) {
    int value = 0;
    ASSERT_EQ(cudaDeviceGetAttribute(&value, theirs, device), cudaSuccess);
    EXPECT_EQ(cg::get_device_attribute(ours), value) << "attribute " << static_cast<int>(ours);
    EXPECT_EQ(cg::get_device_attribute(ours, device), value) << "attribute " << static_cast<int>(ours);
  }
}

TEST(Devices, SelectingADeviceThatDoesNotExistIsAnError) {
  const int n = cg::device_count();
  cg::set_device(n - 1);
  cg::set_device(0);
  EXPECT_EQ(cg::get_device(), 0);
  EXPECT_EQ(error_of([&] { cg::set_device(n); }).kind(), cg::errc::invalid_argument);
  EXPECT_EQ(error_of([] { cg::set_device(-3); }).kind(), cg::errc::invalid_argument);
  const cg::error e = error_of([&] { cg::get_device_properties(n); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_NE(std::string(e.what()).find("does not exist"), std::string::npos) << e.what();
}

}  // namespace
