// COHORT_CHECK=races on race-free kernels that share device memory between
// blocks, each ordered by one of the patterns the checker takes as ordering
// (docs/host-backend.md, "Data races"): a __threadfence() before a flag's
// atomic with the flag read atomically, a grid barrier, a kernel boundary,
// atomics alone, and a block barrier within a block.
#include <cohort/cohort.hpp>

#include <numeric>

#include "race_test_support.hpp"

namespace cg = cohort;

namespace {

constexpr unsigned n = 64;
constexpr unsigned blocks = 4;

// NVIDIA's threadFenceReduction: each block writes its partial sum, fences,
// and counts itself in; the last one sums the partials and resets the count.
__global__ void last_block_sums(const int* in, int* partial, unsigned* arrived, int* out) {
  __shared__ int sums[n];
  __shared__ bool last;
  const unsigned t = threadIdx.x;
  sums[t] = in[blockIdx.x * n + t];
  __syncthreads();
  for (unsigned s = n / 2; s > 0; s >>= 1) {
    if (t < s) sums[t] += sums[t + s];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = sums[0];
    __threadfence();
    last = atomicInc(arrived, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && t == 0) {
    int total = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) total += partial[b];
    *out = total;
    *arrived = 0;
  }
}

// A producer block and a consumer block that spins on the flag.
__global__ void flag_handover(int* data, unsigned* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1u);
  } else {
    while (atomicAdd(flag, 0u) == 0) {
    }
    out[0] = data[0];
  }
}

// Blocks exchange cells across grid.sync(), in rounds.
__global__ void exchange_across_grid_sync(int* cells, int* out, int rounds) {
  cg::grid_group grid = cg::this_grid();
  const unsigned i = blockIdx.x * n + threadIdx.x, all = gridDim.x * n;
  for (int r = 0; r < rounds; ++r) {
    cells[i] = static_cast<int>(i) + r;
    grid.sync();
    out[i] += cells[(i + n) % all];
    grid.sync();
  }
}

// Every block adds to shared bins atomically; the next kernel reads them.
__global__ void histogram(const int* in, unsigned* bins) {
  const unsigned i = blockIdx.x * n + threadIdx.x;
  atomicAdd(&bins[in[i] % 8], 1u);
}
__global__ void read_bins(const unsigned* bins, unsigned* total) {
  if (threadIdx.x == 0 && blockIdx.x == 0)
    for (unsigned b = 0; b < 8; ++b) *total += bins[b];
}

// A block's threads through device memory, ordered by its barrier; a shared
// counter reset, counted atomically and read, each step behind a barrier.
__global__ void device_scratch_with_barrier(const int* in, int* scratch, int* out) {
  __shared__ int count;
  const unsigned t = threadIdx.x, base = blockIdx.x * n;
  scratch[base + t] = in[base + t] * 2;
  if (t == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  out[base + t] = scratch[base + (t + 1) % n];
  __syncthreads();
  if (t == 0) out[base] += count;
}

class RaceFreeDevice : public ::testing::Test {
 protected:
  cohort_test::scoped_env checks{"COHORT_CHECK", "races"};
  std::vector<int> values = [] {
    std::vector<int> v(blocks * n);
    std::iota(v.begin(), v.end(), 1);
    return v;
  }();
  cg::device_buffer<int> in{values};
  cg::device_buffer<int> scratch{std::vector<int>(blocks * n, 0)};
  cg::device_buffer<int> out{std::vector<int>(blocks * n, 0)};
  cg::device_buffer<unsigned> counters{std::vector<unsigned>(16, 0)};
};

TEST_F(RaceFreeDevice, FenceAndCountThenTheLastBlockSums) {
  for (int round = 0; round < 3; ++round)  // the count reset by the last block, kernel after kernel
    cg::launch(last_block_sums, {dim3(blocks), dim3(n)}, in.data(), scratch.data(), counters.data(), out.data());
  EXPECT_EQ(out.to_host()[0], std::accumulate(values.begin(), values.end(), 0));
  EXPECT_EQ(counters.to_host()[0], 0u);
}

TEST_F(RaceFreeDevice, FenceAndFlagBetweenTwoBlocks) {
  cg::launch_cooperative(flag_handover, {dim3(2), dim3(n)}, scratch.data(), counters.data(), out.data());
  EXPECT_EQ(out.to_host()[0], 42);
}

TEST_F(RaceFreeDevice, ExchangeAcrossGridSync) {
  cg::launch_cooperative(exchange_across_grid_sync, {dim3(blocks), dim3(n)}, scratch.data(), out.data(), 3);
  const auto got = out.to_host();
  for (unsigned i = 0; i < blocks * n; ++i)
    EXPECT_EQ(got[i], 3 * static_cast<int>((i + n) % (blocks * n)) + 0 + 1 + 2) << i;
}

TEST_F(RaceFreeDevice, AtomicsFromEveryBlockThenAKernelBoundary) {
  cg::launch(histogram, {dim3(blocks), dim3(n)}, in.data(), counters.data());
  cg::launch(read_bins, {dim3(2), dim3(n)}, counters.data(), counters.data() + 8);
  EXPECT_EQ(counters.to_host()[8], blocks * n);
}

TEST_F(RaceFreeDevice, BlockBarrierOrdersDeviceMemoryWithinTheBlock) {
  cg::launch(device_scratch_with_barrier, {dim3(blocks), dim3(n)}, in.data(), scratch.data(), out.data());
  const auto got = out.to_host();
  for (unsigned b = 0; b < blocks; ++b) EXPECT_EQ(got[b * n + 1], 2 * values[b * n + 2]) << b;
  EXPECT_EQ(got[0], 2 * values[1] + static_cast<int>(n));
}

}  // namespace
