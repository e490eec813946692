// thread_group: the base class of every group, as in NVIDIA's model, so that a
// thread_block, grid_group, cluster_group, multi_grid_group, thread_block_tile
// or coalesced_group binds to a thread_group& and copies into a thread_group.
// It carries what the group needs beyond the built-in indices (the grid its
// barrier state, a tile its size, a coalesced group its lanes) and dispatches
// sync, thread_rank and num_threads on its kind, over the backend's primitives
// (detail/<backend>/implicit_groups.hpp, cluster.hpp, multi_grid.hpp,
// tile_primitives.hpp, coalesced_primitives.hpp). A group's own class calls
// its primitives directly, so only a call through thread_group pays for the
// switch.
#pragma once

#include "cohort/backend.hpp"
#include "cohort/detail/grid_geometry.hpp"
#include "cohort/memory/atomic_ref.hpp"

#include COHORT_BACKEND_HEADER(implicit_groups.hpp)
#include COHORT_BACKEND_HEADER(cluster.hpp)
#include COHORT_BACKEND_HEADER(multi_grid.hpp)
#include COHORT_BACKEND_HEADER(tile_primitives.hpp)
#include COHORT_BACKEND_HEADER(coalesced_primitives.hpp)

namespace cohort {

// get_type()'s values: NVIDIA's group ids. A tile of up to 32 threads is a
// coalesced group in NVIDIA's taxonomy, a wider one a multi-tile group. An
// unscoped enum so that code comparing get_type() with an unsigned id compiles.
enum group_type : unsigned {
  coalesced_group_id = 1,
  multi_grid_group_id = 2,
  grid_group_id = 3,
  thread_block_id = 4,
  multi_tile_group_id = 5,
  cluster_group_id = 6,
};

class thread_group;
class grid_group;
class coalesced_group;

namespace detail {

enum class group_kind : unsigned char { thread_block, grid, tile, coalesced, cluster, multi_grid };

// A cluster's ranks and size, in 32 bits as NVIDIA's (a cluster holds at most 16 blocks of 1024 threads).
COHORT_DEVICE inline unsigned cluster_thread_rank() {
  return impl::cluster_block_rank() * static_cast<unsigned>(impl::threads_per_block()) + impl::thread_rank_in_block();
}
COHORT_DEVICE inline unsigned cluster_num_threads() {
  return impl::cluster_block_count() * static_cast<unsigned>(impl::threads_per_block());
}

// How shared and backend code reach the state a group carries.
struct group_access {
  COHORT_DEVICE static const impl::grid_state& state(const grid_group& g);
  COHORT_DEVICE static impl::lane_set lanes(const coalesced_group& g);
  COHORT_DEVICE static coalesced_group make_coalesced(impl::lane_set lanes, unsigned meta_rank, unsigned meta_size);
  template <class Tile>
  COHORT_DEVICE static Tile make_tile(unsigned meta_rank, unsigned meta_size) {
    return Tile(meta_rank, meta_size);
  }
  COHORT_DEVICE static thread_group make_tile_group(unsigned size);
  COHORT_DEVICE static group_kind kind(const thread_group& g);
  COHORT_DEVICE static unsigned tile_size(const thread_group& g);
  COHORT_DEVICE static impl::lane_set group_lanes(const thread_group& g);
};

}  // namespace detail

class thread_group {
 public:
  // NVIDIA's: the widest scope a group may span; each group narrows it.
  static constexpr cohort::thread_scope thread_scope = thread_scope_device;

  COHORT_DEVICE unsigned long long thread_rank() const {
    switch (kind_) {
      case detail::group_kind::grid:
        return detail::grid_thread_rank();
      case detail::group_kind::thread_block:
        return detail::impl::thread_rank_in_block();
      case detail::group_kind::tile:
        return detail::impl::tile_rank(data_.tile_size);
      case detail::group_kind::coalesced:
        return detail::impl::lanes_rank(data_.lanes);
      case detail::group_kind::cluster:
        return detail::cluster_thread_rank();
      case detail::group_kind::multi_grid:
        return detail::impl::multi_grid_thread_rank();
    }
    return 0;
  }
  COHORT_DEVICE unsigned long long num_threads() const {
    switch (kind_) {
      case detail::group_kind::grid:
        return detail::grid_num_threads();
      case detail::group_kind::thread_block:
        return detail::impl::threads_per_block();
      case detail::group_kind::tile:
        return detail::impl::tile_count(data_.tile_size);
      case detail::group_kind::coalesced:
        return detail::impl::lanes_count(data_.lanes);
      case detail::group_kind::cluster:
        return detail::cluster_num_threads();
      case detail::group_kind::multi_grid:
        return detail::impl::multi_grid_thread_count();
    }
    return 0;
  }
  COHORT_DEVICE unsigned long long size() const { return num_threads(); }
  COHORT_DEVICE void sync(call_site where = call_site::current()) const {
    switch (kind_) {
      case detail::group_kind::grid:
        detail::impl::grid_barrier_sync(data_.grid, where);
        break;
      case detail::group_kind::thread_block:
        detail::impl::block_barrier_sync(where);
        break;
      case detail::group_kind::tile:
        detail::impl::tile_sync(data_.tile_size, where);
        break;
      case detail::group_kind::coalesced:
        detail::impl::lanes_sync(data_.lanes, where);
        break;
      case detail::group_kind::cluster:
        detail::impl::cluster_sync(where);
        break;
      case detail::group_kind::multi_grid:
        detail::impl::multi_grid_sync(data_.grid, where);
        break;
    }
  }
  COHORT_DEVICE group_type get_type() const {
    switch (kind_) {
      case detail::group_kind::grid:
        return grid_group_id;
      case detail::group_kind::thread_block:
        return thread_block_id;
      case detail::group_kind::tile:
        return data_.tile_size > 32 ? multi_tile_group_id : coalesced_group_id;
      case detail::group_kind::coalesced:
        return coalesced_group_id;
      case detail::group_kind::cluster:
        return cluster_group_id;
      case detail::group_kind::multi_grid:
        return multi_grid_group_id;
    }
    return coalesced_group_id;
  }

 protected:
  union group_data {
    detail::impl::grid_state grid;
    unsigned tile_size;
    detail::impl::lane_set lanes;
  };

  COHORT_DEVICE explicit thread_group(detail::group_kind kind) : kind_(kind), data_{} {}
  COHORT_DEVICE thread_group(detail::group_kind kind, group_data data) : kind_(kind), data_(data) {}

  detail::group_kind kind_;
  group_data data_;

  friend struct detail::group_access;
};

COHORT_DEVICE inline thread_group detail::group_access::make_tile_group(unsigned size) {
  return thread_group(group_kind::tile, {.tile_size = size});
}
COHORT_DEVICE inline detail::group_kind detail::group_access::kind(const thread_group& g) { return g.kind_; }
COHORT_DEVICE inline unsigned detail::group_access::tile_size(const thread_group& g) { return g.data_.tile_size; }
COHORT_DEVICE inline detail::impl::lane_set detail::group_access::group_lanes(const thread_group& g) {
  return g.data_.lanes;
}

}  // namespace cohort
