#include "common/grid_sync_probe.hpp"

__global__ void grid_sync_probe_kernel(unsigned* stamps, unsigned* mismatches, unsigned rounds) {
  const cohort::grid_group grid = cohort::this_grid();
  const cohort::thread_block block = cohort::this_thread_block();
  for (unsigned round = 1; round <= rounds; ++round) {
    if (block.thread_rank() == 0) stamps[grid.block_rank()] = round;
    grid.sync();
    for (unsigned long long b = block.thread_rank(); b < grid.num_blocks(); b += block.size())
      if (stamps[b] != round) atomicAdd(mismatches, 1u);
    grid.sync();  // no block stamps the next round before every block has checked this one
  }
}

namespace cohort_kernels {

probe_capacity grid_sync_probe_capacity(unsigned threads) {
  return {cohort::max_active_blocks_per_sm(grid_sync_probe_kernel, static_cast<int>(threads)),
          cohort::max_cooperative_grid(grid_sync_probe_kernel, static_cast<int>(threads))};
}

unsigned run_grid_sync_probe(unsigned blocks, unsigned threads, unsigned rounds, cohort::stream_t stream) {
  cohort::device_buffer<unsigned> stamps(blocks);
  cohort::device_buffer<unsigned> mismatches(1);
  stamps.fill(0);
  mismatches.fill(0);
  cohort::launch_cooperative<grid_sync_probe_kernel>({blocks, threads, 0, stream}, stamps.data(), mismatches.data(),
                                                     rounds);
  return mismatches.to_host()[0];
}

}  // namespace cohort_kernels
