// The program the gdb test (run_gdb_test.py) debugs: a cooperative launch of
// two blocks of 64 threads in which, when block 0's thread 63 stops at the
// line marked BREAK, its block's threads 0-15 have exited, 16-47 wait at the
// block barrier and 48-62 at a warp shuffle, and block 1 runs on another OS
// thread (its thread 63 set the flag that thread 63 of block 0 waited for);
// then a barrier-free kernel, stopped in its thread 5, and a converged warp,
// stopped in its lane 5.
// The markers name the lines the test expects; built with -O0 -g.
#include <cohort/cohort.hpp>

#include <cstdio>
#include <vector>

namespace cg = cohort;

__global__ void parked_kernel(int* out, int* flag) {
  cg::thread_block block = cg::this_thread_block();
  cg::grid_group grid = cg::this_grid();
  auto tile = cg::tiled_partition<32>(block);
  const unsigned rank = block.thread_rank();
  int local_value = static_cast<int>(rank) * 10;
  if (rank < 16) {
    out[grid.thread_rank()] = local_value;
    return;  // EXIT
  }
  if (rank >= 48) {
    if (rank == 63) {
      if (blockIdx.x == 1) atomicExch(flag, 1);
      while (blockIdx.x == 0 && atomicAdd(flag, 0) == 0) {
      }
      local_value += 1;  // BREAK
    }
    local_value += __shfl_sync(0xffff0000u, local_value, 48, 32);  // SHUFFLE
  }
  __syncthreads();  // BARRIER
  out[grid.thread_rank()] = local_value + static_cast<int>(tile.thread_rank());
  grid.sync();
}

// A kernel that never waits: its block's threads run one after another on one
// fiber (a streak), with no per-thread counts stored until one calls in.
__global__ void streak_kernel(int* out) {
  const unsigned rank = threadIdx.x;
  out[rank] = static_cast<int>(rank);  // STREAK
}

// A warp that converges: coalesced_threads() parks each lane until the last
// arrives, which releases them all.
__global__ void converge_kernel(int* out) {
  cg::coalesced_group lanes = cg::coalesced_threads();
  out[threadIdx.x] = static_cast<int>(lanes.thread_rank());  // CONVERGE
}

int main() {
  cg::device_buffer<int> out(128), flag(1);
  cg::fill(flag.data(), 0, 1);
  cg::launch_cooperative(parked_kernel, {dim3(2), dim3(64), 0}, out.data(), flag.data());
  const std::vector<int> got = out.to_host();
  // Thread 48's value is every shuffling lane's source: 480, 481 for block 0's... each block alike.
  for (unsigned b = 0; b < 2; ++b)
    for (unsigned t = 0; t < 64; ++t) {
      const int own = static_cast<int>(t) * 10 + (t == 63 ? 1 : 0);
      const int expected = t < 16   ? own
                           : t < 48 ? own + static_cast<int>(t % 32)
                                    : own + 480 + static_cast<int>(t % 32);
      if (got[b * 64 + t] != expected) {
        std::printf("block %u thread %u: %d, expected %d\n", b, t, got[b * 64 + t], expected);
        return 1;
      }
    }
  cg::launch(streak_kernel, {dim3(1), dim3(64), 0}, out.data());
  const std::vector<int> streak = out.to_host();
  for (unsigned t = 0; t < 64; ++t)
    if (streak[t] != static_cast<int>(t)) {
      std::printf("streak_kernel thread %u: %d\n", t, streak[t]);
      return 1;
    }
  cg::launch(converge_kernel, {dim3(1), dim3(32), 0}, out.data());
  const std::vector<int> ranks = out.to_host();
  for (unsigned t = 0; t < 32; ++t)
    if (ranks[t] != static_cast<int>(t)) {
      std::printf("converge_kernel thread %u: rank %d\n", t, ranks[t]);
      return 1;
    }
  std::puts("parked_kernel: all values as expected");
  return 0;
}
