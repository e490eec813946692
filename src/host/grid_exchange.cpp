// Grid collectives' exchange between blocks: a grid barrier phase whose
// arrival carries a value. It runs in the combine of the block's share of the
// collective, on the fiber of the block's last thread to arrive, while every
// other thread of the block waits in that collective, so blocking this OS
// thread until the other blocks arrive stalls nothing of this block.
#include "grid_exchange.hpp"

#include <cstring>
#include <sstream>

#include "cohort/detail/host/grid_exchange.hpp"
#include "cohort/detail/host/implicit_groups.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "scheduler.hpp"

namespace cohort::detail::host {

namespace {

uint3 block_index_of(const launch_state& launch, unsigned long long linear) {
  const dim3 g = launch.config.grid;
  return {static_cast<unsigned>(linear % g.x), static_cast<unsigned>(linear / g.x % g.y),
          static_cast<unsigned>(linear / (static_cast<unsigned long long>(g.x) * g.y))};
}

std::string opening(const block_runtime& rt, const collective_op& op, std::source_location where) {
  return "grid collective `" + std::string(op.name) + "` at " + site(where) + " " +
         position(*rt.launch, rt.record, *current_thread);
}

[[noreturn]] void fail_pending_arrival(const block_runtime& rt, const collective_op& op, std::source_location where) {
  std::ostringstream s;
  s << opening(rt, op, where) << " is called while threads of the block have arrived at a grid barrier ("
    << site(rt.grid_site) << ", first thread " << index_text(rt.grid_first->index)
    << ") without waiting at it; barrier_wait() before the next grid collective";
  fail_block(errc::collective_mismatch, s.str());
}

[[noreturn]] void fail_unreachable(const block_runtime& rt, const collective_op& op, std::source_location where) {
  const launch_state& L = *rt.launch;
  std::ostringstream s;
  s << opening(rt, op, where) << " can never complete: block " << index_text(block_index_of(L, L.grid.exited_block()))
    << " exited after arriving at " << L.grid.phases_of_exited_block()
    << " grid barrier(s); every block of a cooperative launch must reach every grid collective and grid.sync()";
  fail_block(errc::unreachable_barrier, s.str());
}

[[noreturn]] void fail_mismatch(const block_runtime& rt, const collective_op& op, std::source_location where,
                                unsigned long long other, const grid_entry& theirs) {
  std::ostringstream s;
  s << "blocks of one grid call different grid collectives: " << opening(rt, op, where) << " meets block "
    << index_text(block_index_of(*rt.launch, other)) << " in `" << theirs.op->name << "` at " << site(theirs.site)
    << "; every block must call the same grid collectives (with the same value type) and grid.sync() in the same "
       "order";
  fail_block(errc::collective_mismatch, s.str());
}

}  // namespace

void require_cooperative(const char* collective, std::source_location where) {
  const block_runtime& rt = current_runtime();
  if (rt.record.cooperative) return;
  fail_block(errc::not_cooperative,
             "grid collective `" + std::string(collective) + "` at " + site(where) + " " +
                 position(*rt.launch, rt.record, *current_thread) +
                 ": the kernel was not launched cooperatively, so its blocks need not be co-resident and the "
                 "collective could hang; launch it with cohort::launch_cooperative(...) (grid_group::is_valid() "
                 "tells a kernel which launch it got)");
}

const grid_entry* grid_exchange(const collective_op& op, std::source_location site, const void* value,
                                std::size_t size) {
  block_runtime& rt = current_runtime();
  launch_state& L = *rt.launch;
  if (rt.grid_arrived != 0) fail_pending_arrival(rt, op, site);
  const std::uint64_t phase = rt.grid_phases_arrived;
  grid_entry* entries = L.grid.entries(phase);
  const unsigned long long me = block_linear_rank();
  entries[me].op = &op;
  entries[me].site = site;
  std::memcpy(entries[me].value, value, size);
  ++rt.grid_phases_arrived;
  L.grid.arrive();
  switch (L.grid.wait_past(phase, L.aborted, L.grid_may_spin)) {
    case grid_barrier::outcome::released:
      break;
    case grid_barrier::outcome::aborted:
      abandon_block();
    case grid_barrier::outcome::unreachable:
      fail_unreachable(rt, op, site);
  }
  rt.grid_phases_released = L.grid.generation();
  for (unsigned long long b = 0; b < L.block_count; ++b)
    if (entries[b].op != &op) fail_mismatch(rt, op, site, b, entries[b]);
  return entries;
}

}  // namespace cohort::detail::host
