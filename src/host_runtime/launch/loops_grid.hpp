// A cooperative launch of a kernel the loops pass lowered (docs/loops-engine.md,
// "Grid barriers"): the grid runs in phases on the workers, without an OS
// thread or a fiber per block. In each phase every block that has not exited
// runs, each on whichever worker takes it, until it arrives at its next grid
// barrier (its block function returns, leaving its resume point, threads'
// frames, kept values and shared memory in the block's record here) or exits;
// when every block has, the next phase resumes them. A block that exits while
// others arrive leaves their barrier unreachable: the launch fails as on
// fibers. A cluster launch of a kernel with cluster barriers ("Cluster
// barriers") runs the same way per cluster: a worker takes a cluster and runs
// its blocks in phases, from cluster barrier to cluster barrier.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <source_location>
#include <vector>

namespace cohort::detail::host {

struct launch_state;

// The levels whose barriers a block function returns at (the pass's resume_level, runtime_abi.hpp).
enum class loops_level : std::uint32_t { grid = 0, cluster = 1 };

struct loops_grid {
  struct free_memory {
    void operator()(void* p) const;
  };
  // What a block keeps while it waits for the grid.
  struct block {
    std::uint32_t resume = 0;                                      // 0: not started; else the grid barrier it waits at
    bool arrived = false;                                          // in this phase
    bool exited = false;                                           // in an earlier phase
    std::uint64_t phases = 0;                                      // grid barriers arrived at
    std::source_location site;                                     // of the last one
    loops_level level = loops_level::grid;                         // of the last one
    std::unique_ptr<unsigned char[], free_memory> frames;          // its threads' frames
    std::unique_ptr<std::byte[]> kept;                             // its uniform values and static shared memory
    std::unique_ptr<unsigned char[], free_memory> dynamic_shared;  // its own, for every phase
  };

  explicit loops_grid(unsigned long long blocks) : blocks(blocks) {}

  std::vector<block> blocks;
  std::atomic<unsigned long long> next{0};  // the next block to run in this phase
  bool done = false;
};

// run_grid's way for a launch with `launch.grid_phases`: the grid's phases,
// or, in a cluster launch, each cluster's.
void run_loops_grid(launch_state& launch);
void run_loops_clusters(launch_state& launch);

// grid_arrive's check, shared with the loops engine (levels.cpp): a grid
// barrier in a launch that is not cooperative fails it.
struct block_runtime;
void require_cooperative_grid_barrier(block_runtime& rt, std::source_location where);

}  // namespace cohort::detail::host
