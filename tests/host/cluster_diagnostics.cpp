// Every diagnostic of thread-block clusters on the host, triggered, with its
// message asserted: invalid cluster shapes, a cluster barrier that a block of
// the cluster can never reach, and distributed shared memory used wrongly.
#include <gmock/gmock.h>

#include <atomic>
#include <chrono>
#include <cohort/cohort.hpp>
#include <thread>

#include "host_support.hpp"
#include "test_support.hpp"

namespace cg = cohort;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace {

std::string at_line(int line) { return cohort_test::at_line("cluster_diagnostics.cpp", line); }
using cohort_test::launch_error;

__global__ void empty_kernel() {}

cg::error cluster_launch_error(dim3 grid, dim3 block, dim3 cluster) {
  cg::launch_config cfg{grid, block};
  cfg.cluster = cluster;
  return launch_error([&] { cg::launch(empty_kernel, cfg); });
}

TEST(ClusterDiagnostics, ClusterWithAZeroDimension) {
  const cg::error e = cluster_launch_error(dim3(4), dim3(32), dim3(2, 0, 1));
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_THAT(e.what(), HasSubstr("cluster dimensions (2,0,1) contain a zero; every dimension must be at least 1"));
}

TEST(ClusterDiagnostics, GridThatIsNotWholeClusters) {
  const cg::error e = cluster_launch_error(dim3(4, 3), dim3(32), dim3(2, 2));
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_THAT(e.what(), HasSubstr("grid (4,3,1) is not a whole number of clusters (2,2,1): grid dimension y = 3 is not "
                                  "a multiple of cluster dimension y = 2"));
}

TEST(ClusterDiagnostics, ClusterOfMoreThanEightBlocks) {
  const cg::error e = cluster_launch_error(dim3(16), dim3(32), dim3(16));
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_THAT(e.what(), HasSubstr("cluster (16,1,1) has 16 blocks, more than the 8 blocks a cluster may have"));
}

TEST(ClusterDiagnostics, ClusterLargerThanTheDeviceHolds) {
  cohort_test::virtual_device_guard restore;
  cg::device_properties small = cg::host::virtual_device();
  small.multiprocessor_count = 1;
  small.max_blocks_per_multiprocessor = 2;
  cg::host::configure(small);
  const cg::error e = cluster_launch_error(dim3(4), dim3(32), dim3(4));
  EXPECT_EQ(e.kind(), cg::errc::invalid_configuration);
  EXPECT_THAT(e.what(), HasSubstr("cluster (4,1,1) of 4 blocks cannot be co-resident: the device holds at most 2 "
                                  "blocks of 32 threads at once"));
}

constexpr int unreached_line = __LINE__ + 5;
__global__ void one_block_skips_the_cluster_barrier(int* out) {
  const cg::cluster_group cluster = cg::this_cluster();
  cluster.sync();
  if (cluster.block_rank() == 2) return;
  cluster.sync();
  out[cg::this_grid().block_rank()] = 1;
}

// One cluster, so that one block exits: with two, either cluster's stuck
// barrier may be reported first (seen at COHORT_WORKERS=64, block (6,0,0)).
TEST(ClusterDiagnostics, ClusterBarrierThatAnExitedBlockCanNeverReach) {
  cg::device_buffer<int> out(4);
  cg::launch_config cfg{dim3(4), dim3(16)};
  cfg.cluster = dim3(4);
  const cg::error e = launch_error([&] { cg::launch(one_block_skips_the_cluster_barrier, cfg, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::unreachable_barrier);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("cluster barrier at"), HasSubstr(at_line(unreached_line)),
                              HasSubstr("can never complete: block (2,0,0) of the same cluster exited after arriving "
                                        "at 1 cluster barrier(s)"),
                              HasSubstr("one_block_skips_the_cluster_barrier(int*)")));
}

std::atomic<bool> first_block_gone{false};

constexpr int map_exited_line = __LINE__ + 10;
__global__ void read_a_block_that_has_exited(int* out) {
  __shared__ int value;
  const cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 0) {
    first_block_gone.store(true);
    return;
  }
  while (!first_block_gone.load()) std::this_thread::yield();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // block 0's OS thread records its exit
  out[0] = *cluster.map_shared_rank(&value, 0);
}

TEST(ClusterDiagnostics, SharedMemoryOfABlockThatHasExited) {
  first_block_gone = false;
  cg::device_buffer<int> out(1);
  cg::launch_config cfg{dim3(2), dim3(1)};
  cfg.cluster = dim3(2);
  const cg::error e = launch_error([&] { cg::launch(read_a_block_that_has_exited, cfg, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("cluster_group::map_shared_rank at"), HasSubstr(at_line(map_exited_line)),
                              HasSubstr("block (0,0,0) of the cluster has exited, and its shared memory with it"),
                              HasSubstr("cluster.sync() before a block exits")));
}

constexpr int bad_rank_line = __LINE__ + 4;
__global__ void map_a_rank_outside_the_cluster(int* out) {
  __shared__ int value;
  value = 1;
  out[0] = *cg::this_cluster().map_shared_rank(&value, 4);
}

TEST(ClusterDiagnostics, RankOutsideTheCluster) {
  cg::device_buffer<int> out(1);
  cg::launch_config cfg{dim3(4), dim3(1)};
  cfg.cluster = dim3(4);
  const cg::error e = launch_error([&] { cg::launch(map_a_rank_outside_the_cluster, cfg, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), AllOf(HasSubstr(at_line(bad_rank_line)),
                              HasSubstr("rank 4 is outside the cluster's 4 block(s); pass a rank in [0, "
                                        "cluster.num_blocks())")));
}

int not_shared = 0;

constexpr int not_shared_line = __LINE__ + 1;
__global__ void map_global_memory(int* out) { out[0] = *cg::this_cluster().map_shared_rank(&not_shared, 1); }

TEST(ClusterDiagnostics, AddressOutsideSharedMemory) {
  cg::device_buffer<int> out(1);
  cg::launch_config cfg{dim3(2), dim3(1)};
  cfg.cluster = dim3(2);
  const cg::error e = launch_error([&] { cg::launch(map_global_memory, cfg, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), AllOf(HasSubstr(at_line(not_shared_line)),
                              HasSubstr("is not in the calling block's shared memory; pass the address of a "
                                        "__shared__ variable or of dynamic shared memory")));
}

constexpr int query_line = __LINE__ + 1;
__global__ void query_global_memory(unsigned* out) { out[0] = cg::this_cluster().query_shared_rank(&not_shared); }

TEST(ClusterDiagnostics, QueryOfAnAddressOutsideSharedMemory) {
  cg::device_buffer<unsigned> out(1);
  cg::launch_config cfg{dim3(2), dim3(1)};
  cfg.cluster = dim3(2);
  const cg::error e = launch_error([&] { cg::launch(query_global_memory, cfg, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::invalid_argument);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("cluster_group::query_shared_rank at"), HasSubstr(at_line(query_line)),
                              HasSubstr("is not in the shared memory of any block of the cluster")));
}

}  // namespace

namespace {

constexpr int first_site_line = __LINE__ + 5;
constexpr int second_site_line = __LINE__ + 6;
__global__ void two_cluster_barriers_in_one_block() {
  const cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x < 4)
    cluster.sync();
  else
    cluster.sync();
}

TEST(ClusterDiagnostics, ThreadsOfABlockAtDifferentClusterBarriers) {
  cg::launch_config cfg{dim3(2), dim3(8)};
  cfg.cluster = dim3(2);
  const cg::error e = launch_error([&] { cg::launch(two_cluster_barriers_in_one_block, cfg); });
  EXPECT_EQ(e.kind(), cg::errc::barrier_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("wait at different cluster barrier call sites"),
                              HasSubstr(at_line(first_site_line)), HasSubstr(at_line(second_site_line))));
}

constexpr int reduce_line = __LINE__ + 5;
constexpr int sync_line = __LINE__ + 6;
__global__ void blocks_in_different_cluster_collectives(int* out) {
  const cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 0)
    out[0] = cg::reduce(cluster, 1, cg::plus<int>());
  else
    cluster.sync();
}

TEST(ClusterDiagnostics, BlocksOfAClusterInDifferentCollectives) {
  cg::device_buffer<int> out(1);
  cg::launch_config cfg{dim3(2), dim3(4)};
  cfg.cluster = dim3(2);
  const cg::error e = launch_error([&] { cg::launch(blocks_in_different_cluster_collectives, cfg, out.data()); });
  EXPECT_EQ(e.kind(), cg::errc::collective_mismatch);
  EXPECT_THAT(e.what(), AllOf(HasSubstr("blocks of one cluster call different cluster collectives"),
                              HasSubstr("cluster collective `reduce` at"), HasSubstr(at_line(reduce_line)),
                              HasSubstr("in `cluster.sync` at"), HasSubstr(at_line(sync_line))));
}

}  // namespace
