// The groups of the host backend: the implicit ones (thread_block,
// grid_group), tiles, coalesced groups and their partitions, and the
// type-erased thread_group with the dynamic tiled_partition(group, size).
#pragma once

#include <bit>
#include <cstdint>
#include <source_location>
#include <string>

#include "cohort/detail/host/coalesced.hpp"
#include "cohort/detail/host/collective.hpp"
#include "cohort/groups/grid_group.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/detail/host/tiles.hpp"

namespace cohort {

// Any group, its type erased. Synchronizing it synchronizes the group it was
// made from; its rank and size are that group's.
class thread_group {
 public:
  enum class kind : unsigned char { thread_block, grid, tile, coalesced };

  thread_group(const thread_block&) : kind_(kind::thread_block) {}
  thread_group(const grid_group&) : kind_(kind::grid) {}
  template <unsigned N>
  thread_group(const thread_block_tile<N>&) : kind_(kind::tile), tile_size_(N) {}
  thread_group(const coalesced_group& g) : kind_(kind::coalesced), lanes_(detail::host::coalesced_access::lanes(g)) {}

  void sync(std::source_location where = std::source_location::current()) const {
    switch (kind_) {
      case kind::grid:
        detail::host::grid_sync(where);
        break;
      case kind::thread_block:
        detail::host::block_sync(where);
        break;
      case kind::tile:
        detail::host::synchronize(detail::host::tile_members(tile_size_), where);
        break;
      case kind::coalesced:
        detail::host::synchronize(coalesced_members(), where);
        break;
    }
  }
  unsigned long long thread_rank() const {
    switch (kind_) {
      case kind::grid:
        return grid_group::thread_rank();
      case kind::thread_block:
        return thread_block::thread_rank();
      case kind::tile:
        return detail::host::block_rank() & (tile_size_ - 1);
      case kind::coalesced:
        return static_cast<unsigned>(std::popcount(lanes_ & detail::host::low_lanes(detail::host::lane_id())));
    }
    return 0;
  }
  unsigned long long num_threads() const {
    switch (kind_) {
      case kind::grid:
        return grid_group::num_threads();
      case kind::thread_block:
        return thread_block::num_threads();
      case kind::tile:
        return detail::host::tile_count(tile_size_);
      case kind::coalesced:
        return static_cast<unsigned>(std::popcount(lanes_));
    }
    return 0;
  }
  unsigned long long size() const { return num_threads(); }
  kind get_type() const { return kind_; }

 private:
  friend thread_group tiled_partition(const thread_group& parent, unsigned tile_size, std::source_location where);

  static thread_group tile(unsigned size) {
    thread_group g(kind::tile);
    g.tile_size_ = size;
    return g;
  }
  explicit thread_group(kind k) : kind_(k) {}
  coalesced_group as_coalesced() const { return detail::host::coalesced_access::make(lanes_, 0, 1); }
  detail::host::member_set coalesced_members() const {
    return {detail::host::warp_base(), static_cast<unsigned>(std::popcount(lanes_)), lanes_};
  }

  kind kind_;
  unsigned tile_size_ = 0;   // tile
  std::uint64_t lanes_ = 0;  // coalesced
};

// Tiles of `tile_size` threads (a power of two up to 1024) of a block, a tile
// or a coalesced group. A block's last tile may be partial (as NVIDIA's
// dynamic partition has it); a tile's size must divide its parent tile's.
inline thread_group tiled_partition(const thread_group& parent, unsigned tile_size,
                                    std::source_location where = std::source_location::current()) {
  detail::host::check_tile_size(tile_size, where);
  switch (parent.kind_) {
    case thread_group::kind::thread_block:
      return thread_group::tile(tile_size);
    case thread_group::kind::tile:
      if (tile_size > parent.tile_size_)
        detail::host::usage_error(errc::invalid_argument,
                                  "tiled_partition into tiles of " + std::to_string(tile_size) +
                                      " threads of a tile of " + std::to_string(parent.tile_size_) +
                                      ": the tile size must divide the parent's",
                                  where);
      return thread_group::tile(tile_size);
    case thread_group::kind::coalesced:
      return tiled_partition(parent.as_coalesced(), tile_size, where);
    case thread_group::kind::grid:
      break;
  }
  detail::host::usage_error(errc::invalid_argument,
                            "tiled_partition of a grid_group: only thread blocks, tiles and coalesced groups can be "
                            "partitioned",
                            where);
}

inline thread_group tiled_partition(const thread_block& parent, unsigned tile_size,
                                    std::source_location where = std::source_location::current()) {
  return tiled_partition(thread_group(parent), tile_size, where);
}

template <class Group>
void sync(const Group& g, std::source_location where = std::source_location::current()) {
  g.sync(where);
}
template <class Group>
unsigned long long thread_rank(const Group& g) {
  return g.thread_rank();
}
template <class Group>
unsigned long long group_size(const Group& g) {
  return g.num_threads();
}

}  // namespace cohort
