// cohort's collectives on a cluster_group (beyond NVIDIA): reduce, both scans
// and invoke_one_broadcast over every thread of a cluster, in cluster
// thread-rank order, checked element by element against a sequential fold.
#include <cohort/cohort.hpp>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

struct cluster_results {
  int sum, inclusive, exclusive, leader;
  unsigned maximum;
};

__global__ void cluster_collectives(const int* in, cluster_results* out) {
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned long long g = cg::this_grid().thread_rank();
  const int v = in[g];
  cluster_results r;
  r.sum = cg::reduce(cluster, v, cg::plus<int>());
  r.maximum = cg::reduce(cluster, static_cast<unsigned>(v) & 0xffffu, cg::greater<unsigned>());
  r.inclusive = cg::inclusive_scan(cluster, v);
  r.exclusive = cg::exclusive_scan(cluster, v, cg::plus<int>());
  r.leader = cg::invoke_one_broadcast(cluster, [&] { return v * 3 + static_cast<int>(cluster.block_rank()); });
  out[g] = r;
}

void check(dim3 grid, dim3 block, dim3 shape) {
  const unsigned long long n = cohort_test::volume(grid) * cohort_test::volume(block);
  const auto values = cohort_test::random_vector<int>(n, cohort_test::test_seed(), -1000, 1000);
  cg::device_buffer<int> in(values);
  auto out = cohort_test::poisoned<cluster_results>(n, cluster_results{-1, -1, -1, -1, ~0u});
  cg::launch_config cfg{grid, block};
  cfg.cluster = shape;
  cg::launch(cluster_collectives, cfg, in.data(), out.data());
  const auto got = out.to_host();
  const unsigned per_block = static_cast<unsigned>(cohort_test::volume(block));
  const unsigned per_cluster = per_block * static_cast<unsigned>(cohort_test::volume(shape));
  // The threads of each cluster in cluster thread-rank order: block rank in the cluster, then thread rank.
  const dim3 clusters(grid.x / shape.x, grid.y / shape.y, grid.z / shape.z);
  for (unsigned long long k = 0; k < cohort_test::volume(clusters); ++k) {
    const dim3 ci(static_cast<unsigned>(k % clusters.x), static_cast<unsigned>(k / clusters.x % clusters.y),
                  static_cast<unsigned>(k / (clusters.x * clusters.y)));
    std::vector<unsigned long long> members;
    for (unsigned r = 0; r < cohort_test::volume(shape); ++r) {
      const dim3 b(ci.x * shape.x + r % shape.x, ci.y * shape.y + r / shape.x % shape.y,
                   ci.z * shape.z + r / (shape.x * shape.y));
      const unsigned long long linear = (static_cast<unsigned long long>(b.z) * grid.y + b.y) * grid.x + b.x;
      for (unsigned t = 0; t < per_block; ++t) members.push_back(linear * per_block + t);
    }
    int total = 0;
    unsigned maximum = 0;
    for (auto m : members) {
      total += values[m];
      maximum = std::max(maximum, static_cast<unsigned>(values[m]) & 0xffffu);
    }
    int prefix = 0;
    for (unsigned i = 0; i < per_cluster; ++i) {
      const cluster_results& r = got[members[i]];
      SCOPED_TRACE("cluster " + std::to_string(k) + " rank " + std::to_string(i));
      ASSERT_EQ(r.sum, total);
      ASSERT_EQ(r.maximum, maximum);
      ASSERT_EQ(r.exclusive, prefix);
      prefix += values[members[i]];
      ASSERT_EQ(r.inclusive, prefix);
      ASSERT_EQ(r.leader, values[members[0]] * 3);
    }
  }
}

TEST(ClusterCollectives, PairsOfBlocks) { check(dim3(6), dim3(128), dim3(2)); }
TEST(ClusterCollectives, EightBlocksOfOddSize) { check(dim3(8, 2), dim3(33, 3), dim3(8)); }
TEST(ClusterCollectives, ThreeDimensionalClusters) { check(dim3(2, 2, 4), dim3(64), dim3(2, 1, 2)); }
TEST(ClusterCollectives, WithoutClusters) { check(dim3(5), dim3(96), dim3(1)); }

}  // namespace
