// A cooperative launch of a kernel the loops pass lowered (docs/loops-engine.md,
// "Grid barriers"): the grid runs in phases on the workers, without an OS
// thread or a fiber per block. In each phase every block that has not exited
// and does not wait runs, each on whichever worker takes it, until it arrives
// at its next grid barrier (its block function returns, leaving its resume
// point, threads' frames, kept values and shared memory in the block's record
// here) or exits; when every block has, the barriers that every live block of
// their level reached are complete, and the next phase resumes those blocks. A
// block that exits while others wait leaves their barrier unreachable: the
// launch fails as on fibers. A multi-device launch ("Multi-grid barriers") is
// one record over every grid's blocks, its phases run by one set of workers
// that take any grid's blocks: a grid barrier completes per grid, a
// multi-grid barrier once every block of every grid waits at it. A cluster launch of a kernel with cluster
// barriers ("Cluster barriers") runs the same way per cluster: a worker takes
// a cluster and runs its blocks in phases, from cluster barrier to cluster barrier.
#pragma once

#include <array>
#include <atomic>
#include <barrier>
#include <cstddef>
#include <cstdint>
#include <latch>
#include <memory>
#include <source_location>
#include <vector>

namespace cohort::detail::host {

struct launch_state;

// The levels whose barriers a block function returns at (the pass's resume_level, runtime_abi.hpp).
enum class loops_level : std::uint32_t { grid = 0, cluster = 1, multi_grid = 2 };
inline constexpr std::size_t loops_levels = 3;

struct loops_grid {
  struct free_memory {
    void operator()(void* p) const;
  };
  // What a block keeps while it waits for its level's barrier.
  struct block {
    std::uint32_t resume = 0;                                      // 0: not started; else the barrier it waits at
    bool runs = true;                                              // in this phase
    bool waits = false;                                            // at a barrier not complete yet
    bool exited = false;                                           // in this phase or an earlier one
    std::array<std::uint64_t, loops_levels> phases{};              // barriers arrived at, per level
    std::source_location site;                                     // of the last one
    loops_level level = loops_level::grid;                         // of the last one
    std::unique_ptr<unsigned char[], free_memory> frames;          // its threads' frames
    std::unique_ptr<std::byte[]> kept;                             // its uniform values and static shared memory
    std::unique_ptr<unsigned char[], free_memory> dynamic_shared;  // its own, for every phase
  };
  // Ends a phase of a grid's or a multi-device launch's workers (loops_grid.cpp).
  struct phase_end {
    loops_grid* grid;
    void operator()() noexcept;
  };

  // `grids` grids of `blocks_per_grid` blocks (a multi-device launch's grids
  // have one shape), block b of grid g at g * blocks_per_grid + b.
  loops_grid(unsigned long long blocks_per_grid, unsigned grids = 1);

  // The workers grid `grid`'s launch runs (COHORT_WORKERS shared between the grids).
  unsigned workers_of(unsigned grid) const;

  std::vector<block> blocks;
  std::vector<launch_state*> launches;      // per grid, each set before any worker starts
  unsigned workers;                         // of every grid together
  std::barrier<phase_end> phases;           // every worker
  std::latch registered, finished;          // every grid's launch: known to the workers; done with them
  std::atomic<unsigned long long> next{0};  // the next block to run in this phase; a cluster launch's next cluster
  bool done = false;
};

// run_grid's way for a launch with `launch.grid_phases`: the grid's phases
// (with the other grids' of its multi-device launch), or, in a cluster
// launch, each cluster's.
void run_loops_grid(launch_state& launch);
void run_loops_clusters(launch_state& launch);

// The checks grid_sync and multi_grid_sync make, shared with the loops engine
// (levels.cpp): a grid barrier in a launch that is not cooperative fails it,
// and a multi-grid barrier in one that is not a multi-device launch.
struct block_runtime;
void require_cooperative_grid_barrier(block_runtime& rt, std::source_location where);
void require_multi_grid_barrier(block_runtime& rt, std::source_location where);

}  // namespace cohort::detail::host
