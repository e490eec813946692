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

loops_grid::loops_grid(unsigned long long blocks_per_grid, unsigned grids)
    : blocks(blocks_per_grid * grids),
      launches(grids),
      workers(static_cast<unsigned>(
          std::max<unsigned long long>(1, std::min<unsigned long long>(worker_threads(), blocks.size())))),
      phases(workers, phase_end{this}),
      registered(grids),
      finished(grids) {}

unsigned loops_grid::workers_of(unsigned grid) const {
  const auto grids = static_cast<unsigned>(launches.size());
  return workers / grids + (grid < workers % grids ? 1 : 0);
}

namespace {

constexpr unsigned long long none = ~0ull;

const barrier_level& words_of(loops_level level) {
  return level == loops_level::cluster      ? cluster_level
         : level == loops_level::multi_grid ? multi_grid_level
                                            : grid_level;
}

// Block `index` of the record: its grid's launch, and its index in that grid.
struct located {
  launch_state& launch;
  unsigned long long linear;
};
located locate(const loops_grid& grid, unsigned long long index) {
  launch_state& first = *grid.launches.front();
  const unsigned long long per_grid = first.block_count;
  return {*grid.launches[index / per_grid], index % per_grid};
}

// How the fiber engine's messages name block `index` (barriers.cpp's block_name).
std::string block_name(const loops_grid& grid, unsigned long long index, loops_level level) {
  const located b = locate(grid, index);
  if (level == loops_level::multi_grid) return multi_grid_block_name(*b.launch.multi_grid, index);
  return "block " + index_text(block_index_of(b.launch, b.linear)) +
         (level == loops_level::cluster ? " of the same cluster" : "");
}

// The fiber engine's words for a barrier a block can never reach
// (barriers.cpp's unreachable_barrier): `waiting` waits at it, `exited` left
// after fewer of them. The launch of the waiting block's grid fails.
void fail_unreachable(loops_grid& grid, unsigned long long waiting, unsigned long long exited) {
  const loops_grid::block& waiter = grid.blocks[waiting];
  const barrier_level& level = words_of(waiter.level);
  const located w = locate(grid, waiting);
  std::ostringstream s;
  s << level.name << " barrier at " << site(waiter.site) << " in kernel `" << kernel_name(w.launch.entry->kernel)
    << "`, block " << index_text(block_index_of(w.launch, w.linear)) << ", thread " << index_text({0, 0, 0})
    << (waiter.level == loops_level::multi_grid ? multi_grid_place(*w.launch.multi_grid, w.launch.grid_rank) : "")
    << " can never complete: " << block_name(grid, exited, waiter.level) << " exited after arriving at "
    << grid.blocks[exited].phases[static_cast<std::size_t>(waiter.level)] << " " << level.name << " barrier(s); "
    << level.reach << " must reach every " << level.sync_op.name << "()";
  w.launch.fail(errc::unreachable_barrier, s.str(), w.linear);
}

// Blocks of one group waiting at barriers of two levels, each until the other
// completes (on fibers, a hang): the launch fails.
void fail_crossed(loops_grid& grid, unsigned long long one, unsigned long long other) {
  const auto at = [&](unsigned long long i) {
    const loops_grid::block& b = grid.blocks[i];
    return block_name(grid, i, loops_level::grid) + " at the " + words_of(b.level).name + " barrier at " + site(b.site);
  };
  const located w = locate(grid, one);
  w.launch.fail(errc::barrier_mismatch,
                "blocks of one grid in kernel `" + kernel_name(w.launch.entry->kernel) + "` wait at barriers of " +
                    "different levels, each until the other completes: " + at(one) + ", " + at(other) +
                    "; every block of a grid must reach its grid.sync() and multi_grid.sync() calls in the same order",
                w.linear);
}

// What one phase left in a set of blocks.
struct tally {
  unsigned long long waiting = none;  // the first block waiting at the level
  unsigned long long other = none;    // the first waiting at another level
  unsigned long long exited = none;   // the exited block with the fewest of the level's barriers
  bool all_wait = true;               // every live block waits at the level
};

template <class Members>
tally count_blocks(const loops_grid& grid, const Members& members, loops_level level) {
  tally t;
  const auto i_level = static_cast<std::size_t>(level);
  for (const unsigned long long i : members) {
    const loops_grid::block& b = grid.blocks[i];
    if (b.exited) {
      if (t.exited == none || b.phases[i_level] < grid.blocks[t.exited].phases[i_level]) t.exited = i;
    } else if (b.waits && b.level == level) {
      if (t.waiting == none) t.waiting = i;
    } else {
      t.all_wait = false;
      if (b.waits && t.other == none) t.other = i;
    }
  }
  return t;
}

// Block `linear` of grid `grid_rank`'s record (the grids' blocks one grid after another).
unsigned long long record_index(const launch_state& launch, unsigned long long linear) {
  return launch.grid_rank * launch.block_count + linear;
}

enum class settled { waiting, released, failed };

// Completes the barrier of `level` over `members` where every live block waits
// at it; fails the launch where a block exited instead.
template <class Members>
settled complete_level(loops_grid& grid, const Members& members, loops_level level) {
  const tally t = count_blocks(grid, members, level);
  if (t.waiting == none) return settled::waiting;
  if (t.exited != none) {
    fail_unreachable(grid, t.waiting, t.exited);
    return settled::failed;
  }
  if (!t.all_wait) return settled::waiting;
  for (const unsigned long long i : members)
    if (loops_grid::block& b = grid.blocks[i]; !b.exited) b.waits = false, b.runs = true;
  return settled::released;
}

// Every block of `groups` (each a grid, or a cluster, whose barriers are of
// `level`) has run in the phase: whether another phase follows. Blocks that
// ran and did not arrive have exited; each barrier every live block of its
// group (of the launch, for a multi-grid barrier) waits at completes, and its
// blocks run in the next phase. Not where the launch failed, every block
// exited, or a block exited while others wait: it left their barrier
// unreachable, and the launch fails.
template <class Groups>
bool another_phase(loops_grid& grid, const Groups& groups, loops_level level, bool aborted) {
  if (aborted) return false;
  for (const auto& group : groups)
    for (const unsigned long long i : group)
      if (loops_grid::block& b = grid.blocks[i]; b.runs) {
        b.runs = false;
        if (!b.waits) b.exited = true, b.frames.reset(), b.kept.reset(), b.dynamic_shared.reset();
      }
  bool released = false;
  const auto settle = [&](settled s) {
    released |= s == settled::released;
    return s == settled::failed;
  };
  for (const auto& group : groups)
    if (settle(complete_level(grid, group, level))) return false;
  if (level == loops_level::grid && grid.launches.front()->multi_grid != nullptr &&
      settle(complete_level(grid, std::views::iota(0ull, static_cast<unsigned long long>(grid.blocks.size())),
                            loops_level::multi_grid)))
    return false;
  if (released) return true;
  // Every live block waits, and none was released: some group's wait at both levels.
  for (const auto& group : groups)
    if (const tally t = count_blocks(grid, group, level); t.waiting != none && t.other != none) {
      fail_crossed(grid, t.waiting, t.other);
      return false;
    }
  return false;
}

}  // namespace

void loops_grid::phase_end::operator()() noexcept {
  const unsigned long long per_grid = grid->launches.front()->block_count;
  grid->next.store(0, std::memory_order_relaxed);
  bool aborted = false;
  for (launch_state* launch : grid->launches) aborted |= launch->aborted.load(std::memory_order_acquire);
  const auto grids = std::views::iota(0ull, static_cast<unsigned long long>(grid->launches.size())) |
                     std::views::transform([per_grid](unsigned long long g) {
                       return std::views::iota(g * per_grid, (g + 1) * per_grid);
                     });
  grid->done = !another_phase(*grid, grids, loops_level::grid, aborted);
}

// The workers take the blocks of every grid of the launch one at a time; a
// phase ends when all of them have run out of blocks. Each grid's launch runs
// its share of the workers (none where there are fewer workers than grids),
// and stays until every worker is done with every grid's blocks.
void run_loops_grid(launch_state& launch) {
  loops_grid& grid = *launch.grid_phases;
  grid.launches[launch.grid_rank] = &launch;
  grid.registered.arrive_and_wait();
  run_on_threads(grid.workers_of(launch.grid_rank), [&grid](unsigned) {
    do {
      for (unsigned long long i = grid.next.fetch_add(1, std::memory_order_relaxed); i < grid.blocks.size();
           i = grid.next.fetch_add(1, std::memory_order_relaxed)) {
        const located b = locate(grid, i);
        if (grid.blocks[i].runs && !b.launch.aborted.load(std::memory_order_relaxed))
          b.launch.fibers_started.fetch_add(run_blocks(b.launch, b.linear, b.linear + 1), std::memory_order_relaxed);
      }
      grid.phases.arrive_and_wait();  // its completion (phase_end) orders every block's memory before the next phase
    } while (!grid.done);
    trim_worker_stacks();
  });
  grid.finished.arrive_and_wait();
}

// Each worker takes whole clusters: a cluster's blocks run one after another
// on it, phase by phase, so its blocks' memory is ordered without a barrier
// between workers, and clusters go on independently.
void run_loops_clusters(launch_state& launch) {
  loops_grid& grid = *launch.grid_phases;
  grid.launches.front() = &launch;
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
          if (grid.blocks[i].runs) fibers += run_blocks(launch, i, i + 1);
      } while (another_phase(grid, std::views::single(std::views::all(members)), loops_level::cluster,
                             launch.aborted.load(std::memory_order_acquire)));
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
  loops_grid::block& b = grid->blocks[record_index(*rt.launch, rt.linear)];
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
  else if (at == loops_level::multi_grid)
    require_multi_grid_barrier(rt, where);
  else if (!rt.launch->clusters.active())
    return false;
  loops_grid::block& b = rt.launch->grid_phases->blocks[record_index(*rt.launch, rt.linear)];
  b.resume = point;
  b.waits = true;
  b.site = where;
  b.level = at;
  ++b.phases[level];
  return true;
}

}  // extern "C"
