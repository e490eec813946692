// The cluster barrier: a block arrives once its last live thread has (as at
// the grid barrier), the slot's barrier completes once every block of the
// cluster has arrived, and a block that exits before arriving makes the
// phases it missed unreachable, an error rather than a hang. In a launch
// without clusters every cluster is one block, and its barrier is the block's.
#include <algorithm>
#include <sstream>
#include <thread>

#include "cohort/detail/host/cluster.hpp"
#include "cohort/host/detail/sync_points.hpp"
#include "cohort/host/implicit_groups.hpp"
#include "diagnostics.hpp"
#include "launch_state.hpp"
#include "scheduler.hpp"

namespace cohort::host::detail {

namespace {

// What a block's entry names while it waits at cluster.sync(): a cluster collective that meets it reports the mismatch.
constexpr collective_op cluster_sync_op{"cluster.sync", nullptr, nullptr};

void block_arrives_at_cluster(block_runtime& rt) {
  cluster_part& c = rt.cluster;
  grid_entry& entry = c.slot->barrier.entries(c.phases_arrived)[c.rank];
  entry.op = &cluster_sync_op;
  entry.site = c.site;
  rt.record.arrivals_pending -= c.arrived;
  c.arrived = 0;
  ++c.phases_arrived;
  c.slot->barrier.arrive();
}

std::string unreachable_cluster_barrier(const block_runtime& rt, const thread_record& waiter) {
  const cluster_slot& slot = *rt.cluster.slot;
  std::ostringstream s;
  s << "cluster barrier at " << site(waiter.wait_site) << " " << position(*rt.launch, rt.record, waiter)
    << " can never complete: block " << index_text(slot.members[slot.barrier.exited_block()].block_index)
    << " of the same cluster exited after arriving at " << slot.barrier.phases_of_exited_block()
    << " cluster barrier(s); every block of a cluster must reach every cluster.sync()";
  return s.str();
}

void wake_released(block_runtime& rt) {
  std::vector<thread_record*> released;
  std::erase_if(rt.cluster.waiters, [&](thread_record* t) {
    if (t->wait_phase >= rt.cluster.phases_released) return false;
    released.push_back(t);
    return true;
  });
  rt.wake(released);
}

}  // namespace

void start_cluster_block(block_runtime& rt, unsigned long long linear_block) {
  cluster_part& c = rt.cluster;
  c.arrived = 0;
  c.phases_arrived = 0;
  c.phases_released = 0;
  c.first = nullptr;
  c.waiters.clear();
  cluster_launch& clusters = rt.launch->clusters;
  if (!clusters.active()) {
    c.slot = nullptr;
    c.rank = 0;
    return;
  }
  const dim3 g = rt.launch->config.grid, shape = clusters.shape;
  const uint3 b{static_cast<unsigned>(linear_block % g.x), static_cast<unsigned>(linear_block / g.x % g.y),
                static_cast<unsigned>(linear_block / (static_cast<unsigned long long>(g.x) * g.y))};
  const unsigned long long cluster =
      (static_cast<unsigned long long>(b.z / shape.z) * clusters.grid.y + b.y / shape.y) * clusters.grid.x +
      b.x / shape.x;
  c.slot = &clusters.slots[(cluster % clusters.slot_count)];
  c.rank = ((b.z % shape.z) * shape.y + b.y % shape.y) * shape.x + b.x % shape.x;
  cluster_member& m = c.slot->members[c.rank];
  m.thread_pointer = reinterpret_cast<std::uintptr_t>(__builtin_thread_pointer());
  m.dynamic_shared = rt.record.dynamic_shared;
  m.block_index = b;
  m.state.store(member_state::running, std::memory_order_release);
}

std::optional<bool> resolve_cluster_stall(block_runtime& rt) {
  cluster_part& c = rt.cluster;
  if (c.waiters.empty()) return std::nullopt;
  const auto oldest = std::min_element(c.waiters.begin(), c.waiters.end(),
                                       [](auto* a, auto* b) { return a->wait_phase < b->wait_phase; });
  const std::uint64_t phase = (*oldest)->wait_phase;
  if (phase >= c.phases_arrived) return std::nullopt;  // the block itself has not arrived: a deadlock
  launch_state& L = *rt.launch;
  static const unsigned cores = std::thread::hardware_concurrency();
  switch (c.slot->barrier.wait_past(phase, L.aborted, L.clusters.size * L.clusters.slot_count <= cores)) {
    case grid_barrier::outcome::released:
      c.phases_released = c.slot->barrier.generation();
      wake_released(rt);
      return true;
    case grid_barrier::outcome::aborted:
      return false;
    case grid_barrier::outcome::unreachable:
      L.fail(errc::unreachable_barrier, unreachable_cluster_barrier(rt, **oldest), block_linear_rank());
      return false;
  }
  return false;
}

void finish_cluster_block(block_runtime& rt) {
  cluster_part& c = rt.cluster;
  if (c.slot == nullptr) return;
  c.slot->members[c.rank].state.store(member_state::exited, std::memory_order_release);
  c.slot->barrier.block_exited(c.phases_arrived, c.rank);
}

void cluster_thread_exit(block_runtime& rt, thread_record& thread) {
  cluster_part& c = rt.cluster;
  if (c.slot == nullptr) return;
  if (thread.cluster_arrival == c.phases_arrived) {
    --c.arrived;
    --rt.record.arrivals_pending;
  }
  if (c.arrived != 0 && c.arrived == rt.record.live) block_arrives_at_cluster(rt);
}

}  // namespace cohort::host::detail

namespace cohort::detail::host {

namespace runtime = ::cohort::host::detail;

std::uint64_t cluster_arrive(std::source_location where) {
  runtime::block_runtime& rt = runtime::current_runtime();
  runtime::cluster_part& c = rt.cluster;
  if (c.slot == nullptr) return runtime::block_arrive(where);
  if (c.arrived == 0) {
    c.site = where;
    c.first = runtime::current_thread;
  } else if (!runtime::same_site(c.site, where)) {
    std::ostringstream s;
    s << "threads of block " << runtime::index_text(rt.record.block_index) << " in kernel `"
      << runtime::kernel_name(rt.launch->entry->kernel) << "` wait at different cluster barrier call sites: thread "
      << runtime::index_text(c.first->index) << " at " << runtime::site(c.site) << " and thread "
      << runtime::index_text(runtime::current_thread->index) << " at " << runtime::site(where)
      << "; every thread of a block must reach the same barrier call";
    runtime::fail_block(errc::barrier_mismatch, s.str());
  }
  const std::uint64_t phase = c.phases_arrived;
  runtime::current_thread->cluster_arrival = phase;
  rt.arrivals_recorded = true;
  ++c.arrived;
  ++rt.record.arrivals_pending;
  if (c.arrived == rt.record.live) runtime::block_arrives_at_cluster(rt);
  return phase;
}

void cluster_wait(std::uint64_t phase, std::source_location where) {
  runtime::block_runtime& rt = runtime::current_runtime();
  runtime::cluster_part& c = rt.cluster;
  if (c.slot == nullptr) return runtime::block_wait(phase, where);
  if (phase < c.phases_released) return;
  c.waiters.push_back(runtime::current_thread);
  runtime::park(runtime::wait_kind::cluster_barrier, where, phase);
}

void cluster_sync(std::source_location where) { cluster_wait(cluster_arrive(where), where); }

}  // namespace cohort::detail::host
