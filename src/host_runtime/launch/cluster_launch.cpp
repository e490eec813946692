// Running a cluster launch: every cluster's blocks start together on their
// own OS threads (a slot), so they are co-resident as sm_90 guarantees; a
// cooperative launch has a slot per cluster, any other launch as many as its
// worker threads make up (at least one), each running every slot_count-th
// cluster in turn.
#include <algorithm>

#include "cohort/detail/cluster_shape.hpp"
#include "cohort/errors.hpp"
#include "launch/launch_state.hpp"
#include "scheduling/worker.hpp"
#include "scheduling/worker_pool.hpp"

namespace cohort::detail::host {

void cluster_slot::next_cluster::operator()() noexcept {
  cluster_slot& s = *slot;
  const cluster_launch& clusters = s.launch->clusters;
  s.cluster = s.index + s.round++ * clusters.slot_count;
  s.done = s.cluster >= clusters.count || s.launch->aborted.load(std::memory_order_acquire);
  s.barrier.reset(clusters.size);
  for (unsigned r = 0; r < clusters.size; ++r) s.members[r].state.store(member_state::unstarted);
}

void prepare_clusters(launch_state& launch, unsigned worker_threads) {
  const launch_config& cfg = launch.config;
  if (!cohort::detail::is_cluster_launch(cfg)) return;
  cluster_launch& c = launch.clusters;
  c.shape = cfg.cluster;
  c.size = static_cast<unsigned>(cohort::detail::volume(cfg.cluster));
  c.grid = cohort::detail::grid_in_clusters(cfg);
  c.count = cohort::detail::volume(c.grid);
  c.slot_count = static_cast<unsigned>(
      launch.cooperative ? c.count : std::clamp<unsigned long long>(worker_threads / c.size, 1, c.count));
  c.slots = std::make_unique<cluster_slot[]>(c.slot_count);
  for (unsigned s = 0; s < c.slot_count; ++s) {
    cluster_slot& slot = c.slots[s];
    slot.barrier.configure(&launch.aborted, every_block_has_a_core(c.size * c.slot_count));
    slot.index = s;
    slot.launch = &launch;
    slot.members = std::make_unique<cluster_member[]>(c.size);
    slot.gate.emplace(static_cast<std::ptrdiff_t>(c.size), cluster_slot::next_cluster{&slot});
  }
}

unsigned long long block_of_cluster(const launch_state& launch, unsigned long long k, unsigned rank) {
  const cluster_launch& c = launch.clusters;
  const dim3 g = launch.config.grid;
  const uint3 in_cluster{rank % c.shape.x, rank / c.shape.x % c.shape.y, rank / (c.shape.x * c.shape.y)};
  const uint3 cluster{static_cast<unsigned>(k % c.grid.x), static_cast<unsigned>(k / c.grid.x % c.grid.y),
                      static_cast<unsigned>(k / (static_cast<unsigned long long>(c.grid.x) * c.grid.y))};
  const uint3 b{cluster.x * c.shape.x + in_cluster.x, cluster.y * c.shape.y + in_cluster.y,
                cluster.z * c.shape.z + in_cluster.z};
  return (static_cast<unsigned long long>(b.z) * g.y + b.y) * g.x + b.x;
}

void run_clusters(launch_state& launch) {
  cluster_launch& c = launch.clusters;
  run_on_threads(c.slot_count * c.size, [&](unsigned thread) {
    cluster_slot& slot = c.slots[thread / c.size];
    const unsigned rank = thread % c.size;
    for (;;) {
      slot.gate->arrive_and_wait();
      if (slot.done) return;
      const unsigned long long linear = block_of_cluster(launch, slot.cluster, rank);
      const core_claim core;
      run_blocks(launch, linear, linear + 1);
    }
  });
}

}  // namespace cohort::detail::host
