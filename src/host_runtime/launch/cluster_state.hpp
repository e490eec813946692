// The host runtime's clusters. A cluster launch runs its clusters on slots:
// a slot is as many OS threads as a cluster has blocks, which start the
// cluster's blocks together (so they are co-resident) and move on to the
// slot's next cluster together once every block of the current one has
// finished. A slot holds the cluster's barrier (one arrival per block) and,
// per block, where its shared memory lives, so that map_shared_rank can reach
// it while the block runs and refuse once it has exited.
#pragma once

#include <atomic>
#include <barrier>
#include <cstdint>
#include <memory>
#include <optional>
#include <source_location>
#include <vector>

#include "cohort/detail/host/language/vector_types.hpp"
#include "synchronization/level_barrier.hpp"

namespace cohort::detail::host {

struct launch_state;

enum class member_state : int { unstarted, running, exited };

struct cluster_member {
  std::atomic<member_state> state{member_state::unstarted};
  std::uintptr_t thread_pointer = 0;  // the OS thread's: its __shared__ variables are its thread-locals
  unsigned char* dynamic_shared = nullptr;
  uint3 block_index{};
};

struct cluster_slot {
  // Starts the slot's next cluster once every member is done with the last.
  struct next_cluster {
    cluster_slot* slot;
    void operator()() noexcept;
  };

  level_barrier barrier;
  std::unique_ptr<cluster_member[]> members;
  std::optional<std::barrier<next_cluster>> gate;
  unsigned long long cluster = 0;  // the cluster the slot runs now
  bool done = false;               // no cluster left for the slot (or the launch failed)
  unsigned index = 0;
  unsigned long long round = 0;
  const launch_state* launch = nullptr;
};

struct cluster_launch {
  dim3 shape{1, 1, 1};
  unsigned size = 1;             // blocks per cluster
  dim3 grid{1, 1, 1};            // the grid in clusters
  unsigned long long count = 0;  // clusters in the grid
  unsigned slot_count = 0;
  std::unique_ptr<cluster_slot[]> slots;

  bool active() const { return slots != nullptr; }
  void wake_all() {
    for (unsigned s = 0; s < slot_count; ++s) slots[s].barrier.wake_all();
  }
};

// The linear index of block `rank` (in the cluster) of cluster `cluster` (linear, in the grid of clusters).
unsigned long long block_of_cluster(const launch_state& launch, unsigned long long cluster, unsigned rank);

// Sets up the launch's clusters (none unless its cluster shape has more than one block).
void prepare_clusters(launch_state& launch, unsigned worker_threads);
// Runs a cluster launch's blocks, slot by slot.
void run_clusters(launch_state& launch);

}  // namespace cohort::detail::host
