// COHORT_CHECK=races on race-free kernels: the fixed forms of the planted
// races (planted_races.cpp) and the orderings the checker must see — block
// barriers, split barriers, __syncwarp, tile syncs, warp collectives, a grid
// barrier — each run checked, with no report and the right result.
#include <cohort/cohort.hpp>

#include <numeric>

#include "race_test_support.hpp"

namespace cg = cohort;

namespace {

constexpr unsigned n = 128;

__global__ void tree_reduction(const int* in, int* out) {
  __shared__ int partial[n];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * n + t];
  __syncthreads();
  for (unsigned s = n / 2; s > 0; s >>= 1) {
    if (t < s) partial[t] += partial[t + s];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}

// The warp-synchronous reduction as CUDA 9 and later write it: a __syncwarp()
// between every read and the write that follows it.
__global__ void warp_reduction_with_syncwarp(const int* in, int* out) {
  __shared__ int sums[n];
  const unsigned t = threadIdx.x;
  sums[t] = in[t];
  __syncthreads();
  for (unsigned s = n / 2; s >= 32; s >>= 1) {
    if (t < s) sums[t] += sums[t + s];
    __syncthreads();
  }
  if (t < 32) {
    int v = sums[t];
    for (unsigned s = 16; s > 0; s >>= 1) {
      v += sums[t + s];
      __syncwarp();
      sums[t] = v;
      __syncwarp();
    }
  }
  if (t == 0) *out = sums[0];
}

constexpr unsigned tile_side = 8;
__global__ void tiled_matmul(const float* a, const float* b, float* c, unsigned side) {
  __shared__ float as[tile_side][tile_side];
  __shared__ float bs[tile_side][tile_side];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned row = blockIdx.y * tile_side + ty, col = blockIdx.x * tile_side + tx;
  float sum = 0;
  for (unsigned k0 = 0; k0 < side; k0 += tile_side) {
    as[ty][tx] = a[row * side + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * side + col];
    __syncthreads();
    for (unsigned k = 0; k < tile_side; ++k) sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[row * side + col] = sum;
}

// Lanes exchange within their tile of 16, ordered by the tile's sync; a
// shuffle reduction, a vote and a broadcast through one __shared__ word
// written before a barrier and read by every thread after it.
__global__ void tiles_and_collectives(const int* in, int* out) {
  __shared__ int values[n];
  __shared__ int total;
  const cg::thread_block block = cg::this_thread_block();
  const auto tile = cg::tiled_partition<16>(block);
  const unsigned t = threadIdx.x;
  values[t] = in[t];
  tile.sync();
  int v = values[t ^ 1];
  tile.sync();
  values[t] = v + 1;
  const auto warp = cg::tiled_partition<32>(block);
  const int warp_sum = cg::reduce(warp, values[t], cg::plus<int>());
  if (t == 0) total = 0;
  __syncthreads();
  if (warp.thread_rank() == 0) atomicAdd(&total, warp_sum);  // atomics are not races
  __syncthreads();
  out[t] = total;
}

// A split barrier used as meant: the arrival, independent work, the wait,
// then the read.
__global__ void split_barrier_rotation(const int* in, int* out, int rounds) {
  __shared__ int slots[n];
  const cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank();
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    slots[t] = in[t] + r;
    auto token = block.barrier_arrive();
    acc += r;
    block.barrier_wait(std::move(token));
    acc += slots[(t + r + 1) % n];
    __syncthreads();
  }
  out[t] = acc;
}

// A cooperative grid: each block's threads exchange through shared memory
// across grid.sync(), which orders them as a block barrier does.
__global__ void across_grid_sync(const int* in, int* out) {
  __shared__ int mine[n];
  cg::grid_group grid = cg::this_grid();
  const unsigned t = threadIdx.x;
  mine[t] = in[t];
  grid.sync();
  out[blockIdx.x * n + t] = mine[n - 1 - t];
}

// Each half of a warp syncs by itself and its lanes read within their half.
__global__ void syncwarp_halves(const int* in, int* out) {
  __shared__ int lanes[32];
  const unsigned t = threadIdx.x;
  lanes[t] = in[t];
  __syncwarp(t < 16 ? 0x0000FFFFu : 0xFFFF0000u);
  out[t] = lanes[t ^ 8];
}

class RaceFree : public ::testing::Test {
 protected:
  cohort_test::scoped_env checks{"COHORT_CHECK", "races"};
  std::vector<int> values = [] {
    std::vector<int> v(4 * n);
    std::iota(v.begin(), v.end(), 1);
    return v;
  }();
  cg::device_buffer<int> in{values};
  cg::device_buffer<int> out{std::vector<int>(4 * n, 0)};
};

TEST_F(RaceFree, TreeReduction) {
  cg::launch(tree_reduction, {dim3(4), dim3(n)}, in.data(), out.data());
  const auto got = out.to_host();
  for (unsigned b = 0; b < 4; ++b)
    EXPECT_EQ(got[b], std::accumulate(values.begin() + b * n, values.begin() + (b + 1) * n, 0));
}

TEST_F(RaceFree, WarpReductionWithSyncwarp) {
  cg::launch(warp_reduction_with_syncwarp, {dim3(1), dim3(n)}, in.data(), out.data());
  EXPECT_EQ(out.to_host()[0], std::accumulate(values.begin(), values.begin() + n, 0));
}

TEST_F(RaceFree, SyncwarpOfHalfAWarp) {
  cg::launch(syncwarp_halves, {dim3(1), dim3(32)}, in.data(), out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < 32; ++t) EXPECT_EQ(got[t], values[t ^ 8]) << t;
}

TEST_F(RaceFree, TiledMatmul) {
  const unsigned side = 2 * tile_side;
  cg::device_buffer<float> a(std::vector<float>(side * side, 1.0f)), b(std::vector<float>(side * side, 2.0f)),
      c(std::vector<float>(side * side, 0.0f));
  cg::launch(tiled_matmul, {dim3(2, 2), dim3(tile_side, tile_side)}, a.data(), b.data(), c.data(), side);
  for (float v : c.to_host()) EXPECT_EQ(v, 2.0f * side);
}

TEST_F(RaceFree, TilesWarpCollectivesAndSharedAtomics) {
  cg::launch(tiles_and_collectives, {dim3(1), dim3(n)}, in.data(), out.data());
  // Every value moved to its pair's slot and grew by one: the total is the inputs' plus n.
  EXPECT_EQ(out.to_host()[0], std::accumulate(values.begin(), values.begin() + n, 0) + static_cast<int>(n));
}

TEST_F(RaceFree, SplitBarrier) {
  cg::launch(split_barrier_rotation, {dim3(1), dim3(n)}, in.data(), out.data(), 3);
  const auto got = out.to_host();
  for (unsigned t = 0; t < n; ++t) {
    int want = 0;
    for (int r = 0; r < 3; ++r) want += r + values[(t + r + 1) % n] + r;
    EXPECT_EQ(got[t], want) << t;
  }
}

TEST_F(RaceFree, AcrossAGridBarrier) {
  cg::launch_cooperative(across_grid_sync, {dim3(2), dim3(n)}, in.data(), out.data());
  const auto got = out.to_host();
  for (unsigned t = 0; t < n; ++t) EXPECT_EQ(got[t], values[n - 1 - t]);
}

// Checking combines with the other modes.
TEST_F(RaceFree, WithMemoryChecksToo) {
  cohort_test::scoped_env both{"COHORT_CHECK", "races,memory"};
  cg::launch(tree_reduction, {dim3(4), dim3(n)}, in.data(), out.data());
  EXPECT_EQ(out.to_host()[0], std::accumulate(values.begin(), values.begin() + n, 0));
}

// Kernels built for race checking run as any other without the mode: their
// barriers and warp collectives pass the runtime's hooks, which do nothing.
TEST(RaceChecking, InstrumentedKernelsRunUncheckedWithoutTheMode) {
  std::vector<int> values(n);
  std::iota(values.begin(), values.end(), 1);
  cg::device_buffer<int> in(values), out(std::vector<int>(n, 0));
  cg::launch(tiles_and_collectives, {dim3(1), dim3(n)}, in.data(), out.data());
  EXPECT_EQ(out.to_host()[0], std::accumulate(values.begin(), values.end(), 0) + static_cast<int>(n));
}

}  // namespace
