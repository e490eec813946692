// Block and grid barriers. Both are counted and phase-tagged and follow
// CUDA's sm_70+ rule: a thread that has exited no longer counts, so the
// barrier completes once every live thread has arrived.
#include <sstream>

#include "cohort/detail/host/sync_points.hpp"
#include "cohort/detail/host/thread_loop.hpp"
#include "cohort/detail/host/implicit_groups.hpp"
#include "diagnostics.hpp"
#include "grid_exchange.hpp"
#include "launch_state.hpp"
#include "scheduler.hpp"

namespace cohort::detail::host {

namespace {

[[noreturn]] void mismatched_barrier(const block_runtime& rt, const char* what, const std::source_location& first_site,
                                     const thread_record& first, const std::source_location& where) {
  std::ostringstream s;
  s << "threads of block " << index_text(rt.record.block_index) << " in kernel `"
    << kernel_name(rt.launch->entry->kernel) << "` wait at different " << what << " call sites: thread "
    << index_text(first.index) << " at " << site(first_site) << " and thread " << index_text(current_thread->index)
    << " at " << site(where) << "; every thread of a block must reach the same barrier call";
  fail_block(errc::barrier_mismatch, s.str());
}

void release_block_barrier(block_runtime& rt) {
  rt.record.arrivals_pending -= rt.barrier_arrived;
  rt.barrier_arrived = 0;
  ++rt.barrier_phase;
  rt.wake(rt.barrier_waiters);
}

void block_arrives_at_grid(block_runtime& rt) {
  grid_entry& entry = rt.launch->grid.entries(rt.grid_phases_arrived)[block_linear_rank()];
  entry.op = &grid_sync_op;  // so that a grid collective meeting this barrier can tell
  entry.site = rt.grid_site;
  rt.record.arrivals_pending -= rt.grid_arrived;
  rt.grid_arrived = 0;
  ++rt.grid_phases_arrived;
  rt.launch->grid.arrive();
}

}  // namespace

// The entry points below share these bodies, inlined so that a wait is one
// call deep between the kernel and the fiber switch. Each reads the
// thread-locals once: every arrival of every thread passes here.
[[noreturn]] static void arrived_twice(const block_runtime& rt, const char* what, const std::source_location& where) {
  fail_block(errc::barrier_mismatch,
             std::string("thread arrived twice at the ") + what + " " + position(*rt.launch, rt.record, *current_thread) +
                 ", at " + site(where) + ", without waiting for the phase it arrived at first; each thread arrives "
                 "once per phase: barrier_arrive(), then barrier_wait(token) before arriving again");
}

[[gnu::always_inline]] inline std::uint64_t arrive_at_block_barrier(block_runtime& rt, thread_record& self,
                                                                    std::source_location where) {
  if (self.block_arrival == rt.barrier_phase) [[unlikely]]
    arrived_twice(rt, "block barrier", where);
  if (rt.barrier_arrived == 0) {
    rt.barrier_site = where;
    rt.barrier_first = &self;
  } else if (!same_site(rt.barrier_site, where)) [[unlikely]] {
    mismatched_barrier(rt, "block barrier", rt.barrier_site, *rt.barrier_first, where);
  }
  const std::uint64_t phase = rt.barrier_phase;
  self.block_arrival = phase;
  rt.arrivals_recorded = true;
  ++rt.record.arrivals_pending;
  if (++rt.barrier_arrived == rt.record.live) release_block_barrier(rt);
  return phase;
}

[[gnu::always_inline]] inline void wait_at_block_barrier(block_runtime& rt, thread_record& self, std::uint64_t phase,
                                                         std::source_location where) {
  if (rt.barrier_phase != phase) return;
  rt.barrier_waiters.push_back(&self);
  park(rt, self, wait_kind::block_barrier, where, phase);
}

std::uint64_t block_arrive(std::source_location where) {
  require_kernel("a block barrier's arrive (thread_block::barrier_arrive)", where);
  return arrive_at_block_barrier(current_runtime(), *current_thread, where);
}
void block_wait(std::uint64_t phase, std::source_location where) {
  require_kernel("thread_block::barrier_wait", where);
  wait_at_block_barrier(current_runtime(), *current_thread, phase, where);
}
void block_sync(std::source_location where) {
  require_kernel("a block barrier (__syncthreads or thread_block::sync)", where);
  block_runtime& rt = current_runtime();
  thread_record& self = *current_thread;
  wait_at_block_barrier(rt, self, arrive_at_block_barrier(rt, self, where), where);
}

std::uint64_t grid_arrive(std::source_location where) {
  require_kernel("a grid barrier (grid_group::sync or barrier_arrive)", where);
  block_runtime& rt = current_runtime();
  if (current_thread->grid_arrival == rt.grid_phases_arrived) [[unlikely]]
    arrived_twice(rt, "grid barrier", where);
  if (!rt.record.cooperative) {
    fail_block(errc::not_cooperative,
               "grid barrier at " + site(where) + " " + position(*rt.launch, rt.record, *current_thread) +
                   ": the kernel was not launched cooperatively, so its blocks need not be co-resident and the "
                   "barrier could hang; launch it with cohort::launch_cooperative(...) (grid_group::is_valid() "
                   "tells a kernel which launch it got)");
  }
  if (rt.grid_arrived == 0) {
    rt.grid_site = where;
    rt.grid_first = current_thread;
  } else if (!same_site(rt.grid_site, where)) {
    mismatched_barrier(rt, "grid barrier", rt.grid_site, *rt.grid_first, where);
  }
  const std::uint64_t phase = rt.grid_phases_arrived;
  current_thread->grid_arrival = phase;
  rt.arrivals_recorded = true;
  ++rt.grid_arrived;
  ++rt.record.arrivals_pending;
  if (rt.grid_arrived == rt.record.live) block_arrives_at_grid(rt);
  return phase;
}

void grid_wait(std::uint64_t phase, std::source_location where) {
  require_kernel("grid_group::barrier_wait", where);
  block_runtime& rt = current_runtime();
  if (phase < rt.grid_phases_released) return;
  rt.grid_waiters.push_back(current_thread);
  park(wait_kind::grid_barrier, where, phase);
}

void grid_sync(std::source_location where) { grid_wait(grid_arrive(where), where); }

// An exiting thread no longer counts; an arrival it made at a phase still in
// progress is taken back with it, so arrivals and live threads stay comparable.
void thread_exit_slow(block_record& block, thread_record& thread) {
  block_runtime& rt = *block.runtime;
  if (thread.block_arrival == rt.barrier_phase) {
    --rt.barrier_arrived;
    --block.arrivals_pending;
  }
  if (thread.grid_arrival == rt.grid_phases_arrived) {
    --rt.grid_arrived;
    --block.arrivals_pending;
  }
  if (rt.barrier_arrived != 0 && rt.barrier_arrived == block.live) release_block_barrier(rt);
  if (rt.grid_arrived != 0 && rt.grid_arrived == block.live) block_arrives_at_grid(rt);
  outer_levels_thread_exit(rt, thread);
  collectives_on_exit(rt, thread);
}

}  // namespace cohort::detail::host
