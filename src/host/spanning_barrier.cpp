#include "spanning_barrier.hpp"

#include <algorithm>
#include <sstream>

#include "cohort/detail/host/implicit_groups.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "scheduler.hpp"

namespace cohort::detail::host {

namespace {

void block_arrives(block_runtime& rt, spanning_part& part, const spanning_level& level) {
  grid_entry& entry = part.barrier->entries(part.phases_arrived)[part.rank];
  entry.op = &level.sync_op;
  entry.site = part.site;
  rt.record.arrivals_pending -= part.arrived;
  part.arrived = 0;
  ++part.phases_arrived;
  part.barrier->arrive();
}

}  // namespace

void spanning_part::start(grid_barrier* shared, unsigned long long entry) {
  barrier = shared;
  rank = entry;
  arrived = 0;
  phases_arrived = 0;
  phases_released = 0;
  first = nullptr;
  waiters.clear();
}

std::uint64_t spanning_arrive(block_runtime& rt, spanning_part& part, const spanning_level& level,
                              std::source_location where) {
  if (part.arrived == 0) {
    part.site = where;
    part.first = current_thread;
  } else if (!same_site(part.site, where)) {
    std::ostringstream s;
    s << "threads of block " << index_text(rt.record.block_index) << " in kernel `"
      << kernel_name(rt.launch->entry->kernel) << "` wait at different " << level.barrier_name
      << " call sites: thread " << index_text(part.first->index) << " at " << site(part.site) << " and thread "
      << index_text(current_thread->index) << " at " << site(where)
      << "; every thread of a block must reach the same barrier call";
    fail_block(errc::barrier_mismatch, s.str());
  }
  const std::uint64_t phase = part.phases_arrived;
  current_thread->*level.arrival = phase;
  rt.arrivals_recorded = true;
  ++part.arrived;
  ++rt.record.arrivals_pending;
  if (part.arrived == rt.record.live) block_arrives(rt, part, level);
  return phase;
}

void spanning_wait(block_runtime&, spanning_part& part, const spanning_level& level, std::uint64_t phase,
                   std::source_location where) {
  if (phase < part.phases_released) return;
  part.waiters.push_back(current_thread);
  park(level.waiting, where, phase);
}

void spanning_thread_exit(block_runtime& rt, spanning_part& part, const spanning_level& level, thread_record& thread) {
  if (part.barrier == nullptr) return;
  if (thread.*level.arrival == part.phases_arrived) {
    --part.arrived;
    --rt.record.arrivals_pending;
  }
  if (part.arrived != 0 && part.arrived == rt.record.live) block_arrives(rt, part, level);
}

std::optional<bool> resolve_spanning_stall(block_runtime& rt, spanning_part& part, const std::atomic<bool>& aborted,
                                           bool may_spin,
                                           std::string (*unreachable)(const block_runtime&, const thread_record&)) {
  if (part.waiters.empty()) return std::nullopt;
  const auto oldest = std::min_element(part.waiters.begin(), part.waiters.end(),
                                       [](auto* a, auto* b) { return a->wait_phase < b->wait_phase; });
  const std::uint64_t phase = (*oldest)->wait_phase;
  if (phase >= part.phases_arrived) return std::nullopt;  // the block itself has not arrived: a deadlock
  launch_state& L = *rt.launch;
  switch (part.barrier->wait_past(phase, aborted, may_spin)) {
    case grid_barrier::outcome::released: {
      part.phases_released = part.barrier->generation();
      std::vector<thread_record*> released;
      std::erase_if(part.waiters, [&](thread_record* t) {
        if (t->wait_phase >= part.phases_released) return false;
        released.push_back(t);
        return true;
      });
      rt.wake(released);
      return true;
    }
    case grid_barrier::outcome::aborted:
      return false;
    case grid_barrier::outcome::unreachable:
      L.fail(errc::unreachable_barrier, unreachable(rt, **oldest), block_linear_rank());
      return false;
  }
  return false;
}

}  // namespace cohort::detail::host
