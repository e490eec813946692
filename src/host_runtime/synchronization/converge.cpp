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

#include "diagnostics/diagnostics.hpp"
#include "launch/block_runtime.hpp"
#include "synchronization/rendezvous.hpp"

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

// A site's lanes waiting in coalesced_threads(): which, whether one of them
// is back at the site where it got its last group in this block (a loop's
// back edge), and when the first of them arrived.
struct waiting_site {
  std::source_location where;
  std::uint64_t lanes = 0;
  bool returning = false;
  std::uint64_t first_arrival = ~std::uint64_t{0};
};

// The site whose lanes form a group next: one that a lane came back to (the
// body of a loop whose trip count differs by lane: the lanes that left it
// wait after it while the others go round again, and the warp regroups after
// the loop whole, as a GPU reconverges there), else the one whose lanes all
// arrived last (the inner of two nested waits). Forming every site's group
// at once grouped the lanes after such a loop by their trip count.
waiting_site next_site(const block_record& b, unsigned base, std::uint64_t waiting) {
  waiting_site sites[64];
  unsigned count = 0;
  for (std::uint64_t l = waiting; l != 0; l &= l - 1) {
    const thread_record& t = b.threads[base + static_cast<unsigned>(std::countr_zero(l))];
    waiting_site* s = sites;
    while (s != sites + count && !same_site(s->where, t.wait_site)) ++s;
    if (s == sites + count) {
      s->where = t.wait_site;
      ++count;
    }
    s->lanes |= l & ~(l - 1);
    s->returning |= t.converged_block == b.serial && same_site(t.converged_at, t.wait_site);
    s->first_arrival = std::min(s->first_arrival, t.wait_phase);
  }
  const auto later = [](const waiting_site& a, const waiting_site& c) {
    return a.returning != c.returning ? c.returning : a.first_arrival < c.first_arrival;
  };
  return *std::max_element(sites, sites + count, later);
}

// The lanes waiting at one call site (next_site) become a group; each gets
// its group's lane mask. `self` is the arriving lane, which does not park.
// Lanes at other sites go on waiting, until the warp settles again. Returns
// whether `self` is in the group (else it is to wait).
bool form_groups(block_runtime& rt, unsigned warp, thread_record* self) {
  block_record& b = rt;
  collective_state& cs = rt.collectives;
  const unsigned base = warp * b.warp_size;
  const unsigned n = std::min(b.warp_size, b.thread_count - base);
  std::uint64_t waiting = 0;
  for (unsigned l = 0; l < n; ++l)
    if (b.threads[base + l].waiting == wait_kind::converge) waiting |= std::uint64_t{1} << l;
  const waiting_site site = next_site(b, base, waiting);
  const std::uint64_t lanes = site.lanes;
  for (std::uint64_t l = lanes; l != 0; l &= l - 1) {
    const unsigned rank = base + static_cast<unsigned>(std::countr_zero(l));
    std::memcpy(b.slots[rank].out, &lanes, sizeof lanes);
    b.threads[rank].converged_at = site.where;
    b.threads[rank].converged_block = b.serial;
  }
  // Every lane that waited but `self`, which does not park.
  const bool self_in_group = self != nullptr && ((lanes >> (self->rank - base)) & 1) != 0;
  const std::uint64_t woken_lanes = self_in_group ? lanes & ~(std::uint64_t{1} << (self->rank - base)) : lanes;
  const unsigned woken = lane_count(woken_lanes);
  cs.converging[warp] -= woken;
  cs.converging_total -= woken;
  if (cs.converging_total == 0) rt.stop_watching_parks();
  if (self_in_group) move_to(*self, wait_kind::none);
  rt.wake(woken, [&](auto&& queue) {
    for (std::uint64_t l = woken_lanes; l != 0; l &= l - 1)
      queue(b.threads[base + static_cast<unsigned>(std::countr_zero(l))]);
  });
  return self_in_group;
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
  move_to(self, wait_kind::converge);  // counted by the warp's check; parks below as converge still
  self.wait_site = where;
  self.wait_phase = ++cs.converge_arrivals;  // which site was reached last (form_groups)
  // Settled, the warp forms a group, which need not be the caller's (next_site).
  if (!warp_settled(rt, warp, self.rank & (rt.warp_size - 1)) || !form_groups(rt, warp, &self)) {
    ++cs.converging[warp];
    if (cs.converging_total++ == 0) rt.watch_parks(&settle_lane);
    park(rt, self, wait_kind::converge, where, self.wait_phase);
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
