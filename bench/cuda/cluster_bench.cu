// Clusters on sm_90, cohort against NVIDIA's cooperative_groups in one
// process: cluster.sync() in a loop, and a cluster-wide sum through
// distributed shared memory (cohort's cg::reduce on the cluster against the
// same done by hand with NVIDIA's API: warp reduce, block total in shared
// memory, cluster.sync(), every block reads the others' totals with
// map_shared_rank). Every co-resident cluster runs at once.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_runtime.h>

#include "rival_timing.hpp"

#include <cohort/cohort.hpp>
#include <cstdio>
#include <string>
#include <vector>

namespace cg = cohort;
namespace ncg = cooperative_groups;

namespace {

using namespace rival_timing;

template <bool Nvidia>
__global__ void cluster_sync_loop(int iterations) {
  if constexpr (Nvidia) {
    const ncg::cluster_group cluster = ncg::this_cluster();
    for (int i = 0; i < iterations; ++i) cluster.sync();
  } else {
    const cg::cluster_group cluster = cg::this_cluster();
    for (int i = 0; i < iterations; ++i) cluster.sync();
  }
}

template <bool Nvidia>
__global__ void cluster_sum_loop(const int* in, int* out, int iterations) {
  const unsigned long long g = cg::this_grid().thread_rank();
  int v = in[g];
  int acc = 0;
  if constexpr (Nvidia) {
    __shared__ int warp_totals[32];
    __shared__ int block_total;
    const ncg::cluster_group cluster = ncg::this_cluster();
    const ncg::thread_block block = ncg::this_thread_block();
    const auto warp = ncg::tiled_partition<32>(block);
    for (int i = 0; i < iterations; ++i) {
      const int w = ncg::reduce(warp, v + i, ncg::plus<int>());
      if (warp.thread_rank() == 0) warp_totals[warp.meta_group_rank()] = w;
      block.sync();
      if (warp.meta_group_rank() == 0) {
        const int x = warp.thread_rank() < warp.meta_group_size() ? warp_totals[warp.thread_rank()] : 0;
        const int b = ncg::reduce(warp, x, ncg::plus<int>());
        if (warp.thread_rank() == 0) block_total = b;
      }
      cluster.sync();
      int total = 0;
      for (unsigned r = 0; r < cluster.num_blocks(); ++r) total += *cluster.map_shared_rank(&block_total, r);
      cluster.sync();  // every block has read the totals before they change
      acc += total;
    }
  } else {
    const cg::cluster_group cluster = cg::this_cluster();
    for (int i = 0; i < iterations; ++i) acc += cg::reduce(cluster, v + i, cg::plus<int>());
  }
  out[g] = acc;
}

row time_sync(unsigned size, unsigned threads) {
  cg::launch_config cfg{dim3(size), dim3(threads)};
  cfg.cluster = dim3(size);
  const unsigned clusters = static_cast<unsigned>(cg::max_active_clusters(cluster_sync_loop<false>, cfg));
  cfg.grid = dim3(clusters * size);
  constexpr int iterations = 10000;
  const auto [ours, theirs] = race([&] { cg::launch(cluster_sync_loop<false>, cfg, iterations); },
                                   [&] { cg::launch(cluster_sync_loop<true>, cfg, iterations); }, iterations, 1e6);
  return {"cluster.sync, clusters of " + std::to_string(size), clusters * size, threads, ours, theirs, "ns"};
}

row time_sum(unsigned size, unsigned threads) {
  cg::launch_config cfg{dim3(size), dim3(threads)};
  cfg.cluster = dim3(size);
  const unsigned clusters = static_cast<unsigned>(cg::max_active_clusters(cluster_sum_loop<false>, cfg));
  cfg.grid = dim3(clusters * size);
  const std::size_t n = static_cast<std::size_t>(clusters) * size * threads;
  std::vector<int> host(n);
  for (std::size_t i = 0; i < n; ++i) host[i] = static_cast<int>(i % 1000) - 500;
  cg::device_buffer<int> in(host), a(n), b(n);
  constexpr int iterations = 2000;
  const auto [ours, theirs] =
      race([&] { cg::launch(cluster_sum_loop<false>, cfg, in.data(), a.data(), iterations); },
           [&] { cg::launch(cluster_sum_loop<true>, cfg, in.data(), b.data(), iterations); }, iterations, 1e6);
  if (a.to_host() != b.to_host()) {
    std::fprintf(stderr, "cluster sum: cohort and NVIDIA disagree\n");
    std::exit(1);
  }
  return {"cluster sum via DSMEM, clusters of " + std::to_string(size), clusters * size, threads, ours, theirs, "ns"};
}

}  // namespace

int main() {
  return main_of("cohort_bench_cuda_cluster", [] {
    const cg::device_properties p = cg::get_device_properties();
    print_device(p);
    std::vector<row> rows;
    for (unsigned size : {2u, 4u, 8u})
      for (unsigned threads : {128u, 1024u}) {
        rows.push_back(time_sync(size, threads));
        print_row(rows.back());
      }
    for (unsigned size : {2u, 4u, 8u})
      for (unsigned threads : {256u, 1024u}) {
        rows.push_back(time_sum(size, threads));
        print_row(rows.back());
      }
    print_table(p, "per operation", rows);
  });
}
