// Warp collectives: arrival, completion and exits. One round of switches per
// collective: every member but the last parks once, the last runs the combine
// and wakes the others, and each reads its result from its own slot.
#include "synchronization/rendezvous.hpp"

#include <algorithm>
#include <bit>

#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "races/race_check.hpp"

namespace cohort::detail::host {

namespace {

// A lane an intrinsic's mask names is excused once it has exited (PTX),
// unless it called the intrinsic at the same site with another mask: then the
// lanes disagree on the mask, and each group would get a partial result.
void check_exit_excused(const block_runtime& rt, const rendezvous_record& rec, const thread_record& gone) {
  if (rec.members.is_span()) return;
  const collective_slot& s = rt.slots[gone.rank];
  if (s.mask_lanes != rec.members.lanes && same_site(s.mask_site, rec.site))
    fail_mask_mismatch(rt, rec, gone, s.mask_lanes);
}

bool contains(const member_set& m, unsigned rank, unsigned warp_size) {
  if (rank < m.base) return false;
  if (m.is_span()) return rank < m.base + m.count;
  return rank - m.base < warp_size && ((m.lanes >> (rank - m.base)) & 1);
}

rendezvous_record* find_open(const collective_state& cs, unsigned list, const member_set& m) {
  for (rendezvous_record* r = cs.open[list]; r != nullptr; r = r->next)
    if (r->members == m) return r;
  return nullptr;
}

[[gnu::noinline]] rendezvous_record& open_record(block_runtime& rt, const collective_call& call, unsigned list,
                                                 thread_record& self) {
  collective_state& cs = rt.collectives;
  rendezvous_record* rec = nullptr;
  if (cs.free_records.empty()) {
    rec = &cs.records.emplace_back();
  } else {
    rec = cs.free_records.back();
    cs.free_records.pop_back();
  }
  *rec = {call.members,       call.op,          call.where,   &self, rt.slots[self.rank].arg, 0, 0, call.members.count,
          call.excuse_exited, call.uniform_arg, cs.open[list]};
  cs.open[list] = rec;
  cs.used = true;
  // Members may have exited only if some thread of the block has, only those
  // that have started, and none of a warp found whole since the last exit (a
  // span, wider than a warp, is listed with its first warp but reaches past it).
  const block_record& b = rt;
  const member_set& m = call.members;
  const unsigned exits = b.thread_count - b.live;
  if (exits != 0 && b.next_unstarted > m.base && (m.is_span() || cs.present_at_exits[list] != exits)) {
    const unsigned started = b.next_unstarted - m.base;
    const auto exited = [&](unsigned r) {
      const thread_record& t = b.threads[r];
      if (t.waiting != wait_kind::none || &t == &self) return;
      if (!rec->excuse_exited) fail_member_exited(rt, *rec, t);
      check_exit_excused(rt, *rec, t);
      --rec->expected;
    };
    if (m.is_span()) {
      for (unsigned r = m.base, end = m.base + std::min(m.count, started); r < end; ++r) exited(r);
    } else {
      for (std::uint64_t l = m.lanes & low_lanes(started); l != 0; l &= l - 1)
        exited(m.base + static_cast<unsigned>(std::countr_zero(l)));
      if (rec->expected == m.count && (low_lanes(started) & ~m.lanes & existing_lanes()) == 0)
        cs.present_at_exits[list] = exits;
    }
  }
  return *rec;
}

void close_record(collective_state& cs, rendezvous_record& rec, unsigned list) {
  rendezvous_record** link = &cs.open[list];
  while (*link != &rec) link = &(*link)->next;
  *link = rec.next;
  cs.free_records.push_back(&rec);
}

// The set bits of a non-zero mask form one run.
bool adjacent(std::uint64_t lanes) {
  const std::uint64_t run = lanes >> std::countr_zero(lanes);
  return (run & (run + 1)) == 0;
}

// Runs the combine over the members that arrived and wakes all of them but
// `self`, the thread completing the collective (null when an exit does).
[[gnu::noinline]] void complete(block_runtime& rt, rendezvous_record& rec, const thread_record* self) {
  collective_state& cs = rt.collectives;
  block_record& b = rt;
  const member_set& m = rec.members;
  unsigned first = m.base, n = 0;
  const unsigned* who = nullptr;
  const std::uint64_t lanes = rec.arrived_lanes;
  if (m.is_span() ? rec.arrived == m.count : adjacent(lanes)) {
    // Consecutive ranks: a whole tile, or any group whose lanes are adjacent.
    if (!m.is_span()) first += static_cast<unsigned>(std::countr_zero(lanes));
    n = rec.arrived;
  } else {
    if (!m.is_span()) {
      for (std::uint64_t l = lanes; l != 0; l &= l - 1)
        cs.who[n++] = m.base + static_cast<unsigned>(std::countr_zero(l));
    } else {
      for (unsigned r = m.base; r < m.base + m.count; ++r)
        if (arrived_at(b, rec, r, self)) cs.who[n++] = r;
    }
    who = cs.who.data();
  }
  const combine_context members{b.slots, who, first, n, m.base, lanes, cs.scratch.data(), rec.site};
  if (rec.op->combine != nullptr) rec.op->combine(members);
  race_lanes_synchronized(b, who, first, n);
  close_record(cs, rec, warp_of(b, m.base));
  // `self`, when there is one, arrived: it is one of the n.
  rt.wake(n - (self != nullptr), [&](auto&& queue) {
    for (unsigned r = 0; r < n; ++r)
      if (thread_record& t = b.threads[members.rank_of(r)]; &t != self) queue(t);
  });
}

// The open records of list `list` that count on `gone`, which has exited.
void release_from_list(block_runtime& rt, unsigned list, const thread_record& gone) {
  for (rendezvous_record* rec = rt.collectives.open[list]; rec != nullptr;) {
    rendezvous_record* next = rec->next;  // completing frees rec
    if (contains(rec->members, gone.rank, rt.warp_size)) {
      if (!rec->excuse_exited) fail_member_exited(rt, *rec, gone);
      check_exit_excused(rt, *rec, gone);
      if (rec->arrived == --rec->expected) complete(rt, *rec, nullptr);
    }
    rec = next;
  }
}

}  // namespace

void collective_state::start_block(block_record& record) {
  if (slot_capacity < record.thread_count) {
    slots.reset(new collective_slot[record.thread_count]);
    slot_capacity = record.thread_count;
    who.resize(record.thread_count);
    scratch.resize(record.thread_count);
  }
  record.slots = slots.get();
  // The intrinsics' masks of the last block, if it used collectives (any
  // intrinsic opens a record), must not be taken for this block's: its
  // threads' slots are cleared (a block that used none wrote none).
  if (used)
    for (unsigned r = 0; r < last_block_threads; ++r) slots[r].mask_site = {};
  last_block_threads = record.thread_count;
  const unsigned warps = warp_of(record, record.thread_count + record.warp_size - 1);
  if (used) {  // a failed block may have left records open and lanes converging
    for (rendezvous_record*& head : open)
      for (; head != nullptr; head = head->next) free_records.push_back(head);
    std::fill(converging.begin(), converging.end(), 0u);
    std::fill(present_at_exits.begin(), present_at_exits.end(), 0u);
    converging_total = 0;
    used = false;
  }
  if (open.size() < warps) {
    open.resize(warps, nullptr);
    converging.resize(warps, 0u);
    present_at_exits.resize(warps, 0u);
  }
}

namespace {

[[gnu::always_inline]] inline void count_arrival(rendezvous_record& rec, const collective_call& call,
                                                 const thread_record& self) {
  ++rec.arrived;
  if (!call.members.is_span()) rec.arrived_lanes |= std::uint64_t{1} << (self.rank - call.members.base);
}

// Every case of a rendezvous: the first member, the last, a mismatch, a
// streak to settle, a parked thread that cannot switch to a released one.
[[gnu::noinline]] void rendezvous_any_case(const collective_call& call) {
  block_runtime& rt = current_runtime();
  thread_record& self = *current_thread;
  const unsigned list = warp_of(rt, call.members.base);
  rendezvous_record* rec = find_open(rt.collectives, list, call.members);
  if (rec == nullptr) {
    rec = &open_record(rt, call, list, self);
  } else {
    if (rec->op != call.op) fail_mismatch(rt, *rec, call);
    if (rec->uniform_arg && rt.slots[self.rank].arg != rec->first_arg) fail_non_uniform(rt, *rec, call);
  }
  count_arrival(*rec, call, self);
  if (rec->arrived == rec->expected) {
    complete(rt, *rec, &self);
    return;
  }
  park(rt, self, wait_kind::collective, call.where, record_tag(*rec));
}

}  // namespace

// The usual case, a warp's lanes arriving in turn at the collective its
// first lane opened, each switching to the next lane woken by the one
// before (wake, through the barrier queue): an arrival that neither opens
// nor completes the collective parks and switches straight to the next
// released thread, calling nothing but the switch, as its last step (a tail
// call, as block_sync's). Every other case is rendezvous_any_case's.
void rendezvous(const collective_call& call) {
  block_record* const b = current_block;
  if (!b->streak) [[likely]] {
    auto& rt = static_cast<block_runtime&>(*b);
    rendezvous_record* const rec = rt.collectives.open[warp_of(rt, call.members.base)];
    if (rec != nullptr && !rt.attention && rec->members == call.members && rec->op == call.op && !rec->uniform_arg &&
        rec->arrived + 1 != rec->expected && rt.barrier.has_released()) [[likely]] {
      thread_record& self = *current_thread;
      count_arrival(*rec, call, self);
      return resume_released(rt, record_park(rt, self, wait_kind::collective, call.where, record_tag(*rec)));
    }
  }
  rendezvous_any_case(call);
}

void collectives_on_exit(block_runtime& rt, thread_record& thread) {
  collective_state& cs = rt.collectives;
  if (!cs.used) return;
  const unsigned w = rt.warp_size;
  const unsigned own = warp_of(rt, thread.rank);
  release_from_list(rt, own, thread);
  // Tiles wider than a warp, and the whole block, are listed with the warp of their first thread.
  for (unsigned size = 2 * w; size / 2 < rt.thread_count; size *= 2) {
    const unsigned list = warp_of(rt, thread.rank & ~(size - 1));
    if (list != own) release_from_list(rt, list, thread);
  }
  if (cs.converging[own] != 0) lane_settled(rt, thread);
}

}  // namespace cohort::detail::host
