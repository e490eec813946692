// thread_block_tile<Size, ParentT>, made by tiled_partition<Size> from a block
// or a tile, and this_thread(), written once over the backend's tile
// primitives (detail/<backend>/tile_primitives.hpp: the tile's geometry and
// its lane operations). A tile is the aligned run of Size block ranks that
// holds the caller. Where the block's size is not a multiple of Size, the
// last tile holds the threads that exist: num_threads() counts them at run
// time and the tile's collectives involve them alone (docs/warp-level.md).
// Tiles wider than a warp have the same collectives (beyond NVIDIA).
#pragma once

#include "cohort/backend.hpp"
#include "cohort/groups/lane_mask.hpp"
#include "cohort/groups/thread_block.hpp"
#include "cohort/groups/thread_group.hpp"
#include "cohort/memory/atomic_ref.hpp"

#include COHORT_BACKEND_HEADER(tile_primitives.hpp)

namespace cohort {

template <unsigned Size, class ParentT = void>
class thread_block_tile;

template <unsigned Size>
class thread_block_tile<Size, void> : public thread_group {
  static_assert(Size >= 1 && Size <= 1024 && (Size & (Size - 1)) == 0, "a tile has a power-of-two size from 1 to 1024");
  using ops = detail::impl::tile_ops<Size>;

 public:
  using mask_type = typename ops::mask_type;
  static constexpr cohort::thread_scope thread_scope = thread_scope_block;

  COHORT_DEVICE static unsigned thread_rank() { return detail::impl::tile_rank(Size); }
  // What exists of the tile: Size, but in a block's partial last tile.
  COHORT_DEVICE static unsigned threads_present() { return detail::impl::tile_count(Size); }
#ifdef COHORT_NVIDIA_TILE_SIZES
  // Through CUDA's <cooperative_groups.h> (the compatibility headers define
  // the macro): NVIDIA's answer, Size in every tile, as a constant.
  COHORT_DEVICE static constexpr unsigned num_threads() { return Size; }
  COHORT_DEVICE static constexpr unsigned size() { return Size; }
#else
  // cohort's: threads_present(). Not constexpr (NVIDIA's is): a constexpr
  // function that answered Size when constant-evaluated would also answer
  // Size in `const unsigned n = tile.num_threads();`, which C++ first tries
  // as a constant expression.
  COHORT_DEVICE static unsigned num_threads() { return threads_present(); }
  COHORT_DEVICE static unsigned size() { return threads_present(); }
#endif
  COHORT_DEVICE unsigned meta_group_rank() const { return meta_rank_; }
  COHORT_DEVICE unsigned meta_group_size() const { return meta_size_; }

  COHORT_DEVICE void sync(call_site where = call_site::current()) const { ops::sync(where); }

  // The value of rank src_rank mod Size (NVIDIA's wrap at the width); its own
  // where a partial last tile has no such member.
  template <class Value>
  COHORT_DEVICE Value shfl(Value var, unsigned src_rank, call_site where = call_site::current()) const {
    return ops::shfl(var, src_rank, where);
  }
  // The value of rank thread_rank() - delta; its own where that is below 0.
  template <class Value>
  COHORT_DEVICE Value shfl_up(Value var, unsigned delta, call_site where = call_site::current()) const {
    return ops::shfl_up(var, delta, where);
  }
  // The value of rank thread_rank() + delta; its own where that is past the end.
  template <class Value>
  COHORT_DEVICE Value shfl_down(Value var, unsigned delta, call_site where = call_site::current()) const {
    return ops::shfl_down(var, delta, where);
  }
  // The value of rank thread_rank() ^ lane_mask; its own where that is past the end.
  template <class Value>
  COHORT_DEVICE Value shfl_xor(Value var, unsigned lane_mask, call_site where = call_site::current()) const {
    return ops::shfl_xor(var, lane_mask, where);
  }

  COHORT_DEVICE int any(int predicate, call_site where = call_site::current()) const {
    return ops::any(predicate, where);
  }
  COHORT_DEVICE int all(int predicate, call_site where = call_site::current()) const {
    return ops::all(predicate, where);
  }
  COHORT_DEVICE mask_type ballot(int predicate, call_site where = call_site::current()) const {
    return ops::ballot(predicate, where);
  }
  // The ranks whose value is bitwise equal to the caller's.
  template <class Value>
  COHORT_DEVICE mask_type match_any(Value val, call_site where = call_site::current()) const {
    return ops::match_any(val, where);
  }
  // Every rank, with pred = 1, if all values are bitwise equal; else 0, with pred = 0.
  template <class Value>
  COHORT_DEVICE mask_type match_all(Value val, int& pred, call_site where = call_site::current()) const {
    return ops::match_all(val, pred, where);
  }

 protected:
  COHORT_DEVICE thread_block_tile(unsigned meta_rank, unsigned meta_size)
      : thread_group(detail::group_kind::tile, tile_data()), meta_rank_(meta_rank), meta_size_(meta_size) {}

 private:
  friend struct detail::group_access;

  COHORT_DEVICE static group_data tile_data() { return {.tile_size = Size}; }

  unsigned meta_rank_;
  unsigned meta_size_;
};

// A tile that records its parent's type, from which its place in the parent
// follows (static, as NVIDIA's); it converts to thread_block_tile<Size>.
template <unsigned Size, class ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
 public:
  COHORT_DEVICE static unsigned meta_group_rank() { return ParentT::thread_rank() / Size; }
  COHORT_DEVICE static unsigned meta_group_size() { return (ParentT::num_threads() + Size - 1) / Size; }

 private:
  friend struct detail::group_access;
  COHORT_DEVICE thread_block_tile(unsigned meta_rank, unsigned meta_size)
      : thread_block_tile<Size, void>(meta_rank, meta_size) {}
};

// Partitioning a block into tiles wider than a warp is a collective of the
// block on the CUDA backend (it prepares their barriers); partitioning a tile
// needs nothing.
template <unsigned Size>
COHORT_DEVICE thread_block_tile<Size, thread_block> tiled_partition(const thread_block&) {
  detail::impl::prepare_block_tiles(Size);
  const unsigned threads = thread_block::num_threads();
  return detail::group_access::make_tile<thread_block_tile<Size, thread_block>>(thread_block::thread_rank() / Size,
                                                                                (threads + Size - 1) / Size);
}

template <unsigned Size, unsigned ParentSize, class ParentT>
COHORT_DEVICE thread_block_tile<Size, thread_block_tile<ParentSize, ParentT>> tiled_partition(
    const thread_block_tile<ParentSize, ParentT>& parent) {
  static_assert(Size <= ParentSize, "tiled_partition<Size>(tile): the tile size must divide the parent tile's size");
  return detail::group_access::make_tile<thread_block_tile<Size, thread_block_tile<ParentSize, ParentT>>>(
      parent.thread_rank() / Size, (parent.num_threads() + Size - 1) / Size);
}

// NVIDIA's scratch for tiles wider than a warp on GPUs before sm_80, which
// kernels declare __shared__ and hand to this_thread_block(). cohort needs
// none; the call checks that the block fits.
template <unsigned MaxBlockSize = 1024>
struct block_tile_memory {};

template <unsigned MaxBlockSize>
COHORT_DEVICE thread_block this_thread_block(block_tile_memory<MaxBlockSize>&, call_site where = call_site::current()) {
  detail::impl::block_tile_memory_check(MaxBlockSize, where);
  return this_thread_block();
}

// The calling thread as a tile of one: rank 0 of 1, meta rank 0 of 1 (NVIDIA's).
COHORT_DEVICE inline thread_block_tile<1> this_thread() {
  return detail::group_access::make_tile<thread_block_tile<1>>(0, 1);
}

}  // namespace cohort
