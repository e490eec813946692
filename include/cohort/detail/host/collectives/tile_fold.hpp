// cg::reduce and the scans of a thread_block_tile of 32 or fewer as the loops
// pass knows them (tools/loops-pass/lane_exchange.cpp, docs/loops-engine.md,
// "Warp-level operations"): where the operator holds no state (cohort::plus,
// less, bit_and, ..., a lambda that captures nothing), under clang a function
// of its own, tile_fold, which the pass lowers to the block's lane arrays:
// each member stores its value, and the block function runs `lanes`
// (fold_tile_lanes) once over every tile of the block. A stateless operator
// lets that function's own copy stand for rank 0's, which the fibers use. On
// fibers, and where the pass does not lower the call, it is the rendezvous
// of fold.hpp, the same fold in the same order.
#pragma once

#include <bit>
#include <cstddef>
#include <type_traits>

#include "cohort/collectives/functional.hpp"
#include "cohort/detail/host/collectives/fold.hpp"
#include "cohort/detail/host/tile_primitives.hpp"
#include "cohort/groups/thread_block_tile.hpp"

namespace cohort::detail::host {

template <class Group>
inline constexpr unsigned tile_size_of = 0;  // not a tile
template <unsigned Size, class Parent>
inline constexpr unsigned tile_size_of<thread_block_tile<Size, Parent>> = Size;

// A value whose size is a power of two: the pass lays the lanes' values out
// as many bytes apart as their register takes (a 3-byte struct's takes 4).
template <fold_kind Kind, class Group, class T, class Op>
inline constexpr bool folds_on_lane_arrays = [] {
  constexpr unsigned size = tile_size_of<std::remove_cvref_t<Group>>;
  return Kind != fold_kind::broadcast && size != 0 && size <= 32 && std::is_empty_v<Op> &&
         std::is_default_constructible_v<Op> && exchangeable<T> && std::has_single_bit(sizeof(T));
}();

// fold_combine's results for a group within a block and no atomic or pointer.
template <fold_kind Kind, class T, class Op>
void fold_tile_lanes(const std::byte* in, std::byte* out, unsigned first, unsigned end, unsigned tile) {
  Op op{};
  for (unsigned base = first; base < end; base += tile) {
    const unsigned count = end - base < tile ? end - base : tile;
    const std::byte* values = in + std::size_t{base} * sizeof(T);
    std::byte* results = out + std::size_t{base} * sizeof(T);
    auto result = [&](unsigned r, const T& v) { store_bytes(results + std::size_t{r} * sizeof(T), v); };
    const T total = fold_in_rank_order<Kind, T>(
        count, op, [&](unsigned r) { return from_bytes<T>(values + std::size_t{r} * sizeof(T)); }, result);
    if constexpr (Kind == fold_kind::reduce)
      for (unsigned r = 0; r < count; ++r) result(r, total);
    else if constexpr (Kind == fold_kind::exclusive_scan)
      result(0, cohort::detail::identity_of<Op, T>());
  }
}

// The member's result. `kind` is tile_kind::fold and `lanes` the fold's
// fold_tile_lanes, both for the pass to read; `self` and `params` are the
// fold's collective and its operator, as fold() passes them. A function of T
// alone, so that it is never internal to a file (a lambda's operator would
// make it so, and the optimizer would drop the arguments the pass reads).
// `where` in the sixth place: in a register, one pointer, as the pass reads it.
template <class T>
#if defined(__clang__)
__attribute__((noinline))
#endif
T tile_fold(tile_kind, unsigned size, tile_lanes_function, T value, const collective_op& self, call_site where,
            const void* params) {
  return join_fold<T>(tile_members(size), self, params, 0, &value, where);
}

}  // namespace cohort::detail::host
