// coalesced_group on the host backend: a set of lanes of one warp, ranked in
// lane order. coalesced_threads() forms one from the lanes that reach the same
// call site while the rest of the warp is parked elsewhere or gone (DESIGN.md);
// labeled_partition, binary_partition and tiled_partition split a group
// further. Masks are in rank space and 64 bits wide, so that a group of a
// 64-lane warp fits; shfl_xor is beyond NVIDIA.
#pragma once

#include <bit>
#include <cstdint>
#include <source_location>
#include <string>
#include <type_traits>

#include "cohort/detail/host/collective.hpp"
#include "cohort/detail/host/group_ops.hpp"
#include "cohort/detail/host/tiles.hpp"

namespace cohort {

class coalesced_group;

namespace detail::host {
struct coalesced_access {
  static coalesced_group make(std::uint64_t lanes, unsigned meta_rank, unsigned meta_size);
  static std::uint64_t lanes(const coalesced_group& g);
  static member_set members(const coalesced_group& g);
};

// Tile sizes are powers of two from 1 to 1024.
inline void check_tile_size(unsigned size, std::source_location where) {
  if (size == 0 || size > 1024 || (size & (size - 1)) != 0)
    usage_error(errc::invalid_argument,
                "tiled_partition into tiles of " + std::to_string(size) +
                    " threads: a tile size is a power of two from 1 to 1024",
                where);
}
}  // namespace detail::host

class coalesced_group {
 public:
  unsigned num_threads() const { return static_cast<unsigned>(std::popcount(lanes_)); }
  unsigned size() const { return num_threads(); }
  unsigned thread_rank() const {
    return static_cast<unsigned>(std::popcount(lanes_ & detail::host::low_lanes(detail::host::lane_id())));
  }
  // 0 of 1 for coalesced_threads(); set by the partitions.
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }

  void sync(std::source_location where = std::source_location::current()) const {
    detail::host::synchronize(members(), where);
  }

  // The value of rank src_rank % num_threads().
  template <class T>
  T shfl(T var, unsigned src_rank, std::source_location where = std::source_location::current()) const {
    return exchange<T>(detail::host::group_ops::shfl_op<sizeof(T)>, var, src_rank, where);
  }
  template <class T>
  T shfl_up(T var, unsigned delta, std::source_location where = std::source_location::current()) const {
    return exchange<T>(detail::host::group_ops::shfl_up_op<sizeof(T)>, var, delta, where);
  }
  template <class T>
  T shfl_down(T var, unsigned delta, std::source_location where = std::source_location::current()) const {
    return exchange<T>(detail::host::group_ops::shfl_down_op<sizeof(T)>, var, delta, where);
  }
  template <class T>
  T shfl_xor(T var, unsigned lane_mask, std::source_location where = std::source_location::current()) const {
    return exchange<T>(detail::host::group_ops::shfl_xor_op<sizeof(T)>, var, lane_mask, where);
  }

  int any(int predicate, std::source_location where = std::source_location::current()) const {
    return detail::host::collective<int>(call(detail::host::group_ops::any_op, where), predicate != 0);
  }
  int all(int predicate, std::source_location where = std::source_location::current()) const {
    return detail::host::collective<int>(call(detail::host::group_ops::all_op, where), predicate != 0);
  }
  unsigned long long ballot(int predicate, std::source_location where = std::source_location::current()) const {
    return detail::host::collective<unsigned long long>(
        call(detail::host::group_ops::ballot_op<unsigned long long>, where), predicate != 0);
  }
  template <class T>
  unsigned long long match_any(T val, std::source_location where = std::source_location::current()) const {
    return exchange<unsigned long long>(detail::host::group_ops::match_any_op<sizeof(T), unsigned long long>, val, 0,
                                        where);
  }
  template <class T>
  unsigned long long match_all(T val, int& pred, std::source_location where = std::source_location::current()) const {
    pred = exchange<int>(detail::host::group_ops::match_all_op<sizeof(T)>, val, 0, where);
    return pred ? detail::host::low_lanes(num_threads()) : 0;
  }

 private:
  friend struct detail::host::coalesced_access;

  coalesced_group(std::uint64_t lanes, unsigned meta_rank, unsigned meta_size)
      : lanes_(lanes), meta_rank_(meta_rank), meta_size_(meta_size) {}

  detail::host::member_set members() const { return {detail::host::warp_base(), num_threads(), lanes_}; }
  detail::host::collective_call call(const detail::host::collective_op& op, std::source_location where) const {
    return {members(), &op, where, false, false};
  }
  template <class R, class T>
  R exchange(const detail::host::collective_op& op, const T& var, unsigned arg, std::source_location where) const {
    return detail::host::collective<R>(call(op, where), var, arg);
  }

  std::uint64_t lanes_;
  unsigned meta_rank_;
  unsigned meta_size_;
};

namespace detail::host {
inline coalesced_group coalesced_access::make(std::uint64_t lanes, unsigned meta_rank, unsigned meta_size) {
  return coalesced_group(lanes, meta_rank, meta_size);
}
inline std::uint64_t coalesced_access::lanes(const coalesced_group& g) { return g.lanes_; }
inline member_set coalesced_access::members(const coalesced_group& g) { return g.members(); }

// A partition's members learn the lanes of their new group from one collective.
inline coalesced_group partition(const collective_call& call, std::uint64_t arg) {
  const auto part = collective<group_ops::partition_result>(call, arg);
  return coalesced_access::make(part.lanes, part.meta_rank, part.meta_size);
}

// Partitions of a tile need it to lie in one warp, as a coalesced group does.
template <unsigned N>
member_set warp_tile_members(const char* what, std::source_location where) {
  static_assert(N <= 64, "a partition of a tile into coalesced groups needs a tile of at most 64 threads");
  if (N > warp_size())
    usage_error(errc::invalid_argument,
                std::string(what) + " of a tile of " + std::to_string(N) +
                    " threads: its coalesced groups must lie within one warp, and a warp has " +
                    std::to_string(warp_size()) + " threads",
                where);
  return tile_members(N);
}
}  // namespace detail::host

// The lanes of the caller's warp that reach this call together (DESIGN.md).
inline coalesced_group coalesced_threads(std::source_location where = std::source_location::current()) {
  return detail::host::coalesced_access::make(detail::host::converge(where), 0, 1);
}

// Members with equal labels form a group; groups are ranked by their lowest member.
template <class Label>
coalesced_group labeled_partition(const coalesced_group& parent, Label label,
                                  std::source_location where = std::source_location::current()) {
  static_assert(std::is_integral_v<Label>, "labeled_partition takes an integral label");
  return detail::host::partition({detail::host::coalesced_access::members(parent),
                                  &detail::host::group_ops::labeled_partition_op, where, false, false},
                                 static_cast<std::uint64_t>(label));
}

template <class Label, unsigned N, class P>
coalesced_group labeled_partition(const thread_block_tile<N, P>&, Label label,
                                  std::source_location where = std::source_location::current()) {
  static_assert(std::is_integral_v<Label>, "labeled_partition takes an integral label");
  return detail::host::partition({detail::host::warp_tile_members<N>("labeled_partition", where),
                                  &detail::host::group_ops::labeled_partition_op, where, false, false},
                                 static_cast<std::uint64_t>(label));
}

// The members whose predicate matches the caller's: meta rank = the predicate
// and meta size 2, or the whole group (0 of 1) if all predicates agree.
inline coalesced_group binary_partition(const coalesced_group& parent, bool pred,
                                        std::source_location where = std::source_location::current()) {
  return detail::host::partition({detail::host::coalesced_access::members(parent),
                                  &detail::host::group_ops::binary_partition_op, where, false, false},
                                 pred);
}

template <unsigned N, class P>
coalesced_group binary_partition(const thread_block_tile<N, P>&, bool pred,
                                 std::source_location where = std::source_location::current()) {
  return detail::host::partition({detail::host::warp_tile_members<N>("binary_partition", where),
                                  &detail::host::group_ops::binary_partition_op, where, false, false},
                                 pred);
}

// NVIDIA's rule: runs of `tile_size` ranks, the last one short where the
// group's size is not a multiple; a group no larger than tile_size is
// returned as it is.
inline coalesced_group tiled_partition(const coalesced_group& parent, unsigned tile_size,
                                       std::source_location where = std::source_location::current()) {
  detail::host::check_tile_size(tile_size, where);
  const unsigned n = parent.num_threads();
  if (n <= tile_size) return parent;
  const unsigned first = parent.thread_rank() / tile_size * tile_size;
  std::uint64_t lanes = detail::host::coalesced_access::lanes(parent);
  for (unsigned skip = 0; skip < first; ++skip) lanes &= lanes - 1;  // drop the lowest lanes
  std::uint64_t tile = 0;
  for (unsigned k = 0; k < tile_size && lanes != 0; ++k, lanes &= lanes - 1) tile |= lanes & (~lanes + 1);
  return detail::host::coalesced_access::make(tile, parent.thread_rank() / tile_size, (n + tile_size - 1) / tile_size);
}

}  // namespace cohort
