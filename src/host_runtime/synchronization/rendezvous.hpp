// The runtime side of warp-level collectives (include/cohort/detail/host/
// collective.hpp is the kernel side). A collective some members have reached
// is an open rendezvous record, listed with the warp that holds its first
// member; a thread looks its group up there, the last member to arrive runs
// the combine and wakes the others, and the record is freed. Only the lanes of
// one warp (or of one wide tile) ever wait for each other.
#pragma once

#include <bit>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <source_location>
#include <string>
#include <vector>

#include "cohort/detail/host/collectives/collective.hpp"
#include "cohort/detail/host/runtime/state.hpp"

namespace cohort::detail::host {

struct block_runtime;

struct rendezvous_record {
  member_set members;
  const collective_op* op;
  std::source_location site;    // where the first member called it
  const thread_record* first;   // the first member to arrive
  std::uint64_t first_arg;      // its argument, against which uniform arguments are checked
  std::uint64_t arrived_lanes;  // warp groups: the lanes that have arrived
  unsigned arrived;
  unsigned expected;  // members that count: all, less those that exited where that is excused
  bool excuse_exited;
  bool uniform_arg;
  rendezvous_record* next;  // the next open record of the same list
};

// A parked member's wait_phase names the record it waits at.
inline std::uint64_t record_tag(const rendezvous_record& r) { return reinterpret_cast<std::uintptr_t>(&r); }

// Per worker, reused block after block.
struct collective_state {
  std::unique_ptr<collective_slot[]> slots;  // uninitialized: a slot is written before it is read
  unsigned slot_capacity = 0;
  std::deque<rendezvous_record> records;  // a deque, so that records never move
  std::vector<rendezvous_record*> free_records;
  std::vector<rendezvous_record*> open;  // per warp: open records whose first member is in it
  std::vector<unsigned> converging;      // per warp: lanes parked in coalesced_threads()
  // Per warp: the block's count of exited threads when every started lane of
  // the warp was last found present; while it holds, none of them has exited.
  std::vector<unsigned> present_at_exits;
  unsigned converging_total = 0;
  std::uint64_t converge_arrivals = 0;
  unsigned last_block_threads = 0;     // the thread count of the block before, whose slots start_block may clear  //
                                       // counts arrivals in coalesced_threads(): a waiting lane's wait_phase
  std::vector<unsigned> who, scratch;  // for the combine
  bool used = false;                   // the block opened a record or formed a coalesced group

  // Sizes everything for the block and drops what a failed block left open.
  void start_block(block_record& record);
};

// Hooks of the scheduler and the barriers.
// A lane is about to park or has exited: once every lane of its warp is parked
// or gone, the lanes waiting in coalesced_threads() form their groups.
void lane_settled(block_runtime& rt, const thread_record& lane);
// A thread has exited: collectives that counted on it complete without it
// (where exits are excused) or fail.
void collectives_on_exit(block_runtime& rt, thread_record& thread);
// At a stall: why the first open collective can never complete.
std::optional<std::string> describe_collective_stall(const block_runtime& rt);

// Shared by the collective runtime's files.
// The warp that holds block rank `rank` (a shift: warp sizes are powers of
// two, never 0, which spares countr_zero's test for 0).
inline unsigned warp_of(const block_record& b, unsigned rank) { return rank >> __builtin_ctz(b.warp_size); }
template <class F>
void for_each_member(const member_set& m, F&& f) {
  if (m.is_span()) {
    for (unsigned r = m.base; r < m.base + m.count; ++r) f(r);
  } else {
    for (std::uint64_t l = m.lanes; l != 0; l &= l - 1) f(m.base + static_cast<unsigned>(std::countr_zero(l)));
  }
}
// `rank` is `self` or is parked at `rec`.
inline bool arrived_at(const block_record& b, const rendezvous_record& rec, unsigned rank, const thread_record* self) {
  const thread_record& t = b.threads[rank];
  return &t == self || (t.waiting == wait_kind::collective && t.wait_phase == record_tag(rec));
}
// A started thread that is neither waiting nor running has exited.
inline bool has_exited(const block_record& block, unsigned rank, const thread_record* running) {
  const thread_record& t = block.threads[rank];
  return rank < block.next_unstarted && t.waiting == wait_kind::none && &t != running;
}
[[noreturn]] void fail_member_exited(const block_runtime& rt, const rendezvous_record& rec, const thread_record& gone);
[[noreturn]] void fail_mask_mismatch(const block_runtime& rt, const rendezvous_record& rec, const thread_record& gone,
                                     std::uint64_t its_lanes);
[[noreturn]] void fail_mismatch(const block_runtime& rt, const rendezvous_record& rec, const collective_call& call);
[[noreturn]] void fail_non_uniform(const block_runtime& rt, const rendezvous_record& rec, const collective_call& call);

}  // namespace cohort::detail::host
