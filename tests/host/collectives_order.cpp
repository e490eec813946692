// The host's floating-point order (docs/collectives.md): a group's values
// fold in rank order, ((v0 + v1) + v2) + ..., and a grid's block totals in
// block order, whatever the warp size or the schedule. Values are chosen so
// that every other order (a tree, say) gives different bits: 1e8 and then
// ones, each of which a float sum starting from 1e8 drops.
#include <cohort/cohort.hpp>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;

namespace {

__device__ float value_at(unsigned long long rank) { return rank % 100 == 0 ? 1e8f : 1.0f; }

__global__ void float_folds(float* out) {
  const cg::thread_block block = cg::this_thread_block();
  const unsigned t = block.thread_rank(), n = block.size();
  const float v = value_at(t);
  out[t] = cg::reduce(cg::tiled_partition<128>(block), v, cg::plus<float>());
  out[n + t] = cg::reduce(block, v, cg::plus<float>());
  out[2 * n + t] = cg::inclusive_scan(block, v, cg::plus<float>());
}

__global__ void grid_float_fold(float* out) {
  const cg::grid_group grid = cg::this_grid();
  out[grid.thread_rank()] = cg::reduce(grid, value_at(grid.thread_rank() % 256), cg::plus<float>());
}

std::vector<float> run_block(const char* schedule, int warp_size) {
  cohort_test::virtual_device_guard device;
  cg::device_properties p = cohort::host::virtual_device();
  p.warp_size = warp_size;
  cohort::host::configure(p);
  cohort_test::scoped_env env("COHORT_SCHEDULE", schedule);
  cg::device_buffer<float> out(3 * 256);
  cg::launch(float_folds, {dim3(1), dim3(256)}, out.data());
  return out.to_host();
}

TEST(CollectiveOrder, FloatsFoldInRankOrderWhateverTheWarpSizeOrSchedule) {
  const std::vector<float> got = run_block("ordered", 32);
  std::vector<float> expected(3 * 256);
  float tile[2] = {0, 0}, block = 0;
  for (unsigned t = 0; t < 256; ++t) {
    const float v = t % 100 == 0 ? 1e8f : 1.0f;
    tile[t / 128] = t % 128 == 0 ? v : tile[t / 128] + v;
    block = t == 0 ? v : block + v;
    expected[512 + t] = block;
  }
  for (unsigned t = 0; t < 256; ++t) {
    expected[t] = tile[t / 128];
    expected[256 + t] = block;
  }
  EXPECT_EQ(got, expected);
  // Rank order drops every 1.0 that follows a 1e8; a tree keeps them.
  EXPECT_EQ(block, 3e8f);
  std::vector<float> tree(256);
  for (unsigned t = 0; t < 256; ++t) tree[t] = t % 100 == 0 ? 1e8f : 1.0f;
  for (unsigned width = 128; width >= 1; width /= 2)
    for (unsigned t = 0; t < width; ++t) tree[t] += tree[t + width];
  EXPECT_NE(tree[0], block);
  EXPECT_EQ(run_block("ordered", 64), expected);
  EXPECT_EQ(run_block("shuffle:5", 32), expected);
  EXPECT_EQ(run_block("shuffle:11", 64), expected);
}

TEST(CollectiveOrder, AGridFoldsItsBlocksInBlockOrder) {
  const unsigned blocks = 3, threads = 256;
  cg::device_buffer<float> out(blocks * threads);
  cg::launch_cooperative(grid_float_fold, {dim3(blocks), dim3(threads)}, out.data());
  float block_total = 0;
  for (unsigned t = 0; t < threads; ++t) block_total = t == 0 ? 1e8f : block_total + (t % 100 == 0 ? 1e8f : 1.0f);
  const float expected = (block_total + block_total) + block_total;
  for (float v : out.to_host()) ASSERT_EQ(v, expected);
}

}  // namespace
