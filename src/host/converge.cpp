// coalesced_threads() and __activemask() on the host. On a GPU the group is the
// warp's lanes that are active (converged) at the call; the host's rule
// (docs/warp-level.md): the lanes of the warp that reach the same call site while every
// other live lane of the warp is parked at some other collective or barrier,
// or has exited. A lane therefore waits in coalesced_threads() until its warp
// has settled; whether it has is checked when a lane of that warp arrives
// there, parks elsewhere or exits, and the check reads only that warp.
#include <algorithm>
#include <bit>
#include <cstring>

#include "diagnostics.hpp"
#include "rendezvous.hpp"
#include "block_runtime.hpp"

namespace cohort::detail::host {

namespace {

// Every lane of `warp` has started and is parked or gone. A started lane that
// is neither queued to run nor parked has exited: the one running lane is
// always parking, arriving or exiting when this is asked.
bool warp_settled(const block_record& b, unsigned warp, unsigned from_lane) {
  const unsigned base = warp * b.warp_size;
  const unsigned n = std::min(b.warp_size, b.thread_count - base);
  // Starting after the asking lane meets the lane still to run (usually the
  // next one) first.
  for (unsigned k = 1; k <= n; ++k) {
    const unsigned rank = base + (from_lane + k) % n;
    if (rank >= b.next_unstarted || b.threads[rank].waiting == wait_kind::runnable) return false;
  }
  return true;
}

// Each set of lanes waiting at one call site becomes a group; each lane gets
// its group's lane mask. `self` is the arriving lane, which does not park.
void form_groups(block_runtime& rt, unsigned warp, thread_record* self) {
  block_record& b = rt;
  collective_state& cs = rt.collectives;
  const unsigned base = warp * b.warp_size;
  const unsigned n = std::min(b.warp_size, b.thread_count - base);
  std::uint64_t waiting = 0;
  for (unsigned l = 0; l < n; ++l)
    if (b.threads[base + l].waiting == wait_kind::converge) waiting |= std::uint64_t{1} << l;
  const std::uint64_t lanes = waiting;
  while (waiting != 0) {
    const std::source_location where = b.threads[base + std::countr_zero(waiting)].wait_site;
    std::uint64_t group = 0;
    for (std::uint64_t l = waiting; l != 0; l &= l - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(l));
      if (same_site(b.threads[base + lane].wait_site, where)) group |= std::uint64_t{1} << lane;
    }
    waiting &= ~group;
    for (std::uint64_t l = group; l != 0; l &= l - 1)
      std::memcpy(b.slots[base + static_cast<unsigned>(std::countr_zero(l))].out, &group, sizeof group);
  }
  // Every lane that waited but `self`, which does not park.
  const std::uint64_t woken_lanes = self != nullptr ? lanes & ~(std::uint64_t{1} << (self->rank - base)) : lanes;
  const unsigned woken = lane_count(woken_lanes);
  cs.converging[warp] -= woken;
  cs.converging_total -= woken;
  if (cs.converging_total == 0) rt.stop_watching_parks();
  if (self != nullptr) self->waiting = wait_kind::none;
  rt.wake(woken, [&](auto&& queue) {
    for (std::uint64_t l = woken_lanes; l != 0; l &= l - 1)
      queue(b.threads[base + static_cast<unsigned>(std::countr_zero(l))]);
  });
}

// The scheduler's hook while lanes converge: a lane about to park may be the
// last of its warp that they wait for.
void settle_lane(scheduled_block& b, const thread_record& lane) { lane_settled(static_cast<block_runtime&>(b), lane); }

}  // namespace

std::uint64_t converge(std::source_location where) {
  block_runtime& rt = current_runtime();
  thread_record& self = *current_thread;
  collective_state& cs = rt.collectives;
  const unsigned warp = warp_of(rt, self.rank);
  cs.used = true;
  self.waiting = wait_kind::converge;
  self.wait_site = where;
  if (warp_settled(rt, warp, self.rank & (rt.warp_size - 1))) {
    form_groups(rt, warp, &self);
  } else {
    ++cs.converging[warp];
    if (cs.converging_total++ == 0) rt.watch_parks(&settle_lane);
    park(rt, self, wait_kind::converge, where, 0);
  }
  return result_from<std::uint64_t>(rt.slots[self.rank]);
}

void lane_settled(block_runtime& rt, const thread_record& lane) {
  const unsigned warp = warp_of(rt, lane.rank);
  if (lane.waiting != wait_kind::converge && rt.collectives.converging[warp] != 0 &&
      warp_settled(rt, warp, lane.rank & (rt.warp_size - 1)))
    form_groups(rt, warp, nullptr);
}

}  // namespace cohort::detail::host
