// What a collective needs to know of each group kind: which threads of the
// block take part (a lane mask or a span of block ranks, as the warp-level
// collectives name them) and whether the group spans the whole grid, in which
// case the block's threads are the block's share of it.
#pragma once

#include <bit>
#include <type_traits>

#include "cohort/detail/host/collectives/block_spans.hpp"
#include "cohort/detail/host/collectives/collective.hpp"
#include "cohort/groups/cluster_group.hpp"
#include "cohort/groups/coalesced_group.hpp"
#include "cohort/groups/grid_group.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/groups/thread_block_tile.hpp"

namespace cohort::detail::host {

// The whole block, named as the smallest tile that covers it: the lanes of
// warp 0 for a block no larger than a warp, else the span of every rank.
inline member_set block_members() { return tile_members(std::bit_ceil(current_block->thread_count)); }

template <class Group>
struct group_traits_of;

template <unsigned Size, class Parent>
struct group_traits_of<thread_block_tile<Size, Parent>> {
  using span = cohort::detail::host::in_block;
  static member_set members(const thread_block_tile<Size, Parent>&) { return tile_members(Size); }
};

template <>
struct group_traits_of<coalesced_group> {
  using span = cohort::detail::host::in_block;
  static member_set members(const coalesced_group& g) { return coalesced_access::members(g); }
};

template <>
struct group_traits_of<thread_block> {
  using span = cohort::detail::host::in_block;
  static member_set members(const thread_block&) { return block_members(); }
};

template <>
struct group_traits_of<grid_group> {
  using span = cohort::detail::host::across_grid;
  static member_set members(const grid_group&) { return block_members(); }
};

template <>
struct group_traits_of<cluster_group> {
  using span = cohort::detail::host::across_cluster;
  static member_set members(const cluster_group&) { return block_members(); }
};

template <class Group>
using group_traits = group_traits_of<std::remove_cvref_t<Group>>;

// Groups the collectives accept: tiles, coalesced groups, blocks, clusters and grids.
template <class Group>
concept collective_group = requires(const Group& g) { group_traits<Group>::members(g); };

}  // namespace cohort::detail::host
