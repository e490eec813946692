// Cluster collectives' exchange between the blocks of a cluster: a phase of
// the cluster barrier whose arrival carries a value, as a grid collective's
// is a phase of the grid barrier (grid_exchange.cpp). It runs in the combine
// of the block's share of the collective, while every other thread of the
// block waits in it, so blocking this OS thread stalls nothing of the block.
#include <cstring>
#include <sstream>

#include "cluster_state.hpp"
#include "cohort/detail/host/block_spans.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "scheduler.hpp"

namespace cohort::detail::host {

namespace {

std::string opening(const runtime::block_runtime& rt, const runtime::collective_op& op, std::source_location where) {
  return "cluster collective `" + std::string(op.name) + "` at " + runtime::site(where) + " " +
         runtime::position(*rt.launch, rt.record, *runtime::current_thread);
}

}  // namespace

const runtime::grid_entry* cluster_exchange(const runtime::collective_op& op, std::source_location site,
                                            const void* value, std::size_t size) {
  runtime::block_runtime& rt = runtime::current_runtime();
  runtime::cluster_part& c = rt.cluster;
  if (c.slot == nullptr) {  // a launch without clusters: the block is its cluster
    thread_local runtime::grid_entry own;
    own.op = &op;
    own.site = site;
    std::memcpy(own.value, value, size);
    return &own;
  }
  runtime::spanning_part& part = c.barrier;
  if (part.arrived != 0) {
    std::ostringstream s;
    s << opening(rt, op, site) << " is called while threads of the block have arrived at a cluster barrier ("
      << runtime::site(part.site) << ") without waiting at it; barrier_wait() before the next cluster collective";
    runtime::fail_block(errc::collective_mismatch, s.str());
  }
  runtime::cluster_slot& slot = *c.slot;
  const std::uint64_t phase = part.phases_arrived;
  runtime::grid_entry* entries = slot.barrier.entries(phase);
  entries[c.rank].op = &op;
  entries[c.rank].site = site;
  std::memcpy(entries[c.rank].value, value, size);
  ++part.phases_arrived;
  slot.barrier.arrive();
  runtime::launch_state& L = *rt.launch;
  switch (slot.barrier.wait_past(phase, L.aborted, false)) {
    case runtime::grid_barrier::outcome::released:
      break;
    case runtime::grid_barrier::outcome::aborted:
      runtime::abandon_block();
    case runtime::grid_barrier::outcome::unreachable: {
      std::ostringstream s;
      s << opening(rt, op, site) << " can never complete: block "
        << runtime::index_text(slot.members[slot.barrier.exited_block()].block_index)
        << " of the same cluster exited after arriving at " << slot.barrier.phases_of_exited_block()
        << " cluster barrier(s); every block of a cluster must reach every cluster collective and cluster.sync()";
      runtime::fail_block(errc::unreachable_barrier, s.str());
    }
  }
  part.phases_released = slot.barrier.generation();
  for (unsigned b = 0; b < L.clusters.size; ++b)
    if (entries[b].op != &op) {
      std::ostringstream s;
      s << "blocks of one cluster call different cluster collectives: " << opening(rt, op, site) << " meets block "
        << runtime::index_text(slot.members[b].block_index) << " in `" << entries[b].op->name << "` at "
        << runtime::site(entries[b].site)
        << "; every block of a cluster must call the same cluster collectives and cluster.sync() in the same order";
      runtime::fail_block(errc::collective_mismatch, s.str());
    }
  return entries;
}

}  // namespace cohort::detail::host
