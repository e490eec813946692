// thread_block_tile<N, Parent> on the host backend, made by tiled_partition<N>
// from a block or a tile, and this_thread(). A tile is the aligned run of N
// block ranks that holds the caller. Where the block's size is not a multiple
// of N, the last tile holds the threads that exist: num_threads() counts them
// and its collectives involve them alone (docs/warp-level.md). Tiles up to
// the warp size live in one warp; wider tiles have the same collectives
// (beyond NVIDIA) with arguments every member must pass alike.
#pragma once

#include <cstdint>
#include <source_location>
#include <string>
#include <type_traits>

#include "cohort/detail/host/collective.hpp"
#include "cohort/detail/host/group_ops.hpp"
#include "cohort/groups/grid_group.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/groups/lane_mask.hpp"

namespace cohort {

template <unsigned N, class Parent = void>
class thread_block_tile;

namespace detail::host {

inline unsigned tile_base(unsigned n) { return block_rank() & ~(n - 1); }
inline unsigned tile_count(unsigned n) {
  const unsigned left = current_block->thread_count - tile_base(n);
  return left < n ? left : n;
}
inline member_set tile_members(unsigned n) {
  const unsigned base = tile_base(n), count = tile_count(n);
  if (n > warp_size()) return {base, count, 0};
  const unsigned warp = warp_base();
  return {warp, count, low_lanes(count) << (base - warp)};
}

// ballot() and match_*() of a tile of N: bit r for the member of rank r.
template <unsigned N>
using tile_mask_t =
    std::conditional_t<(N <= 32), unsigned, std::conditional_t<(N <= 64), unsigned long long, lane_mask<N>>>;

// Ranks [0, count) set.
template <class Mask>
Mask first_ranks(unsigned count) {
  if constexpr (std::is_integral_v<Mask>) {
    return static_cast<Mask>(low_lanes(count));
  } else {
    Mask m{};
    for (unsigned r = 0; r < count; ++r) m.set(r);
    return m;
  }
}

struct tile_factory {
  template <unsigned N, class Parent>
  static thread_block_tile<N, Parent> make(unsigned meta_rank, unsigned meta_size) {
    return thread_block_tile<N, Parent>(meta_rank, meta_size);
  }
};

}  // namespace detail::host

template <unsigned N>
class thread_block_tile<N, void> {
  static_assert(N >= 1 && N <= 1024 && (N & (N - 1)) == 0, "a tile has a power-of-two size from 1 to 1024");

 public:
  using mask_type = detail::host::tile_mask_t<N>;

  static unsigned thread_rank() { return detail::host::block_rank() & (N - 1); }
  // N, or what exists of the last tile of a block whose size is not a multiple of N.
  static unsigned num_threads() { return detail::host::tile_count(N); }
  static unsigned size() { return num_threads(); }
  unsigned meta_group_rank() const { return meta_rank_; }
  unsigned meta_group_size() const { return meta_size_; }

  void sync(std::source_location where = std::source_location::current()) const {
    detail::host::synchronize(detail::host::tile_members(N), where);
  }

  // The value of rank src_rank mod N (NVIDIA's wrap at the width); its own
  // where a partial last tile has no such member.
  template <class T>
  T shfl(T var, unsigned src_rank, std::source_location where = std::source_location::current()) const {
    return shuffle(detail::host::group_ops::shfl_op<sizeof(T)>, var, detail::host::group_ops::shfl_arg(src_rank, N),
                   where);
  }
  // The value of rank thread_rank() - delta; its own where that is below 0.
  template <class T>
  T shfl_up(T var, unsigned delta, std::source_location where = std::source_location::current()) const {
    return shuffle(detail::host::group_ops::shfl_up_op<sizeof(T)>, var, delta, where);
  }
  // The value of rank thread_rank() + delta; its own where that is past the end.
  template <class T>
  T shfl_down(T var, unsigned delta, std::source_location where = std::source_location::current()) const {
    return shuffle(detail::host::group_ops::shfl_down_op<sizeof(T)>, var, delta, where);
  }
  // The value of rank thread_rank() ^ lane_mask; its own where that is past the end.
  template <class T>
  T shfl_xor(T var, unsigned lane_mask, std::source_location where = std::source_location::current()) const {
    return shuffle(detail::host::group_ops::shfl_xor_op<sizeof(T)>, var, lane_mask, where);
  }

  int any(int predicate, std::source_location where = std::source_location::current()) const {
    return vote<int>(detail::host::group_ops::any_op, predicate, where);
  }
  int all(int predicate, std::source_location where = std::source_location::current()) const {
    return vote<int>(detail::host::group_ops::all_op, predicate, where);
  }
  mask_type ballot(int predicate, std::source_location where = std::source_location::current()) const {
    return vote<mask_type>(detail::host::group_ops::ballot_op<mask_type>, predicate, where);
  }
  // The ranks whose value is bitwise equal to the caller's.
  template <class T>
  mask_type match_any(T val, std::source_location where = std::source_location::current()) const {
    return detail::host::collective<mask_type>(call(detail::host::group_ops::match_any_op<sizeof(T), mask_type>, where),
                                               val, 0);
  }
  // Every rank, with pred = 1, if all values are bitwise equal; else 0, with pred = 0.
  template <class T>
  mask_type match_all(T val, int& pred, std::source_location where = std::source_location::current()) const {
    pred = detail::host::collective<int>(call(detail::host::group_ops::match_all_op<sizeof(T)>, where), val, 0);
    return pred ? detail::host::first_ranks<mask_type>(num_threads()) : mask_type{};
  }

 protected:
  thread_block_tile(unsigned meta_rank, unsigned meta_size) : meta_rank_(meta_rank), meta_size_(meta_size) {}

 private:
  friend struct detail::host::tile_factory;

  static detail::host::collective_call call(const detail::host::collective_op& op, std::source_location where,
                                            bool uniform_arg = false) {
    return {detail::host::tile_members(N), &op, where, false, uniform_arg};
  }
  // A tile wider than a warp needs the same shuffle argument from every member.
  template <class T>
  static T shuffle(const detail::host::collective_op& op, const T& var, std::uint64_t arg, std::source_location where) {
    return detail::host::collective<T>(call(op, where, N > detail::host::warp_size()), var, arg);
  }
  template <class R>
  static R vote(const detail::host::collective_op& op, int predicate, std::source_location where) {
    return detail::host::collective<R>(call(op, where), predicate != 0);
  }

  unsigned meta_rank_;
  unsigned meta_size_;
};

// A tile that records its parent's type; it converts to thread_block_tile<N>.
template <unsigned N, class Parent>
class thread_block_tile : public thread_block_tile<N, void> {
 private:
  friend struct detail::host::tile_factory;
  thread_block_tile(unsigned meta_rank, unsigned meta_size) : thread_block_tile<N, void>(meta_rank, meta_size) {}
};

template <unsigned N>
thread_block_tile<N, thread_block> tiled_partition(const thread_block& parent) {
  const unsigned threads = parent.num_threads();
  return detail::host::tile_factory::make<N, thread_block>(parent.thread_rank() / N, (threads + N - 1) / N);
}

template <unsigned N, unsigned M, class P>
thread_block_tile<N, thread_block_tile<M, P>> tiled_partition(const thread_block_tile<M, P>& parent) {
  static_assert(N <= M, "tiled_partition<N>(tile): the tile size must divide the parent tile's size");
  return detail::host::tile_factory::make<N, thread_block_tile<M, P>>(parent.thread_rank() / N,
                                                                      (parent.num_threads() + N - 1) / N);
}

// NVIDIA's scratch for tiles wider than a warp on sm_75 and older, which
// kernels declare __shared__ and hand to this_thread_block(). The host needs
// no scratch; it keeps the call a collective of the whole block, as it is on
// a GPU, and checks the block fits.
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {};

template <unsigned MaxBlockSize>
thread_block this_thread_block(block_tile_memory<MaxBlockSize>&,
                               std::source_location where = std::source_location::current()) {
  if (thread_block::num_threads() > MaxBlockSize)
    detail::host::usage_error(errc::invalid_argument,
                              "this_thread_block(block_tile_memory<" + std::to_string(MaxBlockSize) +
                                  ">) in a block of " + std::to_string(thread_block::num_threads()) +
                                  " threads: the memory serves blocks of at most " + std::to_string(MaxBlockSize),
                              where);
  thread_block::sync(where);
  return this_thread_block();
}

inline thread_block_tile<1> this_thread() {
  return detail::host::tile_factory::make<1, void>(thread_block::thread_rank(), thread_block::num_threads());
}

}  // namespace cohort
