// A block of 48 threads cut into tiles of 32: NVIDIA's thread_block_tile<32>
// answers size() == num_threads() == 32 in every tile, the partial second
// one included (a constant: usable in static_assert and as an array bound).
// Only the sizes: a collective on a partial tile is undefined on a GPU.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>

namespace cg = cooperative_groups;

__global__ void tile_sizes(int* sizes, int* ranks) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  static_assert(decltype(tile)::num_threads() == 32, "a tile's size is a constant");
  __shared__ int lanes[decltype(tile)::size()];
  if (tile.meta_group_rank() == 0) lanes[tile.thread_rank()] = static_cast<int>(tile.thread_rank());
  block.sync();
  sizes[block.thread_rank()] = static_cast<int>(tile.size() * 1000 + tile.num_threads());
  ranks[block.thread_rank()] = lanes[tile.thread_rank()] + 100 * static_cast<int>(tile.meta_group_rank());
}

int main() {
  const int threads = 48;
  int *sizes = nullptr, *ranks = nullptr;
  if (cudaMallocManaged(&sizes, threads * sizeof(int)) != cudaSuccess ||
      cudaMallocManaged(&ranks, threads * sizeof(int)) != cudaSuccess) {
    std::printf("cudaMallocManaged failed\n");
    return EXIT_FAILURE;
  }
  tile_sizes<<<1, threads>>>(sizes, ranks);
  if (cudaDeviceSynchronize() != cudaSuccess) {
    std::printf("the launch failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return EXIT_FAILURE;
  }
  int failures = 0;
  for (int t = 0; t < threads; ++t)
    if (sizes[t] != 32032) {
      std::printf("thread %d: size()*1000 + num_threads() = %d, expected 32032\n", t, sizes[t]);
      ++failures;
    }
  for (int t = 0; t < threads; ++t)
    if (ranks[t] != t % 32 + 100 * (t / 32)) {
      std::printf("thread %d: rank %d in tile %d, expected %d in %d\n", t, ranks[t] % 100, ranks[t] / 100, t % 32,
                  t / 32);
      ++failures;
    }
  cudaFree(sizes);
  cudaFree(ranks);
  std::printf(failures == 0 ? "Test passed\n" : "Test FAILED\n");
  return failures == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
