// cohort's cluster_group against NVIDIA's, element by element, in the same
// kernel on sm_90 hardware clusters: every query, the grid's cluster queries,
// map_shared_rank's addresses and query_shared_rank's answers.
#include <cooperative_groups.h>
#include <gtest/gtest.h>

#include <cohort/cohort.hpp>
#include <string>

#include "test_support.hpp"

namespace cg = cohort;
namespace ncg = cooperative_groups;

namespace {

constexpr int fields = 26;

__device__ void put(unsigned long long*& p, dim3 d) {
  *p++ = d.x;
  *p++ = d.y;
  *p++ = d.z;
}

// One row per thread: cohort's answers, then NVIDIA's.
template <bool Nvidia>
__device__ void record(unsigned long long* p, int* shared) {
  const auto cluster = [] {
    if constexpr (Nvidia)
      return ncg::this_cluster();
    else
      return cg::this_cluster();
  }();
  const auto grid = [] {
    if constexpr (Nvidia)
      return ncg::this_grid();
    else
      return cg::this_grid();
  }();
  *p++ = cluster.block_rank();
  *p++ = cluster.num_blocks();
  *p++ = cluster.thread_rank();
  *p++ = cluster.num_threads();
  *p++ = cluster.size();
  put(p, cluster.block_index());
  put(p, cluster.dim_blocks());
  put(p, cluster.dim_threads());
  *p++ = grid.cluster_rank();
  *p++ = grid.num_clusters();
  put(p, grid.cluster_index());
  put(p, grid.dim_clusters());
  const unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
  int* mapped = cluster.map_shared_rank(shared, next);
  *p++ = reinterpret_cast<unsigned long long>(mapped);
  *p++ = cluster.query_shared_rank(mapped);
  *p++ = cluster.query_shared_rank(shared + threadIdx.x % 4);
}

__global__ void both(unsigned long long* out) {
  __shared__ int shared[4];
  const unsigned long long t = cg::this_grid().thread_rank();
  record<false>(out + t * 2 * fields, shared);
  record<true>(out + t * 2 * fields + fields, shared);
  cg::this_cluster().sync();
}

void compare(dim3 grid, dim3 block, dim3 cluster) {
  const unsigned long long threads = cohort_test::volume(grid) * cohort_test::volume(block);
  auto out = cohort_test::poisoned<unsigned long long>(threads * 2 * fields, ~0ull);
  cg::launch_config cfg{grid, block};
  cfg.cluster = cluster;
  cg::launch(both, cfg, out.data());
  cg::device_synchronize();
  const auto got = out.to_host();
  for (unsigned long long t = 0; t < threads; ++t)
    for (int f = 0; f < fields; ++f)
      ASSERT_EQ(got[t * 2 * fields + f], got[t * 2 * fields + fields + f]) << "thread " << t << " field " << f;
}

TEST(ClusterOracle, WithoutClusters) { compare(dim3(3, 2), dim3(40), dim3(1)); }
TEST(ClusterOracle, PairsOfBlocks) { compare(dim3(8), dim3(64), dim3(2)); }
TEST(ClusterOracle, EightBlocks) { compare(dim3(16, 2), dim3(96), dim3(8)); }
TEST(ClusterOracle, ThreeDimensional) { compare(dim3(4, 6, 2), dim3(7, 3, 1), dim3(2, 3, 1)); }
TEST(ClusterOracle, SpanningZ) { compare(dim3(2, 2, 4), dim3(33), dim3(1, 2, 4)); }

}  // namespace
