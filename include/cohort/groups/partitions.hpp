// The partitions of a group into coalesced groups or tiles, written once over
// the backend's partition primitives (detail/<backend>/coalesced_primitives.hpp),
// and the free sync / thread_rank / group_size over any group.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cohort/backend.hpp"
#include "cohort/groups/coalesced_group.hpp"
#include "cohort/groups/grid_group.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/groups/thread_block_tile.hpp"
#include "cohort/groups/thread_group.hpp"

namespace cohort {

namespace detail {

COHORT_DEVICE inline coalesced_group from_split(const impl::partition_result_lanes& part) {
  return group_access::make_coalesced(part.lanes, part.meta_rank, part.meta_size);
}

// Members with equal labels form a group, ranked by its lowest member. A bool
// label is a binary partition (NVIDIA's: meta rank = the predicate); a
// pointer label compares addresses.
template <class Label>
COHORT_DEVICE coalesced_group labeled(const impl::partition_parent& parent, Label label, call_site where) {
  static_assert(std::is_integral_v<Label> || std::is_pointer_v<Label>,
                "labeled_partition takes an integral or a pointer label");
  if constexpr (std::is_same_v<Label, bool>)
    return from_split(impl::binary_split(parent, label, where));
  else if constexpr (std::is_pointer_v<Label>)
    return from_split(impl::labeled_split(parent, reinterpret_cast<std::uintptr_t>(label), where));
  else
    return from_split(impl::labeled_split(parent, label, where));
}

}  // namespace detail

template <class Label>
COHORT_DEVICE coalesced_group labeled_partition(const coalesced_group& parent, Label label,
                                                call_site where = call_site::current()) {
  return detail::labeled(detail::impl::coalesced_parent(detail::group_access::lanes(parent)), label, where);
}

// A tile's partitions need it to lie within one warp, as a coalesced group does.
template <class Label, unsigned Size, class ParentT>
COHORT_DEVICE coalesced_group labeled_partition(const thread_block_tile<Size, ParentT>&, Label label,
                                                call_site where = call_site::current()) {
  return detail::labeled(detail::impl::tile_parent<Size>("labeled_partition", where), label, where);
}

// The members whose predicate matches the caller's: meta rank = the predicate
// of meta size 2, or the whole group (0 of 1) if all predicates agree.
COHORT_DEVICE inline coalesced_group binary_partition(const coalesced_group& parent, bool pred,
                                                      call_site where = call_site::current()) {
  return detail::from_split(
      detail::impl::binary_split(detail::impl::coalesced_parent(detail::group_access::lanes(parent)), pred, where));
}

template <unsigned Size, class ParentT>
COHORT_DEVICE coalesced_group binary_partition(const thread_block_tile<Size, ParentT>&, bool pred,
                                               call_site where = call_site::current()) {
  return detail::from_split(
      detail::impl::binary_split(detail::impl::tile_parent<Size>("binary_partition", where), pred, where));
}

// NVIDIA's rule: runs of `tile_size` ranks, the last one short where the
// group's size is not a multiple; a group no larger than tile_size is
// returned as it is.
COHORT_DEVICE inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tile_size,
                                                     call_site where = call_site::current()) {
  detail::impl::check_tile_size(tile_size, where);
  const unsigned n = parent.num_threads();
  if (n <= tile_size) return parent;
  const unsigned run = parent.thread_rank() / tile_size;
  return detail::group_access::make_coalesced(
      detail::impl::lanes_run(detail::group_access::lanes(parent), run * tile_size, tile_size), run,
      (n + tile_size - 1) / tile_size);
}

// Tiles of `tile_size` threads (a power of two up to 1024) of a block, a tile
// or a coalesced group. A block's last tile may be partial (as NVIDIA's
// dynamic partition has it); a tile's size must divide its parent tile's.
// A block's tiles wider than a warp are prepared as tiled_partition<Size>
// prepares them. Groups wider than a block have no tiles.
#define COHORT_PARTITIONABLE "only thread blocks, tiles and coalesced groups can be partitioned"
COHORT_DEVICE inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size,
                                                  call_site where = call_site::current()) {
  detail::impl::check_tile_size(tile_size, where);
  switch (detail::group_access::kind(parent)) {
    case detail::group_kind::thread_block:
      detail::impl::prepare_block_tiles(tile_size);
      return detail::group_access::make_tile_group(tile_size);
    case detail::group_kind::tile:
      detail::impl::check_tile_of_tile(tile_size, detail::group_access::tile_size(parent), where);
      return detail::group_access::make_tile_group(tile_size);
    case detail::group_kind::coalesced:
      return tiled_partition(detail::group_access::make_coalesced(detail::group_access::group_lanes(parent), 0, 1),
                             tile_size, where);
    case detail::group_kind::cluster:
      detail::impl::partition_error("tiled_partition of a cluster_group: " COHORT_PARTITIONABLE, where);
    case detail::group_kind::multi_grid:
      detail::impl::partition_error("tiled_partition of a multi_grid_group: " COHORT_PARTITIONABLE, where);
    case detail::group_kind::grid:
      break;
  }
  detail::impl::partition_error("tiled_partition of a grid_group: " COHORT_PARTITIONABLE, where);
}
#undef COHORT_PARTITIONABLE

COHORT_DEVICE inline thread_group tiled_partition(const thread_block& parent, unsigned tile_size,
                                                  call_site where = call_site::current()) {
  return tiled_partition(static_cast<const thread_group&>(parent), tile_size, where);
}

template <class Group>
COHORT_DEVICE void sync(const Group& g, call_site where = call_site::current()) {
  g.sync(where);
}
template <class Group>
COHORT_DEVICE unsigned long long thread_rank(const Group& g) {
  return g.thread_rank();
}
template <class Group>
COHORT_DEVICE unsigned long long group_size(const Group& g) {
  return g.num_threads();
}

}  // namespace cohort
