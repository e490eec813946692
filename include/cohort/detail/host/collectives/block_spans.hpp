// How a host collective reaches beyond its block: not at all (tiles,
// coalesced groups, the block), across the cluster's blocks through the
// cluster barrier's entries, or across the grid's through the grid barrier's.
// A collective whose group spans blocks folds the block's share first, then
// exchanges the block totals with one barrier phase (include/cohort/detail/host/collectives/fold.hpp).
#pragma once

#include <cstddef>
#include <source_location>

#include "cohort/detail/host/cluster.hpp"
#include "cohort/detail/host/collectives/grid_exchange.hpp"
#include "cohort/detail/host/implicit_groups.hpp"

namespace cohort::detail::host {

namespace runtime = ::cohort::detail::host;

// Publishes the calling block's entry for `op` to its cluster and waits for
// every block of the cluster to publish one (the cluster level's exchange,
// src/host_runtime/synchronization/barriers.cpp).
const runtime::grid_entry* cluster_exchange(const runtime::collective_op& op, std::source_location site,
                                            const void* value, std::size_t size);

struct in_block {
  static constexpr bool spans_blocks = false;
};

struct across_cluster {
  static constexpr bool spans_blocks = true;
  static void require(const char*, std::source_location) {}
  static const runtime::grid_entry* exchange(const runtime::collective_op& op, std::source_location site,
                                             const void* value, std::size_t size) {
    return cluster_exchange(op, site, value, size);
  }
  static unsigned long long rank() { return cluster_block_rank(); }
  static unsigned long long count() { return cluster_block_count(); }
};

struct across_grid {
  static constexpr bool spans_blocks = true;
  static void require(const char* name, std::source_location where) { runtime::require_cooperative(name, where); }
  static const runtime::grid_entry* exchange(const runtime::collective_op& op, std::source_location site,
                                             const void* value, std::size_t size) {
    return runtime::grid_exchange(op, site, value, size);
  }
  static unsigned long long rank() { return runtime::block_linear_rank(); }
  static unsigned long long count() { return runtime::blocks_in_grid(); }
};

}  // namespace cohort::detail::host
