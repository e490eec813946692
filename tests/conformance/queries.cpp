// Every query of the implicit groups, over 1-D, 2-D and 3-D grids and blocks
// and odd shapes, against values computed on the CPU.
#include <cohort/cohort.hpp>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

struct thread_facts {
  unsigned long long block_rank, block_size, block_group_index[3], block_thread_index[3], block_dim[3], block_legacy;
  unsigned long long grid_rank, grid_block_rank, grid_threads, grid_blocks, grid_dim[3], grid_block_index[3];
  unsigned long long clusters, cluster_rank, cluster_dim[3], cluster_index[3], grid_legacy_size, grid_legacy_dim[3];
  unsigned long long erased_block_rank, erased_block_size, erased_grid_rank, erased_grid_size;
  unsigned long long free_rank, free_size, builtin[6], valid;
};

__device__ void put(unsigned long long* out, dim3 d) {
  out[0] = d.x;
  out[1] = d.y;
  out[2] = d.z;
}

__global__ void record_facts(thread_facts* out) {
  const cg::thread_block block = cg::this_thread_block();
  const cg::grid_group grid = cg::this_grid();
  thread_facts f;
  f.block_rank = block.thread_rank();
  f.block_size = block.num_threads();
  put(f.block_group_index, block.group_index());
  put(f.block_thread_index, block.thread_index());
  put(f.block_dim, block.dim_threads());
  f.block_legacy = block.size() == block.num_threads() && block.group_dim().x == block.dim_threads().x &&
                   block.group_dim().y == block.dim_threads().y && block.group_dim().z == block.dim_threads().z;
  f.grid_rank = grid.thread_rank();
  f.grid_block_rank = grid.block_rank();
  f.grid_threads = grid.num_threads();
  f.grid_blocks = grid.num_blocks();
  put(f.grid_dim, grid.dim_blocks());
  put(f.grid_block_index, grid.block_index());
  f.clusters = grid.num_clusters();
  f.cluster_rank = grid.cluster_rank();
  put(f.cluster_dim, grid.dim_clusters());
  put(f.cluster_index, grid.cluster_index());
  f.grid_legacy_size = grid.size();
  put(f.grid_legacy_dim, grid.group_dim());
  const cg::thread_group erased_block = block;
  const cg::thread_group erased_grid = grid;
  f.erased_block_rank = erased_block.thread_rank();
  f.erased_block_size = erased_block.num_threads();
  f.erased_grid_rank = erased_grid.thread_rank();
  f.erased_grid_size = erased_grid.size();
  f.free_rank = cg::thread_rank(block);
  f.free_size = cg::group_size(grid);
  f.builtin[0] = threadIdx.x + threadIdx.y + threadIdx.z;
  f.builtin[1] = blockIdx.x + blockIdx.y + blockIdx.z;
  f.builtin[2] = blockDim.x * blockDim.y * blockDim.z;
  f.builtin[3] = gridDim.x * gridDim.y * gridDim.z;
  f.builtin[4] = warpSize;
  f.builtin[5] = 0;
  f.valid = grid.is_valid();
  out[f.grid_rank] = f;
}

struct shape {
  dim3 grid, block;
};

void check_shape(const shape& s, bool cooperative) {
  const unsigned long long threads_per_block = cohort_test::volume(s.block);
  const unsigned long long blocks = cohort_test::volume(s.grid);
  const unsigned long long n = threads_per_block * blocks;
  thread_facts poison;
  std::memset(&poison, 0xAB, sizeof poison);
  auto out = cohort_test::poisoned(n, poison);
  const cg::launch_config cfg{s.grid, s.block};
  if (cooperative)
    cg::launch_cooperative(record_facts, cfg, out.data());
  else
    cg::launch(record_facts, cfg, out.data());
  const std::vector<thread_facts> facts = out.to_host();
  const int warp = static_cast<int>(cg::get_device_attribute(cg::device_attribute::warp_size));
  for (unsigned bz = 0; bz < s.grid.z; ++bz)
    for (unsigned by = 0; by < s.grid.y; ++by)
      for (unsigned bx = 0; bx < s.grid.x; ++bx)
        for (unsigned tz = 0; tz < s.block.z; ++tz)
          for (unsigned ty = 0; ty < s.block.y; ++ty)
            for (unsigned tx = 0; tx < s.block.x; ++tx) {
              const unsigned long long brank = (bz * s.grid.y + by) * s.grid.x + bx;
              const unsigned long long trank = (tz * s.block.y + ty) * s.block.x + tx;
              const unsigned long long grank = brank * threads_per_block + trank;
              const thread_facts& f = facts[grank];
              SCOPED_TRACE(::testing::Message()
                           << "block " << bx << ',' << by << ',' << bz << " thread " << tx << ',' << ty << ',' << tz);
              ASSERT_EQ(f.block_rank, trank);
              EXPECT_EQ(f.block_size, threads_per_block);
              EXPECT_EQ(f.block_group_index[0], bx);
              EXPECT_EQ(f.block_group_index[1], by);
              EXPECT_EQ(f.block_group_index[2], bz);
              EXPECT_EQ(f.block_thread_index[0], tx);
              EXPECT_EQ(f.block_thread_index[1], ty);
              EXPECT_EQ(f.block_thread_index[2], tz);
              EXPECT_EQ(f.block_dim[0], s.block.x);
              EXPECT_EQ(f.block_dim[1], s.block.y);
              EXPECT_EQ(f.block_dim[2], s.block.z);
              EXPECT_EQ(f.block_legacy, 1u);
              EXPECT_EQ(f.grid_rank, grank);
              EXPECT_EQ(f.grid_block_rank, brank);
              EXPECT_EQ(f.grid_threads, n);
              EXPECT_EQ(f.grid_blocks, blocks);
              EXPECT_EQ(f.grid_dim[0], s.grid.x);
              EXPECT_EQ(f.grid_dim[1], s.grid.y);
              EXPECT_EQ(f.grid_dim[2], s.grid.z);
              EXPECT_EQ(f.grid_block_index[0], bx);
              EXPECT_EQ(f.grid_block_index[1], by);
              EXPECT_EQ(f.grid_block_index[2], bz);
              EXPECT_EQ(f.clusters, blocks);
              EXPECT_EQ(f.cluster_rank, brank);
              EXPECT_EQ(f.cluster_dim[0], s.grid.x);
              EXPECT_EQ(f.cluster_dim[1], s.grid.y);
              EXPECT_EQ(f.cluster_dim[2], s.grid.z);
              EXPECT_EQ(f.cluster_index[0], bx);
              EXPECT_EQ(f.cluster_index[1], by);
              EXPECT_EQ(f.cluster_index[2], bz);
              EXPECT_EQ(f.grid_legacy_size, n);
              EXPECT_EQ(f.grid_legacy_dim[0], s.grid.x);
              EXPECT_EQ(f.grid_legacy_dim[1], s.grid.y);
              EXPECT_EQ(f.grid_legacy_dim[2], s.grid.z);
              EXPECT_EQ(f.erased_block_rank, trank);
              EXPECT_EQ(f.erased_block_size, threads_per_block);
              EXPECT_EQ(f.erased_grid_rank, grank);
              EXPECT_EQ(f.erased_grid_size, n);
              EXPECT_EQ(f.free_rank, trank);
              EXPECT_EQ(f.free_size, n);
              EXPECT_EQ(f.builtin[0], tx + ty + tz);
              EXPECT_EQ(f.builtin[1], bx + by + bz);
              EXPECT_EQ(f.builtin[2], threads_per_block);
              EXPECT_EQ(f.builtin[3], blocks);
              EXPECT_EQ(f.builtin[4], static_cast<unsigned long long>(warp));
              // A plain launch's grid is not valid on the host; on CUDA the driver may hand a plain launch
              // the workspace of an earlier cooperative launch on its stream, and is_valid() then says true,
              // as NVIDIA's does (docs/cuda-backend.md).
              if (cooperative || cohort::this_backend == cohort::backend::host)
                EXPECT_EQ(f.valid, cooperative ? 1u : 0u);
            }
}

class GroupQueries : public ::testing::TestWithParam<shape> {};

TEST_P(GroupQueries, MatchTheLaunchShape) { check_shape(GetParam(), false); }

TEST_P(GroupQueries, MatchTheLaunchShapeCooperatively) {
  const shape s = GetParam();
  const int capacity = cg::max_cooperative_grid(record_facts, static_cast<int>(cohort_test::volume(s.block)));
  ASSERT_LE(cohort_test::volume(s.grid), static_cast<unsigned long long>(capacity))
      << "every shape here must fit a device of two SMs";
  check_shape(s, true);
}

INSTANTIATE_TEST_SUITE_P(Shapes, GroupQueries,
                         ::testing::Values(shape{dim3(1), dim3(1)}, shape{dim3(3), dim3(1024)},
                                           shape{dim3(7), dim3(64)}, shape{dim3(4, 3), dim3(16, 8)},
                                           shape{dim3(2, 2, 3), dim3(4, 4, 4)}, shape{dim3(3, 1, 2), dim3(33, 3, 3)},
                                           shape{dim3(5, 2), dim3(1, 1, 1)}, shape{dim3(1, 1, 2), dim3(1, 1, 64)},
                                           shape{dim3(2), dim3(1024, 1, 1)}));

}  // namespace
