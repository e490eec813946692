// Thread-block clusters: every query of cluster_group and the grid's cluster
// queries against the launch shape, distributed shared memory (static and
// dynamic) read around the cluster, the split barrier, and cluster occupancy.
// On sm_90 the same kernels run on hardware clusters.
#include <cohort/cohort.hpp>

#include "test_support.hpp"

namespace cg = cohort;

namespace {

struct cluster_view {
  unsigned block_rank, num_blocks, thread_rank, num_threads;
  dim3 block_index, dim_blocks, dim_threads;
  unsigned long long grid_cluster_rank, grid_num_clusters;
  dim3 grid_cluster_index, grid_dim_clusters;
};

__global__ void record_cluster(cluster_view* out) {
  const cg::cluster_group cluster = cg::this_cluster();
  const cg::grid_group grid = cg::this_grid();
  cluster_view v;
  v.block_rank = cluster.block_rank();
  v.num_blocks = cluster.num_blocks();
  v.thread_rank = cluster.thread_rank();
  v.num_threads = cluster.num_threads();
  v.block_index = cluster.block_index();
  v.dim_blocks = cluster.dim_blocks();
  v.dim_threads = cluster.dim_threads();
  v.grid_cluster_rank = grid.cluster_rank();
  v.grid_num_clusters = grid.num_clusters();
  v.grid_cluster_index = grid.cluster_index();
  v.grid_dim_clusters = grid.dim_clusters();
  out[grid.thread_rank()] = v;
}

std::string text(dim3 d) { return std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z); }

unsigned long long linear(dim3 i, dim3 e) { return (static_cast<unsigned long long>(i.z) * e.y + i.y) * e.x + i.x; }

void check_queries(dim3 grid, dim3 block, dim3 cluster) {
  const unsigned long long threads = cohort_test::volume(grid) * cohort_test::volume(block);
  cluster_view poison{};
  poison.block_rank = ~0u;
  auto out = cohort_test::poisoned<cluster_view>(threads, poison);
  cg::launch_config cfg{grid, block};
  cfg.cluster = cluster;
  cg::launch(record_cluster, cfg, out.data());
  const auto got = out.to_host();
  const dim3 clusters(grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z);
  const unsigned per_block = static_cast<unsigned>(cohort_test::volume(block));
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned t = 0; t < per_block; ++t) {
          const dim3 b(bx, by, bz);
          const unsigned long long g = linear(b, grid) * per_block + t;
          const cluster_view& v = got[g];
          const dim3 in(bx % cluster.x, by % cluster.y, bz % cluster.z);
          const dim3 ci(bx / cluster.x, by / cluster.y, bz / cluster.z);
          const unsigned rank = static_cast<unsigned>(linear(in, cluster));
          SCOPED_TRACE("block (" + std::to_string(bx) + "," + std::to_string(by) + "," + std::to_string(bz) +
                       ") thread " + std::to_string(t));
          ASSERT_EQ(v.block_rank, rank);
          ASSERT_EQ(v.num_blocks, cohort_test::volume(cluster));
          ASSERT_EQ(v.thread_rank, rank * per_block + t);
          ASSERT_EQ(v.num_threads, cohort_test::volume(cluster) * per_block);
          ASSERT_EQ(text(v.block_index), text(in));
          ASSERT_EQ(text(v.dim_blocks), text(cluster));
          ASSERT_EQ(text(v.dim_threads), text(dim3(block.x * cluster.x, block.y * cluster.y, block.z * cluster.z)));
          ASSERT_EQ(v.grid_cluster_rank, linear(ci, clusters));
          ASSERT_EQ(v.grid_num_clusters, cohort_test::volume(clusters));
          ASSERT_EQ(text(v.grid_cluster_index), text(ci));
          ASSERT_EQ(text(v.grid_dim_clusters), text(clusters));
        }
}

TEST(Clusters, QueriesOfALaunchWithoutClusters) { check_queries(dim3(3, 2, 2), dim3(5, 2, 1), dim3(1, 1, 1)); }
TEST(Clusters, QueriesOfOneDimensionalClusters) { check_queries(dim3(8, 1, 1), dim3(64, 1, 1), dim3(4, 1, 1)); }
TEST(Clusters, QueriesOfThreeDimensionalClusters) { check_queries(dim3(4, 6, 2), dim3(7, 3, 1), dim3(2, 3, 1)); }
TEST(Clusters, QueriesOfAClusterSpanningZ) { check_queries(dim3(2, 2, 4), dim3(33, 1, 1), dim3(1, 2, 4)); }

constexpr unsigned ring_threads = 96;

// Each block fills its shared arrays, then reads the next block's (rank + 1
// around the cluster) through map_shared_rank, static and dynamic alike, and
// asks query_shared_rank whose they are.
__global__ void read_neighbour(const int* in, int* out, unsigned* owners) {
  __shared__ int values[ring_threads];
  int* dynamic = cg::dynamic_shared<int>();
  const cg::cluster_group cluster = cg::this_cluster();
  const cg::grid_group grid = cg::this_grid();
  const unsigned t = cg::this_thread_block().thread_rank();
  values[t] = in[grid.thread_rank()];
  dynamic[t] = 3 * in[grid.thread_rank()] + 1;
  cluster.sync();
  const unsigned next = (cluster.block_rank() + 1) % cluster.num_blocks();
  const int* theirs = cluster.map_shared_rank(&values[0], static_cast<int>(next));
  const int* their_dynamic = cluster.map_shared_rank(dynamic, static_cast<int>(next));
  out[grid.thread_rank()] = theirs[ring_threads - 1 - t] + their_dynamic[t];
  owners[2 * grid.thread_rank()] = cluster.query_shared_rank(theirs + t);
  owners[2 * grid.thread_rank() + 1] = cluster.query_shared_rank(&values[t]);
  cluster.sync();  // no block leaves while another reads its shared memory
}

void check_ring(dim3 grid, dim3 cluster) {
  const unsigned long long n = cohort_test::volume(grid) * ring_threads;
  const auto values = cohort_test::random_vector<int>(n, cohort_test::test_seed(), -100000, 100000);
  cg::device_buffer<int> in(values);
  auto out = cohort_test::poisoned<int>(n, 0x7eadbeef);
  auto owners = cohort_test::poisoned<unsigned>(2 * n, ~0u);
  cg::launch_config cfg{grid, dim3(ring_threads), ring_threads * sizeof(int)};
  cfg.cluster = cluster;
  cg::launch(read_neighbour, cfg, in.data(), out.data(), owners.data());
  const auto got = out.to_host();
  const auto who = owners.to_host();
  const unsigned size = static_cast<unsigned>(cohort_test::volume(cluster));
  for (unsigned long long g = 0; g < n; ++g) {
    const unsigned long long b = g / ring_threads;
    const dim3 bi(static_cast<unsigned>(b % grid.x), static_cast<unsigned>(b / grid.x % grid.y),
                  static_cast<unsigned>(b / (grid.x * grid.y)));
    const dim3 in_cluster(bi.x % cluster.x, bi.y % cluster.y, bi.z % cluster.z);
    const unsigned rank = static_cast<unsigned>(linear(in_cluster, cluster)), next = (rank + 1) % size;
    const dim3 ni(bi.x - in_cluster.x + next % cluster.x, bi.y - in_cluster.y + next / cluster.x % cluster.y,
                  bi.z - in_cluster.z + next / (cluster.x * cluster.y));
    const unsigned long long nb = linear(ni, grid), t = g % ring_threads;
    const int expected = values[nb * ring_threads + (ring_threads - 1 - t)] + 3 * values[nb * ring_threads + t] + 1;
    ASSERT_EQ(got[g], expected) << "block " << b << " thread " << t;
    ASSERT_EQ(who[2 * g], next) << "block " << b << " thread " << t;
    ASSERT_EQ(who[2 * g + 1], rank) << "block " << b << " thread " << t;
  }
}

TEST(Clusters, DistributedSharedMemoryAroundPairs) { check_ring(dim3(6), dim3(2)); }
TEST(Clusters, DistributedSharedMemoryAroundEightBlocks) { check_ring(dim3(8, 2), dim3(8)); }
TEST(Clusters, DistributedSharedMemoryAroundTwoDimensionalClusters) { check_ring(dim3(4, 4, 2), dim3(2, 2, 2)); }
TEST(Clusters, DistributedSharedMemoryWithoutClusters) { check_ring(dim3(3), dim3(1)); }

// A cluster through a thread_group&, as NVIDIA's cluster_group is one: its
// ranks and type, and sync() is the cluster barrier (each block publishes in
// its shared memory, every block reads the cluster's after the base's sync).
__device__ void through_base(cg::thread_group& g, unsigned* out) {
  out[0] = static_cast<unsigned>(g.thread_rank());
  out[1] = static_cast<unsigned>(g.num_threads());
  out[2] = g.get_type();
}

__global__ void cluster_as_thread_group(unsigned* out, int rounds) {
  __shared__ unsigned mine;
  cg::cluster_group cluster = cg::this_cluster();
  cg::thread_group& any = cluster;
  const unsigned long long g = cg::this_grid().thread_rank();
  through_base(any, out + g * 4);
  unsigned sum = 0;
  for (int r = 0; r < rounds; ++r) {
    if (cg::this_thread_block().thread_rank() == 0) mine = static_cast<unsigned>(r) * 100 + cluster.block_rank();
    any.sync();
    for (unsigned b = 0; b < cluster.num_blocks(); ++b) sum += *cluster.map_shared_rank(&mine, static_cast<int>(b));
    cg::thread_group copy = cluster;
    copy.sync();  // every block has read `mine` before the next round writes it
  }
  out[g * 4 + 3] = sum;
}

TEST(Clusters, AClusterIsAThreadGroup) {
  const dim3 grid(4, 2), block(48), cluster(2, 2);
  const int rounds = 20;
  const unsigned per_block = 48, blocks = 8, size = 4;
  auto out = cohort_test::poisoned<unsigned>(blocks * per_block * 4, 0xDEADBEEF);
  cg::launch_config cfg{grid, block};
  cfg.cluster = cluster;
  cg::launch(cluster_as_thread_group, cfg, out.data(), rounds);
  const auto got = out.to_host();
  unsigned expected = 0;
  for (int r = 0; r < rounds; ++r)
    for (unsigned b = 0; b < size; ++b) expected += static_cast<unsigned>(r) * 100 + b;
  for (unsigned b = 0; b < blocks; ++b) {
    const dim3 bi(b % grid.x, b / grid.x, 0);
    const unsigned rank = static_cast<unsigned>(linear(dim3(bi.x % cluster.x, bi.y % cluster.y, 0), cluster));
    for (unsigned t = 0; t < per_block; ++t) {
      const unsigned* v = &got[(b * per_block + t) * 4];
      SCOPED_TRACE("block " + std::to_string(b) + " thread " + std::to_string(t));
      ASSERT_EQ(v[0], rank * per_block + t);
      ASSERT_EQ(v[1], size * per_block);
      ASSERT_EQ(v[2], static_cast<unsigned>(cg::cluster_group_id));
      ASSERT_EQ(v[3], expected);
    }
  }
}

// barrier_arrive, independent work, barrier_wait: what each block wrote
// before arriving is visible to every block after its wait.
__global__ void split_barrier_rounds(int* out, int rounds) {
  __shared__ int mine;
  const cg::cluster_group cluster = cg::this_cluster();
  const cg::thread_block block = cg::this_thread_block();
  int sum = 0;
  for (int r = 0; r < rounds; ++r) {
    if (block.thread_rank() == 0) mine = r * 1000 + static_cast<int>(cluster.block_rank());
    auto token = cluster.barrier_arrive();
    cluster.barrier_wait(std::move(token));
    for (unsigned b = 0; b < cluster.num_blocks(); ++b) sum += *cluster.map_shared_rank(&mine, static_cast<int>(b));
    cluster.sync();  // every block has read `mine` before the next round writes it
  }
  out[cg::this_grid().thread_rank()] = sum;
}

TEST(Clusters, SplitBarrierPublishesEachRound) {
  const dim3 grid(8), block(64), cluster(4);
  const int rounds = 50;
  auto out = cohort_test::poisoned<int>(cohort_test::volume(grid) * 64, -1);
  cg::launch_config cfg{grid, block};
  cfg.cluster = cluster;
  cg::launch(split_barrier_rounds, cfg, out.data(), rounds);
  int expected = 0;
  for (int r = 0; r < rounds; ++r)
    for (int b = 0; b < 4; ++b) expected += r * 1000 + b;
  for (int v : out.to_host()) ASSERT_EQ(v, expected);
}

TEST(Clusters, OccupancyCountsWholeClusters) {
  cg::launch_config cfg{dim3(8), dim3(128)};
  cfg.cluster = dim3(2);
  const int pairs = cg::max_active_clusters(split_barrier_rounds, cfg);
  cfg.cluster = dim3(4);
  const int quads = cg::max_active_clusters(split_barrier_rounds, cfg);
  EXPECT_GT(quads, 0);
  EXPECT_GE(pairs, 2 * quads - 1);
  EXPECT_LE(quads * 4, cg::max_cooperative_grid(split_barrier_rounds, 128));
}

// A cooperative grid of clusters: grid.sync() and cluster.sync() in one kernel.
__global__ void grid_of_clusters(int* slots, int* out) {
  __shared__ int mine;
  const cg::cluster_group cluster = cg::this_cluster();
  const cg::grid_group grid = cg::this_grid();
  if (cg::this_thread_block().thread_rank() == 0) {
    mine = static_cast<int>(grid.block_rank());
    slots[grid.block_rank()] = static_cast<int>(grid.block_rank()) * 7;
  }
  cluster.sync();
  const int neighbour =
      *cluster.map_shared_rank(&mine, static_cast<int>((cluster.block_rank() + 1) % cluster.num_blocks()));
  grid.sync();
  const unsigned long long other = grid.num_blocks() - 1 - grid.block_rank();
  out[grid.thread_rank()] = neighbour * 100000 + slots[other];
  cluster.sync();
}

TEST(Clusters, CooperativeGridOfClusters) {
  cg::launch_config cfg{dim3(1), dim3(32)};
  cfg.cluster = dim3(2);
  const int clusters = std::min(cg::max_active_clusters(grid_of_clusters, cfg), 8);
  ASSERT_GT(clusters, 0);
  cfg.grid = dim3(2 * clusters);
  cg::device_buffer<int> slots(2 * clusters);
  auto out = cohort_test::poisoned<int>(2 * clusters * 32, -1);
  cg::launch_cooperative(grid_of_clusters, cfg, slots.data(), out.data());
  const auto got = out.to_host();
  for (int b = 0; b < 2 * clusters; ++b)
    for (int t = 0; t < 32; ++t)
      ASSERT_EQ(got[b * 32 + t], (b ^ 1) * 100000 + (2 * clusters - 1 - b) * 7) << "block " << b;
}

}  // namespace
