// A histogram through distributed shared memory: the bins are spread over the
// shared memory of a cluster's blocks (block r holds bins [r*B/n, (r+1)*B/n)),
// so a cluster holds n times the bins one block could; every thread adds its
// values to whichever block owns the bin, through map_shared_rank, and each
// block finally adds its slice to the global histogram. Checked against a
// histogram counted on the CPU.
#include <cohort/cohort.hpp>

#include <cstdio>
#include <random>
#include <vector>

#include "common/example_main.hpp"

namespace cg = cohort;

namespace {

constexpr unsigned bins_per_block = 1024;

__global__ void cluster_histogram(const unsigned* values, unsigned long long n, unsigned* histogram) {
  unsigned* mine = cg::dynamic_shared<unsigned>();
  const cg::cluster_group cluster = cg::this_cluster();
  const cg::grid_group grid = cg::this_grid();
  const unsigned t = cg::this_thread_block().thread_rank(), threads = cg::this_thread_block().num_threads();
  for (unsigned b = t; b < bins_per_block; b += threads) mine[b] = 0;
  cluster.sync();  // every block's bins are zero, and every block is running
  const unsigned bins = bins_per_block * cluster.num_blocks();
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.num_threads()) {
    const unsigned bin = values[i] % bins;
    unsigned* owner = cluster.map_shared_rank(mine, static_cast<int>(bin / bins_per_block));
    atomicAdd(owner + bin % bins_per_block, 1u);
  }
  cluster.sync();  // every addition has landed, and no block leaves while others add to its bins
  for (unsigned b = t; b < bins_per_block; b += threads)
    if (mine[b]) atomicAdd(histogram + cluster.block_rank() * bins_per_block + b, mine[b]);
}

}  // namespace

int main(int argc, char** argv) {
  return cohort_kernels::run_example(
      argc, argv,
      {"cluster_histogram: a histogram whose bins live in the distributed shared memory of a cluster",
       "[values] [cluster blocks]  (defaults 1000003 4)",
       {1000003, 4}},
      [](const std::vector<unsigned>& args) {
        const unsigned long long n = args[0];
        const unsigned cluster_blocks = args[1];
        const unsigned bins = bins_per_block * cluster_blocks;
        std::mt19937 rng(20261124);
        std::vector<unsigned> values(n);
        for (auto& v : values) v = rng();
        cg::launch_config cfg{dim3(cluster_blocks), dim3(256), bins_per_block * sizeof(unsigned)};
        cfg.cluster = dim3(cluster_blocks);
        const int clusters = std::max(1, std::min(cg::max_active_clusters(cluster_histogram, cfg), 16));
        cfg.grid = dim3(clusters * cluster_blocks);
        cg::device_buffer<unsigned> in(values), histogram(bins);
        histogram.fill(0);
        cg::launch(cluster_histogram, cfg, in.data(), n, histogram.data());
        std::vector<unsigned> expected(bins, 0);
        for (unsigned v : values) ++expected[v % bins];
        const auto got = histogram.to_host();
        unsigned wrong = 0;
        for (unsigned b = 0; b < bins; ++b) wrong += got[b] != expected[b];
        std::printf("%llu values into %u bins over clusters of %u blocks (%d clusters): %u bins wrong\n", n, bins,
                    cluster_blocks, clusters, wrong);
        return wrong == 0;
      });
}
