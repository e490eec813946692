// The block barrier and the one mechanism behind every level's barrier over
// whole blocks (the levels themselves: levels.cpp).
#include "synchronization/barriers.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <sstream>

#include "cohort/detail/host/implicit_groups.hpp"
#include "cohort/detail/host/runtime/sync_points.hpp"
#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "races/race_check.hpp"
#include "synchronization/level_barrier.hpp"

namespace cohort::detail::host {

namespace {

// The cold paths of every arrival: out of line, so that the arrival needs no
// frame of its own for them.
[[noreturn, gnu::cold, gnu::noinline]] void mismatched_barrier(const block_runtime& rt, const char* what,
                                                               std::source_location first_site,
                                                               const thread_record& first, std::source_location where) {
  std::ostringstream s;
  s << "threads of block " << index_text(rt.block_index) << " in kernel `" << kernel_name(rt.launch->entry->kernel)
    << "` wait at different " << what << " call sites: thread " << index_text(first.index) << " at " << site(first_site)
    << " and thread " << index_text(current_thread->index) << " at " << site(where)
    << "; every thread of a block must reach the same barrier call";
  fail_block(errc::barrier_mismatch, s.str());
}

[[noreturn, gnu::cold, gnu::noinline]] void arrived_twice(const block_runtime& rt, const char* what,
                                                          std::source_location where) {
  fail_block(errc::barrier_mismatch,
             std::string("thread arrived twice at the ") + what + " " + position(*rt.launch, rt, *current_thread) +
                 ", at " + site(where) +
                 ", without waiting for the phase it arrived at first; each thread arrives once per "
                 "phase: barrier_arrive(), then barrier_wait(token) before arriving again");
}

// One call site's source_location objects are one record: the same bytes
// settle the usual case; others are compared field by field, out of line.
[[gnu::cold, gnu::noinline]] void check_other_site(const block_runtime& rt, const char* what,
                                                   std::source_location first_site, const thread_record& first,
                                                   std::source_location where) {
  if (!same_site(first_site, where)) mismatched_barrier(rt, what, first_site, first, where);
}
inline bool same_record(const std::source_location& a, const std::source_location& b) {
  static_assert(sizeof a == sizeof(std::uintptr_t), "a source_location is a pointer to its record");
  return std::bit_cast<std::uintptr_t>(a) == std::bit_cast<std::uintptr_t>(b);
}

std::string barrier_name(const barrier_level& level) { return std::string(level.name) + " barrier"; }

void release_block_barrier(block_runtime& rt) {
  block_barrier& bar = rt.barriers.block;
  rt.arrivals_pending -= bar.split_arrivals;
  bar.split_arrivals = 0;
  bar.arrived = 0;
  ++bar.phase;
  race_interval_ends();
  rt.release_barrier();
}

// The block's last live thread has arrived: the block arrives at the level.
void block_arrives(block_runtime& rt, const barrier_level& level, level_part& part) {
  grid_entry& entry = part.shared->entries(part.phases_arrived)[part.rank];
  entry.op = &level.sync_op;  // so that a collective of the level meeting this barrier can tell
  entry.site = part.site;
  rt.arrivals_pending -= part.arrived;
  part.arrived = 0;
  ++part.phases_arrived;
  race_interval_ends();  // every thread of the block has arrived, none has gone on
  part.shared->arrive();
}

void level_on_exit(block_runtime& rt, const barrier_level& level, thread_record& thread) {
  level_part& part = rt.barriers.*level.part;
  if (part.shared == nullptr) return;
  if (thread.*level.arrival == part.phases_arrived) {
    --part.arrived;
    --rt.arrivals_pending;
  }
  if (part.arrived != 0 && part.arrived == rt.live) block_arrives(rt, level, part);
}

std::string unreachable_barrier(const block_runtime& rt, const barrier_level& level, const thread_record& waiter) {
  const level_barrier& shared = *(rt.barriers.*level.part).shared;
  std::ostringstream s;
  s << barrier_name(level) << " at " << site(waiter.wait_site) << " " << position(*rt.launch, rt, waiter)
    << level.place(rt) << " can never complete: " << level.block_name(rt, shared.exited_block())
    << " exited after arriving at " << shared.phases_of_exited_block() << " " << barrier_name(level) << "(s); "
    << level.reach << " must reach every " << level.sync_op.name << "()";
  return s.str();
}

std::optional<bool> resolve_level_stall(block_runtime& rt, const barrier_level& level) {
  level_part& part = rt.barriers.*level.part;
  std::vector<level_part::waiter>& waiters = part.waiters;
  if (waiters.empty()) return std::nullopt;
  const auto oldest =
      std::min_element(waiters.begin(), waiters.end(), [](const auto& a, const auto& b) { return a.phase < b.phase; });
  const std::uint64_t phase = oldest->phase;
  if (phase >= part.phases_arrived) return std::nullopt;  // the block itself has not arrived: a deadlock
  switch (part.shared->wait_past(phase)) {
    case level_barrier::outcome::released: {
      part.phases_released = part.shared->generation();
      const auto released = [&](const level_part::waiter& w) { return w.phase < part.phases_released; };
      // Woken in the order they parked, straight from the array.
      const auto count = static_cast<unsigned>(std::count_if(waiters.begin(), waiters.end(), released));
      rt.wake(count, [&](auto&& queue) {
        for (const level_part::waiter& w : waiters)
          if (released(w)) queue(*w.thread);
      });
      std::erase_if(waiters, released);
      return true;
    }
    case level_barrier::outcome::aborted:
      return false;
    case level_barrier::outcome::unreachable:
      rt.launch->fail(errc::unreachable_barrier, unreachable_barrier(rt, level, *oldest->thread), block_linear_rank());
      return false;
  }
  return false;
}

std::string collective_opening(const block_runtime& rt, const barrier_level& level, const collective_op& op,
                               std::source_location where) {
  return std::string(level.name) + " collective `" + op.name + "` at " + site(where) + " " +
         position(*rt.launch, rt, *current_thread);
}

}  // namespace

namespace {

// A thread's arrival: counted, its call site compared with the phase's
// first arrival's. Inlined into the entry points below, so that a wait is one
// call deep between the kernel and the fiber switch: every arrival of every
// thread passes here. Returns whether the arrival completed the phase.
[[gnu::always_inline]] inline bool count_block_arrival(block_runtime& rt, thread_record& self,
                                                       std::source_location where) {
  block_barrier& bar = rt.barriers.block;
  if (bar.arrived == 0) {
    bar.site = where;
    bar.first = &self;
  } else if (!same_record(bar.site, where)) [[unlikely]] {
    check_other_site(rt, "block barrier", bar.site, *bar.first, where);
  }
  if (++bar.arrived != rt.live) return false;
  release_block_barrier(rt);
  return true;
}

// A thread that arrived with barrier_arrive and has not seen that phase complete.
[[gnu::always_inline]] inline void check_arrived_once(block_runtime& rt, const thread_record& self,
                                                      std::source_location where) {
  if (self.block_arrival == rt.barriers.block.phase) [[unlikely]]
    arrived_twice(rt, "block barrier", where);
}

}  // namespace

std::uint64_t block_arrive(std::source_location where) {
  require_kernel("a block barrier's arrive (thread_block::barrier_arrive)", where);
  block_runtime& rt = current_runtime();
  thread_record& self = *current_thread;
  block_barrier& bar = rt.barriers.block;
  check_arrived_once(rt, self, where);
  const std::uint64_t phase = bar.phase;
  // Recorded before counting, which may complete the phase and take the
  // split arrivals back.
  self.block_arrival = phase;
  rt.barriers.arrivals_recorded = true;
  ++rt.arrivals_pending;
  ++bar.split_arrivals;
  count_block_arrival(rt, self, where);
  return phase;
}
void block_wait(std::uint64_t phase, std::source_location where) {
  require_kernel("thread_block::barrier_wait", where);
  block_runtime& rt = current_runtime();
  if (phase == spent_arrival_token) [[unlikely]]
    fail_spent_token(rt, "block barrier", where);
  if (rt.barriers.block.phase == phase) park_at_block_barrier(rt, *current_thread, where);
}
namespace {

// Every case of a block_sync: first, last or mismatched arrivals, split
// arrivals in the phase, a streak to settle, threads in the ready queue, no
// released thread to switch to.
[[gnu::noinline]] void sync_any_case(std::source_location where) {
  require_kernel("a block barrier (__syncthreads or thread_block::sync)", where);
  block_runtime& rt = current_runtime();
  thread_record& self = *current_thread;
  if (rt.barriers.block.split_arrivals != 0) [[unlikely]]
    check_arrived_once(rt, self, where);
  if (!count_block_arrival(rt, self, where)) park_at_block_barrier(rt, self, where);
}

}  // namespace

// The usual case, every thread of the block arriving at one barrier in turn:
// an arrival that neither opens nor completes the phase, at the call site of
// its first arrival, parks and switches straight to the next released
// thread. Its checks come first and every other case is sync_any_case's, so
// that this path calls nothing but the switch, as its last step (a tail call:
// no frame of its own, no register to save).
void block_sync(std::source_location where) {
  block_record* const b = current_block;
  if (b != nullptr && !b->streak) [[likely]] {
    auto& rt = static_cast<block_runtime&>(*b);
    block_barrier& bar = rt.barriers.block;
    if ((bar.split_arrivals | rt.attention) == 0 && bar.arrived != 0 && bar.arrived + 1 != rt.live &&
        same_record(bar.site, where) && rt.barrier.has_released()) [[likely]] {
      ++bar.arrived;
      return resume_released(rt, enter_barrier_queue(rt, *current_thread, where));
    }
  }
  sync_any_case(where);
}

void level_part::start(level_barrier* barrier, unsigned long long entry) {
  // A level in no launch since the last start holds nothing but waiters
  // (only its barrier's arrivals and waits write here, and a wait with a
  // token of no arrival can be made): most launches have no level. The rank is
  // the block's even without a barrier (a phased cluster's, loops_grid.hpp).
  rank = entry;
  if (barrier == nullptr && shared == nullptr && waiters.empty()) return;
  shared = barrier;
  arrived = 0;
  phases_arrived = 0;
  phases_released = 0;
  first = nullptr;
  waiters.clear();
}

std::uint64_t level_arrive(block_runtime& rt, const barrier_level& level, std::source_location where) {
  level_part& part = rt.barriers.*level.part;
  thread_record& self = *current_thread;
  if (self.*level.arrival == part.phases_arrived) [[unlikely]]
    arrived_twice(rt, barrier_name(level).c_str(), where);
  if (part.arrived == 0) {
    part.site = where;
    part.first = &self;
  } else if (!same_site(part.site, where)) {
    mismatched_barrier(rt, barrier_name(level).c_str(), part.site, *part.first, where);
  }
  const std::uint64_t phase = part.phases_arrived;
  self.*level.arrival = phase;
  rt.barriers.arrivals_recorded = true;
  ++part.arrived;
  ++rt.arrivals_pending;
  if (part.arrived == rt.live) block_arrives(rt, level, part);
  return phase;
}

void level_wait(block_runtime& rt, const barrier_level& level, std::uint64_t phase, std::source_location where) {
  if (phase == spent_arrival_token) [[unlikely]]
    fail_spent_token(rt, (std::string(level.name) + " barrier").c_str(), where);
  level_part& part = rt.barriers.*level.part;
  if (phase < part.phases_released) return;
  part.waiters.push_back({current_thread, phase});
  park(rt, *current_thread, level.waiting, where, phase);
}

const grid_entry* level_exchange(block_runtime& rt, const barrier_level& level, const collective_op& op,
                                 std::source_location where, const void* value, std::size_t size) {
  level_part& part = rt.barriers.*level.part;
  level_barrier& shared = *part.shared;
  if (part.arrived != 0) {
    std::ostringstream s;
    s << collective_opening(rt, level, op, where) << " is called while threads of the block have arrived at a "
      << barrier_name(level) << " (" << site(part.site) << ", first thread " << index_text(part.first->index)
      << ") without waiting at it; barrier_wait() before the next " << level.name << " collective";
    fail_block(errc::collective_mismatch, s.str());
  }
  const std::uint64_t phase = part.phases_arrived;
  grid_entry* entries = shared.entries(phase);
  entries[part.rank].op = &op;
  entries[part.rank].site = where;
  std::memcpy(entries[part.rank].value, value, size);
  ++part.phases_arrived;
  shared.arrive();
  switch (shared.wait_past(phase)) {
    case level_barrier::outcome::released:
      break;
    case level_barrier::outcome::aborted:
      abandon_block();
    case level_barrier::outcome::unreachable: {
      std::ostringstream s;
      s << collective_opening(rt, level, op, where)
        << " can never complete: " << level.block_name(rt, shared.exited_block()) << " exited after arriving at "
        << shared.phases_of_exited_block() << " " << barrier_name(level) << "(s); " << level.reach
        << " must reach every " << level.name << " collective and " << level.sync_op.name << "()";
      fail_block(errc::unreachable_barrier, s.str());
    }
  }
  part.phases_released = shared.generation();
  for (unsigned long long b = 0; b < shared.blocks(); ++b)
    if (entries[b].op != &op) {
      std::ostringstream s;
      s << "blocks of one " << level.name << " call different " << level.name
        << " collectives: " << collective_opening(rt, level, op, where) << " meets " << level.block_name(rt, b)
        << " in `" << entries[b].op->name << "` at " << site(entries[b].site) << "; " << level.callers
        << " must call the same " << level.name << " collectives (with the same value type) and " << level.sync_op.name
        << "() in the same order";
      fail_block(errc::collective_mismatch, s.str());
    }
  return entries;
}

void barriers_on_exit(block_runtime& rt, thread_record& thread) {
  block_barrier& bar = rt.barriers.block;
  if (thread.block_arrival == bar.phase) {
    --bar.arrived;
    --bar.split_arrivals;
    --rt.arrivals_pending;
  }
  if (bar.arrived != 0 && bar.arrived == rt.live) release_block_barrier(rt);
  if (rt.cooperative || rt.cluster != nullptr)  // the block is in some level's barrier
    for (const barrier_level* level : {&grid_level, &cluster_level, &multi_grid_level})
      level_on_exit(rt, *level, thread);
}

std::optional<bool> resolve_barrier_stall(block_runtime& rt) {
  for (const barrier_level* level : {&cluster_level, &multi_grid_level, &grid_level})
    if (const auto resolved = resolve_level_stall(rt, *level)) return resolved;
  return std::nullopt;
}

void fail_spent_token(const block_runtime& rt, const char* barrier, std::source_location where) {
  fail_block(errc::barrier_mismatch,
             std::string("barrier_wait on an arrival token already waited on, at the ") + barrier + " " +
                 position(*rt.launch, rt, *current_thread) + ", at " + site(where) +
                 ": a token is good for one barrier_wait (a second wait would not wait at all); call "
                 "barrier_arrive() again for the next phase");
}

}  // namespace cohort::detail::host
