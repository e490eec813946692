// A program outside the cohort tree: a cooperative launch with grid.sync().
#include <cohort/cohort.hpp>
#include <cstdio>

namespace cg = cohort;

__global__ void count_blocks(unsigned* counter, unsigned* seen) {
  const cg::grid_group grid = cg::this_grid();
  if (cg::this_thread_block().thread_rank() == 0) atomicAdd(counter, 1u);
  grid.sync();
  seen[grid.thread_rank()] = *counter;
}

int main() {
  const int blocks = cg::max_cooperative_grid(count_blocks, 64);
  cg::device_buffer<unsigned> counter(1), seen(static_cast<std::size_t>(blocks) * 64);
  counter.fill(0);
  cg::launch_cooperative(count_blocks, {dim3(blocks), dim3(64)}, counter.data(), seen.data());
  for (unsigned v : seen.to_host())
    if (v != static_cast<unsigned>(blocks)) {
      std::printf("FAIL: a thread saw %u of %d blocks\n", v, blocks);
      return 1;
    }
  std::printf("PASS: %d blocks\n", blocks);
  return 0;
}
