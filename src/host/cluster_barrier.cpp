// The cluster barrier: a spanning barrier (spanning_barrier.hpp) over the
// blocks of one cluster, held by the cluster's slot. In a launch without
// clusters every cluster is one block, and its barrier is the block's.
#include <sstream>
#include <thread>

#include "cohort/detail/host/cluster.hpp"
#include "cohort/detail/host/sync_points.hpp"
#include "cohort/detail/host/implicit_groups.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "scheduler.hpp"

namespace cohort::detail::host {

const spanning_level cluster_level{wait_kind::cluster_barrier, &thread_record::cluster_arrival, "cluster barrier",
                                   {"cluster.sync", nullptr, nullptr}};

namespace {

std::string unreachable_cluster_barrier(const block_runtime& rt, const thread_record& waiter) {
  const cluster_slot& slot = *rt.cluster.slot;
  std::ostringstream s;
  s << "cluster barrier at " << site(waiter.wait_site) << " " << position(*rt.launch, rt.record, waiter)
    << " can never complete: block " << index_text(slot.members[slot.barrier.exited_block()].block_index)
    << " of the same cluster exited after arriving at " << slot.barrier.phases_of_exited_block()
    << " cluster barrier(s); every block of a cluster must reach every cluster.sync()";
  return s.str();
}

}  // namespace

void start_cluster_block(block_runtime& rt, unsigned long long linear_block) {
  cluster_part& c = rt.cluster;
  cluster_launch& clusters = rt.launch->clusters;
  if (!clusters.active()) {
    c.slot = nullptr;
    c.rank = 0;
    c.barrier.start(nullptr, 0);
    return;
  }
  const dim3 g = rt.launch->config.grid, shape = clusters.shape;
  const uint3 b{static_cast<unsigned>(linear_block % g.x), static_cast<unsigned>(linear_block / g.x % g.y),
                static_cast<unsigned>(linear_block / (static_cast<unsigned long long>(g.x) * g.y))};
  const unsigned long long cluster =
      (static_cast<unsigned long long>(b.z / shape.z) * clusters.grid.y + b.y / shape.y) * clusters.grid.x +
      b.x / shape.x;
  c.slot = &clusters.slots[cluster % clusters.slot_count];
  c.rank = ((b.z % shape.z) * shape.y + b.y % shape.y) * shape.x + b.x % shape.x;
  c.barrier.start(&c.slot->barrier, c.rank);
  cluster_member& m = c.slot->members[c.rank];
  m.thread_pointer = reinterpret_cast<std::uintptr_t>(__builtin_thread_pointer());
  m.dynamic_shared = rt.record.dynamic_shared;
  m.block_index = b;
  m.state.store(member_state::running, std::memory_order_release);
}

std::optional<bool> resolve_cluster_stall(block_runtime& rt) {
  static const unsigned cores = std::thread::hardware_concurrency();
  const cluster_launch& clusters = rt.launch->clusters;
  return resolve_spanning_stall(rt, rt.cluster.barrier, rt.launch->aborted, clusters.size * clusters.slot_count <= cores,
                                &unreachable_cluster_barrier);
}

void finish_cluster_block(block_runtime& rt) {
  cluster_part& c = rt.cluster;
  if (c.slot == nullptr) return;
  c.slot->members[c.rank].state.store(member_state::exited, std::memory_order_release);
  c.slot->barrier.block_exited(c.barrier.phases_arrived, c.rank);
}

}  // namespace cohort::detail::host

namespace cohort::detail::host {

namespace runtime = ::cohort::detail::host;

std::uint64_t cluster_arrive(std::source_location where) {
  runtime::block_runtime& rt = runtime::current_runtime();
  if (rt.cluster.slot == nullptr) return runtime::block_arrive(where);
  return runtime::spanning_arrive(rt, rt.cluster.barrier, runtime::cluster_level, where);
}

void cluster_wait(std::uint64_t phase, std::source_location where) {
  runtime::block_runtime& rt = runtime::current_runtime();
  if (rt.cluster.slot == nullptr) return runtime::block_wait(phase, where);
  runtime::spanning_wait(rt, rt.cluster.barrier, runtime::cluster_level, phase, where);
}

void cluster_sync(std::source_location where) { cluster_wait(cluster_arrive(where), where); }

}  // namespace cohort::detail::host
