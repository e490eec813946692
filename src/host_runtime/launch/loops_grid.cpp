// The grid's phases for kernels the loops pass lowered, a cluster launch's per
// cluster (loops_grid.hpp), and the block services their block functions call:
// cohort_loops_begin_grid_block and cohort_loops_level_arrive
// (tools/loops-pass/grid_resume.hpp).
#include "launch/loops_grid.hpp"

#include <algorithm>
#include <barrier>
#include <cstdlib>
#include <cstring>
#include <new>
#include <ranges>
#include <sstream>
#include <vector>

#include "cohort/detail/host/algorithms/parallel_parts.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/cluster_state.hpp"
#include "launch/launch_state.hpp"
#include "launch/loops_block.hpp"
#include "scheduling/worker.hpp"
#include "scheduling/worker_pool.hpp"
#include "synchronization/barriers.hpp"

namespace cohort::detail::host {

void loops_grid::free_memory::operator()(void* p) const { std::free(p); }

namespace {

// The fiber engine's words for a grid or cluster barrier a block can never
// reach (barriers.cpp's unreachable_barrier): `waiting` waits at it, `exited`
// left after `phases` of them.
std::string unreachable_level_barrier(const launch_state& launch, unsigned long long waiting,
                                      const loops_grid::block& waiter, unsigned long long exited,
                                      std::uint64_t phases) {
  const bool cluster = waiter.level == loops_level::cluster;
  const barrier_level& level = cluster ? cluster_level : grid_level;
  std::ostringstream s;
  s << level.name << " barrier at " << site(waiter.site) << " in kernel `" << kernel_name(launch.entry->kernel)
    << "`, block " << index_text(block_index_of(launch, waiting)) << ", thread " << index_text({0, 0, 0})
    << " can never complete: block " << index_text(block_index_of(launch, exited))
    << (cluster ? " of the same cluster" : "") << " exited after arriving at " << phases << " " << level.name
    << " barrier(s); " << level.reach << " must reach every " << level.sync_op.name << "()";
  return s.str();
}

// Every block of `members` (the grid's, or a cluster's) has run in the phase:
// whether another phase follows. Not where every block exited or the launch
// failed, nor where a block exited while others arrived: it left their barrier
// unreachable, and the launch fails.
template <class Members>
bool another_phase(launch_state& launch, loops_grid& grid, const Members& members) {
  if (launch.aborted.load(std::memory_order_acquire)) return false;
  constexpr unsigned long long none = ~0ull;
  unsigned long long waiting = none, exited = none;
  for (const unsigned long long i : members) {
    loops_grid::block& b = grid.blocks[i];
    if (b.exited) continue;
    if (b.arrived) {
      if (waiting == none) waiting = i;
    } else {
      b.exited = true;
      b.frames.reset(), b.kept.reset(), b.dynamic_shared.reset();
      if (exited == none) exited = i;
    }
  }
  if (waiting == none) return false;
  if (exited == none) return true;
  launch.fail(errc::unreachable_barrier,
              unreachable_level_barrier(launch, waiting, grid.blocks[waiting], exited, grid.blocks[exited].phases),
              waiting);
  return false;
}

// Every worker has run its blocks of the grid's phase: the next phase, or the end.
void end_phase(launch_state& launch, loops_grid& grid) {
  grid.next.store(0, std::memory_order_relaxed);
  grid.done = !another_phase(launch, grid, std::views::iota(0ull, static_cast<unsigned long long>(grid.blocks.size())));
}

}  // namespace

void run_loops_grid(launch_state& launch) {
  loops_grid& grid = *launch.grid_phases;
  const auto workers = static_cast<unsigned>(std::min<unsigned long long>(worker_threads(), launch.block_count));
  std::barrier phase_end(workers, [&launch, &grid]() noexcept { end_phase(launch, grid); });
  run_on_threads(workers, [&launch, &grid, &phase_end](unsigned) {
    std::size_t fibers = 0;
    do {
      for (unsigned long long i = grid.next.fetch_add(1, std::memory_order_relaxed);
           i < launch.block_count && !launch.aborted.load(std::memory_order_relaxed);
           i = grid.next.fetch_add(1, std::memory_order_relaxed))
        if (!grid.blocks[i].exited) fibers += run_blocks(launch, i, i + 1);
      phase_end.arrive_and_wait();  // its completion (end_phase) orders every block's memory before the next phase
    } while (!grid.done);
    launch.fibers_started.fetch_add(fibers, std::memory_order_relaxed);
    trim_worker_stacks();
  });
}

// Each worker takes whole clusters: a cluster's blocks run one after another
// on it, phase by phase, so its blocks' memory is ordered without a barrier
// between workers, and clusters go on independently.
void run_loops_clusters(launch_state& launch) {
  loops_grid& grid = *launch.grid_phases;
  const cluster_launch& clusters = launch.clusters;
  const auto workers = static_cast<unsigned>(std::min<unsigned long long>(worker_threads(), clusters.count));
  run_on_threads(workers, [&launch, &grid, &clusters](unsigned) {
    std::size_t fibers = 0;
    std::vector<unsigned long long> members(clusters.size);
    for (unsigned long long k = grid.next.fetch_add(1, std::memory_order_relaxed);
         k < clusters.count && !launch.aborted.load(std::memory_order_relaxed);
         k = grid.next.fetch_add(1, std::memory_order_relaxed)) {
      for (unsigned rank = 0; rank < clusters.size; ++rank) members[rank] = block_of_cluster(launch, k, rank);
      do {
        for (const unsigned long long i : members)
          if (!grid.blocks[i].exited) fibers += run_blocks(launch, i, i + 1);
      } while (another_phase(launch, grid, members));
    }
    launch.fibers_started.fetch_add(fibers, std::memory_order_relaxed);
    trim_worker_stacks();
  });
}

}  // namespace cohort::detail::host

using namespace cohort::detail::host;

extern "C" {

// The block's own frames and kept store, where the launch runs in phases;
// otherwise (a launch that is not cooperative) the worker's, the kept store zeros.
loops_block* cohort_loops_begin_grid_block(std::uint64_t frame_bytes, std::uint64_t kept_bytes) {
  auto& rt = static_cast<block_runtime&>(*current_block);
  loops_grid* grid = rt.launch->grid_phases;
  if (grid == nullptr) return cohort_loops_begin_unphased_block(frame_bytes, kept_bytes);
  loops_block* record = cohort_loops_begin_block(0);
  loops_grid::block& b = grid->blocks[rt.linear];
  if (b.resume == 0) {
    const auto aligned = [](std::size_t bytes) {
      void* p = std::aligned_alloc(64, std::max<std::size_t>((bytes + 63) / 64 * 64, 64));
      if (p == nullptr) throw std::bad_alloc();
      return p;
    };
    b.frames.reset(static_cast<unsigned char*>(aligned(rt.thread_count * frame_bytes)));
    b.dynamic_shared.reset(static_cast<unsigned char*>(aligned(rt.launch->config.dynamic_shared_bytes)));
    b.kept = std::make_unique<std::byte[]>(kept_bytes);  // zeros
  }
  // The block's own dynamic shared memory, at one address in every phase: a
  // pointer into it (cg::dynamic_shared) may be kept across a grid barrier.
  rt.dynamic_shared = b.dynamic_shared.get();
  b.arrived = false;
  record->frames = b.frames.get();
  record->frame_bytes = frame_bytes;
  record->grid_resume = b.resume;
  record->kept_store = b.kept.get();
  return record;
}

// Every live thread of the block stopped at point `point`, a barrier of
// `level`: the block arrives, and its block function returns next. In a launch
// without clusters a cluster is its one block (as on fibers, levels.cpp), whose
// barrier every thread's stopping there completes: the block goes on (false).
bool cohort_loops_level_arrive(loops_block*, std::uint32_t point, std::uint32_t level, std::source_location where) {
  auto& rt = static_cast<block_runtime&>(*current_block);
  current_thread = rt.threads;  // the block's first thread arrives first, as on fibers
  const auto at = static_cast<loops_level>(level);
  if (at == loops_level::grid)
    require_cooperative_grid_barrier(rt, where);
  else if (!rt.launch->clusters.active())
    return false;
  loops_grid::block& b = rt.launch->grid_phases->blocks[rt.linear];
  b.resume = point;
  b.arrived = true;
  b.site = where;
  b.level = at;
  ++b.phases;
  return true;
}

}  // extern "C"
