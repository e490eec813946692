// Warp and tile collectives in a block function (docs/loops-engine.md, "Warp-level
// operations"): every thread of the block stopped at the same collective (the
// loops pass lowers collectives only in block-uniform control flow), its value
// and argument in its slot (collective.hpp) and the address of its
// collective_call in its frame's first slot. Here each group is checked as the
// fiber engine checks its members' arrivals, and its combine runs once over
// the group's slots, in lane order; each thread then reads its result from its
// slot as it resumes.
#include <bit>
#include <cstdint>
#include <cstring>
#include <sstream>

#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "launch/launch_state.hpp"
#include "launch/loops_block.hpp"
#include "synchronization/rendezvous.hpp"

namespace cohort::detail::host {

namespace {

const collective_call& call_of(const loops_block& block, unsigned rank) {
  const collective_call* call;
  std::memcpy(&call, block.frames + rank * block.frame_bytes, sizeof call);
  return *call;
}

unsigned first_member(const member_set& m) {
  return m.is_span() ? m.base : m.base + static_cast<unsigned>(std::countr_zero(m.lanes));
}

// The fiber engine's record of the group, as `first` would have opened it.
rendezvous_record record_of(block_runtime& rt, const collective_call& call, unsigned first) {
  return {call.members,
          call.op,
          call.where,
          rt.threads + first,
          rt.slots[first].arg,
          call.members.lanes,
          call.members.count,
          call.members.count,
          call.excuse_exited,
          call.uniform_arg,
          nullptr};
}

// Lanes whose masks name each other but differ: each mask's lanes would get a
// partial result (on fibers, the lanes wait for each other until one exits or
// the block stalls; here every lane has arrived, so it is known at once).
[[noreturn]] void fail_masks_differ(block_runtime& rt, const rendezvous_record& rec, unsigned other,
                                    const member_set& its) {
  const thread_record& t = rt.threads[other];
  current_thread = rt.threads + rec.first->rank;
  std::ostringstream s;
  // As kernel code spells it: __syncwarp shares tile.sync()'s operation (the intrinsic notes its site).
  const bool syncwarp = rec.op == &sync_op && same_site(rt.slots[rec.first->rank].mask_site, rec.site);
  s << "lanes of one warp call `" << (syncwarp ? "__syncwarp" : rec.op->name) << "` at " << site(rec.site)
    << " with different masks " << position(*rt.launch, rt, *rec.first) << ": thread " << index_text(rec.first->index)
    << " waits with mask 0x" << std::hex << rec.members.lanes << ", which names thread " << index_text(t.index)
    << ", and that thread calls it with mask 0x" << its.lanes << std::dec << "; every lane a mask names must call "
    << "the intrinsic with the same mask (CUDA leaves the result undefined, and here each mask's lanes would get a "
    << "partial result)";
  fail_block(errc::collective_mismatch, s.str());
}

// The lanes of a group in rank order, as complete() in rendezvous.cpp passes them.
combine_context members_of(block_runtime& rt, const member_set& m, const std::source_location& where) {
  collective_state& cs = rt.collectives;
  if (m.is_span()) return {rt.slots, nullptr, m.base, m.count, m.base, 0, cs.scratch.data(), where};
  const std::uint64_t run = m.lanes >> std::countr_zero(m.lanes);
  if ((run & (run + 1)) == 0)
    return {rt.slots, nullptr, first_member(m), m.count, m.base, m.lanes, cs.scratch.data(), where};
  unsigned n = 0;
  for (std::uint64_t l = m.lanes; l != 0; l &= l - 1) cs.who[n++] = m.base + static_cast<unsigned>(std::countr_zero(l));
  return {rt.slots, cs.who.data(), m.base, n, m.base, m.lanes, cs.scratch.data(), where};
}

}  // namespace

}  // namespace cohort::detail::host

using namespace cohort::detail::host;

extern "C" {

// Every thread of the block stopped at one collective call: each group (the
// threads of one member set) is checked and its combine run. The usual group,
// consecutive ranks from the one at hand (a warp, a tile, a partial last
// warp), is checked member by member and skipped over at once. Otherwise a
// thread that is not its group's first member checks that the first names
// the same group, which the first then checks member by member: so every
// thread's group is checked once.
void cohort_loops_exchange(loops_block* block) {
  auto& rt = static_cast<block_runtime&>(*current_block);
  // The intrinsics noted their masks in the slots (collective_slot::mask_site): cleared for the next block.
  rt.collectives.used = true;
  const loops_block& b = *block;
  for (unsigned rank = 0; rank < b.count;) {
    const collective_call& call = call_of(b, rank);
    const member_set& m = call.members;
    const unsigned first = first_member(m);
    if (first == rank && (m.is_span() || ((m.lanes >> (rank - m.base)) & ((m.lanes >> (rank - m.base)) + 1)) == 0)) {
      bool alike = true;
      for (unsigned r = rank + 1; r < rank + m.count; ++r) {
        const collective_call& other = call_of(b, r);
        alike &= other.members == m && other.op == call.op;
      }
      if (call.uniform_arg)
        for (unsigned r = rank + 1; r < rank + m.count; ++r) alike &= rt.slots[r].arg == rt.slots[rank].arg;
      if (alike) [[likely]] {
        if (call.op->combine != nullptr)
          call.op->combine(
              {rt.slots, nullptr, rank, m.count, m.base, m.lanes, rt.collectives.scratch.data(), call.where});
        rank += m.count;
        continue;
      }
    }
    if (first != rank) {
      const member_set& its = call_of(b, first).members;
      if (!(its == m)) fail_masks_differ(rt, record_of(rt, call, rank), first, its);
      ++rank;
      continue;
    }
    const rendezvous_record rec = record_of(rt, call, first);
    for_each_member(m, [&](unsigned r) {
      if (r == first) return;
      const collective_call& other = call_of(b, r);
      current_thread = rt.threads + r;  // the fiber engine's messages name the arriving thread
      if (!(other.members == m)) fail_masks_differ(rt, rec, r, other.members);
      if (other.op != call.op) fail_mismatch(rt, rec, other);
      if (call.uniform_arg && rt.slots[r].arg != rec.first_arg) fail_non_uniform(rt, rec, other);
    });
    if (call.op->combine != nullptr) call.op->combine(members_of(rt, m, call.where));
    ++rank;
  }
  current_thread = rt.threads;
}

}  // extern "C"
